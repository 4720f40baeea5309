package rules

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coherenceSrc is coherence with from-reads, as memory models write it: a
// pair of writes is forced by a read that reads one and follows the other
// in program order (a from-read would close a cycle otherwise), along the
// way co -> fr -> com that passes a composition and a difference.
const coherenceSrc = `
.decl pairs(x, y)
.input pairs
.decl rf(x, y)
.input rf
.decl po(x, y)
.input po
.decl id(x, y)
.input id
.order co over pairs
let fr = (rf^-1 ; co) \ id
let com = rf | co | fr
.check coherence: acyclic(po | com)
`

// TestForcedPairsThroughFromReads: without witnesses, the search orients
// the pairs from-reads force before it branches, and proves a cycle of
// reads-from inconsistent at the state the forced pair leads to; with
// witnesses it finds the same verdicts by search. Three more pairs of
// writes that nothing constrains (f1, f2, f3) make the order's unrelated
// pairs forcingPairs, from which the pairs are forced at once; they are
// oriented by the dive after the forced pair.
func TestForcedPairsThroughFromReads(t *testing.T) {
	require.Equal(t, 4, forcingPairs, "the fillers make the order's pairs forcingPairs")
	cases := []struct {
		name       string
		rf         []string
		consistent bool
		nodes      int // without witnesses
	}{
		{"a read of the other thread's write orders the writes", []string{"w2,r1"}, true, 3},
		{"two reads of each other's writes", []string{"w2,r1", "w1,r2"}, false, 2},
		{"reads of their own writes force nothing", []string{"w1,r1", "w2,r2"}, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, coherenceSrc)
			require.Len(t, p.orders[0].forcings, 1)
			// w2 comes first, so that the first choice is w2 -> w1.
			in := newInst(t, p, "w2", "w1", "r1", "r2", "f1", "f2", "f3")
			setFacts(t, in, "pairs", "w2,w1", "f1,f2", "f1,f3", "f2,f3")
			setFacts(t, in, "po", "w1,r1", "w2,r2")
			setFacts(t, in, "rf", c.rf...)
			setFacts(t, in, "id", "w1,w1", "w2,w2", "r1,r1", "r2,r2", "f1,f1", "f2,f2", "f3,f3")
			res := in.Solve(WithoutWitnesses())
			require.NoError(t, res.Err)
			assert.Equal(t, c.consistent, res.Consistent)
			assert.Equal(t, c.nodes, res.Nodes)
			if c.consistent {
				assert.True(t, in.AllHold())
			}
			witnessed := in.Solve()
			require.NoError(t, witnessed.Err)
			assert.Equal(t, c.consistent, witnessed.Consistent)
		})
	}
}

// TestFewPairsNotForced: an order leaving fewer than forcingPairs pairs
// unrelated is searched without forcing them until its forcing has been
// asked fewPairsWarmup times since the instance was reset, and one pair
// never: the states tested are the dive's, and the verdicts the same.
func TestFewPairsNotForced(t *testing.T) {
	cases := []struct {
		name    string
		fillers []string // pairs besides w2,w1
		// nodes before the warm-up ends, and after
		early, late int
	}{
		// The root; the dive takes w2 -> w1 first, which the from-read
		// rejects; then w1 -> w2: three states.
		{"one pair", nil, 3, 3},
		// The root; the dive orients both pairs and fails; the bisection
		// tests the first alone, which fails; then w1 -> w2, and the
		// other pair after it: five states. Forced: the root, w1 -> w2,
		// and the other pair: three.
		{"two pairs", []string{"f1,f2"}, 5, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, coherenceSrc)
			in := newInst(t, p, "w2", "w1", "r1", "r2", "f1", "f2")
			set := func() {
				setFacts(t, in, "pairs", append([]string{"w2,w1"}, c.fillers...)...)
				setFacts(t, in, "po", "w1,r1", "w2,r2")
				setFacts(t, in, "rf", "w2,r1")
				setFacts(t, in, "id", "w1,w1", "w2,w2", "r1,r1", "r2,r2", "f1,f1", "f2,f2")
			}
			solve := func() int {
				res := in.Solve(WithoutWitnesses())
				require.NoError(t, res.Err)
				require.True(t, res.Consistent)
				return res.Nodes
			}
			set()
			for i := range fewPairsWarmup {
				require.Equal(t, c.early, solve(), "search %d, in the warm-up", i+1)
			}
			assert.Equal(t, c.late, solve(), "after the warm-up")
			in.Reset(Limits{})
			set()
			assert.Equal(t, c.early, solve(), "the warm-up starts again after Reset")
		})
	}
}

// TestForcedPairsThroughDenseCompositions: a way through compositions with
// a relation holding every pair passes on each tuple once, and finds that
// every direction fails (each gives a loop).
func TestForcedPairsThroughDenseCompositions(t *testing.T) {
	p := compileSrc(t, `
.decl pairs(x, y)
.input pairs
.decl full(x, y)
.input full
.order o over pairs
.check c: acyclic(o ; full ; full ; full ; full)
`)
	require.Len(t, p.orders[0].forcings, 1)
	in := newInst(t, p, atomNames(8)...)
	setFacts(t, in, "pairs", allPairs(8)...)
	var all []string
	for i := range 8 {
		for j := range 8 {
			all = append(all, fmt.Sprintf("a%d,a%d", i, j))
		}
	}
	setFacts(t, in, "full", all...)
	var scratch wayScratch
	w := &p.orders[0].forcings[0].ways[0]
	tuples := in.follow(w, len(w.steps), atomIndex(t, in.Domain(), "a0"), atomIndex(t, in.Domain(), "a1"), &scratch)
	assert.Len(t, tuples, 8, "(a0, x) for every x, once each")
	res := in.Solve(WithoutWitnesses())
	require.NoError(t, res.Err)
	assert.False(t, res.Consistent)
	assert.Equal(t, 2, res.Nodes, "the root, and the state of the first forced pair")
}
