// Package heappages lets a short run of ptxmm take its heap's fresh memory
// in huge pages (2 MiB) from the kernel rather than in 4 KiB ones.
//
// A run of small tests touches each byte it allocates for the first time:
// every 4 KiB page of the Go heap costs a page fault, and on a virtual
// machine a fault costs tens of microseconds (about 17 us on the machine of
// docs/benchmarks.md's seventeenth round, where 2,800 of the 243-test
// suite's 3,300 faults were the heap's, more than half of its CPU). Linux
// backs memory with transparent huge pages when it is configured to
// ("always") or when the program asks for them (madvise(MADV_HUGEPAGE),
// "madvise", the default of most distributions); the Go runtime does not
// ask since Go 1.21.1 (https://go.dev/issue/63334), and the mappings it
// makes as its heap grows would not keep the request anyway (each is a new
// mapping). Reserve makes the heap grow by a stretch of address space that
// nothing has touched yet, asks for huge pages on it, and hands it back to
// the runtime's allocator, which then places the run's objects there.
// OffHeap gives memory outside the heap, in huge pages, for data made once
// per process (the embedded model's image).
package heappages

// Pin holds the padding Reserve placed below the stretch it prepared, so
// that the allocator does not put small objects on the 4 KiB pages of the
// stretch's first, partly used huge page. The padding is never touched: it
// takes address space, not memory. Keep a Pin alive (runtime.KeepAlive)
// while the run that benefits from the stretch lasts.
type Pin struct {
	pad [][]byte
	// lo and hi bound the stretch that was prepared (zero when none was).
	lo, hi uintptr
}

// HugePage is the size of a huge page on the platforms Reserve serves
// (amd64, and arm64 with 4 KiB pages). Where a huge page is bigger (arm64
// with 64 KiB pages: 512 MiB) the stretch holds none, and the request
// changes nothing.
const HugePage = 2 << 20

// alignUp rounds n up to a multiple of a (a power of two).
func alignUp(n, a uintptr) uintptr { return (n + a - 1) &^ (a - 1) }

// alignDown rounds n down to a multiple of a (a power of two).
func alignDown(n, a uintptr) uintptr { return n &^ (a - 1) }
