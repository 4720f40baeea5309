package relations

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func checkClosures(t *testing.T, r *Rel) {
	t.Helper()
	ref := refFromRel(r)
	plus := refClosure(ref)
	star := plus.clone()
	for i := 0; i < r.N(); i++ {
		star.add(i, i)
	}

	scc := r.Clone()
	scc.TransitiveClosure()
	assertRel(t, plus, scc)

	warshall := r.Clone()
	WarshallClosure(warshall)
	assertRel(t, plus, warshall)

	refl := r.Clone()
	refl.ReflexiveTransitiveClosure()
	assertRel(t, star, refl)

	// Closing a closed relation changes nothing.
	scc.TransitiveClosure()
	assertRel(t, plus, scc)
}

func TestTransitiveClosureRandom(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, _ := randRel(rng, n, d)
		checkClosures(t, r)
	})
}

func TestTransitiveClosureStructured(t *testing.T) {
	for _, c := range structuredRels() {
		t.Run(c.name, func(t *testing.T) {
			checkClosures(t, c.rel)
		})
	}
}

func TestTransitiveClosureReusesScratch(t *testing.T) {
	// The scratch kept by the first closure must not leak state into the
	// next one, neither for the same nor for a different relation.
	rng := rand.New(rand.NewPCG(3, 4))
	r := NewRel(65)
	for range 20 {
		src := randOutDegree(rng, 65, 1+rng.IntN(2))
		r.CopyFrom(src)
		r.TransitiveClosure()
		assertRel(t, refClosure(refFromRel(src)), r)
	}
}

func TestTransitiveClosureSelfLoops(t *testing.T) {
	r := NewRel(4)
	r.Add(0, 1)
	r.Add(1, 1)
	r.Add(2, 3)
	r.TransitiveClosure()
	// A self loop makes its atom reach itself; atoms without one do not.
	assert.Equal(t, "{(0,1) (1,1) (2,3)}", r.String())
}

// TestTransitiveClosureCost counts the work of the closure instead of
// timing it (a timed test fails on a loaded machine or under -race): each
// row merged is one word-wide union, and the condensation merges at most
// one row per edge, n+m unions, where Warshall's loop does one per pair it
// closes (about n²/2 on a chain). Speed itself is measured by
// BenchmarkClosure.
func TestTransitiveClosureCost(t *testing.T) {
	const n = 4096
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name string
		rel  *Rel
	}{
		{"chain", chainRel(n)},
		{"random out-degree 2", randOutDegree(rng, n, 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.rel.Clone()
			r.TransitiveClosure()
			edges := c.rel.Len()
			assert.LessOrEqual(t, r.scratch.rowUnions, n+edges)
			want := c.rel.Clone()
			WarshallClosure(want)
			assert.True(t, want.Equal(r))
			assert.Zero(t, testing.AllocsPerRun(3, func() {
				r.CopyFrom(c.rel)
				r.TransitiveClosure()
			}), "a closure after the first allocates nothing")
		})
	}
	chain := chainRel(n)
	chain.TransitiveClosure()
	assert.Equal(t, n*(n-1)/2, chain.Len())
	assert.Equal(t, n-1, chain.scratch.rowUnions, "a chain merges each successor's row once")
}

// checkReachCompose compares r.ReachCompose(step) with step* ; r computed
// by the map-based reference.
func checkReachCompose(t *testing.T, r, step *Rel) {
	t.Helper()
	star := refClosure(refFromRel(step))
	for i := 0; i < step.N(); i++ {
		star.add(i, i)
	}
	want := refCompose(star, refFromRel(r))
	got := r.Clone()
	got.ReachCompose(step)
	assertRel(t, want, got)
}

func TestReachComposeRandom(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		step, _ := randRel(rng, n, d)
		base, _ := randRel(rng, n, d/2)
		checkReachCompose(t, base, step)
	})
}

func TestReachComposeStructured(t *testing.T) {
	for _, c := range structuredRels() {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(c.rel.N())))
			checkReachCompose(t, randOutDegree(rng, c.rel.N(), 1), c.rel)
			checkReachCompose(t, c.rel, c.rel.Clone())
		})
	}
}

// TestReachComposeOfItselfIsClosure checks the documented aliasing case:
// r.ReachCompose(r) is r* ; r = r⁺.
func TestReachComposeOfItselfIsClosure(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 64, 130} {
		r := randOutDegree(rng, n, 2)
		want := r.Clone()
		want.TransitiveClosure()
		r.ReachCompose(r)
		assert.True(t, want.Equal(r), "n=%d", n)
	}
}
