package rules

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// tiedRoutesSrc derives p(x, z) from two chains of two steps each, a ; b
// and c ; d: its explanation has two shortest routes.
const tiedRoutesSrc = `
.decl a(x, y)
.input a
.decl b(x, y)
.input b
.decl c(x, y)
.input c
.decl d(x, y)
.input d
.decl p(x, y)
p(X, Z) :- a(X, Y), b(Y, Z), c(X, W), d(W, Z).
.output p
`

// TestPathTakesTheSameOfTwoShortestRoutes: of two routes of the same
// length, the explanation follows the one whose first step comes first in
// the rule's body, on every run.
func TestPathTakesTheSameOfTwoShortestRoutes(t *testing.T) {
	p := compileSrc(t, tiedRoutesSrc)
	for range 50 {
		in := newInst(t, p, "x", "y", "w", "z")
		setFacts(t, in, "a", "x,y")
		setFacts(t, in, "b", "y,z")
		setFacts(t, in, "c", "x,w")
		setFacts(t, in, "d", "w,z")
		in.RecordProvenance()
		x, z := atomIndex(t, in.Domain(), "x"), atomIndex(t, in.Domain(), "z")
		edges, err := in.Path("p", x, z, p.StopAtEdges())
		require.NoError(t, err)
		require.Len(t, edges, 2)
		require.Equal(t, []string{"a", "b"}, []string{edges[0].Rel, edges[1].Rel})
	}
}

// TestPathPrefersTheChainDerivedLast: a rule that intersects a direct
// relation with a chain of two (what datalog writes for s & (a ; b)) is
// explained by the chain when its atoms were derived after the direct
// one, as the relation a ; b of its own was, and by the direct relation
// when the model lists it in .edges.
func TestPathPrefersTheChainDerivedLast(t *testing.T) {
	const src = `
.decl s(x, y) .decl e1(x, y) .decl e2(x, y) .input s, e1, e2
.decl a(x, y) .decl b(x, y)
a(X, Y) :- e1(X, Y).
b(X, Y) :- e2(X, Y).
.decl p(x, y)
p(X, Y) :- s(X, Y), a(X, Z), b(Z, Y).
`
	tests := []struct {
		name  string
		edges string
		want  []string
	}{
		{"chain derived last", "", []string{"a", "b"}},
		{"direct relation in .edges", ".edges s\n", []string{"s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileSrc(t, src+tt.edges)
			in := newInst(t, p, "x", "y", "z")
			setFacts(t, in, "s", "x,y")
			setFacts(t, in, "e1", "x,z")
			setFacts(t, in, "e2", "z,y")
			in.RecordProvenance()
			x, y := atomIndex(t, in.Domain(), "x"), atomIndex(t, in.Domain(), "y")
			edges, err := in.Path("p", x, y, func(name string) bool { return name != "p" })
			require.NoError(t, err)
			var got []string
			for _, e := range edges {
				got = append(got, e.Rel)
			}
			require.Equal(t, tt.want, got)
		})
	}
}
