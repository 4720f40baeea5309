// Package scc finds the strongly connected components of a directed graph
// (Tarjan's algorithm). Two packages need them: rules, to stratify a
// program's relations, and execution, to find the cycles of a loop's state
// graph that a fair run can take forever. It imports nothing, so that both
// can use it without a dependency between them.
package scc

// Components returns the strongly connected components of the graph whose
// nodes are 0 to len(adj)-1 and whose edges run from v to to(e) for each e
// in adj[v]. A component comes after every component it reaches (Tarjan's
// order: reverse it for a topological order); the nodes of a component
// are in the order they leave Tarjan's stack, the component's root last.
// The search is iterative, so a long chain cannot overflow the goroutine
// stack.
func Components[N ~int, E any](adj [][]E, to func(E) N) [][]N {
	n := len(adj)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]N
	var stack []N
	counter := 0
	visit := func(v N) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
	}
	// frame is a node being visited and the next of its edges to follow.
	type frame struct {
		v    N
		next int
	}
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		visit(N(root))
		call := []frame{{v: N(root)}}
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(adj[f.v]) {
				w := to(adj[f.v][f.next])
				f.next++
				switch {
				case index[w] < 0:
					visit(w)
					call = append(call, frame{v: w})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []N
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	return comps
}
