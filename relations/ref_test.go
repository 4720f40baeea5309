package relations

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The reference model: maps of atoms and pairs with the obvious
// definitions, slow but simple enough to trust.

type refSet map[int]bool

type pair = [2]int

type refRel struct {
	n     int
	pairs map[pair]bool
}

func newRefRel(n int) refRel { return refRel{n: n, pairs: map[pair]bool{}} }

func (r refRel) add(i, j int) { r.pairs[pair{i, j}] = true }

func (r refRel) has(i, j int) bool { return r.pairs[pair{i, j}] }

func (r refRel) clone() refRel {
	c := newRefRel(r.n)
	for p := range r.pairs {
		c.pairs[p] = true
	}
	return c
}

func (r refRel) succ(i int) []int {
	var out []int
	for j := 0; j < r.n; j++ {
		if r.has(i, j) {
			out = append(out, j)
		}
	}
	return out
}

func refCompose(a, b refRel) refRel {
	out := newRefRel(a.n)
	for p := range a.pairs {
		for k := 0; k < b.n; k++ {
			if b.has(p[1], k) {
				out.add(p[0], k)
			}
		}
	}
	return out
}

func refInverse(r refRel) refRel {
	out := newRefRel(r.n)
	for p := range r.pairs {
		out.add(p[1], p[0])
	}
	return out
}

// refClosure computes r+ by a breadth-first search from every atom.
func refClosure(r refRel) refRel {
	out := newRefRel(r.n)
	for s := 0; s < r.n; s++ {
		seen := map[int]bool{}
		queue := r.succ(s)
		for _, x := range queue {
			seen[x] = true
		}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			out.add(s, x)
			for _, y := range r.succ(x) {
				if !seen[y] {
					seen[y] = true
					queue = append(queue, y)
				}
			}
		}
	}
	return out
}

// refGirth returns the length of a shortest cycle of r, 0 when r is acyclic:
// for every atom, a breadth-first search for the nearest way back to it.
func refGirth(r refRel) int {
	best := 0
	for s := 0; s < r.n; s++ {
		dist := map[int]int{s: 0}
		queue := []int{s}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if r.has(x, s) {
				if best == 0 || dist[x]+1 < best {
					best = dist[x] + 1
				}
				break
			}
			for _, y := range r.succ(x) {
				if _, ok := dist[y]; !ok {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	return best
}

// Generators build a dense value and its reference twin from the same draws.

func randSet(rng *rand.Rand, n int, density float64) (*Set, refSet) {
	s, ref := NewSet(n), refSet{}
	for i := 0; i < n; i++ {
		if rng.Float64() < density {
			s.Add(i)
			ref[i] = true
		}
	}
	return s, ref
}

func randRel(rng *rand.Rand, n int, density float64) (*Rel, refRel) {
	r, ref := NewRel(n), newRefRel(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if rng.Float64() < density {
				r.Add(i, j)
				ref.add(i, j)
			}
		}
	}
	return r, ref
}

func relFromRef(ref refRel) *Rel {
	r := NewRel(ref.n)
	for p := range ref.pairs {
		r.Add(p[0], p[1])
	}
	return r
}

// assertSet checks membership of every atom and the count, plus the
// invariant that no bit at or beyond n is set.
func assertSet(t *testing.T, want refSet, got *Set) {
	t.Helper()
	for i := 0; i < got.N(); i++ {
		// Compare before asserting: assert.Equal per atom would dominate
		// the run time of the property tests.
		if want[i] != got.Has(i) {
			assert.Equal(t, want[i], got.Has(i), "atom %d", i)
			return
		}
	}
	assert.Equal(t, len(want), got.Len())
	assertTailClear(t, got.words, got.N())
}

func assertRel(t *testing.T, want refRel, got *Rel) {
	t.Helper()
	assert.Equal(t, want.n, got.N())
	for i := 0; i < got.N(); i++ {
		for j := 0; j < got.N(); j++ {
			if want.has(i, j) != got.Has(i, j) {
				assert.Equal(t, want.has(i, j), got.Has(i, j), "pair (%d,%d)", i, j)
				return
			}
		}
	}
	assert.Equal(t, len(want.pairs), got.Len())
	for i := 0; i < got.N(); i++ {
		assertTailClear(t, got.row(i), got.N())
	}
}

func assertTailClear(t *testing.T, words []uint64, n int) {
	t.Helper()
	if len(words) > 0 {
		last := words[len(words)-1]
		assert.Zero(t, last&^tailMask(n), "bits beyond n=%d are set", n)
	}
}

var (
	testSizes     = []int{0, 1, 2, 5, 24, 25, 63, 64, 65, 130}
	testDensities = []float64{0, 0.05, 0.3, 1}
)

const seedsPerCase = 3

// forCases runs body as a subtest for every size, density and seed, each
// with its own deterministic generator.
func forCases(t *testing.T, body func(t *testing.T, rng *rand.Rand, n int, density float64)) {
	for _, n := range testSizes {
		for _, d := range testDensities {
			for seed := range uint64(seedsPerCase) {
				t.Run(fmt.Sprintf("n=%d/d=%g/seed=%d", n, d, seed), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(seed, uint64(n)*1000+uint64(d*100)))
					body(t, rng, n, d)
				})
			}
		}
	}
}

// Structured graph families complement the uniform random relations, whose
// large densities make every non-trivial case a single giant component.

func chainRel(n int) *Rel {
	r := NewRel(n)
	for i := 0; i+1 < n; i++ {
		r.Add(i, i+1)
	}
	return r
}

// randOutDegree gives every atom deg successors drawn uniformly, which
// yields several components of various sizes for small deg.
func randOutDegree(rng *rand.Rand, n, deg int) *Rel {
	r := NewRel(n)
	for i := 0; i < n; i++ {
		for range deg {
			r.Add(i, rng.IntN(n))
		}
	}
	return r
}

// randDAG adds each forward pair (i < j) with the given probability.
func randDAG(rng *rand.Rand, n int, density float64) *Rel {
	r := NewRel(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < density {
				r.Add(i, j)
			}
		}
	}
	return r
}

func refFromRel(r *Rel) refRel {
	ref := newRefRel(r.N())
	for i := 0; i < r.N(); i++ {
		for j := 0; j < r.N(); j++ {
			if r.Has(i, j) {
				ref.add(i, j)
			}
		}
	}
	return ref
}

type namedRel struct {
	name string
	rel  *Rel
}

// structuredRels returns the structured families for every test size.
func structuredRels() []namedRel {
	var out []namedRel
	for _, n := range testSizes {
		rng := rand.New(rand.NewPCG(uint64(n), 99))
		chain := chainRel(n)
		out = append(out, namedRel{fmt.Sprintf("chain/n=%d", n), chain})
		if n > 0 {
			ring := chain.Clone()
			ring.Add(n-1, 0)
			out = append(out, namedRel{fmt.Sprintf("ring/n=%d", n), ring})
			lasso := chain.Clone()
			lasso.Add(n-1, n/2)
			out = append(out, namedRel{fmt.Sprintf("lasso/n=%d", n), lasso})
		}
		for seed := range 3 {
			out = append(out,
				namedRel{fmt.Sprintf("outdeg1/n=%d/seed=%d", n, seed), randOutDegree(rng, n, 1)},
				namedRel{fmt.Sprintf("outdeg2/n=%d/seed=%d", n, seed), randOutDegree(rng, n, 2)},
				namedRel{fmt.Sprintf("dag/n=%d/seed=%d", n, seed), randDAG(rng, n, 0.1)},
			)
		}
	}
	return out
}
