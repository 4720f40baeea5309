package execution

import "slices"

// components returns the strongly connected components of g that hold a
// transition (Tarjan's algorithm, without recursion).
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
// vertex v has the successors succ[v] that hold an edge (Tarjan's
// algorithm, without recursion).
func components(succ [][]int) [][]int {
	n := len(succ)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var out [][]int
	var tarjan []int
	counter := 0
	type frame struct{ v, next int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		tarjan = append(tarjan, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(succ[f.v]) {
				w := succ[f.v][f.next]
				f.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = counter, counter
					counter++
					tarjan = append(tarjan, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
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
			var comp []int
			for {
				w := tarjan[len(tarjan)-1]
				tarjan = tarjan[:len(tarjan)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || slices.Contains(succ[v], v) {
				out = append(out, comp)
			}
		}
	}
	return out
}
