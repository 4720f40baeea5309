package relations

import "math/bits"

// Irreflexive reports whether r has no pair (i, i). When it has one, ok is
// false and witness is the smallest such i; otherwise witness is -1.
func (r *Rel) Irreflexive() (witness int, ok bool) {
	for i := 0; i < r.n; i++ {
		if r.words[i*r.w+i>>6]&(1<<(uint(i)&63)) != 0 {
			return i, false
		}
	}
	return -1, true
}

// Acyclic reports whether r has no cycle. When it has one, ok is false and
// cycle is a shortest cycle [v0 v1 ... vk]: each vi -> vi+1 is a pair of r
// and vk -> v0 closes it; a self loop is reported as [v]. Among shortest
// cycles the one returned starts at its smallest atom and has the smallest
// such start, so results are deterministic.
//
// Deciding acyclicity costs one SCC decomposition. Only a cyclic relation
// pays for the shortest-cycle search, a breadth-first search per atom that
// can be the smallest atom of a cycle, cut off at the best length found so
// far. That is O(n·(n²/64 + m)) in the worst case but close to linear when
// cycles are short or few atoms can close one, and it is what a
// counterexample report needs anyway.
//
// Acyclic allocates its own working arrays so that concurrent readers of r
// stay safe.
func (r *Rel) Acyclic() (cycle []int, ok bool) {
	if v, irreflexive := r.Irreflexive(); !irreflexive {
		return []int{v}, false
	}
	if r.n <= 64 && r.acyclicSmall() {
		return nil, true
	}
	sc := new(sccScratch)
	// Without self loops only components of two or more atoms hold cycles,
	// so n singleton components mean acyclic.
	if sc.decompose(r) == r.n {
		return nil, true
	}
	return r.shortestCycle(sc), false
}

// shortestCycle searches, for every atom s on a cycle, the shortest cycle
// whose smallest atom is s. Each cycle has exactly one smallest atom and
// lies within one component, so the search from s is confined to atoms of
// s's component larger than s, and it stops as soon as it cannot beat the
// best cycle found so far.
func (r *Rel) shortestCycle(sc *sccScratch) []int {
	n, w := r.n, r.w
	dist := make([]int32, n)
	parent := make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	closable := r.closableAtoms(sc)
	queue := make([]int32, 0, n)
	best := n + 1
	var bestS int
	var bestPath []int32
	for s := 0; s < n && best > 2; s++ {
		if !closable[s] {
			continue
		}
		c := sc.comp[s]
		sw, sb := s>>6, uint64(1)<<(uint(s)&63)
		queue = append(queue[:0], int32(s))
		dist[s] = 0
		for h := 0; h < len(queue); h++ {
			x := int(queue[h])
			d := int(dist[x])
			if d+1 >= best {
				break
			}
			if r.words[x*w+sw]&sb != 0 {
				best, bestS = d+1, s
				bestPath = bestPath[:0]
				for y := x; y != s; y = int(parent[y]) {
					bestPath = append(bestPath, int32(y))
				}
				break
			}
			if d+2 >= best {
				// Any atom found from here would close a cycle no
				// shorter than the best one.
				continue
			}
			row := r.row(x)
			for k := sw; k < w; k++ {
				cand := row[k]
				if k == sw {
					// Only atoms above s: a cycle through a smaller atom
					// was found, or ruled out, by that atom's search.
					cand &= ^(sb | (sb - 1))
				}
				for cand != 0 {
					u := k<<6 + bits.TrailingZeros64(cand)
					cand &= cand - 1
					if dist[u] < 0 && sc.comp[u] == c {
						dist[u] = int32(d + 1)
						parent[u] = int32(x)
						queue = append(queue, int32(u))
					}
				}
			}
		}
		for _, x := range queue {
			dist[x] = -1
		}
	}
	cycle := make([]int, 0, len(bestPath)+1)
	cycle = append(cycle, bestS)
	for i := len(bestPath) - 1; i >= 0; i-- {
		cycle = append(cycle, int(bestPath[i]))
	}
	return cycle
}

// closableAtoms marks the atoms s that can be the smallest atom of a cycle:
// those with a predecessor larger than s in their own component. The test
// is one pass over the pairs, and it spares a long ring a search from every
// atom that could only come back through a smaller one.
func (r *Rel) closableAtoms(sc *sccScratch) []bool {
	closable := make([]bool, r.n)
	for u := 0; u < r.n; u++ {
		c := sc.comp[u]
		if sc.compStart[c+1]-sc.compStart[c] < 2 {
			continue
		}
		row := r.row(u)
		top := u >> 6
		for k := 0; k <= top; k++ {
			cand := row[k]
			if k == top {
				cand &= uint64(1)<<(uint(u)&63) - 1
			}
			for cand != 0 {
				v := k<<6 + bits.TrailingZeros64(cand)
				cand &= cand - 1
				if sc.comp[v] == c {
					closable[v] = true
				}
			}
		}
	}
	return closable
}

// acyclicSmall decides acyclicity of a relation over at most 64 atoms
// without allocating, by peeling sinks: an atom with no successor among
// the atoms left is on no cycle. Memory models call Acyclic on small
// relations for every candidate execution, where the SCC search's scratch
// allocation dominated.
func (r *Rel) acyclicSmall() bool {
	var left uint64
	if r.n == 64 {
		left = ^uint64(0)
	} else {
		left = 1<<uint(r.n) - 1
	}
	for left != 0 {
		removed := false
		for m := left; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if r.words[i]&left == 0 {
				left &^= 1 << uint(i)
				removed = true
			}
		}
		if !removed {
			return false
		}
	}
	return true
}
