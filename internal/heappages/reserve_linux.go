package heappages

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// largeObject is a size whose objects the page allocator places at the
// lowest free address that fits, so that a run of them lays out the heap's
// free space in address order: above the largest small-object class
// (32 KiB), and of at least 16 pages of 8 KiB, which the runtime takes
// from its global page allocator rather than from the processor's cache
// of 64 pages (runtime/mheap.go, allocSpan).
const largeObject = 128 << 10

// Reserve prepares the next size bytes of the heap (rounded to huge pages)
// for huge pages and returns the padding that keeps small objects off the
// partly used huge page below them. It runs one garbage collection to hand
// the stretch back to the allocator: call it at the start of a process,
// while the heap is small and the collection cheap. It does nothing when
// GODEBUG holds disablethp=1 (the runtime's own switch for huge pages on
// its heap) or when the kernel refuses the request (built without
// transparent huge pages); with transparent huge pages set to "never" the
// request is accepted and has no effect.
func Reserve(size int) Pin {
	if size <= 0 || disabled(os.Getenv("GODEBUG")) {
		return Pin{}
	}
	// The stretch is far above the heap's first target: collection is
	// held off while it is allocated, so that the only collection is the
	// one below, rather than one the allocation starts and a second one
	// runtime.GC then runs after it.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	// probe lands at the lowest free page; the padding after it reaches
	// the next huge page's start, so that the stretch begins there.
	probe := make([]byte, largeObject)
	end := uintptr(unsafe.Pointer(unsafe.SliceData(probe))) + largeObject
	gap := alignUp(end, HugePage) - end
	if gap < largeObject {
		gap += HugePage
	}
	pad := make([]byte, gap)
	stretch := make([]byte, alignUp(uintptr(size), HugePage)+HugePage)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(stretch)))
	lo, hi := alignUp(base, HugePage), alignDown(base+uintptr(len(stretch)), HugePage)
	if lo >= hi || unix.Madvise(stretch[lo-base:hi-base], unix.MADV_HUGEPAGE) != nil {
		return Pin{pad: [][]byte{probe, pad}}
	}
	// Only the collection gives the stretch back: its pages then count as
	// free, and the allocator takes the lowest free pages first.
	runtime.KeepAlive(stretch)
	runtime.GC()
	return Pin{pad: [][]byte{probe, pad}, lo: lo, hi: hi}
}

// disabled reports whether a GODEBUG value turns huge pages off for the
// heap (disablethp=1; the last setting of a key wins, as in the runtime).
func disabled(godebug string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.TrimSpace(k) == "disablethp" {
			off = strings.TrimSpace(v) == "1"
		}
	}
	return off
}
