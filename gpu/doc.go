// Package gpu is what ptxmm run needs from a GPU, behind a small
// interface: a device to describe, PTX modules to load (the driver
// JIT-compiles them), device memory, and launches of one kernel with a
// grid, a block, a cluster shape and dynamic shared memory. Package
// gpu/cuda implements it with the CUDA driver API, bound at run time, and
// package gpu/fake implements it in memory for tests without a GPU. The
// litmus harness itself (gpu/ptxgen, gpu/harness) sees only this
// interface.
package gpu
