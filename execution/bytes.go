package execution

import (
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// This file gives memory its bytes (8.2): each location is a range of
// bytes, each ld, st, atom and red accesses the bytes [address+offset,
// address+offset+size) of its type, and a read may take different bytes
// from different writes. A location is cut into segments at every byte
// where some access may start or end: a read that spans several segments
// becomes one read event per segment (a piece), so that reads-from relates
// each piece to the one write it reads, as 8.9.7 reads communication byte
// by byte. A test whose accesses all cover whole locations (every test
// without types or offsets) has one segment per location and no pieces.

// Segment is a range of bytes of a location: [Off, Off+Size).
type Segment struct{ Off, Size int }

// Segments lists the segments of a location, in byte order.
func (li LocInfo) Segments() []Segment {
	out := make([]Segment, len(li.Cuts))
	for k, c := range li.Cuts {
		end := li.Size
		if k+1 < len(li.Cuts) {
			end = li.Cuts[k+1]
		}
		out[k] = Segment{Off: c, Size: end - c}
	}
	return out
}

// segmentsIn returns the segments of a location that lie in [off,
// off+size), clipped to it.
func (li LocInfo) segmentsIn(off, size int) []Segment {
	var out []Segment
	for _, s := range li.Segments() {
		lo, hi := max(s.Off, off), min(s.Off+s.Size, off+size)
		if lo < hi {
			out = append(out, Segment{Off: lo, Size: hi - lo})
		}
	}
	return out
}

// sizedAccess reports the accesses that have a size of their own: ld, st,
// atom and red, and the .release form of st.async, a store into global
// memory whose page gives it the types of st down to 8 bits. Every other
// memory instruction (multimem ones included) accesses whole locations.
func sizedAccess(in *litmus.Instr) bool {
	switch in.Op {
	case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
		return !in.Multimem
	case litmus.OpStAsync:
		return in.Sem == litmus.SemRelease && in.AtomOp == ""
	}
	return false
}

// wholeLocation makes a memory event access every byte of its location.
func (l *Layout) wholeLocation(ev *Event) {
	ev.Off, ev.Size = 0, l.Locs[ev.Loc].Size
	ev.OpOff, ev.OpSize, ev.Signed = 0, ev.Size, true
}

// sizing collects the bytes the accesses of a test reach, per location
// root: where segments start (cuts), how far accesses reach (size), and,
// for a variable declared without a type, the type of its widest access at
// byte 0, which decides how its final value reads.
type sizing struct {
	cuts   map[int][]int // a set: each cut once, in no order
	size   map[int]int
	widest map[int]litmus.DataType
}

// newSizing returns an empty sizing. Its maps are made by the first
// access recorded: most explorers record none.
func newSizing() *sizing { return &sizing{} }

// makeMaps makes the sizing's maps if it has none yet.
func (z *sizing) makeMaps() {
	if z.cuts == nil {
		z.cuts, z.size, z.widest = map[int][]int{}, map[int]int{}, map[int]litmus.DataType{}
	}
}

// addCut adds c to the set of cuts.
func addCut(cuts []int, c int) []int {
	if slices.Contains(cuts, c) {
		return cuts
	}
	return append(cuts, c)
}

// add records an access of in to the variable root.
func (z *sizing) add(root int, in *litmus.Instr) {
	z.makeMaps()
	var buf [4]litmus.Element
	for _, el := range in.AppendElements(buf[:0]) {
		z.cuts[root] = addCut(addCut(z.cuts[root], int(el.Off)), int(el.Off)+el.Size)
	}
	off, n := in.Extent()
	z.size[root] = max(z.size[root], int(off)+n)
	if t := in.Type; t.Name != "" && off == 0 && t.RegSize() > z.widest[root].RegSize() {
		z.widest[root] = t
	}
}

// measure sets the size, the segments and the signedness of every
// location from the accesses through address names; accesses through
// registers reach locations only known as runs are explored, which
// Prepare adds with grow.
func (l *Layout) measure(t *litmus.Test) error {
	z := newSizing()
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if !sizedAccess(in) || in.Addr.Kind != litmus.OperandAddr {
				continue
			}
			if a, ok := l.Addr(in.Addr.Addr); ok {
				if err := l.checkDeclared(in, l.Addrs[a].Root); err != nil {
					return err
				}
				z.add(l.Addrs[a].Root, in)
			}
		}
	}
	l.sizing = z
	return l.applySizing(t)
}

// checkDeclared reports an access past the end of a variable declared with
// a type.
func (l *Layout) checkDeclared(in *litmus.Instr, root int) error {
	decl, size := l.Addrs[root].Type, l.Addrs[root].DeclSize
	if off, n := in.Extent(); decl.Name != "" && int(off)+n > size {
		return errAt(in.Pos, "%q accesses bytes %d to %d of %s, which is declared %s with %s (declare an array, %s[N], for more)", in.Text, off, int(off)+n-1, l.Addrs[root].Name, decl, byteCount(size), l.Addrs[root].Name)
	}
	return nil
}

// applySizing sets every location's size, segments and signedness from
// l.sizing.
func (l *Layout) applySizing(t *litmus.Test) error {
	var errs source.List
	z := l.sizing
	for i := range l.Locs {
		li := &l.Locs[i]
		decl := l.Addrs[li.Root].Type
		switch {
		case li.MBarrier > 0:
			li.Size, li.Signed = 8, true // an mbarrier object is a .b64 (PTX ISA, mbarrier)
		case decl.Name != "":
			li.Size, li.Signed = l.Addrs[li.Root].DeclSize, decl.Signed && decl.Packed == 0
		default:
			li.Size, li.Signed = max(z.size[li.Root], litmus.DefaultSize), true
			if w, ok := z.widest[li.Root]; ok {
				li.Signed = w.Signed && w.Packed == 0
			}
		}
		cuts := []int{0}
		for _, c := range z.cuts[li.Root] {
			if c > 0 && c < li.Size {
				cuts = append(cuts, c)
			}
		}
		slices.Sort(cuts)
		li.Cuts = cuts
		if !litmus.FitsBytes(li.Init, li.Size) && li.MBarrier == 0 {
			errs.Add(t.Addresses[li.Root].Pos, "the initial value %d of %s does not fit in its %s", li.Init, li.Name, byteCount(li.Size))
		}
	}
	if errs.HasErrors() {
		return errs
	}
	return nil
}

// reached records that instruction in reaches location loc through a
// register, in grow when the layout must grow for it (a byte where no
// segment starts, or past the end of a variable without a type).
func (l *Layout) reached(in *litmus.Instr, loc int, grow *sizing) error {
	li := l.Locs[loc]
	if err := l.checkDeclared(in, li.Root); err != nil {
		return err
	}
	off, n := in.Extent()
	need := int(off)+n > li.Size
	var buf [4]litmus.Element
	for _, el := range in.AppendElements(buf[:0]) {
		for _, c := range []int{int(el.Off), int(el.Off) + el.Size} {
			if c < li.Size && !slices.Contains(li.Cuts, c) {
				need = true
			}
		}
	}
	if need {
		grow.add(li.Root, in)
	}
	return nil
}

// grow adds what runs found about accesses through registers to the
// sizing; it reports whether anything changed.
func (l *Layout) grow(t *litmus.Test, more *sizing) (bool, error) {
	changed := false
	l.sizing.makeMaps()
	for root, cs := range more.cuts {
		for _, c := range cs {
			if !slices.Contains(l.sizing.cuts[root], c) {
				l.sizing.cuts[root] = append(l.sizing.cuts[root], c)
				changed = true
			}
		}
	}
	for root, n := range more.size {
		if n > l.sizing.size[root] {
			l.sizing.size[root] = n
			changed = true
		}
	}
	if !changed {
		return false, nil
	}
	return true, l.applySizing(t)
}

// checkWhole reports a run event that accesses a whole location (an
// asynchronous copy, wgmma, mbarrier or tcgen05 operation) on a location
// that ld, st, atom or red access in parts: ptxmm does not split those
// accesses into pieces.
func (l *Layout) checkWhole(runs [][]*Run) error {
	for _, rs := range runs {
		for _, r := range rs {
			for i := range r.Events {
				ev := &r.Events[i]
				if !ev.IsMemory() || sizedAccess(ev.Instr) || len(l.Locs[ev.Loc].Cuts) < 2 {
					continue
				}
				return errAt(ev.Instr.Pos, "%q accesses the whole of %s, which ld, st, atom or red access in parts: ptxmm models this instruction on whole locations only", ev.Instr.Text, l.Locs[ev.Loc].Name)
			}
		}
	}
	return nil
}

// byteCount says "1 byte" or "N bytes".
func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Truncate keeps the low size bytes of n, sign- or zero-extended.
func Truncate(n int64, size int, signed bool) int64 { return truncate(n, size, signed) }

// truncate keeps the low size bytes of n, sign- or zero-extended.
func truncate(n int64, size int, signed bool) int64 {
	if size >= 8 {
		return n
	}
	bits := uint(8 * size)
	u := uint64(n) & (1<<bits - 1)
	if signed && u&(1<<(bits-1)) != 0 {
		return int64(u | ^uint64(0)<<bits)
	}
	return int64(u)
}

// bytesOf returns size bytes of n from byte off, as an unsigned number;
// bytes past the eighth repeat the sign, as the bytes of a sign-extended
// initial value do.
func bytesOf(n int64, off, size int) int64 {
	if off >= 8 {
		off = 7
		n >>= 63
	}
	return truncate(n>>(8*uint(off)), size, false)
}

// readBytes is the value read event r takes from write w, which wrote v: the bytes of w
// it reads, extended by r's type when r is a whole operation, and as
// unsigned bytes when it is one piece of a wider read. Addresses and
// mbarrier states have no bytes: only a read of exactly the bytes of their
// write can take them.
func readBytes(v Value, w, r *Event) (Value, error) {
	if v.IsAddr || v.IsMBar {
		if w.Off == r.Off && w.Size == r.Size {
			return v, nil
		}
		return Value{}, fmt.Errorf("it reads bytes %d to %d of a value that is not an integer (written by %q at bytes %d to %d)",
			r.Off, r.Off+r.Size-1, instrText(w), w.Off, w.Off+w.Size-1)
	}
	b := bytesOf(v.N, r.Off-w.Off, r.Size)
	if r.Off == r.OpOff && r.Size == r.OpSize {
		return Int(truncate(b, r.Size, r.Signed)), nil
	}
	return Int(b), nil
}

// instrText names the instruction of an event for messages.
func instrText(e *Event) string {
	if e.Instr == nil {
		return "the initial value"
	}
	return e.Instr.Text
}

// FinalValue returns the value location loc holds when segment k of it
// holds the bytes written by writes[k] (see LocInfo.Segments), read as the
// location reads (LocInfo.Signed).
func (x *Execution) FinalValue(loc int, writes []int) Value {
	li := &x.Layout.Locs[loc]
	if len(li.Cuts) == 1 {
		w := &x.Events[writes[0]]
		if w.Value.IsAddr || w.Value.IsMBar || w.Thread >= 0 && w.Off == 0 && w.Size == li.Size && w.Signed == li.Signed || li.Size >= 8 {
			return w.Value
		}
		return Int(truncate(bytesOf(w.Value.N, -w.Off, li.Size), li.Size, li.Signed))
	}
	var n int64
	for k, s := range li.Segments() {
		w := &x.Events[writes[k]]
		if w.Value.IsAddr || w.Value.IsMBar {
			return w.Value
		}
		if s.Off < 8 {
			n |= bytesOf(w.Value.N, s.Off-w.Off, min(s.Size, 8-s.Off)) << (8 * uint(s.Off))
		}
	}
	return Int(truncate(n, li.Size, li.Signed))
}

// Overlap reports whether two memory events access a common byte of the
// same location (8.2.1).
func Overlap(a, b *Event) bool {
	return a.Loc == b.Loc && a.Off < b.Off+b.Size && b.Off < a.Off+a.Size
}

// Unordered reports two events of one instruction instance that program
// order does not relate: the elements of a vector or packed access (8.2.4,
// 8.2.5), and the pieces of one read.
func Unordered(a, b *Event) bool {
	if a.Thread != b.Thread || a.Step != b.Step || a.Instr != b.Instr || a.Instr == nil || !sizedAccess(a.Instr) {
		return false
	}
	return a.Elem != b.Elem || a.Kind == KindRead && b.Kind == KindRead
}
