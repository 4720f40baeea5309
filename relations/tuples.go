package relations

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// Tuples is a relation of fixed arity kept as a set of tuples. It serves
// arities of three and more, where an n^arity bit matrix would not pay.
//
// Tuples are stored back to back in one slice and indexed by an
// open-addressing hash table of positions, so adding a tuple allocates only
// when the storage grows, never per tuple.
type Tuples struct {
	arity int
	count int
	data  []int // count*arity values, tuple i at data[i*arity:(i+1)*arity]
	// table has a power-of-two length and is at most half full; an entry
	// is 0 when free and otherwise a tuple index plus one, so clearing it
	// is a plain memory clear.
	table []int32
}

// NewTuples returns an empty relation of the given arity; it panics if the
// arity is negative.
func NewTuples(arity int) *Tuples {
	if arity < 0 {
		panic(fmt.Sprintf("relations: NewTuples: negative arity %d", arity))
	}
	return &Tuples{arity: arity}
}

// Arity returns the length every tuple of t has.
func (t *Tuples) Arity() int { return t.arity }

// sameArity panics when a tuple or operand does not fit t: like a domain
// size mismatch, it can only come from a programming error.
func (t *Tuples) sameArity(op string, arity int) {
	if arity != t.arity {
		panic(fmt.Sprintf("relations: Tuples.%s: arity mismatch (%d vs %d)", op, t.arity, arity))
	}
}

// tuple returns the stored tuple with index i.
func (t *Tuples) tuple(i int) []int {
	return t.data[i*t.arity : (i+1)*t.arity : (i+1)*t.arity]
}

// hashTuple mixes every value so that tuples differing in any position, or
// only in the order of their values, land in different slots.
func hashTuple(tuple []int) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range tuple {
		h ^= uint64(x)
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// find returns the table slot holding tuple, or the free slot where it
// would go, and whether it is present.
func (t *Tuples) find(tuple []int) (slot int, found bool) {
	mask := len(t.table) - 1
	p := int(hashTuple(tuple)) & mask
	for {
		e := t.table[p]
		if e == 0 {
			return p, false
		}
		if slices.Equal(t.tuple(int(e-1)), tuple) {
			return p, true
		}
		p = (p + 1) & mask
	}
}

// rehash rebuilds the table with room for at least want tuples.
func (t *Tuples) rehash(want int) {
	size := max(len(t.table), 8)
	for size < 2*want {
		size *= 2
	}
	if size != len(t.table) {
		t.table = make([]int32, size)
	} else {
		clear(t.table)
	}
	for i := 0; i < t.count; i++ {
		slot, _ := t.find(t.tuple(i))
		t.table[slot] = int32(i + 1)
	}
}

// Add inserts a copy of tuple and reports whether it was new; it panics if
// the tuple's length is not the arity.
func (t *Tuples) Add(tuple []int) bool {
	t.sameArity("Add", len(tuple))
	if 2*(t.count+1) > len(t.table) {
		t.rehash(t.count + 1)
	}
	slot, found := t.find(tuple)
	if found {
		return false
	}
	t.table[slot] = int32(t.count + 1)
	t.data = append(t.data, tuple...)
	t.count++
	return true
}

// Has reports whether tuple is in t; it panics if the tuple's length is not
// the arity.
func (t *Tuples) Has(tuple []int) bool {
	t.sameArity("Has", len(tuple))
	if t.count == 0 {
		return false
	}
	_, found := t.find(tuple)
	return found
}

// Len returns the number of tuples.
func (t *Tuples) Len() int { return t.count }

// Clear removes every tuple, keeping the storage.
func (t *Tuples) Clear() {
	t.count = 0
	t.data = t.data[:0]
	clear(t.table)
}

// Clone returns an independent copy of t.
func (t *Tuples) Clone() *Tuples {
	return &Tuples{
		arity: t.arity,
		count: t.count,
		data:  slices.Clone(t.data),
		table: slices.Clone(t.table),
	}
}

// UnionWith adds the tuples of o to t and reports whether t changed.
func (t *Tuples) UnionWith(o *Tuples) bool {
	t.sameArity("UnionWith", o.arity)
	if t == o {
		return false
	}
	changed := false
	for i := 0; i < o.count; i++ {
		if t.Add(o.tuple(i)) {
			changed = true
		}
	}
	return changed
}

// DifferenceWith removes the tuples of o from t. Surviving tuples are
// compacted in place and the index rebuilt once, rather than deleting from
// the open-addressing table one tuple at a time.
func (t *Tuples) DifferenceWith(o *Tuples) {
	t.sameArity("DifferenceWith", o.arity)
	if t == o {
		t.Clear()
		return
	}
	if o.count == 0 {
		return
	}
	kept := 0
	for i := 0; i < t.count; i++ {
		tup := t.tuple(i)
		if o.Has(tup) {
			continue
		}
		if kept != i {
			copy(t.tuple(kept), tup)
		}
		kept++
	}
	if kept == t.count {
		return
	}
	t.count = kept
	t.data = t.data[:kept*t.arity]
	t.rehash(kept)
}

// Equal reports whether t and o hold the same tuples.
func (t *Tuples) Equal(o *Tuples) bool {
	t.sameArity("Equal", o.arity)
	if t.count != o.count {
		return false
	}
	for i := 0; i < t.count; i++ {
		if !o.Has(t.tuple(i)) {
			return false
		}
	}
	return true
}

// sortedOrder returns the tuple indices in lexicographic order of tuples.
func (t *Tuples) sortedOrder() []int32 {
	order := make([]int32, t.count)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return slices.Compare(t.tuple(int(a)), t.tuple(int(b)))
	})
	return order
}

// All yields the tuples in ascending lexicographic order. The yielded slice
// is reused for the next tuple, so a caller that keeps a tuple past its
// loop iteration must copy it; writing to it does not affect t. t must not
// be modified during the iteration.
func (t *Tuples) All() iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		buf := make([]int, t.arity)
		for _, i := range t.sortedOrder() {
			copy(buf, t.tuple(int(i)))
			if !yield(buf) {
				return
			}
		}
	}
}

// String formats the relation as "{(0,1,2) (3,4,5)}", tuples sorted.
func (t *Tuples) String() string {
	var b strings.Builder
	buf := make([]byte, 0, 20)
	b.WriteByte('{')
	for n, i := range t.sortedOrder() {
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('(')
		for k, x := range t.tuple(int(i)) {
			if k > 0 {
				b.WriteByte(',')
			}
			b.Write(strconv.AppendInt(buf[:0], int64(x), 10))
		}
		b.WriteByte(')')
	}
	b.WriteByte('}')
	return b.String()
}
