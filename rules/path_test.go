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
