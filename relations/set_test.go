package relations

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetConstructors(t *testing.T) {
	for _, n := range testSizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			empty := NewSet(n)
			assert.Equal(t, n, empty.N())
			assert.True(t, empty.IsEmpty())
			assertSet(t, refSet{}, empty)

			full := FullSet(n)
			want := refSet{}
			for i := 0; i < n; i++ {
				want[i] = true
			}
			assertSet(t, want, full)
			assert.Equal(t, n == 0, full.IsEmpty())
		})
	}
}

func TestSetElementOps(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		s, ref := randSet(rng, n, d)
		assertSet(t, ref, s)
		assert.Equal(t, len(ref) == 0, s.IsEmpty())
		for range 2 * n {
			i := rng.IntN(n)
			if rng.IntN(2) == 0 {
				s.Add(i)
				ref[i] = true
			} else {
				s.Remove(i)
				delete(ref, i)
			}
		}
		assertSet(t, ref, s)
		// Atoms outside the domain are never members.
		assert.False(t, s.Has(-1))
		assert.False(t, s.Has(n))
		s.Remove(n)
		s.Remove(-1)
		assertSet(t, ref, s)
	})
}

func TestSetCopies(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		s, ref := randSet(rng, n, d)
		c := s.Clone()
		assert.True(t, c.Equal(s))
		c.Complement()
		assertSet(t, ref, s) // the clone is independent

		o, oref := randSet(rng, n, d)
		c.CopyFrom(o)
		assertSet(t, oref, c)

		c.Clear()
		assert.True(t, c.IsEmpty())
		assertSet(t, refSet{}, c)
	})
}

func TestSetAlgebra(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		a, aref := randSet(rng, n, d)
		b, bref := randSet(rng, n, 0.5)

		union, uref := a.Clone(), refSet{}
		for i := range aref {
			uref[i] = true
		}
		for i := range bref {
			uref[i] = true
		}
		changed := union.UnionWith(b)
		assertSet(t, uref, union)
		assert.Equal(t, len(uref) != len(aref), changed)
		assert.False(t, union.UnionWith(b), "second union adds nothing")

		inter, iref := a.Clone(), refSet{}
		for i := range aref {
			if bref[i] {
				iref[i] = true
			}
		}
		inter.IntersectWith(b)
		assertSet(t, iref, inter)

		diff, dref := a.Clone(), refSet{}
		for i := range aref {
			if !bref[i] {
				dref[i] = true
			}
		}
		diff.DifferenceWith(b)
		assertSet(t, dref, diff)

		comp, cref := a.Clone(), refSet{}
		for i := 0; i < n; i++ {
			if !aref[i] {
				cref[i] = true
			}
		}
		comp.Complement()
		assertSet(t, cref, comp)

		assert.Equal(t, setEqualRef(aref, bref), a.Equal(b))
		assert.True(t, a.Equal(a.Clone()))
	})
}

func setEqualRef(a, b refSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !b[i] {
			return false
		}
	}
	return true
}

func TestSetAllAndString(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		s, ref := randSet(rng, n, d)
		var want []int
		for i := 0; i < n; i++ {
			if ref[i] {
				want = append(want, i)
			}
		}
		got := slices.Collect(s.All())
		assert.Equal(t, want, got)

		words := make([]string, len(want))
		for k, i := range want {
			words[k] = fmt.Sprint(i)
		}
		assert.Equal(t, "{"+strings.Join(words, " ")+"}", s.String())

		// Stopping early yields a prefix.
		var prefix []int
		for i := range s.All() {
			prefix = append(prefix, i)
			if len(prefix) == 2 {
				break
			}
		}
		assert.Equal(t, want[:min(2, len(want))], prefix)
	})
}

func TestSetString(t *testing.T) {
	s := NewSet(8)
	assert.Equal(t, "{}", s.String())
	for _, i := range []int{0, 3, 5} {
		s.Add(i)
	}
	assert.Equal(t, "{0 3 5}", s.String())
}

func TestSetBitsIsLive(t *testing.T) {
	s := NewSet(70)
	b := s.Bits()
	require.Equal(t, uint(70), b.Len())
	s.Add(65)
	assert.True(t, b.Test(65))
	b.Set(3)
	assert.True(t, s.Has(3))
	b.Clear(65)
	assert.False(t, s.Has(65))
	assert.Equal(t, uint(1), b.Count())
}

func TestSetZeroValue(t *testing.T) {
	var s Set
	assert.Equal(t, 0, s.N())
	assert.True(t, s.IsEmpty())
	assert.Equal(t, "{}", s.String())
	s.Complement()
	assert.True(t, s.IsEmpty())
}
