package relations

import (
	"iter"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bits-and-blooms/bitset"
)

// Set is a unary relation: a subset of the domain [0, n).
//
// The zero value is an empty set over the empty domain; use NewSet for any
// other domain size.
type Set struct {
	n     int
	words []uint64
	// view shares words so that the evaluator can hand the set to bitset
	// routines without copying.
	view bitset.BitSet
}

// NewSet returns an empty set over [0, n).
func NewSet(n int) *Set {
	s := &Set{n: n, words: make([]uint64, wordsFor(n))}
	s.view = *bitset.FromWithLength(uint(n), s.words)
	return s
}

// FullSet returns the set holding every atom of [0, n).
func FullSet(n int) *Set {
	s := NewSet(n)
	fillOnes(s.words, n)
	return s
}

// N returns the domain size the set was created with.
func (s *Set) N() int { return s.n }

// Add inserts atom i; it panics if i is outside [0, n).
func (s *Set) Add(i int) {
	inDomain("Set.Add", i, s.n)
	s.words[i>>6] |= 1 << (uint(i) & 63)
}

// Remove deletes atom i; atoms outside the domain are ignored because they
// can never be members.
func (s *Set) Remove(i int) {
	if uint(i) < uint(s.n) {
		s.words[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// Has reports whether atom i is a member; atoms outside the domain never are.
func (s *Set) Has(i int) bool {
	return uint(i) < uint(s.n) && s.words[i>>6]&(1<<(uint(i)&63)) != 0
}

// Len returns the number of members.
func (s *Set) Len() int { return int(s.view.Count()) }

// IsEmpty reports whether the set has no member.
func (s *Set) IsEmpty() bool { return zeroWords(s.words) }

// Clear removes every member, keeping the storage.
func (s *Set) Clear() { clear(s.words) }

// Clone returns an independent copy of s.
func (s *Set) Clone() *Set {
	c := NewSet(s.n)
	copy(c.words, s.words)
	return c
}

// CopyFrom overwrites s with the members of o.
func (s *Set) CopyFrom(o *Set) {
	sameN("Set.CopyFrom", s.n, o.n)
	copy(s.words, o.words)
}

// UnionWith adds the members of o to s and reports whether s changed, which
// is what fixpoint loops test for termination.
func (s *Set) UnionWith(o *Set) bool {
	sameN("Set.UnionWith", s.n, o.n)
	return orWordsChanged(s.words, o.words)
}

// IntersectWith keeps only the members of s that are also in o.
func (s *Set) IntersectWith(o *Set) {
	sameN("Set.IntersectWith", s.n, o.n)
	ow := o.words[:len(s.words)]
	for k := range s.words {
		s.words[k] &= ow[k]
	}
}

// DifferenceWith removes the members of o from s.
func (s *Set) DifferenceWith(o *Set) {
	sameN("Set.DifferenceWith", s.n, o.n)
	ow := o.words[:len(s.words)]
	for k := range s.words {
		s.words[k] &^= ow[k]
	}
}

// Complement replaces s with [0, n) minus s.
func (s *Set) Complement() {
	for k := range s.words {
		s.words[k] = ^s.words[k]
	}
	if len(s.words) > 0 {
		s.words[len(s.words)-1] &= tailMask(s.n)
	}
}

// Equal reports whether s and o have the same members.
func (s *Set) Equal(o *Set) bool {
	sameN("Set.Equal", s.n, o.n)
	return s.view.Equal(&o.view)
}

// All yields the members in ascending order.
func (s *Set) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for k, x := range s.words {
			for x != 0 {
				i := k<<6 + bits.TrailingZeros64(x)
				x &= x - 1
				if !yield(i) {
					return
				}
			}
		}
	}
}

// Bits returns a live view of the set as a bitset of length n: mutations
// through either side are visible on the other. Callers must not set bits
// at or beyond n, because growing the view detaches it from the set.
func (s *Set) Bits() *bitset.BitSet { return &s.view }

// String formats the set as "{0 3 5}".
func (s *Set) String() string {
	var b strings.Builder
	buf := make([]byte, 0, 20)
	b.WriteByte('{')
	first := true
	for i := range s.All() {
		if !first {
			b.WriteByte(' ')
		}
		first = false
		b.Write(strconv.AppendInt(buf[:0], int64(i), 10))
	}
	b.WriteByte('}')
	return b.String()
}
