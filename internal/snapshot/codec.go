package snapshot

import (
	"errors"
	"reflect"
	"unsafe"
)

// magic starts every snapshot, with the format's version.
const magic = "ptxmm-snapshot-1\n"

// Codec writes and reads graphs of one root type. Its list of concrete
// types is what an interface value in the graph may hold.
type Codec struct {
	impls []reflect.Type
	index map[reflect.Type]int
}

// New returns a codec whose interface values may hold the types of impls
// (a value of each, such as (*T)(nil)).
func New(impls ...any) *Codec {
	c := &Codec{index: map[reflect.Type]int{}}
	for _, v := range impls {
		t := reflect.TypeOf(v)
		if _, ok := c.index[t]; ok {
			continue
		}
		c.index[t] = len(c.impls)
		c.impls = append(c.impls, t)
	}
	return c
}

// ErrMismatch is the error of reading bytes written for other types (by
// another build of the program) or by another version of the format.
var ErrMismatch = errors.New("snapshot: written for other types")

// Encode writes the graph root points to.
func Encode[T any](c *Codec, root *T) ([]byte, error) {
	if root == nil {
		return nil, errors.New("snapshot: nil root")
	}
	v := reflect.ValueOf(root)
	ps, _ := c.codecPlans(v.Type())
	fp := ps.fingerprint()
	e := &encoder{c: c, ps: ps, ids: map[ptrKey]uint64{}, counts: map[reflect.Type]int{}}
	e.value(v)
	if e.err != nil {
		return nil, e.err
	}
	out := append([]byte(magic), fp[:]...)
	out = append(out, e.arenas()...)
	return append(out, e.buf...), nil
}

// Decode reads a graph Encode wrote for the same types.
func Decode[T any](c *Codec, data []byte) (*T, error) {
	root, _, _, err := decode[T](c, data)
	return root, err
}

// decode is Decode, which also returns its decoder (where the values are)
// and the plans.
func decode[T any](c *Codec, data []byte) (*T, *decoder, *plans, error) {
	var root *T
	ps, rp := c.codecPlans(reflect.TypeOf(root))
	fp := ps.fingerprint()
	head := len(magic) + len(fp)
	if len(data) < head || string(data[:len(magic)]) != magic || string(data[len(magic):head]) != string(fp[:]) {
		return nil, nil, nil, ErrMismatch
	}
	d := &decoder{data: data, str: string(data), pos: head, arenas: make([]arena, len(ps.list)), empty: unsafe.Pointer(new(uint64)),
		itabs: map[[2]*plan]unsafe.Pointer{}}
	for _, t := range c.impls {
		d.impls = append(d.impls, ps.byType[t])
	}
	d.readArenas(ps)
	d.read(rp, unsafe.Pointer(&root))
	if d.err == nil && d.pos != len(data) {
		d.fail("%d bytes left over", len(data)-d.pos)
	}
	if d.err != nil {
		return nil, nil, nil, d.err
	}
	return root, d, ps, nil
}
