package rules

// maxRouteArcs bounds the arcs among which chooseRoute lists every chain:
// a generated rule has at most three variables and a few atoms; a larger
// hand-written body is explained by a shortest chain instead.
const maxRouteArcs = 12

// routeScore ranks a chain of body tuples for an explanation.
type routeScore struct {
	// edge is set for a chain of one tuple of a relation in .edges.
	edge bool
	// last is the highest rank of its derived tuples: of two conjuncts
	// joining the same values, the one derived last carries more of the
	// execution's story than the static conditions it is intersected with.
	last int
	// steps is its length.
	steps int
}

func (x routeScore) beats(y routeScore) bool {
	if x.edge != y.edge {
		return x.edge
	}
	if x.last != y.last {
		return x.last > y.last
	}
	return x.steps < y.steps
}

// chooseRoute lists the chains from a to b that visit no value twice
// (non-empty when a equals b) and returns the best by routeScore; of two
// equal ones, the first listed, which follows succ's order.
func (in *Instance) chooseRoute(a, b int, succ func(v int, yield func(routeStep, int))) ([]routeStep, bool) {
	var best, cur []routeStep
	var bestScore routeScore
	found := false
	onRoute := map[int]bool{a: true}
	var walk func(v int)
	walk = func(v int) {
		succ(v, func(s routeStep, to int) {
			if to == b {
				cur = append(cur, s)
				if sc := in.scoreRoute(cur); !found || sc.beats(bestScore) {
					best, bestScore, found = append(best[:0], cur...), sc, true
				}
				cur = cur[:len(cur)-1]
				return
			}
			if onRoute[to] {
				return
			}
			onRoute[to] = true
			cur = append(cur, s)
			walk(to)
			cur = cur[:len(cur)-1]
			onRoute[to] = false
		})
	}
	walk(a)
	return best, found
}

func (in *Instance) scoreRoute(r []routeStep) routeScore {
	sc := routeScore{steps: len(r), edge: len(r) == 1 && in.p.isEdge(r[0].d.Rel)}
	for _, s := range r {
		if rk := in.rankOf(in.p.byName[s.d.Rel], s.d.Tuple); rk > sc.last {
			sc.last = rk
		}
	}
	return sc
}
