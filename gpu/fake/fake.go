// Package fake is a gpu.Driver without a GPU, for tests: device memory is
// host memory, and a launch calls a function the test provides, which
// plays the kernel by reading and writing that memory. The fake checks
// what the CUDA driver would refuse (block sizes, cluster shapes, shared
// memory) and records every module and launch, so that tests can check
// placement and parameters.
package fake

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ptxmm/ptxmm/gpu"
)

// Kernel plays a launched kernel: given the PTX of its module, it reads
// the launch's parameters and reads and writes device memory through mem.
type Kernel func(ptx string, l gpu.Launch, mem *Memory) error

// Driver is the fake driver.
type Driver struct {
	// Dev is the device the fake pretends to be.
	Dev gpu.Device
	// Run plays every launch; nil leaves memory as it is.
	Run Kernel
	// Reject, when set, is the compiler's verdict on a module: a non-nil
	// error refuses it, as the JIT compiler refuses bad PTX.
	Reject func(ptx string) error
	// BlocksPerSM is what the occupancy calculator says (default 8).
	BlocksPerSM int
	// Compile, when set, stands for the driver's linker: it makes the
	// "cubin" of a module (nil: the fake has no machine code to give).
	Compile func(ptx string) ([]byte, error)

	mu       sync.Mutex
	mem      Memory
	modules  []string
	launches []gpu.Launch
	closed   bool
}

// H100 is a device like NVIDIA's H100 for the fake.
func H100() gpu.Device {
	return gpu.Device{Name: "Fake H100", Major: 9, Minor: 0, SMs: 132, Driver: 13000, Clusters: true, MaxSharedPerBlock: 227 << 10}
}

// New returns a fake driver for dev whose launches run k.
func New(dev gpu.Device, k Kernel) *Driver {
	return &Driver{Dev: dev, Run: k, mem: Memory{blocks: map[gpu.Ptr][]byte{}, next: 1 << 32}}
}

// Device describes the fake device.
func (d *Driver) Device() gpu.Device { return d.Dev }

// Close marks the driver closed.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}

// Closed reports whether Close was called.
func (d *Driver) Closed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}

// Modules returns the PTX of every module loaded, in order.
func (d *Driver) Modules() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.modules...)
}

// Launches returns every launch, in order.
func (d *Driver) Launches() []gpu.Launch {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]gpu.Launch(nil), d.launches...)
}

// Load records the module; Reject decides whether it compiles.
func (d *Driver) Load(ptx, entry string) (gpu.Kernel, error) {
	if d.Reject != nil {
		if err := d.Reject(ptx); err != nil {
			return nil, err
		}
	}
	if !strings.Contains(ptx, ".entry "+entry+"(") {
		return nil, fmt.Errorf("cuModuleGetFunction: CUDA_ERROR_NOT_FOUND: the module has no entry %s", entry)
	}
	d.mu.Lock()
	d.modules = append(d.modules, ptx)
	d.mu.Unlock()
	return &kernel{d: d, ptx: ptx}, nil
}

// Cubin calls Compile; without it the fake has no machine code to give.
func (d *Driver) Cubin(ptx string) ([]byte, error) {
	if d.Compile != nil {
		return d.Compile(ptx)
	}
	return nil, fmt.Errorf("the fake driver compiles no machine code")
}

// Alloc allocates zeroed host memory standing for device memory.
func (d *Driver) Alloc(n int) (gpu.Ptr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.mem.alloc(n), nil
}

// Free frees an allocation.
func (d *Driver) Free(p gpu.Ptr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.mem.blocks[p]; !ok {
		return fmt.Errorf("cuMemFree: CUDA_ERROR_INVALID_VALUE: %#x was not allocated", p)
	}
	delete(d.mem.blocks, p)
	return nil
}

// Write copies src into device memory.
func (d *Driver) Write(dst gpu.Ptr, src []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.mem.Bytes(dst, len(src))
	if err == nil {
		copy(b, src)
	}
	return err
}

// Read copies device memory into dst.
func (d *Driver) Read(dst []byte, src gpu.Ptr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.mem.Bytes(src, len(dst))
	if err == nil {
		copy(dst, b)
	}
	return err
}

// Zero clears device memory.
func (d *Driver) Zero(dst gpu.Ptr, n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.mem.Bytes(dst, n)
	if err == nil {
		clear(b)
	}
	return err
}

// kernel is a loaded fake module.
type kernel struct {
	d   *Driver
	ptx string
}

func (k *kernel) Close() error { return nil }

// MaxActiveBlocks is BlocksPerSM per multiprocessor, whole clusters only.
func (k *kernel) MaxActiveBlocks(block, shared, cluster int) (int, error) {
	per := k.d.BlocksPerSM
	if per == 0 {
		per = 8
	}
	n := per * k.d.Dev.SMs
	if cluster > 1 {
		n -= n % cluster
	}
	return n, nil
}

// Launch checks the launch as the driver would and runs the kernel.
func (k *kernel) Launch(l gpu.Launch) error {
	d := k.d
	switch {
	case l.Block <= 0 || l.Block > 1024:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE: %d threads per block (1 to 1024)", l.Block)
	case l.Grid <= 0:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE: empty grid")
	case l.Cluster > 1 && !d.Dev.Clusters:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_NOT_SUPPORTED: the device has no clusters")
	case l.Cluster > 8:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_CLUSTER_SIZE: clusters of %d CTAs are not portable", l.Cluster)
	case l.Cluster > 1 && l.Grid%l.Cluster != 0:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_INVALID_CLUSTER_SIZE: a grid of %d CTAs is not a whole number of clusters of %d", l.Grid, l.Cluster)
	case l.Shared > d.Dev.MaxSharedPerBlock:
		return fmt.Errorf("cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE: %d bytes of shared memory per block (at most %d)", l.Shared, d.Dev.MaxSharedPerBlock)
	}
	d.mu.Lock()
	d.launches = append(d.launches, l)
	d.mu.Unlock()
	if d.Run == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.Run(k.ptx, l, &d.mem)
}

// Memory is the fake's device memory.
type Memory struct {
	blocks map[gpu.Ptr][]byte
	next   gpu.Ptr
}

func (m *Memory) alloc(n int) gpu.Ptr {
	p := m.next
	m.blocks[p] = make([]byte, n)
	m.next += gpu.Ptr((n + 4095) &^ 4095)
	return p
}

// Bytes returns n bytes of device memory at p, which must lie inside one
// allocation.
func (m *Memory) Bytes(p gpu.Ptr, n int) ([]byte, error) {
	bases := make([]gpu.Ptr, 0, len(m.blocks))
	for b := range m.blocks {
		bases = append(bases, b)
	}
	sort.Slice(bases, func(i, j int) bool { return bases[i] < bases[j] })
	i := sort.Search(len(bases), func(i int) bool { return bases[i] > p }) - 1
	if i >= 0 {
		b := m.blocks[bases[i]]
		off := int(p - bases[i])
		if off+n <= len(b) {
			return b[off : off+n], nil
		}
	}
	return nil, fmt.Errorf("CUDA_ERROR_ILLEGAL_ADDRESS: %d bytes at %#x are outside every allocation", n, p)
}
