package rules

import (
	"iter"
	"math/bits"
)

// relSet is a set of relations of one program, one bit per relation: the
// dependency sets of the compiler (computeDeps) hold a few dozen base
// relations each and are unioned along every rule, which maps made the
// larger part of compiling a model.
type relSet []uint64

// newRelSet returns an empty set for a program of n relations.
func newRelSet(n int) relSet { return make(relSet, (n+63)/64) }

// has reports whether r is in the set.
func (s relSet) has(r relID) bool {
	w := int(r) >> 6
	return w < len(s) && s[w]&(1<<(uint(r)&63)) != 0
}

// add puts r in the set, which must be large enough for it.
func (s relSet) add(r relID) { s[int(r)>>6] |= 1 << (uint(r) & 63) }

// unionWith adds the members of o.
func (s relSet) unionWith(o relSet) {
	for i, w := range o {
		s[i] |= w
	}
}

// all yields the members in increasing order.
func (s relSet) all() iter.Seq[relID] {
	return func(yield func(relID) bool) {
		for i, w := range s {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				if !yield(relID(i<<6 | b)) {
					return
				}
				w &= w - 1
			}
		}
	}
}
