package cuda

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/ptxmm/ptxmm/gpu"
)

// Driver is gpu.Driver on the CUDA driver API, for device 0.
type Driver struct {
	api *api
	w   *worker
	dev int32
	ctx uintptr
	d   gpu.Device
	// running is set when a kernel did not finish in time: it still runs,
	// and the driver's calls that wait for the GPU (freeing memory,
	// unloading a module, copies, releasing the context) would wait for
	// it forever, so they are not made. Only the worker's thread reads
	// and writes it.
	running bool
}

// errStillRunning is the error of a call not made because a kernel that
// did not finish in time still runs.
var errStillRunning = fmt.Errorf("not done: a kernel that did not finish in time still runs on the GPU: %w", gpu.ErrContextLost)

// call runs f on the driver's thread, unless a kernel still runs.
func (drv *Driver) call(f func() error) error {
	var err error
	drv.w.do(func() {
		if drv.running {
			err = errStillRunning
			return
		}
		err = f()
	})
	return err
}

// Open loads the driver (from path, or from the usual places when path
// is empty), initialises it and makes device 0's primary context current
// on the driver's thread. Without a driver or a GPU the error wraps
// gpu.ErrNoDriver.
func Open(path string) (*Driver, error) {
	a, err := open(path)
	if err != nil {
		return nil, err
	}
	drv := &Driver{api: a, w: newWorker()}
	drv.w.do(func() { err = drv.init() })
	if err != nil {
		drv.w.stop()
		return nil, err
	}
	return drv, nil
}

func (drv *Driver) init() error {
	a := drv.api
	if r := a.cuInit(0); r != cudaSuccess {
		return fmt.Errorf("%w: %v", gpu.ErrNoDriver, a.check("cuInit", r))
	}
	var n int32
	if err := a.check("cuDeviceGetCount", a.cuDeviceGetCount(&n)); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: the driver sees no GPU", gpu.ErrNoDriver)
	}
	if err := a.check("cuDeviceGet", a.cuDeviceGet(&drv.dev, 0)); err != nil {
		return err
	}
	if err := a.check("cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain(&drv.ctx, drv.dev)); err != nil {
		return err
	}
	if err := a.check("cuCtxSetCurrent", a.cuCtxSetCurrent(drv.ctx)); err != nil {
		return err
	}
	name := make([]byte, 256)
	if err := a.check("cuDeviceGetName", a.cuDeviceGetName(&name[0], int32(len(name)), drv.dev)); err != nil {
		return err
	}
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	drv.d.Name = string(name)
	var v int32
	if err := a.check("cuDriverGetVersion", a.cuDriverGetVersion(&v)); err != nil {
		return err
	}
	drv.d.Driver = int(v)
	for _, at := range []struct {
		attr int32
		to   *int
	}{
		{attrComputeMajor, &drv.d.Major}, {attrComputeMinor, &drv.d.Minor},
		{attrMultiprocessors, &drv.d.SMs}, {attrMaxSharedOptin, &drv.d.MaxSharedPerBlock},
	} {
		if err := a.check("cuDeviceGetAttribute", a.cuDeviceGetAttribute(&v, at.attr, drv.dev)); err != nil {
			return err
		}
		*at.to = int(v)
	}
	if err := a.check("cuDeviceGetAttribute", a.cuDeviceGetAttribute(&v, attrClusterLaunch, drv.dev)); err == nil {
		drv.d.Clusters = v != 0
	}
	return nil
}

// Device describes device 0.
func (drv *Driver) Device() gpu.Device { return drv.d }

// Close releases the primary context.
func (drv *Driver) Close() error {
	err := drv.call(func() error {
		return drv.api.check("cuDevicePrimaryCtxRelease", drv.api.cuDevicePrimaryCtxRelease(drv.dev))
	})
	drv.w.stop()
	return err
}

// Alloc allocates device memory.
func (drv *Driver) Alloc(n int) (gpu.Ptr, error) {
	var p uint64
	err := drv.call(func() error { return drv.api.check("cuMemAlloc", drv.api.cuMemAlloc(&p, uintptr(n))) })
	return gpu.Ptr(p), err
}

// Free frees device memory.
func (drv *Driver) Free(p gpu.Ptr) error {
	err := drv.call(func() error { return drv.api.check("cuMemFree", drv.api.cuMemFree(uint64(p))) })
	return err
}

// Write copies src to device memory at dst.
func (drv *Driver) Write(dst gpu.Ptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	err := drv.call(func() error {
		return drv.api.check("cuMemcpyHtoD", drv.api.cuMemcpyHtoD(uint64(dst), unsafe.Pointer(&src[0]), uintptr(len(src))))
	})
	return err
}

// Read copies device memory at src to dst.
func (drv *Driver) Read(dst []byte, src gpu.Ptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := drv.call(func() error {
		return drv.api.check("cuMemcpyDtoH", drv.api.cuMemcpyDtoH(unsafe.Pointer(&dst[0]), uint64(src), uintptr(len(dst))))
	})
	return err
}

// Zero clears n bytes of device memory.
func (drv *Driver) Zero(dst gpu.Ptr, n int) error {
	err := drv.call(func() error { return drv.api.check("cuMemsetD8", drv.api.cuMemsetD8(uint64(dst), 0, uintptr(n))) })
	return err
}

// Load JIT-compiles ptx and finds its entry point.
func (drv *Driver) Load(ptx, entry string) (gpu.Kernel, error) {
	k := &kernel{drv: drv}
	err := drv.call(func() error { return k.load(ptx, entry) })
	if err != nil {
		return nil, err
	}
	return k, nil
}

// Cubin links ptx for the device with the driver's linker and returns the
// machine code.
func (drv *Driver) Cubin(ptx string) ([]byte, error) {
	var out []byte
	err := drv.call(func() error {
		var lerr error
		out, lerr = drv.link(ptx)
		return lerr
	})
	return out, err
}

func (drv *Driver) link(ptx string) ([]byte, error) {
	a := drv.api
	logBuf := make([]byte, 1<<14)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
	vals := []uintptr{uintptr(unsafe.Pointer(&logBuf[0])), uintptr(len(logBuf) - 1)}
	var state uintptr
	if err := a.check("cuLinkCreate", a.cuLinkCreate(uint32(len(opts)), &opts[0], &vals[0], &state)); err != nil {
		return nil, err
	}
	defer a.cuLinkDestroy(state)
	src := cString(ptx)
	name := cString("litmus.ptx")
	if r := a.cuLinkAddData(state, jitInputPTX, &src[0], uintptr(len(src)), &name[0], 0, nil, nil); r != cudaSuccess {
		return nil, fmt.Errorf("%v\n%s", a.check("cuLinkAddData", r), cLog(logBuf))
	}
	var cubin unsafe.Pointer
	var size uintptr
	if r := a.cuLinkComplete(state, &cubin, &size); r != cudaSuccess {
		return nil, fmt.Errorf("%v\n%s", a.check("cuLinkComplete", r), cLog(logBuf))
	}
	return bytes.Clone(unsafe.Slice((*byte)(cubin), size)), nil
}

// cLog is the text of a JIT log buffer.
func cLog(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// kernel is a loaded module and its entry point.
type kernel struct {
	drv *Driver
	mod uintptr
	fn  uintptr
	// shared is the dynamic shared memory the function is allowed, raised
	// when a launch needs more than the default 48 KiB.
	shared int
}

func (k *kernel) load(ptx, entry string) error {
	a := k.drv.api
	logBuf := make([]byte, 1<<14)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
	vals := []uintptr{uintptr(unsafe.Pointer(&logBuf[0])), uintptr(len(logBuf) - 1)}
	src := cString(ptx)
	if r := a.cuModuleLoadDataEx(&k.mod, &src[0], uint32(len(opts)), &opts[0], &vals[0]); r != cudaSuccess {
		if jitError(r) {
			return fmt.Errorf("the driver's PTX compiler rejected the module: %w\n%s", a.check("cuModuleLoadDataEx", r), cLog(logBuf))
		}
		return a.check("cuModuleLoadDataEx", r)
	}
	name := cString(entry)
	if err := a.check("cuModuleGetFunction", a.cuModuleGetFunction(&k.fn, k.mod, &name[0])); err != nil {
		a.cuModuleUnload(k.mod)
		return err
	}
	k.shared = 48 << 10
	return nil
}

// Close unloads the module.
func (k *kernel) Close() error {
	err := k.drv.call(func() error { return k.drv.api.check("cuModuleUnload", k.drv.api.cuModuleUnload(k.mod)) })
	return err
}

// config builds the launch configuration of l (attrs must outlive it).
func config(l gpu.Launch, attrs *[1]launchAttribute) launchConfig {
	cfg := launchConfig{gridX: uint32(l.Grid), gridY: 1, gridZ: 1, blockX: uint32(l.Block), blockY: 1, blockZ: 1, shared: uint32(l.Shared)}
	if l.Cluster > 1 {
		attrs[0].id = launchAttrClusterDimision
		attrs[0].value[0] = uint64(l.Cluster) | 1<<32 // x, then y = 1
		attrs[0].value[1] = 1                         // z = 1
		cfg.attrs, cfg.numAttrs = &attrs[0], 1
	}
	return cfg
}

// allowShared raises the function's dynamic shared memory limit.
func (k *kernel) allowShared(n int) error {
	if n <= k.shared {
		return nil
	}
	a := k.drv.api
	if err := a.check("cuFuncSetAttribute", a.cuFuncSetAttribute(k.fn, funcMaxDynamicShared, int32(n))); err != nil {
		return err
	}
	k.shared = n
	return nil
}

// Launch runs the kernel and polls the stream until it finishes or the
// launch's timeout passes.
func (k *kernel) Launch(l gpu.Launch) error {
	err := k.drv.call(func() error { return k.launch(l) })
	return err
}

func (k *kernel) launch(l gpu.Launch) error {
	a := k.drv.api
	if err := k.allowShared(l.Shared); err != nil {
		return err
	}
	var attrs [1]launchAttribute
	cfg := config(l, &attrs)
	params := make([]byte, max(len(l.Params), 8))
	copy(params, l.Params)
	args := []unsafe.Pointer{unsafe.Pointer(&params[0])}
	if err := a.check("cuLaunchKernelEx", a.cuLaunchKernelEx(&cfg, k.fn, &args[0], nil)); err != nil {
		return err
	}
	deadline := time.Now().Add(l.Timeout)
	for {
		switch r := a.cuStreamQuery(0); r {
		case cudaSuccess:
			return nil
		case cudaNotReady:
			if l.Timeout > 0 && time.Now().After(deadline) {
				k.drv.running = true
				return fmt.Errorf("%w (%v)", gpu.ErrTimeout, l.Timeout)
			}
			time.Sleep(20 * time.Microsecond)
		default:
			return a.check("the kernel", r)
		}
	}
}

// MaxActiveBlocks asks the driver's occupancy calculator.
func (k *kernel) MaxActiveBlocks(block, shared, cluster int) (int, error) {
	var n int
	var err error
	k.drv.w.do(func() {
		a := k.drv.api
		if err = k.allowShared(shared); err != nil {
			return
		}
		var v int32
		if cluster <= 1 {
			err = a.check("cuOccupancyMaxActiveBlocksPerMultiprocessor", a.cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, k.fn, int32(block), uintptr(shared)))
			n = int(v) * k.drv.d.SMs
			return
		}
		var attrs [1]launchAttribute
		cfg := config(gpu.Launch{Grid: cluster, Block: block, Cluster: cluster, Shared: shared}, &attrs)
		err = a.check("cuOccupancyMaxActiveClusters", a.cuOccupancyMaxActiveClusters(&v, k.fn, &cfg))
		n = int(v) * cluster
	})
	return n, err
}
