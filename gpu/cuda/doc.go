// Package cuda implements gpu.Driver with the CUDA driver API of
// libcuda.so.1, bound when the program runs with
// github.com/ebitengine/purego: no cgo and no CUDA toolkit, so one ptxmm
// binary runs on any machine that has the NVIDIA driver, and every other
// command works on machines that do not. purego makes the binary
// dynamically linked against libc (dlopen needs it), which costs about a
// millisecond at each start; the one-binary install was kept over a second
// binary for `ptxmm run` (docs/benchmarks.md, "Sixth round").
//
// A CUDA context is current per operating-system thread, so every call
// goes through one goroutine locked to its thread (worker.go).
package cuda
