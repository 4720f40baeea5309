package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCatOperators evaluates every operator of the definition language over
// the domain {a, b, c} with
//
//	r = {a->b, b->c}    s = {a->a, b->c, c->a}    A = {a, b}    B = {b, c}
//
// against sets computed by hand.
func TestCatOperators(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		// Binary relations.
		{"r", []string{"a,b", "b,c"}},
		{"r | s", []string{"a,a", "a,b", "b,c", "c,a"}},
		{"r & s", []string{"b,c"}},
		{`r \ s`, []string{"a,b"}},
		{`s \ r`, []string{"a,a", "c,a"}},
		{"r ; s", []string{"a,c", "b,a"}},
		{"s ; r", []string{"a,b", "c,b"}},
		{"r ; r", []string{"a,c"}},
		{"r^-1", []string{"b,a", "c,b"}},
		{"r+", []string{"a,b", "a,c", "b,c"}},
		{"r*", []string{"a,a", "a,b", "a,c", "b,b", "b,c", "c,c"}},
		{"r?", []string{"a,a", "a,b", "b,b", "b,c", "c,c"}},
		{"~r", []string{"a,a", "a,c", "b,a", "b,b", "c,a", "c,b", "c,c"}},
		{"[A]", []string{"a,a", "b,b"}},
		{"A * B", []string{"a,b", "a,c", "b,b", "b,c"}},
		{"(r | s)+", []string{"a,a", "a,b", "a,c", "b,a", "b,b", "b,c", "c,a", "c,b", "c,c"}},
		{"s+", []string{"a,a", "b,a", "b,c", "c,a"}},
		{"(s^-1)*", []string{"a,a", "a,b", "a,c", "b,b", "c,b", "c,c"}},
		{"r^-1 ; r", []string{"b,b", "c,c"}},
		{"r ; r^-1", []string{"a,a", "b,b"}},
		{"~(r | s)", []string{"a,c", "b,a", "b,b", "c,b", "c,c"}},
		{"[A] ; r ; [B]", []string{"a,b", "b,c"}},
		{"[B] ; r", []string{"b,c"}},
		{"r ; [A]", []string{"a,b"}},
		{"[domain(r) \\ range(r)]", []string{"a,a"}},
		{"r | _", []string{"a,a", "a,b", "a,c", "b,a", "b,b", "b,c", "c,a", "c,b", "c,c"}},
		{"r & _", []string{"a,b", "b,c"}},
		{`r \ _`, nil},
		{"_ ; r", []string{"a,b", "a,c", "b,b", "b,c", "c,b", "c,c"}},
		{"r?^-1", []string{"a,a", "b,a", "b,b", "c,b", "c,c"}},
		{"[A & B] ; s", []string{"b,c"}},
		{"(A * B) \\ r", []string{"a,c", "b,b"}},
		{"r ; s ; s", []string{"a,a", "b,a"}},
		// Precedence: | < ; < \ < & < *.
		{"r | s ; r", []string{"a,b", "b,c", "c,b"}},
		{`r ; s \ r`, []string{"b,a"}},
		{`s \ r & s`, []string{"a,a", "c,a"}},
		{"A * B & r", []string{"a,b", "b,c"}},
		{"r ; r | s", []string{"a,a", "a,c", "b,c", "c,a"}},
		// Sets.
		{"A", []string{"a", "b"}},
		{"A | B", []string{"a", "b", "c"}},
		{"A & B", []string{"b"}},
		{`A \ B`, []string{"a"}},
		{"~A", []string{"c"}},
		{"domain(r)", []string{"a", "b"}},
		{"range(r)", []string{"b", "c"}},
		{"domain(s)", []string{"a", "b", "c"}},
		{"range(s)", []string{"a", "c"}},
		{"domain([A] ; s)", []string{"a", "b"}},
		{"range(r+) & ~A", []string{"c"}},
		{"_", []string{"a", "b", "c"}},
		{`_ \ A`, []string{"c"}},
		{"domain(r ; r) | range(s ; s)", []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			src := `.decl r(x, y) .input r
.decl s(x, y) .input s
.decl A(x) .input A
.decl B(x) .input B
let x = ` + tc.expr + "\n"
			forModes(t, func(t *testing.T, opts []CompileOption) {
				p := compileSrc(t, src, opts...)
				in := newInst(t, p, "a", "b", "c")
				setFacts(t, in, "r", "a,b", "b,c")
				setFacts(t, in, "s", "a,a", "b,c", "c,a")
				setFacts(t, in, "A", "a", "b")
				setFacts(t, in, "B", "b", "c")
				in.Run()
				assert.Equal(t, sorted(tc.want...), rows(t, in, "x"))
			})
		})
	}
}

// TestUniverseIncludesConstants: the universe _ is every atom of the
// domain, program constants included, so complements and closures that
// mention it range over them too.
func TestUniverseIncludesConstants(t *testing.T) {
	src := `.decl A(x) .input A
.decl k(x)
k("k").
let notA = ~A
let refl = (A * A)?
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b")
		setFacts(t, in, "A", "a")
		in.Run()
		assert.Equal(t, []string{`"k"`, "b"}, rows(t, in, "notA"))
		assert.Equal(t, []string{`"k","k"`, "a,a", "b,b"}, rows(t, in, "refl"))
	})
}
