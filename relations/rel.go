package relations

import (
	"iter"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bits-and-blooms/bitset"
)

// Rel is a binary relation over [0, n): row i holds the j with (i, j) in the
// relation.
//
// All rows live in one backing array, row i occupying words
// [i*w, (i+1)*w) with w = ceil(n/64), so whole-relation operations are
// linear passes over memory. The zero value is the empty relation over the
// empty domain; use NewRel for any other domain size.
type Rel struct {
	n     int
	w     int
	words []uint64
	// rows are bitset views over the backing array, built once so that Row
	// never allocates in the evaluator's loops (a block's relation builds
	// them at its first Row: nil until then).
	rows []bitset.BitSet
	// all views the whole backing array, for the whole-relation counts and
	// comparisons bitset provides (the bits past n in each row stay zero).
	all bitset.BitSet
	// scratch is reused by TransitiveClosure so that repeated closures of
	// the same relation do not allocate.
	scratch *sccScratch
}

// NewRel returns the empty relation over [0, n).
func NewRel(n int) *Rel {
	w := wordsFor(n)
	r := &Rel{n: n, w: w, words: make([]uint64, n*w)}
	r.all = *bitset.FromWithLength(uint(n*w*64), r.words)
	r.makeRows(make([]bitset.BitSet, n))
	return r
}

// makeRows makes the row views of r in views, which holds n of them.
func (r *Rel) makeRows(views []bitset.BitSet) {
	r.rows = views
	for i := range r.rows {
		// The capacity limit keeps a view that is grown by mistake from
		// spilling into the next row.
		r.rows[i] = *bitset.FromWithLength(uint(r.n), r.words[i*r.w:(i+1)*r.w:(i+1)*r.w])
	}
}

// nextInRow returns the smallest j >= from with (i, j) in r, as the row
// view's NextSet does, from the words.
func (r *Rel) nextInRow(i int, from uint) (uint, bool) {
	if from >= uint(r.n) {
		return 0, false
	}
	row := r.row(i)
	k := int(from >> 6)
	if x := row[k] >> (from & 63); x != 0 {
		return from + uint(bits.TrailingZeros64(x)), true
	}
	for k++; k < len(row); k++ {
		if row[k] != 0 {
			return uint(k<<6 + bits.TrailingZeros64(row[k])), true
		}
	}
	return 0, false
}

// Identity returns [S] = {(i, i) | i in S} over the domain of s.
func Identity(s *Set) *Rel {
	r := NewRel(s.n)
	for i := range s.All() {
		r.words[i*r.w+i>>6] |= 1 << (uint(i) & 63)
	}
	return r
}

// Product returns the Cartesian product a × b.
func Product(a, b *Set) *Rel {
	sameN("Product", a.n, b.n)
	r := NewRel(a.n)
	for i := range a.All() {
		copy(r.row(i), b.words)
	}
	return r
}

// AddProduct adds a × b to r: every pair of an atom of a and one of b. It
// is how a relation made of classes (the catalog's "same ..." relations)
// is filled a class at a time, a row a word operation, rather than a pair
// at a time.
func (r *Rel) AddProduct(a, b *Set) {
	sameN("Rel.AddProduct", r.n, a.n)
	sameN("Rel.AddProduct", r.n, b.n)
	for k, x := range a.words {
		for x != 0 {
			orWords(r.row(k<<6+bits.TrailingZeros64(x)), b.words)
			x &= x - 1
		}
	}
}

// FullRel returns [0, n) × [0, n).
func FullRel(n int) *Rel {
	r := NewRel(n)
	for i := 0; i < n; i++ {
		fillOnes(r.row(i), n)
	}
	return r
}

// row returns the words of row i.
func (r *Rel) row(i int) []uint64 {
	return r.words[i*r.w : (i+1)*r.w : (i+1)*r.w]
}

// N returns the domain size the relation was created with.
func (r *Rel) N() int { return r.n }

// Add inserts the pair (i, j); it panics if either atom is outside [0, n).
func (r *Rel) Add(i, j int) {
	inDomain("Rel.Add", i, r.n)
	inDomain("Rel.Add", j, r.n)
	r.words[i*r.w+j>>6] |= 1 << (uint(j) & 63)
}

// Remove deletes the pair (i, j); pairs outside the domain are ignored
// because they can never be members.
func (r *Rel) Remove(i, j int) {
	if uint(i) < uint(r.n) && uint(j) < uint(r.n) {
		r.words[i*r.w+j>>6] &^= 1 << (uint(j) & 63)
	}
}

// Has reports whether (i, j) is in the relation.
func (r *Rel) Has(i, j int) bool {
	return uint(i) < uint(r.n) && uint(j) < uint(r.n) &&
		r.words[i*r.w+j>>6]&(1<<(uint(j)&63)) != 0
}

// Row returns a live view of the successors of i as a bitset of length n:
// mutations through either side are visible on the other. Callers must not
// set bits at or beyond n, because growing the view detaches it from the
// relation. Row panics if i is outside [0, n).
func (r *Rel) Row(i int) *bitset.BitSet {
	inDomain("Rel.Row", i, r.n)
	if r.rows == nil {
		// A block's relation makes its views on first use (NewBlock).
		r.makeRows(make([]bitset.BitSet, r.n))
	}
	return &r.rows[i]
}

// Len returns the number of pairs.
func (r *Rel) Len() int { return int(r.all.Count()) }

// IsEmpty reports whether the relation has no pair.
func (r *Rel) IsEmpty() bool { return zeroWords(r.words) }

// Clear removes every pair, keeping the storage.
func (r *Rel) Clear() { clear(r.words) }

// Clone returns an independent copy of r.
func (r *Rel) Clone() *Rel {
	c := NewRel(r.n)
	copy(c.words, r.words)
	return c
}

// CopyFrom overwrites r with the pairs of o.
func (r *Rel) CopyFrom(o *Rel) {
	sameN("Rel.CopyFrom", r.n, o.n)
	copy(r.words, o.words)
}

// All yields the pairs in row-major ascending order.
func (r *Rel) All() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < r.n; i++ {
			for k, x := range r.row(i) {
				for x != 0 {
					j := k<<6 + bits.TrailingZeros64(x)
					x &= x - 1
					if !yield(i, j) {
						return
					}
				}
			}
		}
	}
}

// String formats the relation as "{(0,1) (2,3)}".
func (r *Rel) String() string {
	var b strings.Builder
	buf := make([]byte, 0, 20)
	b.WriteByte('{')
	first := true
	for i, j := range r.All() {
		if !first {
			b.WriteByte(' ')
		}
		first = false
		b.WriteByte('(')
		b.Write(strconv.AppendInt(buf[:0], int64(i), 10))
		b.WriteByte(',')
		b.Write(strconv.AppendInt(buf[:0], int64(j), 10))
		b.WriteByte(')')
	}
	b.WriteByte('}')
	return b.String()
}
