package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSolveMaxNodes checks that a search given fewer states than it needs
// gives up undecided, that one given enough decides as without a limit,
// and that a search that gave up leaves the instance fit for the next.
func TestSolveMaxNodes(t *testing.T) {
	// Every pair of a, b, c, d must go against the atoms' order (fixed
	// relates them the other way, and co may not close a cycle with it):
	// the search tries the atoms' order first, so it takes several states.
	pairs := []string{"a,b", "b,a", "a,c", "c,a", "a,d", "d,a", "b,c", "c,b", "b,d", "d,b", "c,d", "d,c"}
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, orderSrc, opts...)
		in := newInst(t, p, "a", "b", "c", "d")
		setFacts(t, in, "pairs", pairs...)
		setFacts(t, in, "fixed", "b,a", "c,b", "d,c")
		free := in.Solve()
		require.True(t, free.Consistent)
		require.False(t, free.Undecided)
		require.Greater(t, free.Nodes, 1, "the test needs a search of more than one state")

		short := in.Solve(WithMaxNodes(free.Nodes - 1))
		assert.True(t, short.Undecided)
		assert.False(t, short.Consistent)
		assert.LessOrEqual(t, short.Nodes, free.Nodes, "it unwinds at once past the limit")

		enough := in.Solve(WithMaxNodes(free.Nodes))
		assert.False(t, enough.Undecided)
		assert.True(t, enough.Consistent)
		assert.Equal(t, sorted("b,a", "c,a", "c,b", "d,a", "d,b", "d,c"), rows(t, in, "co"))
	})
}
