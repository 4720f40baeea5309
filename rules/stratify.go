package rules

import (
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// depEdge is "head depends on body relation", negated when the body atom is.
type depEdge struct {
	from, to relID // body relation -> head relation
	negated  bool
	pos      source.Pos // the body atom
}

// components returns the strongly connected components of the dependency
// graph among n relations, in topological order (dependencies first). It is
// an iterative Tarjan, so deep dependency chains cannot overflow the stack.
func components(n int, succ [][]relID) [][]relID {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []relID
	var comps [][]relID
	next := 0
	type frame struct {
		v relID
		i int
	}
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: relID(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, relID(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(succ[f.v]) {
				w := succ[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				var comp []relID
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				sort.Slice(comp, func(i, j int) bool { return comp[i] < comp[j] })
				comps = append(comps, comp)
			}
		}
	}
	// Tarjan emits a component after everything it reaches; edges run from
	// body to head, so reverse to put dependencies first.
	for i, j := 0, len(comps)-1; i < j; i, j = i+1, j-1 {
		comps[i], comps[j] = comps[j], comps[i]
	}
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
