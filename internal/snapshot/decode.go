package snapshot

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// decoder reads one graph into freshly allocated values.
type decoder struct {
	data []byte
	// str is data as a string, which the graph's strings are cut from
	// (one copy for all of them).
	str string
	pos int
	// impls are the plans of the codec's concrete types, by number.
	impls []*plan
	// objs are the objects read so far, by number.
	objs []object
	// arenas[id] is where the values of the plan numbered id are
	// allocated.
	arenas []arena
	// itabs[{interface, concrete type}] is the first word of an
	// interface value holding a pointer of that type (iface).
	itabs map[[2]*plan]unsafe.Pointer
	// empty is the address of every empty slice: a heap object of its
	// own, as nothing is read from it.
	empty unsafe.Pointer
	err   error
}

// arena is an array of values of one type, which the objects and the
// slices of the graph are cut from: one allocation per type instead of one
// per object and per slice.
type arena struct {
	base unsafe.Pointer
	// used and n count the values handed out and the array's length.
	used, n int
}

// readArenas reads the number of values of each type and allocates them.
func (d *decoder) readArenas(ps *plans) {
	for range d.uint() {
		id, n := d.uint(), d.uint()
		if id >= uint64(len(ps.list)) || n > uint64(len(d.data)) {
			d.fail("bad arena")
			return
		}
		p := ps.list[id]
		d.arenas[id] = arena{base: reflect.MakeSlice(reflect.SliceOf(p.t), int(n), int(n)).UnsafePointer(), n: int(n)}
	}
}

// alloc hands out n values of plan p's type: a pointer to the first.
func (d *decoder) alloc(p *plan, n int) unsafe.Pointer {
	a := &d.arenas[p.id]
	if n > a.n-a.used {
		d.fail("more values of %s than counted", p.t)
		return nil
	}
	at := unsafe.Add(a.base, uintptr(a.used)*p.size)
	a.used += n
	return at
}

// object is an object read, with the plan of pointers to it.
type object struct {
	at   unsafe.Pointer
	plan *plan
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("snapshot: at byte %d: "+format, append([]any{d.pos}, args...)...)
	}
	d.pos = len(d.data)
}

// uint reads an unsigned varint; one byte, the common case, inline.
func (d *decoder) uint() uint64 {
	if p := d.pos; p < len(d.data) && d.data[p] < 0x80 {
		d.pos = p + 1
		return uint64(d.data[p])
	}
	return d.uintSlow()
}

func (d *decoder) uintSlow() uint64 {
	// Two bytes (an object read before, a line number) are the next
	// commonest.
	if p := d.pos; p+1 < len(d.data) && d.data[p+1] < 0x80 {
		d.pos = p + 2
		return uint64(d.data[p]&0x7f) | uint64(d.data[p+1])<<7
	}
	x, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.pos += n
	return x
}

// int reads a signed (zigzag) varint.
func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *decoder) float() float64 { return math.Float64frombits(d.uint()) }

func (d *decoder) string() string {
	n := d.uint()
	if n > uint64(len(d.data)-d.pos) {
		d.fail("string past the end")
		return ""
	}
	s := d.str[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return s
}

// length reads a slice's or map's length: -1 for nil.
func (d *decoder) length() int {
	n := d.uint()
	if n > uint64(len(d.data)-d.pos)+1 {
		// Every element takes at least a byte.
		d.fail("length %d past the end", n-1)
		return -1
	}
	return int(n) - 1
}
