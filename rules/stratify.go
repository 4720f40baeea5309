package rules

import (
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/scc"
	"github.com/ptxmm/ptxmm/source"
)

// depEdge is "head depends on body relation", negated when the body atom is.
type depEdge struct {
	from, to relID // body relation -> head relation
	negated  bool
	pos      source.Pos // the body atom
}

// components returns the strongly connected components of the dependency
// graph (succ[r] lists the relations that depend on r), in topological
// order (dependencies first), each sorted.
func components(succ [][]relID) [][]relID {
	comps := scc.Components(succ, func(r relID) relID { return r })
	for _, comp := range comps {
		slices.Sort(comp)
	}
	// Tarjan emits a component after everything it reaches; edges run from
	// body to head, so reverse to put dependencies first.
	slices.Reverse(comps)
	return comps
}

// negationCycle describes a cycle through a negated edge inside one
// component, as "a -> !b -> a" with the position of the negated atom, or
// returns ok=false when the component has no negated edge.
func negationCycle(comp []relID, edges []depEdge, names func(relID) string) (string, source.Pos, bool) {
	in := map[relID]bool{}
	for _, r := range comp {
		in[r] = true
	}
	for _, e := range edges {
		if !e.negated || !in[e.from] || !in[e.to] {
			continue
		}
		// e.to depends on !e.from; find how e.from depends back on e.to.
		// Edges run from a body relation to the head that uses it, so the
		// path found from e.to to e.from, read backwards, is a chain of
		// "depends on" steps.
		path := shortestPath(e.to, e.from, edges, in)
		var b strings.Builder
		b.WriteString(names(e.to))
		b.WriteString(" -> !")
		b.WriteString(names(e.from))
		for i := len(path) - 2; i >= 0; i-- {
			b.WriteString(" -> ")
			b.WriteString(names(path[i]))
		}
		return b.String(), e.pos, true
	}
	return "", source.Pos{}, false
}

// shortestPath returns the relations on a shortest path from a to b (both
// included) using edges inside the component.
func shortestPath(a, b relID, edges []depEdge, in map[relID]bool) []relID {
	if a == b {
		return []relID{a}
	}
	steps, _ := breadthFirst(a, func(v relID, yield func(relID, relID)) {
		for _, e := range edges {
			if e.from == v && in[e.to] {
				yield(e.to, e.to)
			}
		}
	}, func(v relID) bool { return v == b })
	return append([]relID{a}, steps...)
}

// ruleDeps lists the dependency edges of the rules.
func ruleDeps(rules []*datalog.Rule, id map[string]relID) []depEdge {
	n := 0
	for _, r := range rules {
		n += len(r.Body)
	}
	edges := make([]depEdge, 0, n)
	for _, r := range rules {
		h := id[r.Head.Pred]
		for _, l := range r.Body {
			if a, ok := l.(*datalog.Atom); ok {
				edges = append(edges, depEdge{from: id[a.Pred], to: h, negated: a.Negated, pos: a.Pos})
			}
		}
	}
	return edges
}
