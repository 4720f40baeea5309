package heappages

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
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
// partly used huge page below them. It hands the stretch back to the
// allocator with garbage collection: one cycle, and one more that the
// stretch's allocation starts when it passes the heap's target (above
// 4 MiB; the package imports nothing that could hold collection off, so
// that internal/procstart, which calls it, initializes early). Call it at
// the start of a process, while the heap is small and the cycles cheap.
// It does nothing when GODEBUG holds disablethp=1 (the runtime's own
// switch for huge pages on its heap) or when the kernel refuses the
// request (built without transparent huge pages); with transparent huge
// pages set to "never" the request is accepted and has no effect.
func Reserve(size int) Pin {
	if size <= 0 || disabled(os.Getenv("GODEBUG")) {
		return Pin{}
	}
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
	if lo >= hi || syscall.Madvise(stretch[lo-base:hi-base], syscall.MADV_HUGEPAGE) != nil {
		return Pin{pad: [][]byte{probe, pad}}
	}
	// Only a collection gives the stretch back: its pages then count as
	// free, and the allocator takes the lowest free pages first.
	runtime.KeepAlive(stretch)
	runtime.GC()
	return Pin{pad: [][]byte{probe, pad}, lo: lo, hi: hi}
}

// disabled reports whether a GODEBUG value turns huge pages off for the
// heap (disablethp=1; the last setting of a key wins, as in the runtime;
// spaces around keys and values are ignored).
func disabled(godebug string) bool {
	off := false
	for len(godebug) > 0 {
		kv := godebug
		if i := indexByte(godebug, ','); i >= 0 {
			kv, godebug = godebug[:i], godebug[i+1:]
		} else {
			godebug = ""
		}
		if i := indexByte(kv, '='); i >= 0 && trimSpace(kv[:i]) == "disablethp" {
			off = trimSpace(kv[i+1:]) == "1"
		}
	}
	return off
}

// indexByte and trimSpace stand in for package strings, whose imports
// would make this package's users initialize late.
func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// trimSpace trims ASCII white space, all GODEBUG values hold.
func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
