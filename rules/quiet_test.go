package rules

import (
	"testing"

	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quietSrc has a chain of strata built on the input t: while t is empty
// they derive nothing, and the evaluation passes over them.
const quietSrc = `.decl e(x, y)
.input e
.decl t(x, y)
.input t
.decl a(x, y)
a(X, Y) :- t(X, Y).
.decl b(x, y)
b(X, Y) :- a(X, Z), e(Z, Y).
.decl c(x)
c(X) :- b(X, _).
.decl d(x)
d(X) :- e(X, _), !c(X).
.decl f(x)
f(X) :- e(X, _).
.check acyc: acyclic(e)
`

// TestQuietStrata: the strata over an empty input are passed over as a
// group and still count their runs; once the input holds tuples, by any
// way of setting it (SetRel, an insertion after a checkpoint, a rollback
// to the checkpoint), they are computed again.
func TestQuietStrata(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, quietSrc, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "e", "a,b", "b,c")
		in.Run()
		quiet := func(rel string) bool {
			return in.quiet.known && in.quiet.quiet.has(stratumOf(t, p, rel))
		}
		for _, r := range []string{"a", "b", "c"} {
			assert.True(t, quiet(r), "%s is quiet", r)
			assert.Equal(t, 1, in.sched.runs[stratumOf(t, p, r)], "%s ran once", r)
		}
		assert.False(t, quiet("d"))
		assert.Equal(t, []string{"a", "b"}, rows(t, in, "d"))
		// e, which d's and f's rules read, is asked once whether it is
		// empty, and is not.
		assert.False(t, quiet("f"))
		assert.Equal(t, []string{"a", "b"}, rows(t, in, "f"))

		// The quiet strata are passed over, not visited: what starved
		// them is not looked at.
		in.Invalidate()
		in.Run()
		assert.Equal(t, 2, in.sched.runs[stratumOf(t, p, "c")])
		assert.Zero(t, in.sched.nothing.tries[stratumOf(t, p, "c")], "c was never visited")

		setFacts(t, in, "t", "a,a")
		in.Run()
		assert.False(t, quiet("a"))
		assert.Equal(t, []string{"a,b"}, rows(t, in, "b"))
		assert.Equal(t, []string{"a"}, rows(t, in, "c"))
		assert.Equal(t, []string{"b"}, rows(t, in, "d"))

		setFacts(t, in, "t")
		in.Run()
		assert.Empty(t, rows(t, in, "c"))
		assert.Equal(t, []string{"a", "b"}, rows(t, in, "d"))

		// An insertion after a checkpoint, and the rollback to it.
		in.Checkpoint()
		tr := relations.NewRel(in.n)
		tr.Add(atomIndex(t, in.dom, "b"), atomIndex(t, in.dom, "b"))
		require.NoError(t, in.InsertRel("t", tr))
		res := in.Solve()
		require.True(t, res.Consistent)
		assert.Equal(t, []string{"b"}, rows(t, in, "c"))
		assert.Equal(t, []string{"a"}, rows(t, in, "d"))
		require.True(t, in.Rollback())
		in.Solve()
		assert.Empty(t, rows(t, in, "c"))
		assert.Equal(t, []string{"a", "b"}, rows(t, in, "d"))

		// Reset keeps what it knows of them (every relation is empty); t,
		// empty again since the rollback, makes a, b and c quiet at the
		// next evaluation.
		in.Reset(Limits{})
		setFacts(t, in, "e", "a,b")
		in.Run()
		assert.True(t, quiet("c"))
		assert.Equal(t, 1, in.sched.runs[stratumOf(t, p, "c")])
		assert.Equal(t, []string{"a"}, rows(t, in, "d"))
		in.Reset(Limits{})
		setFacts(t, in, "e", "a,b")
		setFacts(t, in, "t", "a,a")
		in.Run()
		assert.False(t, quiet("a"))
		assert.Equal(t, []string{"a"}, rows(t, in, "c"))

		// An input that held tuples before Reset and is empty after it
		// makes the strata over it quiet again.
		in.Reset(Limits{})
		setFacts(t, in, "e", "a,b")
		in.Run()
		assert.True(t, quiet("c"))
		assert.Empty(t, rows(t, in, "c"))
	})
}
