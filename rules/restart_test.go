package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRestartsProveALateConflictQuickly: a pair that fails both ways (by a
// check the forced pairs cannot see through)
// whatever else is chosen, the last of 21, takes depth-first search through
// the choices of the 20 before it; with restarts the search tests it on its
// own and stops.
func TestRestartsProveALateConflictQuickly(t *testing.T) {
	p := compileSrc(t, restartsSrc)
	in := newInst(t, p, atomNames(7)...)
	setFacts(t, in, "pairs", allPairs(7)...)
	setFacts(t, in, "bad", "a5,a6", "a6,a5")
	setFacts(t, in, "some", "a0,a0")

	plain := in.Solve(WithoutWitnesses())
	require.NoError(t, plain.Err)
	restarted := in.Solve(WithoutWitnesses(), WithRestarts())
	require.NoError(t, restarted.Err)

	assert.False(t, plain.Consistent)
	assert.False(t, restarted.Consistent)
	assert.Less(t, restarted.Nodes, 2*21, "a dive, its bisection, the pair's other direction and the test of the pair")
	assert.Greater(t, plain.Nodes, 4*restarted.Nodes)
}

// restartsSrc is an order over pairs whose directions two inputs
// constrain: bad rejects pairs, extra adds edges the order must not close
// a cycle with. The rule of hit has two variables its atom of co leaves
// free, which the forced pairs cannot follow (ways.go): only the search
// finds what bad rejects.
const restartsSrc = `
.decl pairs(x, y)
.input pairs
.decl bad(x, y)
.input bad
.decl extra(x, y)
.input extra
.decl some(x, y)
.input some
.order co over pairs
.decl hit(x, y)
hit(X, Y) :- co(X, Y), bad(X, Y), some(Z, W).
.check ok: acyclic(co | extra)
.check notBad: empty(hit)
`

// TestRestartsKeepTheVerdict: on random constraints, a search with
// restarts finds a consistent choice exactly when one without does, and
// the choice it finds passes every check. Some of the cases restart (their
// searches test fewer nodes), or the test would test nothing.
func TestRestartsKeepTheVerdict(t *testing.T) {
	p := compileSrc(t, restartsSrc)
	rng := rand.New(rand.NewPCG(20261124, 7))
	shorter := 0
	for range programCount(400) {
		n := 4 + rng.IntN(4)
		in := newInst(t, p, atomNames(n)...)
		setFacts(t, in, "pairs", allPairs(n)...)
		var bad, extra []string
		for i := range n {
			for j := range n {
				tu := fmt.Sprintf("a%d,a%d", i, j)
				if i != j && rng.IntN(12) == 0 {
					bad = append(bad, tu)
				}
				if i != j && rng.IntN(10) == 0 {
					extra = append(extra, tu)
				}
			}
		}
		setFacts(t, in, "bad", bad...)
		setFacts(t, in, "extra", extra...)
		setFacts(t, in, "some", "a0,a1")
		plain := in.Solve(WithoutWitnesses())
		restarted := in.Solve(WithoutWitnesses(), WithRestarts())
		require.NoError(t, plain.Err)
		require.NoError(t, restarted.Err)
		require.Equal(t, plain.Consistent, restarted.Consistent, "bad %v, extra %v", bad, extra)
		if restarted.Consistent {
			require.True(t, in.AllHold(), "the choice found passes every check: bad %v, extra %v", bad, extra)
		}
		if restarted.Nodes < plain.Nodes {
			shorter++
		}
	}
	assert.Positive(t, shorter, "no search restarted")
}
