package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partialSrc has a partial order co over the input pairs: a pair may stay
// unrelated. The check big grows worse with co (monotone); must needs the
// pairs of m in co (not monotone).
const partialSrc = `
.decl pairs(x, y)
.input pairs
.decl m(x, y)
.input m
.decl bad(x, y)
.input bad
.order co over pairs partial
.check big: empty(co & bad)
.check must: empty(m \ co)
`

func TestPartialOrderMayLeavePairsUnrelated(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, partialSrc, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "pairs", "a,b", "b,c")
		// Both orientations of a-b are bad: only leaving it unrelated works.
		setFacts(t, in, "bad", "a,b", "b,a")
		setFacts(t, in, "m", "c,b")
		res := in.Solve()
		require.True(t, res.Consistent)
		assert.Equal(t, []string{"c,b"}, rows(t, in, "co"))
	})
}

func TestPartialOrderTriesUnrelatedFirst(t *testing.T) {
	p := compileSrc(t, partialSrc)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "pairs", "a,b")
	res := in.Solve()
	require.True(t, res.Consistent)
	assert.Empty(t, rows(t, in, "co"), "the smallest order is tried first")
	assert.Equal(t, 1, res.Nodes, "the root only: leaving the pair unrelated changes nothing to test")
}

func TestTotalOrderMustRelateEveryPair(t *testing.T) {
	p := compileSrc(t, `
.decl pairs(x, y)
.input pairs
.decl bad(x, y)
.input bad
.order co over pairs
.check big: empty(co & bad)
`)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "pairs", "a,b")
	setFacts(t, in, "bad", "a,b", "b,a")
	require.False(t, in.Solve().Consistent, "without partial, a-b must be oriented, and both ways are bad")
}
