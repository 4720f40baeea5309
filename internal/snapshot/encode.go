package snapshot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
)

// ptrKey identifies an object: its address and its type (a struct and its
// first field share an address).
type ptrKey struct {
	addr uintptr
	typ  reflect.Type
}

// encoder writes one graph. Objects are numbered in the order they are
// first reached; a pointer is written as nil, as a new object (followed by
// the object) or as the number of one already written.
type encoder struct {
	c   *Codec
	ps  *plans
	buf []byte
	ids map[ptrKey]uint64
	// counts[t] counts the values of type t the graph allocates: objects
	// pointed to and slices' elements. The decoder allocates them in one
	// array per type.
	counts map[reflect.Type]int
	// noPointers is set while writing a map key: keys are compared by
	// their bytes, which must not depend on what was written before.
	noPointers bool
	err        error
}

// Pointer tags.
const (
	ptrNil = 0
	ptrNew = 1
	// ptrOld + id is an object already written.
	ptrOld = 2
)

// arenas writes, before the graph, how many values of each type it
// allocates, in the order of the types' plans.
func (e *encoder) arenas() []byte {
	var out []byte
	n := 0
	for _, p := range e.ps.list {
		if e.counts[p.t] > 0 {
			n++
		}
	}
	out = binary.AppendUvarint(out, uint64(n))
	for _, p := range e.ps.list {
		if c := e.counts[p.t]; c > 0 {
			out = binary.AppendUvarint(out, uint64(p.id))
			out = binary.AppendUvarint(out, uint64(c))
		}
	}
	return out
}

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("snapshot: "+format, args...)
	}
}

func (e *encoder) uint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }
func (e *encoder) int(x int64)   { e.buf = binary.AppendVarint(e.buf, x) }

// length writes a slice's or map's length, 0 standing for nil.
func (e *encoder) length(v reflect.Value) {
	if v.IsNil() {
		e.uint(0)
		return
	}
	e.uint(uint64(v.Len()) + 1)
}

func (e *encoder) value(v reflect.Value) {
	if e.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.uint(1)
		} else {
			e.uint(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.uint(math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		e.uint(uint64(len(s)))
		e.buf = append(e.buf, s...)
	case reflect.Pointer:
		e.pointer(v)
	case reflect.Struct:
		for i := range v.NumField() {
			e.value(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Slice:
		e.length(v)
		if !v.IsNil() && e.counts != nil {
			e.counts[v.Type().Elem()] += v.Len()
		}
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		e.mapValue(v)
	case reflect.Interface:
		if v.IsNil() {
			e.uint(0)
			return
		}
		t := v.Elem().Type()
		i, ok := e.c.index[t]
		if !ok {
			e.fail("%s holds a %s, which the codec does not list", v.Type(), t)
			return
		}
		e.uint(uint64(i) + 1)
		e.value(v.Elem())
	default:
		e.fail("cannot write a %s (%s)", v.Kind(), v.Type())
	}
}

func (e *encoder) pointer(v reflect.Value) {
	if v.IsNil() {
		e.uint(ptrNil)
		return
	}
	if e.noPointers {
		e.fail("a map key holds a pointer (%s)", v.Type())
		return
	}
	k := ptrKey{v.Pointer(), v.Type()}
	if id, ok := e.ids[k]; ok {
		e.uint(ptrOld + id)
		return
	}
	e.ids[k] = uint64(len(e.ids))
	e.counts[v.Type().Elem()]++
	e.uint(ptrNew)
	e.value(v.Elem())
}

// mapValue writes a map's entries in the order of their keys' bytes, so
// that the same map is always written the same way.
func (e *encoder) mapValue(v reflect.Value) {
	e.length(v)
	if v.IsNil() {
		return
	}
	type entry struct {
		key []byte
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	it := v.MapRange()
	for it.Next() {
		ke := &encoder{c: e.c, ps: e.ps, noPointers: true}
		ke.value(it.Key())
		if ke.err != nil {
			e.fail("%v", ke.err)
			return
		}
		entries = append(entries, entry{ke.buf, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	for _, en := range entries {
		e.buf = append(e.buf, en.key...)
		e.value(en.val)
	}
}
