package snapshot

import (
	"crypto/sha256"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// plan says how to read a value of one type straight into its memory:
// decoding a graph goes through no reflect.Value per field or element,
// which would cost about as much as compiling the model again.
type plan struct {
	t    reflect.Type
	kind reflect.Kind
	size uintptr
	// elem is the plan of a pointer's, slice's, array's or map's
	// elements; key that of a map's keys.
	elem, key *plan
	fields    []fieldPlan
	// id numbers the plan in a codec's list, for the fingerprint.
	id int
}

// fieldPlan is one field of a struct.
type fieldPlan struct {
	offset uintptr
	plan   *plan
}

// plans are the plans of a codec's types, built once per codec, and the
// fingerprint of what they describe.
type plans struct {
	byType map[reflect.Type]*plan
	list   []*plan
	desc   strings.Builder
}

// planOf returns t's plan, building it (and those of what t is made of)
// the first time. It describes each new type in ps.desc, for the
// fingerprint: its kind, name and, for a composite type, what it holds.
func (ps *plans) planOf(t reflect.Type) *plan {
	if p, ok := ps.byType[t]; ok {
		return p
	}
	p := &plan{t: t, kind: t.Kind(), size: t.Size(), id: len(ps.list)}
	ps.byType[t] = p
	ps.list = append(ps.list, p)
	d := &ps.desc
	d.WriteString(strconv.Itoa(p.id))
	d.WriteByte(' ')
	d.WriteString(p.kind.String())
	d.WriteByte(' ')
	d.WriteString(t.PkgPath())
	d.WriteByte('.')
	d.WriteString(t.Name())
	ref := func(q *plan) {
		d.WriteString(" #")
		d.WriteString(strconv.Itoa(q.id))
	}
	switch p.kind {
	case reflect.Pointer, reflect.Slice:
		d.WriteString(";")
		p.elem = ps.planOf(t.Elem())
		ref(p.elem)
	case reflect.Array:
		d.WriteString(" [" + strconv.Itoa(t.Len()) + "];")
		p.elem = ps.planOf(t.Elem())
		ref(p.elem)
	case reflect.Map:
		d.WriteString(";")
		p.key = ps.planOf(t.Key())
		p.elem = ps.planOf(t.Elem())
		ref(p.key)
		ref(p.elem)
	case reflect.Struct:
		d.WriteString(" {" + strconv.Itoa(t.NumField()) + "};")
		p.fields = make([]fieldPlan, t.NumField())
		for i := range p.fields {
			f := t.Field(i)
			p.fields[i] = fieldPlan{offset: f.Offset, plan: ps.planOf(f.Type)}
			d.WriteString(" " + f.Name)
			ref(p.fields[i].plan)
		}
	default:
		d.WriteString(";")
	}
	d.WriteByte('\n')
	return p
}

// codecPlans builds the plans of root's type and of the concrete types.
func (c *Codec) codecPlans(root reflect.Type) (*plans, *plan) {
	ps := &plans{byType: map[reflect.Type]*plan{}}
	rp := ps.planOf(root)
	for _, t := range c.impls {
		ps.desc.WriteString("impl")
		ref := ps.planOf(t)
		ps.desc.WriteString(" #" + strconv.Itoa(ref.id) + "\n")
	}
	return ps, rp
}

// fingerprint is the stream's fingerprint of the types the plans describe.
func (ps *plans) fingerprint() [sha256.Size]byte { return sha256.Sum256([]byte(ps.desc.String())) }

// read reads a value of plan p into the memory at at, writing all of it
// (a nil slice, map or interface too): a map's entries are read into the
// same memory one after the other.
func (d *decoder) read(p *plan, at unsafe.Pointer) {
	if d.err != nil {
		return
	}
	switch p.kind {
	case reflect.Bool:
		*(*bool)(at) = d.uint() != 0
	case reflect.Int:
		*(*int)(at) = int(d.int())
	case reflect.Int8:
		*(*int8)(at) = int8(d.int())
	case reflect.Int16:
		*(*int16)(at) = int16(d.int())
	case reflect.Int32:
		*(*int32)(at) = int32(d.int())
	case reflect.Int64:
		*(*int64)(at) = d.int()
	case reflect.Uint:
		*(*uint)(at) = uint(d.uint())
	case reflect.Uint8:
		*(*uint8)(at) = uint8(d.uint())
	case reflect.Uint16:
		*(*uint16)(at) = uint16(d.uint())
	case reflect.Uint32:
		*(*uint32)(at) = uint32(d.uint())
	case reflect.Uint64:
		*(*uint64)(at) = d.uint()
	case reflect.Uintptr:
		*(*uintptr)(at) = uintptr(d.uint())
	case reflect.Float32:
		*(*float32)(at) = float32(d.float())
	case reflect.Float64:
		*(*float64)(at) = d.float()
	case reflect.String:
		*(*string)(at) = d.string()
	case reflect.Pointer:
		*(*unsafe.Pointer)(at) = d.object(p)
	case reflect.Struct:
		for _, f := range p.fields {
			// The commonest fields are read here, without a call.
			fa := unsafe.Add(at, f.offset)
			switch f.plan.kind {
			case reflect.Int:
				*(*int)(fa) = int(d.int())
			case reflect.String:
				*(*string)(fa) = d.string()
			case reflect.Bool:
				*(*bool)(fa) = d.uint() != 0
			case reflect.Pointer:
				*(*unsafe.Pointer)(fa) = d.object(f.plan)
			case reflect.Slice:
				d.slice(f.plan, fa)
			default:
				d.read(f.plan, fa)
			}
		}
	case reflect.Array:
		for i := range p.t.Len() {
			d.read(p.elem, unsafe.Add(at, uintptr(i)*p.elem.size))
		}
	case reflect.Slice:
		d.slice(p, at)
	case reflect.Map:
		d.mapValue(p, at)
	case reflect.Interface:
		d.iface(p, at)
	default:
		d.fail("cannot read a %s (%s)", p.kind, p.t)
	}
}

// object reads a pointer of plan p: a new object, one read before, or
// nil.
func (d *decoder) object(p *plan) unsafe.Pointer {
	switch tag := d.uint(); {
	case tag == ptrNil:
	case tag == ptrNew:
		o := d.alloc(p.elem, 1)
		if o == nil {
			return nil
		}
		d.objs = append(d.objs, object{o, p})
		d.read(p.elem, o)
		return o
	case tag-ptrOld < uint64(len(d.objs)):
		o := d.objs[tag-ptrOld]
		if o.plan != p {
			d.fail("object %d is a %s, not a %s", tag-ptrOld, o.plan.t, p.t)
			return nil
		}
		return o.at
	default:
		d.fail("no object %d", tag-ptrOld)
	}
	return nil
}

// slice reads a slice, its capacity its length: appending to it copies,
// as appending to the slice written would have.
func (d *decoder) slice(p *plan, at unsafe.Pointer) {
	n := d.length()
	if n < 0 {
		*(*[]byte)(at) = nil
		return
	}
	if n == 0 {
		// Not nil: any address does, none is read.
		*(*[]byte)(at) = unsafe.Slice((*byte)(d.empty), 0)
		return
	}
	data := d.alloc(p.elem, n)
	if data == nil {
		return
	}
	*(*[]byte)(at) = unsafe.Slice((*byte)(data), n)
	switch p.elem.kind {
	case reflect.Int:
		fill(d, unsafe.Slice((*int)(data), n), func(d *decoder) int { return int(d.int()) })
	case reflect.Int32:
		fill(d, unsafe.Slice((*int32)(data), n), func(d *decoder) int32 { return int32(d.int()) })
	case reflect.Uint64:
		fill(d, unsafe.Slice((*uint64)(data), n), (*decoder).uint)
	case reflect.Bool:
		fill(d, unsafe.Slice((*bool)(data), n), func(d *decoder) bool { return d.uint() != 0 })
	case reflect.Pointer:
		for i := range n {
			*(*unsafe.Pointer)(unsafe.Add(data, uintptr(i)*p.elem.size)) = d.object(p.elem)
		}
	default:
		for i := range n {
			d.read(p.elem, unsafe.Add(data, uintptr(i)*p.elem.size))
		}
	}
}

func fill[E any](d *decoder, s []E, read func(*decoder) E) {
	for i := range s {
		s[i] = read(d)
	}
}

func (d *decoder) mapValue(p *plan, at unsafe.Pointer) {
	n := d.length()
	dst := reflect.NewAt(p.t, at).Elem()
	if n < 0 {
		dst.SetZero()
		return
	}
	m := reflect.MakeMapWithSize(p.t, n)
	// One key and one value, reused (read writes all of them, and
	// SetMapIndex copies them).
	k, v := reflect.New(p.key.t), reflect.New(p.elem.t)
	for range n {
		d.read(p.key, k.UnsafePointer())
		d.read(p.elem, v.UnsafePointer())
		if d.err != nil {
			return
		}
		m.SetMapIndex(k.Elem(), v.Elem())
	}
	dst.Set(m)
}

// iface reads an interface value: the number of its concrete type (0 for
// nil), then the value.
func (d *decoder) iface(p *plan, at unsafe.Pointer) {
	i := d.uint()
	if i == 0 {
		*(*[2]unsafe.Pointer)(at) = [2]unsafe.Pointer{}
		return
	}
	if i > uint64(len(d.impls)) {
		d.fail("no concrete type %d", i)
		return
	}
	ip := d.impls[i-1]
	if ip.kind != reflect.Pointer {
		x := reflect.New(ip.t)
		d.read(ip, x.UnsafePointer())
		reflect.NewAt(p.t, at).Elem().Set(x.Elem())
		return
	}
	o := d.object(ip)
	if d.err != nil {
		return
	}
	if o == nil {
		reflect.NewAt(p.t, at).Elem().Set(reflect.Zero(ip.t))
		return
	}
	// An interface holding a pointer is two words: its type's (for this
	// interface and concrete type, always the same) and the pointer. The
	// first value of each pair is set through reflect, which tells the
	// first word; the rest are written directly.
	key := [2]*plan{p, ip}
	tab, ok := d.itabs[key]
	if !ok {
		reflect.NewAt(p.t, at).Elem().Set(reflect.NewAt(ip.elem.t, o))
		words := *(*[2]unsafe.Pointer)(at)
		if words[1] != o {
			d.fail("an interface value is not laid out as two words")
			return
		}
		d.itabs[key] = words[0]
		return
	}
	*(*[2]unsafe.Pointer)(at) = [2]unsafe.Pointer{tab, o}
}
