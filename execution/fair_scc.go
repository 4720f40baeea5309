package execution

import (
	"slices"

	"github.com/ptxmm/ptxmm/internal/scc"
)

// components returns the strongly connected components of g that hold a
// transition.
func (g *fairGraph) components() [][]int {
	succ := make([][]int, len(g.edges))
	for v, es := range g.edges {
		for _, e := range es {
			succ[v] = append(succ[v], e[0])
		}
	}
	return components(succ)
}

// components returns the strongly connected components of the graph whose
// vertex v has the successors succ[v] that hold an edge: more than one
// vertex, or one with an edge to itself.
func components(succ [][]int) [][]int {
	var out [][]int
	for _, comp := range scc.Components(succ, func(w int) int { return w }) {
		if len(comp) > 1 || slices.Contains(succ[comp[0]], comp[0]) {
			out = append(out, comp)
		}
	}
	return out
}
