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

// unchangedSrcs each have a stratum (a) whose tuples do not change when e
// gains a tuple outside g, and a reader of it (b): binary and ternary, which
// are kept in different stores.
var unchangedSrcs = map[int]string{
	2: `
.decl e(x, y)
.input e
.decl g(x)
.input g
.decl a(x, y)
a(X, Y) :- e(X, Y), g(X).
.decl b(x, y)
b(X, Y) :- a(X, Y).
.output b
`,
	3: `
.decl e(x, y, z)
.input e
.decl g(x)
.input g
.decl a(x, y, z)
a(X, Y, Z) :- e(X, Y, Z), g(X).
.decl b(x, y, z)
b(X, Y, Z) :- a(X, Y, Z).
.output b
`,
}

// TestUnchangedStratumSparesItsReaders: a stratum recomputed to the tuples
// it held leaves its readers as they are; one that changed does not.
func TestUnchangedStratumSparesItsReaders(t *testing.T) {
	for arity, src := range unchangedSrcs {
		tuple := func(xs ...string) string {
			out := xs[0]
			for _, x := range xs[1:arity] {
				out += "," + x
			}
			return out
		}
		forModes(t, func(t *testing.T, opts []CompileOption) {
			p := compileSrc(t, src, opts...)
			in := newInst(t, p, "x", "y", "z")
			setFacts(t, in, "g", "x")
			setFacts(t, in, "e", tuple("x", "y", "y"))
			in.Run()
			assert.Equal(t, []string{tuple("x", "y", "y")}, rows(t, in, "b"))
			before := runsOf(t, in, "a", "b")

			setFacts(t, in, "e", tuple("x", "y", "y"), tuple("z", "y", "y"))
			in.Run()
			after := runsOf(t, in, "a", "b")
			assert.Equal(t, before["a"]+1, after["a"], "a is recomputed")
			if in.n < p.options.trackMinAtoms {
				assert.Equal(t, before["b"], after["b"], "a is unchanged, so b is not")
			} else {
				assert.Equal(t, before["b"]+1, after["b"], "no cutoff on domains whose rows are tracked")
			}

			setFacts(t, in, "e", tuple("x", "z", "z"))
			in.Run()
			assert.Equal(t, after["b"]+1, runsOf(t, in, "b")["b"])
			assert.Equal(t, []string{tuple("x", "z", "z")}, rows(t, in, "b"))
		})
	}
}
