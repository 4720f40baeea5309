package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/ptxmm/ptxmm/gpu"
)

// result is a CUresult.
type result int32

const (
	cudaSuccess  result = 0
	cudaNotReady result = 600
)

// sticky reports whether an error leaves the context unusable: the faults
// of a kernel (CUDA_ERROR_ILLEGAL_ADDRESS 700 to CUDA_ERROR_LAUNCH_FAILED
// 719, and 720 and on for cooperative and cluster faults).
func sticky(r result) bool { return r >= 700 && r < 800 }

// jitError reports whether an error is the PTX compiler's: invalid PTX,
// an unsupported PTX version, no code for the GPU.
func jitError(r result) bool { return r == 218 || r == 222 || r == 209 || r == 221 }

// The constants of cuda.h the binding uses.
const (
	attrMaxThreadsPerBlock    = 1
	attrMultiprocessors       = 16
	attrComputeMajor          = 75
	attrComputeMinor          = 76
	attrMaxSharedOptin        = 97
	attrClusterLaunch         = 120
	funcMaxDynamicShared      = 8
	jitInfoLogBuffer          = 3
	jitInfoLogBufferSize      = 4
	jitErrorLogBuffer         = 5
	jitErrorLogBufferSize     = 6
	jitInputPTX               = 1
	launchAttrClusterDimision = 4
)

// api holds the driver functions, bound from libcuda.so.1.
type api struct {
	cuInit                                      func(flags uint32) result
	cuDriverGetVersion                          func(v *int32) result
	cuDeviceGetCount                            func(n *int32) result
	cuDeviceGet                                 func(dev *int32, ordinal int32) result
	cuDeviceGetName                             func(name *byte, n int32, dev int32) result
	cuDeviceGetAttribute                        func(v *int32, attr int32, dev int32) result
	cuDevicePrimaryCtxRetain                    func(ctx *uintptr, dev int32) result
	cuDevicePrimaryCtxRelease                   func(dev int32) result
	cuCtxSetCurrent                             func(ctx uintptr) result
	cuModuleLoadDataEx                          func(mod *uintptr, image *byte, n uint32, opts *int32, vals *uintptr) result
	cuModuleGetFunction                         func(fn *uintptr, mod uintptr, name *byte) result
	cuModuleUnload                              func(mod uintptr) result
	cuFuncSetAttribute                          func(fn uintptr, attr int32, v int32) result
	cuMemAlloc                                  func(p *uint64, bytes uintptr) result
	cuMemFree                                   func(p uint64) result
	cuMemcpyHtoD                                func(dst uint64, src unsafe.Pointer, n uintptr) result
	cuMemcpyDtoH                                func(dst unsafe.Pointer, src uint64, n uintptr) result
	cuMemsetD8                                  func(dst uint64, v uint8, n uintptr) result
	cuLaunchKernelEx                            func(cfg *launchConfig, fn uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) result
	cuStreamQuery                               func(stream uintptr) result
	cuCtxSynchronize                            func() result
	cuOccupancyMaxActiveBlocksPerMultiprocessor func(n *int32, fn uintptr, block int32, shared uintptr) result
	cuOccupancyMaxActiveClusters                func(n *int32, fn uintptr, cfg *launchConfig) result
	cuLinkCreate                                func(n uint32, opts *int32, vals *uintptr, state *uintptr) result
	cuLinkAddData                               func(state uintptr, kind int32, data *byte, size uintptr, name *byte, n uint32, opts *int32, vals *uintptr) result
	cuLinkComplete                              func(state uintptr, cubin *unsafe.Pointer, size *uintptr) result
	cuLinkDestroy                               func(state uintptr) result
	cuGetErrorName                              func(r result, s **byte) result
	cuGetErrorString                            func(r result, s **byte) result
}

// launchAttribute is CUlaunchAttribute: an id, padding, and a 64-byte
// value of which a cluster dimension uses the first 12.
type launchAttribute struct {
	id    uint32
	_     uint32
	value [8]uint64
}

// launchConfig is CUlaunchConfig.
type launchConfig struct {
	gridX, gridY, gridZ    uint32
	blockX, blockY, blockZ uint32
	shared                 uint32
	stream                 uintptr
	attrs                  *launchAttribute
	numAttrs               uint32
}

// libraryPaths lists where libcuda.so.1 is looked for: $PTXMM_LIBCUDA,
// then the loader's search path, then the usual driver folders.
func libraryPaths() []string {
	var paths []string
	if p := os.Getenv("PTXMM_LIBCUDA"); p != "" {
		paths = append(paths, p)
	}
	paths = append(paths, "libcuda.so.1")
	for _, dir := range []string{"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/cuda/lib64", "/usr/lib/wsl/lib", "/usr/lib/aarch64-linux-gnu"} {
		paths = append(paths, filepath.Join(dir, "libcuda.so.1"))
	}
	return paths
}

// open loads libcuda.so.1 from the first path that has it, or from path
// when it is not empty.
func open(path string) (*api, error) {
	paths := libraryPaths()
	if path != "" {
		paths = []string{path}
	}
	for _, p := range paths {
		h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			continue
		}
		a := &api{}
		if err := a.bind(h); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("%w: cannot load %s; install the NVIDIA driver, or name its libcuda.so.1 with -driver or $PTXMM_LIBCUDA", gpu.ErrNoDriver, strings.Join(paths, ", "))
}

// bind looks up every function; a missing one (a driver older than CUDA
// 12.0) is an error.
func (a *api) bind(h uintptr) (err error) {
	syms := []struct {
		fn   any
		name string
	}{
		{&a.cuInit, "cuInit"},
		{&a.cuDriverGetVersion, "cuDriverGetVersion"},
		{&a.cuDeviceGetCount, "cuDeviceGetCount"},
		{&a.cuDeviceGet, "cuDeviceGet"},
		{&a.cuDeviceGetName, "cuDeviceGetName"},
		{&a.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
		{&a.cuCtxSetCurrent, "cuCtxSetCurrent"},
		{&a.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&a.cuModuleGetFunction, "cuModuleGetFunction"},
		{&a.cuModuleUnload, "cuModuleUnload"},
		{&a.cuFuncSetAttribute, "cuFuncSetAttribute"},
		{&a.cuMemAlloc, "cuMemAlloc_v2"},
		{&a.cuMemFree, "cuMemFree_v2"},
		{&a.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&a.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
		{&a.cuMemsetD8, "cuMemsetD8_v2"},
		{&a.cuLaunchKernelEx, "cuLaunchKernelEx"},
		{&a.cuStreamQuery, "cuStreamQuery"},
		{&a.cuCtxSynchronize, "cuCtxSynchronize"},
		{&a.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"},
		{&a.cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters"},
		{&a.cuLinkCreate, "cuLinkCreate_v2"},
		{&a.cuLinkAddData, "cuLinkAddData_v2"},
		{&a.cuLinkComplete, "cuLinkComplete"},
		{&a.cuLinkDestroy, "cuLinkDestroy"},
		{&a.cuGetErrorName, "cuGetErrorName"},
		{&a.cuGetErrorString, "cuGetErrorString"},
	}
	for _, s := range syms {
		addr, err := purego.Dlsym(h, s.name)
		if err != nil {
			return fmt.Errorf("the driver has no %s (CUDA 12.0 or later is needed): %w", s.name, err)
		}
		purego.RegisterFunc(s.fn, addr)
	}
	return nil
}

// check turns a CUresult into an error naming the call.
func (a *api) check(call string, r result) error {
	if r == cudaSuccess {
		return nil
	}
	name, text := fmt.Sprintf("CUDA error %d", r), ""
	var s *byte
	if a.cuGetErrorName(r, &s) == cudaSuccess && s != nil {
		name = goString(s)
	}
	if a.cuGetErrorString(r, &s) == cudaSuccess && s != nil {
		text = ": " + goString(s)
	}
	if sticky(r) {
		return fmt.Errorf("%s: %s%s: %w", call, name, text, gpu.ErrContextLost)
	}
	return fmt.Errorf("%s: %s%s", call, name, text)
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	var b []byte
	for q := unsafe.Pointer(p); *(*byte)(q) != 0; q = unsafe.Add(q, 1) {
		b = append(b, *(*byte)(q))
	}
	return string(b)
}

// cString returns s as a NUL-terminated byte slice.
func cString(s string) []byte { return append([]byte(s), 0) }
