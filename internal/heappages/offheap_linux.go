package heappages

import (
	"os"
	"syscall"
	"unsafe"
)

// OffHeap returns size bytes of zeroed memory outside the Go heap, which
// the collector neither scans nor frees, and which stays mapped for the
// life of the process: for data made once per process and never freed (an
// image built into the program, internal/snapshot). From an eighth of a
// huge page (256 KiB) on, it lies in huge pages where the kernel grants
// them and GODEBUG holds no disablethp=1: touching 1 MiB of 4 KiB pages
// costs 256 page faults, about 5 ms of CPU on the machine of
// docs/benchmarks.md (twenty-third round), one huge page about 1 ms. The
// memory is readable and writable until Seal.
func OffHeap(size int) ([]byte, error) {
	if size <= 0 {
		return nil, nil
	}
	n := int(alignUp(uintptr(size), uintptr(os.Getpagesize())))
	huge := n >= HugePage/8 && !disabled(os.Getenv("GODEBUG"))
	span := n
	if huge {
		// Room to start at a huge page's boundary; what lies outside
		// the pages used is address space only.
		span = int(alignUp(uintptr(n), HugePage)) + HugePage
	}
	mem, err := syscall.Mmap(-1, 0, span, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	if !huge {
		return mem[:size:n], nil
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	start := int(alignUp(base, HugePage) - base)
	mem = mem[start : start+int(alignUp(uintptr(n), HugePage))]
	// A kernel without transparent huge pages refuses the request: the
	// memory then comes in 4 KiB pages, as it would have.
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
	return mem[:size:len(mem)], nil
}

// Seal makes memory OffHeap returned read-only: a later write faults
// (a panic under debug.SetPanicOnFault, a crash otherwise) instead of
// changing it.
func Seal(mem []byte) error {
	if cap(mem) == 0 {
		return nil
	}
	return syscall.Mprotect(mem[:cap(mem)], syscall.PROT_READ)
}

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14), which the syscall
// package does not name.
const madvPopulateRead = 22

// Populate maps the pages holding b that reading b would fault in, in
// one call: for bytes built into the program (the model's image, 1.6 MB
// of the binary's read-only data), a check of MP took about 50 page
// faults fewer (docs/benchmarks.md, twenty-third round). A kernel older
// than 5.14 refuses the request, and the reads then fault as they would
// have.
func Populate(b []byte) {
	if len(b) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := alignDown(base, uintptr(os.Getpagesize()))
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, base+uintptr(len(b))-start, madvPopulateRead)
}
