package snapshot

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ptxmm/ptxmm/internal/heappages"
)

// An image is a graph as it lies in memory: the arrays its values were
// cut from, byte for byte, with every pointer left out and listed apart
// (which array and which byte it points to). Reading one back is copying
// each array and writing its pointers, where reading the stream Encode
// writes decodes every field: for the compiled spec.dl, about a fifth of
// the instructions. An image holds the types' layout (sizes and field
// offsets), and is refused where they differ.
//
// Layout, after imageMagic, the fingerprint and a CRC-32 (IEEE) of
// the rest (uvarints unless said):
//
//	arenas: count, then per arena its plan's number and its length
//	strings: the length of the bytes the graph's strings are cut from
//	itabs: count, then per interface type word the interface's and the
//	  concrete type's plan numbers
//	root: its arena and byte offset
//	maps: count, then per map (in the order they are built) the arena
//	  and offset of the map's word, the map's plan, the arenas of its
//	  keys and of its values, and the number of entries
//	pointers: count of groups, then per group the arena written to, the
//	  base pointed into, the number of pointers, and as many pairs of
//	  little-endian uint32 (byte written, byte pointed to)
//	the strings' bytes, then each arena's bytes, each starting at a
//	multiple of arenaAlign bytes from the image's start (zeros between)
//
// A base is an arena (numbered from 0), then the strings, then the empty
// slices' address, then each interface type word.
const imageMagic = "ptxmm-image-2\n"

// arenaAlign is the alignment of every arena's bytes from the start of an
// image, the largest any type has: an image that lies aligned (the one
// built into the program does) then holds each array without pointers
// where it can be used in place (DecodeBuiltInImage).
const arenaAlign = 8

// alignArena rounds an offset in an image up to arenaAlign.
func alignArena(off int) int { return (off + arenaAlign - 1) &^ (arenaAlign - 1) }

// imageFingerprint is the plans' fingerprint with the types' layout.
func imageFingerprint(ps *plans) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(ps.desc.String()))
	var b []byte
	for _, p := range ps.list {
		b = append(b[:0], "layout "...)
		b = strconv.AppendInt(b, int64(p.id), 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(p.size), 10)
		for _, f := range p.fields {
			b = append(b, ' ')
			b = strconv.AppendUint(b, uint64(f.offset), 10)
		}
		b = append(b, '\n')
		h.Write(b)
	}
	b = strconv.AppendInt(append(b[:0], "word "...), int64(unsafe.Sizeof(uintptr(0))), 10)
	h.Write(b)
	var fp [sha256.Size]byte
	h.Sum(fp[:0])
	return fp
}

// EncodeImage writes the graph root points to as an image (see
// imageMagic), for DecodeImage.
func EncodeImage[T any](c *Codec, root *T) ([]byte, error) {
	data, err := Encode(c, root)
	if err != nil {
		return nil, err
	}
	// The arrays are laid out as Decode lays them out: decode, then
	// write what the arrays hold.
	got, d, ps, err := decode[T](c, data)
	if err != nil {
		return nil, err
	}
	im := &imager{d: d, ps: ps, strs: map[string]uint32{}, itabIndex: map[unsafe.Pointer]int{}, groups: map[[2]int]*relocGroup{}}
	for i := range d.arenas {
		if a := d.arenas[i]; a.n > 0 {
			im.add(a.base, a.n, ps.list[i])
		}
	}
	im.sorted = append([]imageArena(nil), im.arenas...)
	for key, word := range d.itabs {
		im.itabByWord(word, key)
	}
	im.orderItabs()
	rootArena, rootOff, ok := im.find(unsafe.Pointer(got))
	if !ok {
		return nil, errors.New("snapshot: the root is in no arena")
	}
	// Scanning a map adds the arenas of its entries, scanned in turn.
	for i := 0; i < len(im.arenas) && im.err == nil; i++ {
		base, n, p := im.arenas[i].base, im.arenas[i].n, im.arenas[i].plan
		for k := range n {
			off := uintptr(k) * p.size
			im.scan(p, unsafe.Add(base, off), i, off)
		}
	}
	if im.err != nil {
		return nil, im.err
	}
	return im.bytes(ps, rootArena, rootOff), nil
}

// imageArena is one array of an image: what it was cut from, and its bytes
// with the pointers left out.
type imageArena struct {
	base unsafe.Pointer
	n    int
	plan *plan
	raw  []byte
	// index is the arena's number (in imager.sorted).
	index int
}

type relocGroup struct {
	arena, base int
	pairs       []uint32
}

type mapRecord struct {
	arena       int
	off         uintptr
	plan        *plan
	keys, elems int
	n           int
}

type itabRecord struct {
	word            unsafe.Pointer
	iface, concrete *plan
}

// imager lays a decoded graph out as an image.
type imager struct {
	d  *decoder
	ps *plans
	// arenas are the decoder's arrays, then those of the maps' entries;
	// sorted are the decoder's, by address.
	arenas, sorted []imageArena
	blob           []byte
	strs           map[string]uint32
	itabs          []itabRecord
	itabIndex      map[unsafe.Pointer]int
	maps           []mapRecord
	groups         map[[2]int]*relocGroup
	err            error
}

func (im *imager) add(base unsafe.Pointer, n int, p *plan) {
	raw := make([]byte, uintptr(n)*p.size)
	copy(raw, unsafe.Slice((*byte)(base), len(raw)))
	im.arenas = append(im.arenas, imageArena{base: base, n: n, plan: p, raw: raw})
}

func (im *imager) itabByWord(word unsafe.Pointer, key [2]*plan) {
	im.itabs = append(im.itabs, itabRecord{word: word, iface: key[0], concrete: key[1]})
}

// orderItabs numbers the interface type words by their plans, so that
// the same graph always gives the same image, and sorts the arenas by
// address for find.
func (im *imager) orderItabs() {
	slices.SortFunc(im.itabs, func(a, b itabRecord) int {
		if a.iface.id != b.iface.id {
			return a.iface.id - b.iface.id
		}
		return a.concrete.id - b.concrete.id
	})
	for i, r := range im.itabs {
		im.itabIndex[r.word] = i
	}
	for i := range im.sorted {
		im.sorted[i].index = i
	}
	slices.SortFunc(im.sorted, func(a, b imageArena) int {
		switch {
		case uintptr(a.base) < uintptr(b.base):
			return -1
		case uintptr(a.base) > uintptr(b.base):
			return 1
		}
		return 0
	})
}

// find returns the arena p points into and the byte offset in it.
func (im *imager) find(p unsafe.Pointer) (int, uintptr, bool) {
	lo, hi := 0, len(im.sorted)
	for lo < hi {
		m := (lo + hi) / 2
		a := im.sorted[m]
		switch {
		case uintptr(p) < uintptr(a.base):
			hi = m
		case uintptr(p) >= uintptr(a.base)+uintptr(a.n)*a.plan.size:
			lo = m + 1
		default:
			return a.index, uintptr(p) - uintptr(a.base), true
		}
	}
	return 0, 0, false
}

func (im *imager) fail(format string, args ...any) {
	if im.err == nil {
		im.err = fmt.Errorf("snapshot: image: "+format, args...)
	}
}

// reloc lists the pointer at byte off of arena to byte to of base, and
// clears it in the arena's bytes.
func (im *imager) reloc(arena int, off uintptr, base int, to uintptr) {
	if uint64(off) > 1<<32-1 || uint64(to) > 1<<32-1 {
		im.fail("an arena of over 4 GB")
		return
	}
	clear(im.arenas[arena].raw[off : off+unsafe.Sizeof(uintptr(0))])
	g := im.groups[[2]int{arena, base}]
	if g == nil {
		g = &relocGroup{arena: arena, base: base}
		im.groups[[2]int{arena, base}] = g
	}
	g.pairs = append(g.pairs, uint32(off), uint32(to))
}

// pointer lists the pointer p, found at byte off of arena.
func (im *imager) pointer(arena int, off uintptr, p unsafe.Pointer) {
	if p == nil {
		return
	}
	a, to, ok := im.find(p)
	if !ok {
		im.fail("a pointer into no arena (a value an interface holds that is not a pointer?)")
		return
	}
	im.reloc(arena, off, a, to)
}

// Bases after the arenas.
func (im *imager) blobBase() int  { return len(im.arenas) }
func (im *imager) emptyBase() int { return len(im.arenas) + 1 }

// scan lists the pointers of the value of plan p at at, byte off of arena.
func (im *imager) scan(p *plan, at unsafe.Pointer, arena int, off uintptr) {
	if im.err != nil {
		return
	}
	word := unsafe.Sizeof(uintptr(0))
	switch p.kind {
	case reflect.Pointer:
		im.pointer(arena, off, *(*unsafe.Pointer)(at))
	case reflect.String:
		s := *(*string)(at)
		if len(s) == 0 {
			clear(im.arenas[arena].raw[off : off+word])
			return
		}
		i, ok := im.strs[s]
		if !ok {
			i = uint32(len(im.blob))
			im.blob = append(im.blob, s...)
			im.strs[s] = i
		}
		im.reloc(arena, off, -1, uintptr(i))
	case reflect.Slice:
		data := *(*unsafe.Pointer)(at)
		switch {
		case data == nil:
		case data == im.d.empty:
			im.reloc(arena, off, -2, 0)
		default:
			im.pointer(arena, off, data)
		}
	case reflect.Struct:
		for _, f := range p.fields {
			im.scan(f.plan, unsafe.Add(at, f.offset), arena, off+f.offset)
		}
	case reflect.Array:
		for i := range p.t.Len() {
			e := uintptr(i) * p.elem.size
			im.scan(p.elem, unsafe.Add(at, e), arena, off+e)
		}
	case reflect.Interface:
		words := *(*[2]unsafe.Pointer)(at)
		if words[0] == nil {
			return
		}
		i, ok := im.itabIndex[words[0]]
		if !ok {
			im.fail("an interface holds a value that is not a pointer: an image keeps no boxed values")
			return
		}
		im.reloc(arena, off, -3-i, 0)
		im.pointer(arena, off+word, words[1])
	case reflect.Map:
		im.mapValue(p, at, arena, off)
	}
}

// mapValue lists a map: its keys and values are copied into two arenas
// of their own, in the order of the keys' bytes, which the map is built
// from when the image is read.
func (im *imager) mapValue(p *plan, at unsafe.Pointer, arena int, off uintptr) {
	m := reflect.NewAt(p.t, at).Elem()
	if m.IsNil() {
		return
	}
	clear(im.arenas[arena].raw[off : off+unsafe.Sizeof(uintptr(0))])
	type entry struct {
		key  []byte
		k, v reflect.Value
	}
	entries := make([]entry, 0, m.Len())
	it := m.MapRange()
	for it.Next() {
		ke := &encoder{c: nil, ps: im.ps, noPointers: true}
		ke.value(it.Key())
		if ke.err != nil {
			im.fail("%v", ke.err)
			return
		}
		entries = append(entries, entry{ke.buf, it.Key(), it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(string(a.key), string(b.key)) })
	keys := reflect.MakeSlice(reflect.SliceOf(p.key.t), len(entries), len(entries))
	elems := reflect.MakeSlice(reflect.SliceOf(p.elem.t), len(entries), len(entries))
	for i, e := range entries {
		keys.Index(i).Set(e.k)
		elems.Index(i).Set(e.v)
	}
	rec := mapRecord{arena: arena, off: off, plan: p, keys: len(im.arenas), elems: len(im.arenas) + 1, n: len(entries)}
	im.add(keys.UnsafePointer(), len(entries), p.key)
	im.add(elems.UnsafePointer(), len(entries), p.elem)
	im.maps = append(im.maps, rec)
}

func (im *imager) bytes(ps *plans, rootArena int, rootOff uintptr) []byte {
	var out []byte
	u := func(x uint64) { out = binary.AppendUvarint(out, x) }
	u(uint64(len(im.arenas)))
	for _, a := range im.arenas {
		u(uint64(a.plan.id))
		u(uint64(a.n))
	}
	u(uint64(len(im.blob)))
	u(uint64(len(im.itabs)))
	for _, r := range im.itabs {
		u(uint64(r.iface.id))
		u(uint64(r.concrete.id))
	}
	u(uint64(rootArena))
	u(uint64(rootOff))
	// Inner maps first: a map held in another map's value is copied
	// into it when that one is built.
	u(uint64(len(im.maps)))
	for i := len(im.maps) - 1; i >= 0; i-- {
		r := im.maps[i]
		u(uint64(r.arena))
		u(uint64(r.off))
		u(uint64(r.plan.id))
		u(uint64(r.keys))
		u(uint64(r.elems))
		u(uint64(r.n))
	}
	// Groups in the order of their arenas and bases; a base numbered
	// below 0 here (strings, empty slices, type words) is written after
	// the arenas.
	base := func(b int) int {
		if b >= 0 {
			return b
		}
		return len(im.arenas) - 1 - b
	}
	keys := make([][2]int, 0, len(im.groups))
	for k := range im.groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return base(a[1]) - base(b[1])
	})
	u(uint64(len(keys)))
	for _, k := range keys {
		g := im.groups[k]
		u(uint64(g.arena))
		u(uint64(base(g.base)))
		u(uint64(len(g.pairs) / 2))
		for _, x := range g.pairs {
			out = binary.LittleEndian.AppendUint32(out, x)
		}
	}
	out = append(out, im.blob...)
	for _, a := range im.arenas {
		for len(out) < alignArena(imageHead+len(out))-imageHead {
			out = append(out, 0)
		}
		out = append(out, a.raw...)
	}
	fp := imageFingerprint(ps)
	head := append([]byte(imageMagic), fp[:]...)
	head = binary.LittleEndian.AppendUint32(head, crc32.ChecksumIEEE(out))
	return append(head, out...)
}

// imageHead is the length of an image's header: imageMagic, the
// fingerprint and the checksum.
const imageHead = len(imageMagic) + sha256.Size + 4

// DecodeImage reads a graph EncodeImage wrote for the same types and
// layout; other bytes are ErrMismatch or an error, never a graph.
func DecodeImage[T any](c *Codec, data []byte) (*T, error) {
	// The pointers are written where the image says: bytes changed on
	// the way would write them over numbers.
	if err := CheckImage(data); err != nil {
		return nil, err
	}
	return decodeChecked[T](c, data, false)
}

// CheckImage reports whether data is an image (see imageMagic) whose
// bytes hold the checksum written with them: ErrMismatch for other
// bytes, an error for a damaged image.
func CheckImage(data []byte) error {
	if len(data) < imageHead || string(data[:len(imageMagic)]) != imageMagic {
		return ErrMismatch
	}
	if binary.LittleEndian.Uint32(data[imageHead-4:]) != crc32.ChecksumIEEE(data[imageHead:]) {
		return errors.New("snapshot: image damaged (its checksum differs)")
	}
	return nil
}

// DecodeBuiltInImage is DecodeImage for an image built into the program
// (embedded when it was compiled), whose bytes a test checked with
// CheckImage and which cannot change after: it does not compute the
// checksum (for the compiled spec.dl, an eighth of the instructions of a
// load). Types and layout are checked as by DecodeImage: an image written
// for other types is ErrMismatch.
//
// The graph's strings and its arrays that hold no pointers are cut from
// data instead of copied (see imageReader.inPlace): data must never be
// changed, and neither may those parts of the graph. For the compiled
// spec.dl that is 0.18 MB a start does not copy into fresh pages.
func DecodeBuiltInImage[T any](c *Codec, data []byte) (*T, error) {
	return decodeChecked[T](c, data, true)
}

// decodeChecked reads an image whose checksum holds or need not be
// computed, cutting parts from data in place when inPlace is set.
func decodeChecked[T any](c *Codec, data []byte, inPlace bool) (*T, error) {
	return decodeWith[T](c, data, &imageReader{inPlace: inPlace})
}

// decodeWith reads an image with r (whose flags are set), checking its
// types and layout first.
func decodeWith[T any](c *Codec, data []byte, r *imageReader) (*T, error) {
	var root *T
	ps, _ := c.codecPlans(reflect.TypeOf(root))
	fp := imageFingerprint(ps)
	if len(data) < imageHead || string(data[:len(imageMagic)]) != imageMagic || string(data[len(imageMagic):imageHead-4]) != string(fp[:]) {
		return nil, ErrMismatch
	}
	r.decoder = decoder{data: data, pos: imageHead}
	return decodeImage[T](r, ps)
}

// imageReader reads an image: the header's numbers through the decoder,
// the rest by position.
type imageReader struct {
	decoder
	// bases are where the pointers point into: the arenas, the strings,
	// the empty slices' address, the interface type words.
	bases []unsafe.Pointer
	// sizes are the bases' lengths in bytes.
	sizes []uintptr
	plans []*plan
	// inPlace says the strings and the arrays without pointers are cut
	// from data rather than copied: data is an image built into the
	// program (DecodeBuiltInImage), which nothing writes. Only arrays
	// without pointers qualify: the pointers of the others are written
	// at load, and the collector does not scan data for them.
	inPlace bool
	// offHeap says the arrays not cut from data are laid out in region,
	// memory outside the heap (BuiltIn), rather than allocated in the
	// heap; keep then holds the heap objects the graph points to from
	// there.
	offHeap bool
	region  []byte
	keep    []any
}

// arenaHead is an arena as an image's header gives it: the plan of its
// values and how many there are.
type arenaHead struct {
	plan *plan
	n    int
}

// number reads a uvarint at most max.
func (r *imageReader) number(max uint64) int {
	x := r.uint()
	if x > max {
		r.fail("%d is over %d", x, max)
		return 0
	}
	return int(x)
}

func decodeImage[T any](r *imageReader, ps *plans) (*T, error) {
	limit := uint64(len(r.data))
	nArenas := r.number(limit)
	heads := make([]arenaHead, nArenas)
	for i := range heads {
		p := ps.list[r.number(uint64(len(ps.list)-1))]
		n := r.number(limit)
		heads[i] = arenaHead{p, n}
	}
	nBlob := r.number(limit)
	nItabs := r.number(limit)
	itabs := make([][2]*plan, nItabs)
	for i := range itabs {
		itabs[i] = [2]*plan{ps.list[r.number(uint64(len(ps.list)-1))], ps.list[r.number(uint64(len(ps.list)-1))]}
	}
	rootArena, rootOff := r.number(uint64(nArenas)), r.number(limit)
	nMaps := r.number(limit)
	type mapHead struct {
		arena, off int
		plan       *plan
		keys, vals int
		n          int
	}
	maps := make([]mapHead, nMaps)
	for i := range maps {
		maps[i] = mapHead{arena: r.number(uint64(nArenas)), off: r.number(limit), plan: ps.list[r.number(uint64(len(ps.list)-1))],
			keys: r.number(uint64(nArenas)), vals: r.number(uint64(nArenas)), n: r.number(limit)}
	}
	if r.err != nil {
		return nil, r.err
	}
	// The pointers are read after the arenas are allocated; first find
	// where the bytes start.
	relocStart := r.pos
	nGroups := r.number(limit)
	for range nGroups {
		r.number(limit)
		r.number(limit)
		n := r.number(limit / 8)
		r.pos += 8 * n
		if r.pos > len(r.data) {
			r.fail("pointers past the end")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	end := uint64(r.pos) + uint64(nBlob)
	for _, h := range heads {
		end = uint64(alignArena(int(min(end, limit)))) + uint64(h.n)*uint64(h.plan.size)
	}
	if uint64(len(r.data)) != end {
		return nil, fmt.Errorf("snapshot: image of %d bytes where its arenas take %d", len(r.data)-r.pos, end-uint64(r.pos))
	}
	var blob string
	if r.inPlace && nBlob > 0 {
		blob = unsafe.String(&r.data[r.pos], nBlob)
	} else {
		blob = string(r.data[r.pos : r.pos+nBlob])
	}
	r.bases = make([]unsafe.Pointer, 0, nArenas+2+nItabs)
	r.sizes = make([]uintptr, 0, nArenas+2+nItabs)
	if r.offHeap {
		r.mapRegion(heads, r.pos+nBlob)
	}
	used := 0
	at := r.pos + nBlob
	for _, h := range heads {
		at = alignArena(at)
		size := uintptr(h.n) * h.plan.size
		var base unsafe.Pointer
		switch {
		case h.n == 0:
		case r.inPlace && size > 0 && r.cutInPlace(h.plan, at):
			base = unsafe.Pointer(&r.data[at])
		case r.offHeap:
			base = unsafe.Pointer(&r.region[used])
			used += alignArena(int(size))
			copy(unsafe.Slice((*byte)(base), size), r.data[at:at+int(size)])
		default:
			base = reflect.MakeSlice(reflect.SliceOf(h.plan.t), h.n, h.n).UnsafePointer()
			// Every pointer in these bytes is nil: a plain copy.
			copy(unsafe.Slice((*byte)(base), size), r.data[at:at+int(size)])
		}
		at += int(size)
		r.bases = append(r.bases, base)
		r.sizes = append(r.sizes, size)
	}
	empty := new(uint64)
	if r.offHeap {
		r.keep = append(r.keep, empty)
	}
	r.bases = append(r.bases, unsafe.Pointer(unsafe.StringData(blob)), unsafe.Pointer(empty))
	r.sizes = append(r.sizes, uintptr(len(blob)), 0)
	for _, it := range itabs {
		word, err := typeWord(it[0], it[1])
		if err != nil {
			return nil, err
		}
		r.bases = append(r.bases, word)
		r.sizes = append(r.sizes, 0)
	}
	r.pos = relocStart
	r.relocate(nArenas)
	if r.err != nil {
		return nil, r.err
	}
	for _, m := range maps {
		if err := r.buildMap(m.arena, m.off, m.plan, m.keys, m.vals, m.n, heads[m.keys].plan, heads[m.vals].plan); err != nil {
			return nil, err
		}
	}
	if rootArena >= nArenas || uintptr(rootOff)+ps.list[0].elem.size > r.sizes[rootArena] || heads[rootArena].plan != ps.list[0].elem {
		return nil, errors.New("snapshot: image's root is out of its arena")
	}
	return (*T)(unsafe.Add(r.bases[rootArena], rootOff)), nil
}

// mapRegion takes the memory outside the heap for the arenas not cut
// from data (their bytes start at byte at), or leaves them to the heap
// (offHeap unset) where none is offered.
func (r *imageReader) mapRegion(heads []arenaHead, at int) {
	need := 0
	for _, h := range heads {
		at = alignArena(at)
		size := uintptr(h.n) * h.plan.size
		if h.n > 0 && !(r.inPlace && size > 0 && r.cutInPlace(h.plan, at)) {
			need += alignArena(int(size))
		}
		at += int(size)
	}
	region, err := heappages.OffHeap(need)
	if err != nil || len(region) < need || need == 0 {
		r.offHeap = false
		return
	}
	r.region = region
}

// cutInPlace reports whether the array of plan p at byte at of the image
// may be used where it lies: its elements hold no pointers, so nothing is
// written into it at load and the collector never looks into it, and it
// lies at an address its type's alignment admits.
func (r *imageReader) cutInPlace(p *plan, at int) bool {
	return !hasPointers(p.t) && uintptr(unsafe.Pointer(&r.data[at]))%uintptr(p.t.Align()) == 0
}

// hasPointers reports whether a value of type t holds a pointer. A type
// that holds none cannot refer to itself, so the recursion ends.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

// relocate writes the pointers, group by group.
func (r *imageReader) relocate(nArenas int) {
	word := unsafe.Sizeof(uintptr(0))
	nGroups := r.number(uint64(len(r.data)))
	for range nGroups {
		arena, base, n := r.number(uint64(nArenas-1)), r.number(uint64(len(r.bases)-1)), r.number(uint64(len(r.data)))
		if r.err != nil {
			return
		}
		pairs := r.data[r.pos : r.pos+8*n]
		r.pos += 8 * n
		to, toSize := r.bases[base], r.sizes[base]
		at, atSize := r.bases[arena], r.sizes[arena]
		if toSize == 0 {
			// A type word or the empty slices' address: only its
			// first byte is pointed to.
			toSize = 1
		}
		if atSize < word {
			r.fail("a pointer out of its arena")
			return
		}
		for len(pairs) >= 8 {
			x := binary.LittleEndian.Uint64(pairs)
			pairs = pairs[8:]
			slot, off := uintptr(uint32(x)), uintptr(x>>32)
			if slot%word != 0 || slot > atSize-word || off >= toSize {
				r.fail("a pointer out of its arena")
				return
			}
			*(*unsafe.Pointer)(unsafe.Add(at, slot)) = unsafe.Add(to, off)
		}
	}
}

// typeWord returns the first word of an interface value of plan iface
// holding a pointer of plan concrete.
func typeWord(iface, concrete *plan) (unsafe.Pointer, error) {
	if iface.kind != reflect.Interface || concrete.kind != reflect.Pointer || !concrete.t.Implements(iface.t) {
		return nil, errors.New("snapshot: image's interface types are wrong")
	}
	var words [2]unsafe.Pointer
	reflect.NewAt(iface.t, unsafe.Pointer(&words)).Elem().Set(reflect.Zero(concrete.t))
	return words[0], nil
}

// buildMap makes the map at byte off of arena from its n keys and values.
func (r *imageReader) buildMap(arena, off int, p *plan, keys, vals, n int, kp, vp *plan) error {
	if p.kind != reflect.Map || kp != p.key || vp != p.elem || uintptr(off)+p.size > r.sizes[arena] ||
		uintptr(n)*kp.size != r.sizes[keys] || uintptr(n)*vp.size != r.sizes[vals] {
		return errors.New("snapshot: image's map is out of its arenas")
	}
	m := reflect.MakeMapWithSize(p.t, n)
	for i := range n {
		k := reflect.NewAt(kp.t, unsafe.Add(r.bases[keys], uintptr(i)*kp.size)).Elem()
		v := reflect.NewAt(vp.t, unsafe.Add(r.bases[vals], uintptr(i)*vp.size)).Elem()
		m.SetMapIndex(k, v)
	}
	if r.offHeap {
		// The map lives in the heap; only keep holds it alive.
		r.keep = append(r.keep, m.Interface())
	}
	reflect.NewAt(p.t, unsafe.Add(r.bases[arena], off)).Elem().Set(m)
	return nil
}
