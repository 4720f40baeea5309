package rules

// breadthFirst searches breadth-first from start for a vertex that goal
// accepts, following the edges succ yields for each vertex, in the order it
// yields them (the first edge to reach a vertex is its path's), and returns
// the edges of the path found, from start on. start is reached only through
// an edge, so a path back to it has at least one. It is the one path search
// of the package: over relations for a negation cycle, over the variables
// of a rule body, and over the tuples of a derivation for an explanation.
func breadthFirst[V comparable, E any](start V, succ func(v V, yield func(e E, to V)), goal func(V) bool) ([]E, bool) {
	type step struct {
		from V
		e    E
	}
	prev := map[V]step{}
	queue := []V{start}
	var at V
	found := false
	for h := 0; h < len(queue) && !found; h++ {
		v := queue[h]
		succ(v, func(e E, to V) {
			if found {
				return
			}
			if _, seen := prev[to]; seen {
				return
			}
			prev[to] = step{from: v, e: e}
			if goal(to) {
				at, found = to, true
				return
			}
			queue = append(queue, to)
		})
	}
	if !found {
		return nil, false
	}
	var path []E
	for x := at; ; {
		st := prev[x]
		path = append(path, st.e)
		if st.from == start {
			break
		}
		x = st.from
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}
