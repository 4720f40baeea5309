package relations

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRelConstructors(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		empty := NewRel(n)
		assert.True(t, empty.IsEmpty())
		assertRel(t, newRefRel(n), empty)

		full, fref := FullRel(n), newRefRel(n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				fref.add(i, j)
			}
		}
		assertRel(t, fref, full)

		a, aref := randSet(rng, n, d)
		b, bref := randSet(rng, n, 0.5)

		id, idref := Identity(a), newRefRel(n)
		for i := range aref {
			idref.add(i, i)
		}
		assertRel(t, idref, id)

		prod, pref := Product(a, b), newRefRel(n)
		for i := range aref {
			for j := range bref {
				pref.add(i, j)
			}
		}
		assertRel(t, pref, prod)

		// AddProduct adds the product to the pairs a relation has.
		sum, sref := randRel(rng, n, d)
		sum.AddProduct(a, b)
		for p := range pref.pairs {
			sref.add(p[0], p[1])
		}
		assertRel(t, sref, sum)
	})
}

func TestRelElementOps(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d)
		assertRel(t, ref, r)
		assert.Equal(t, len(ref.pairs) == 0, r.IsEmpty())
		for range 4 * n {
			i, j := rng.IntN(n), rng.IntN(n)
			if rng.IntN(2) == 0 {
				r.Add(i, j)
				ref.add(i, j)
			} else {
				r.Remove(i, j)
				delete(ref.pairs, pair{i, j})
			}
		}
		assertRel(t, ref, r)
		// Pairs outside the domain are never members.
		assert.False(t, r.Has(-1, 0))
		assert.False(t, r.Has(0, n))
		assert.False(t, r.Has(n, 0))
		r.Remove(0, n)
		r.Remove(n, n)
		assertRel(t, ref, r)
	})
}

func TestRelCopies(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d)
		c := r.Clone()
		assert.True(t, c.Equal(r))
		c.Complement()
		assertRel(t, ref, r) // the clone is independent

		o, oref := randRel(rng, n, d)
		c.CopyFrom(o)
		assertRel(t, oref, c)

		c.Clear()
		assert.True(t, c.IsEmpty())
		assertRel(t, newRefRel(n), c)
	})
}

func TestRelAlgebra(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		a, aref := randRel(rng, n, d)
		b, bref := randRel(rng, n, 0.3)

		union, uref := a.Clone(), aref.clone()
		for p := range bref.pairs {
			uref.pairs[p] = true
		}
		changed := union.UnionWith(b)
		assertRel(t, uref, union)
		assert.Equal(t, len(uref.pairs) != len(aref.pairs), changed)
		assert.False(t, union.UnionWith(b), "second union adds nothing")

		inter, iref := a.Clone(), newRefRel(n)
		for p := range aref.pairs {
			if bref.pairs[p] {
				iref.pairs[p] = true
			}
		}
		inter.IntersectWith(b)
		assertRel(t, iref, inter)

		diff, dref := a.Clone(), newRefRel(n)
		for p := range aref.pairs {
			if !bref.pairs[p] {
				dref.pairs[p] = true
			}
		}
		diff.DifferenceWith(b)
		assertRel(t, dref, diff)

		comp, cref := a.Clone(), newRefRel(n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if !aref.has(i, j) {
					cref.add(i, j)
				}
			}
		}
		comp.Complement()
		assertRel(t, cref, comp)

		assert.Equal(t, relEqualRef(aref, bref), a.Equal(b))
		assert.True(t, a.Equal(a.Clone()))
		if n > 0 {
			flipped := a.Clone()
			if flipped.Has(0, n-1) {
				flipped.Remove(0, n-1)
			} else {
				flipped.Add(0, n-1)
			}
			assert.False(t, a.Equal(flipped))
		}
	})
}

func relEqualRef(a, b refRel) bool {
	if len(a.pairs) != len(b.pairs) {
		return false
	}
	for p := range a.pairs {
		if !b.pairs[p] {
			return false
		}
	}
	return true
}

func TestRelAllAndString(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d)
		var want []pair
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if ref.has(i, j) {
					want = append(want, pair{i, j})
				}
			}
		}
		var got []pair
		for i, j := range r.All() {
			got = append(got, pair{i, j})
		}
		assert.Equal(t, want, got)

		parts := make([]string, len(want))
		for k, p := range want {
			parts[k] = fmt.Sprintf("(%d,%d)", p[0], p[1])
		}
		assert.Equal(t, "{"+strings.Join(parts, " ")+"}", r.String())

		var prefix []pair
		for i, j := range r.All() {
			prefix = append(prefix, pair{i, j})
			if len(prefix) == 3 {
				break
			}
		}
		assert.Equal(t, want[:min(3, len(want))], prefix)
	})
}

func TestRelString(t *testing.T) {
	r := NewRel(4)
	assert.Equal(t, "{}", r.String())
	r.Add(2, 3)
	r.Add(0, 1)
	assert.Equal(t, "{(0,1) (2,3)}", r.String())
}

func TestRelRowIsLive(t *testing.T) {
	r := NewRel(130)
	row := r.Row(2)
	require.Equal(t, uint(130), row.Len())
	r.Add(2, 129)
	assert.True(t, row.Test(129))
	row.Set(64)
	assert.True(t, r.Has(2, 64))
	row.Clear(129)
	assert.False(t, r.Has(2, 129))
	// Views of different rows do not overlap.
	r.Row(1).SetAll()
	r.Row(3).SetAll()
	assert.Equal(t, uint(1), row.Count())
	assert.Equal(t, 1+2*130, r.Len())
	assertTailClear(t, r.row(1), 130)
	// Views see whole-relation operations too.
	r.Complement()
	assert.Equal(t, uint(129), row.Count())
	assert.True(t, r.Row(1).None())
}

func TestRelZeroValue(t *testing.T) {
	var r Rel
	assert.Equal(t, 0, r.N())
	assert.True(t, r.IsEmpty())
	assert.Equal(t, "{}", r.String())
	r.Complement()
	r.TransitiveClosure()
	assert.True(t, r.IsEmpty())
	_, ok := r.Acyclic()
	assert.True(t, ok)
}

func TestRelEdgeCases(t *testing.T) {
	t.Run("n=1 self loop", func(t *testing.T) {
		r := NewRel(1)
		r.Add(0, 0)
		assert.Equal(t, 1, r.Len())
		w, ok := r.Irreflexive()
		assert.False(t, ok)
		assert.Equal(t, 0, w)
		cycle, ok := r.Acyclic()
		assert.False(t, ok)
		assert.Equal(t, []int{0}, cycle)
		r.TransitiveClosure()
		assert.Equal(t, "{(0,0)}", r.String())
		r.Complement()
		assert.True(t, r.IsEmpty())
		r.ReflexiveTransitiveClosure()
		assert.Equal(t, "{(0,0)}", r.String())
	})
	t.Run("full", func(t *testing.T) {
		for _, n := range []int{1, 64, 65} {
			r := FullRel(n)
			r.TransitiveClosure()
			assert.True(t, r.Equal(FullRel(n)))
			inv := r.Inverse()
			assert.True(t, inv.Equal(r))
			r.Complement()
			assert.True(t, r.IsEmpty())
		}
	})
	t.Run("n=0", func(t *testing.T) {
		r := NewRel(0)
		s := NewSet(0)
		r.TransitiveClosure()
		r.ReflexiveTransitiveClosure()
		WarshallClosure(r)
		ComposeInto(NewRel(0), r, r)
		assert.False(t, ComposeUnionInto(NewRel(0), r, r))
		r.DomainInto(s)
		r.RangeInto(s)
		ImageInto(NewSet(0), s, r)
		assert.True(t, r.Inverse().IsEmpty())
		assert.True(t, Identity(s).IsEmpty())
		assert.True(t, Product(s, s).IsEmpty())
		assert.True(t, FullRel(0).IsEmpty())
		_, ok := r.Irreflexive()
		assert.True(t, ok)
		cycle, ok := r.Acyclic()
		assert.True(t, ok)
		assert.Nil(t, cycle)
	})
}
