package relations

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// checkCycleTest compares CycleTest's verdicts with the reference girth,
// and AcyclicFrom with the verdict on the atoms that reach a cycle.
func checkCycleTest(t *testing.T, ct *CycleTest, r *Rel) {
	t.Helper()
	cyclic := refGirth(refFromRel(r)) > 0
	assert.Equal(t, !cyclic, ct.Acyclic(r))
	all := FullSet(r.N())
	assert.Equal(t, !cyclic, ct.AcyclicFrom(r, all), "from every atom")
	assert.True(t, ct.AcyclicFrom(r, NewSet(r.N())), "from no atom")
	// From a single atom: a cycle is reachable exactly when the atom reaches
	// an atom on a cycle, i.e. some atom it reaches reaches itself.
	reach := r.Clone()
	reach.TransitiveClosure()
	for v := 0; v < r.N(); v++ {
		want := true
		for u := 0; u < r.N(); u++ {
			if (u == v || reach.Has(v, u)) && reach.Has(u, u) {
				want = false
			}
		}
		one := NewSet(r.N())
		one.Add(v)
		assert.Equal(t, want, ct.AcyclicFrom(r, one), "from atom %d", v)
	}
}

func TestCycleTestRandom(t *testing.T) {
	var ct CycleTest // reused across sizes, as a search reuses it
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, _ := randRel(rng, n, d)
		checkCycleTest(t, &ct, r)
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				r.Remove(i, j)
			}
		}
		checkCycleTest(t, &ct, r)
		if n > 1 {
			r.Add(n-1, rng.IntN(n-1))
			checkCycleTest(t, &ct, r)
		}
	})
}

func TestCycleTestStructured(t *testing.T) {
	var ct CycleTest
	for _, c := range structuredRels() {
		t.Run(c.name, func(t *testing.T) { checkCycleTest(t, &ct, c.rel) })
	}
}

// TestCycleTestGrowing adds the pairs of a chain one at a time, then the
// pair closing it, testing each step from the new pair's target only, as
// an order search does.
func TestCycleTestGrowing(t *testing.T) {
	for _, n := range []int{5, 64, 65, 300} {
		var ct CycleTest
		r := NewRel(n)
		roots := NewSet(n)
		for i := 0; i+1 < n; i++ {
			r.Add(i, i+1)
			roots.Clear()
			roots.Add(i + 1)
			assert.True(t, ct.AcyclicFrom(r, roots), "n=%d after %d->%d", n, i, i+1)
		}
		assert.True(t, ct.Acyclic(r))
		r.Add(n-1, 0)
		roots.Clear()
		roots.Add(0)
		assert.False(t, ct.AcyclicFrom(r, roots), "n=%d: the closing pair", n)
		assert.False(t, ct.Acyclic(r))
	}
}

func TestCycleTestAllocates(t *testing.T) {
	r := NewRel(200)
	for i := 0; i+1 < 200; i++ {
		r.Add(i, i+1)
	}
	roots := FullSet(200)
	var ct CycleTest
	ct.Acyclic(r)
	allocs := testing.AllocsPerRun(10, func() {
		ct.Acyclic(r)
		ct.AcyclicFrom(r, roots)
	})
	assert.Zero(t, allocs)
}
