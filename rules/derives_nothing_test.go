package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// nothingSrc has a stratum (a) that derives nothing while e is empty,
// whatever f holds, and a reader of it (b).
const nothingSrc = `
.decl e(x, y)
.input e
.decl f(x, y)
.input f
.decl a(x, y)
a(X, Y) :- e(X, Z), f(Z, Y).
.decl b(x, y)
b(X, Y) :- a(X, Y).
.output b
`

// TestStratumDerivingNothing: a stratum whose every rule reads an empty
// relation is not evaluated, and its readers are recomputed only when it
// had tuples to lose.
func TestStratumDerivingNothing(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, nothingSrc, opts...)
		in := newInst(t, p, "x", "y", "z")
		setFacts(t, in, "f", "x,y")
		in.Run()
		assert.Empty(t, rows(t, in, "b"))
		before := runsOf(t, in, "a", "b")

		setFacts(t, in, "f", "y,z")
		in.Run()
		after := runsOf(t, in, "a", "b")
		assert.Equal(t, before["a"]+1, after["a"], "a is brought up to date")
		assert.Equal(t, before["b"], after["b"], "b has nothing new to read")

		setFacts(t, in, "e", "x,y")
		in.Run()
		assert.Equal(t, []string{"x,z"}, rows(t, in, "b"))

		setFacts(t, in, "e")
		in.Run()
		assert.Empty(t, rows(t, in, "a"), "a lost its tuples")
		assert.Empty(t, rows(t, in, "b"), "and b was recomputed")
	})
}
