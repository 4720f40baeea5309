// Package cuda implements gpu.Driver with the CUDA driver API of
// libcuda.so.1, bound when the program runs with
// github.com/ebitengine/purego: no cgo and no CUDA toolkit, so one static
// ptxmm binary runs on any machine that has the NVIDIA driver, and every
// other command works on machines that do not.
//
// A CUDA context is current per operating-system thread, so every call
// goes through one goroutine locked to its thread (worker.go).
package cuda
