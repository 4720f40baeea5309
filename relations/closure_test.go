package relations

import (
	"math/rand/v2"
	"testing"
	"time"

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

func TestTransitiveClosureChainIsFast(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	const n = 4096
	chain := chainRel(n)
	r := NewRel(n)
	best := time.Duration(1 << 62)
	for range 5 {
		r.CopyFrom(chain)
		start := time.Now()
		r.TransitiveClosure()
		best = min(best, time.Since(start))
	}
	assert.Equal(t, n*(n-1)/2, r.Len())
	assert.Less(t, best, 10*time.Millisecond)
	t.Logf("closure of a %d-chain: %v", n, best)
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
