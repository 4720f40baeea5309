package relations

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHotPathsDoNotAllocate pins the evaluator's inner operations at zero
// allocations on preallocated relations. TransitiveClosure allocates its
// scratch on the first call only; AllocsPerRun's warm-up call absorbs that,
// so the steady state is asserted to be zero as well.
func TestHotPathsDoNotAllocate(t *testing.T) {
	const n = 256
	rng := rand.New(rand.NewPCG(1, 2))
	a := randOutDegree(rng, n, 2)
	b := randOutDegree(rng, n, 2)
	dst := NewRel(n)
	closed := NewRel(n)
	s := NewSet(n)
	o := FullSet(n)

	tests := []struct {
		name string
		op   func()
	}{
		{"ComposeInto", func() { ComposeInto(dst, a, b) }},
		{"ComposeUnionInto", func() { ComposeUnionInto(dst, a, b) }},
		{"Rel.UnionWith", func() { dst.UnionWith(a) }},
		{"Rel.DifferenceWith", func() { dst.DifferenceWith(b) }},
		{"Rel.IntersectWith", func() { dst.IntersectWith(a) }},
		{"TransitiveClosure", func() {
			closed.CopyFrom(a)
			closed.TransitiveClosure()
		}},
		{"ReachCompose", func() {
			closed.CopyFrom(b)
			closed.ReachCompose(a)
		}},
		{"Set.UnionWith", func() { s.UnionWith(o) }},
		{"Set.DifferenceWith", func() { s.DifferenceWith(o) }},
		{"ImageInto", func() { ImageInto(s, o, a) }},
		{"Row", func() { _ = a.Row(n - 1) }},
		{"Irreflexive", func() { a.Irreflexive() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Zero(t, testing.AllocsPerRun(20, tt.op))
		})
	}
}

// TestTuplesAddAmortised checks that adding tuples allocates only when the
// storage grows, not once per tuple.
func TestTuplesAddAmortised(t *testing.T) {
	tu := NewTuples(3)
	tup := []int{0, 0, 0}
	for i := range 1000 {
		tup[0], tup[1], tup[2] = i, i+1, i+2
		tu.Add(tup)
	}
	tu.Clear()
	i := 0
	allocs := testing.AllocsPerRun(500, func() {
		tup[0], tup[1], tup[2] = i, i+1, i+2
		tu.Add(tup)
		i++
	})
	assert.Zero(t, allocs)
}
