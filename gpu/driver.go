package gpu

import (
	"errors"
	"fmt"
	"time"
)

// Ptr is an address in device memory.
type Ptr uint64

// Device describes the GPU a driver runs on.
type Device struct {
	// Name is the device's name ("NVIDIA H100 80GB HBM3").
	Name string
	// Major and Minor are the compute capability (9 and 0 for sm_90).
	Major, Minor int
	// SMs is the number of multiprocessors.
	SMs int
	// Driver is the CUDA version the driver supports, as
	// cuDriverGetVersion reports it (13000 for 13.0).
	Driver int
	// Clusters reports whether the device launches thread-block clusters.
	Clusters bool
	// MaxSharedPerBlock is the most dynamic shared memory a block may ask
	// for, in bytes.
	MaxSharedPerBlock int
}

// Arch is the device's architecture as PTX names it: "sm_90".
func (d Device) Arch() string { return fmt.Sprintf("sm_%d%d", d.Major, d.Minor) }

// DriverVersion prints the driver's CUDA version: "13.0".
func (d Device) DriverVersion() string {
	return fmt.Sprintf("%d.%d", d.Driver/1000, d.Driver%1000/10)
}

// Launch is one launch of a kernel. The grid is one-dimensional; a
// cluster launch groups Cluster consecutive CTAs (1 launches without
// clusters).
type Launch struct {
	Grid, Block, Cluster int
	// Shared is the dynamic shared memory of each CTA, in bytes.
	Shared int
	// Params is the kernel's parameter block, passed by value (the kernel
	// takes one .param of this many bytes).
	Params []byte
	// Timeout bounds how long the launch may run; a kernel still running
	// then is reported (ErrTimeout), since it may never finish.
	Timeout time.Duration
}

// Kernel is the entry point of a loaded module.
type Kernel interface {
	// Launch runs the kernel once and waits for it to finish.
	Launch(l Launch) error
	// MaxActiveBlocks is how many CTAs of block threads and shared bytes
	// of dynamic shared memory can be resident on the whole device at
	// once (with clusters of cluster CTAs): a grid no larger runs all its
	// CTAs concurrently, which the harness's spin barrier needs.
	MaxActiveBlocks(block, shared, cluster int) (int, error)
	// Close unloads the module.
	Close() error
}

// Driver is the CUDA driver, or a fake of it.
type Driver interface {
	// Device describes the device the driver runs on.
	Device() Device
	// Load JIT-compiles a PTX module and returns its entry point called
	// entry; the error of a module the compiler rejects carries its log.
	Load(ptx, entry string) (Kernel, error)
	// Cubin compiles a PTX module through the driver's linker to the
	// device's machine code (a cubin), for the -sass check.
	Cubin(ptx string) ([]byte, error)
	// Alloc allocates device memory, Free frees it.
	Alloc(bytes int) (Ptr, error)
	Free(p Ptr) error
	// Write copies host bytes to device memory, Read device memory to
	// host bytes, Zero sets bytes of device memory to 0.
	Write(dst Ptr, src []byte) error
	Read(dst []byte, src Ptr) error
	Zero(dst Ptr, bytes int) error
	// Close releases the device.
	Close() error
}

// ErrTimeout is the error of a launch that did not finish in time.
var ErrTimeout = fmt.Errorf("the kernel did not finish in time: %w", ErrContextLost)

// ErrContextLost is wrapped by the errors after which the device cannot
// be used by this process any more: a kernel that faulted (an illegal
// address, a launch failure), or one still running past its time.
var ErrContextLost = errors.New("the CUDA context is lost")

// ErrNoDriver is wrapped by the error of a driver that cannot be opened:
// no NVIDIA driver on the machine, or no GPU.
var ErrNoDriver = errors.New("no CUDA driver")
