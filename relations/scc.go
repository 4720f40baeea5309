package relations

// sccScratch holds the working arrays of the strongly connected component
// decomposition. Every slice is sized for n up front, so once a scratch has
// served a relation, later decompositions of it never allocate.
type sccScratch struct {
	index  []int32 // DFS discovery number, -1 while unvisited
	low    []int32 // Tarjan low-link
	comp   []int32 // component of each atom, -1 while still on the stack
	stack  []int32 // Tarjan's stack of atoms in unfinished components
	frames []dfsFrame
	// members lists the atoms grouped by component, components in the order
	// Tarjan finishes them: every edge leaving a component points into an
	// earlier one, i.e. this is a reverse topological order.
	members   []int32
	compStart []int32 // component c is members[compStart[c]:compStart[c+1]]
	acc       []uint64
	// rowUnions counts the rows the last closure merged, each one
	// word-wide union: the measure of its cost that the tests bound.
	rowUnions int
}

// dfsFrame replaces a recursive call: the atom being explored and the next
// column of its row to examine.
type dfsFrame struct {
	v, next int32
}

// fit makes s usable for a relation with n atoms and w words per row,
// reallocating only when it was sized for another domain.
func (s *sccScratch) fit(n, w int) {
	if len(s.index) != n || len(s.acc) != w {
		*s = sccScratch{
			index:     make([]int32, n),
			low:       make([]int32, n),
			comp:      make([]int32, n),
			stack:     make([]int32, 0, n),
			frames:    make([]dfsFrame, 0, n),
			members:   make([]int32, 0, n),
			compStart: make([]int32, 0, n+1),
			acc:       make([]uint64, w),
		}
	}
}

// decompose computes the strongly connected components of r and returns how
// many there are. Tarjan's search runs on an explicit frame stack because
// relations like program order are chains thousands of atoms long, which
// would make a recursive search grow the goroutine stack on every call.
func (s *sccScratch) decompose(r *Rel) int {
	n, w := r.n, r.w
	s.fit(n, w)
	index, low, comp := s.index, s.low, s.comp
	for i := range index {
		index[i] = -1
		comp[i] = -1
	}
	stack, frames := s.stack[:0], s.frames[:0]
	members, compStart := s.members[:0], append(s.compStart[:0], 0)
	var counter int32
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		frames = append(frames, dfsFrame{v: int32(root)})
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			v := int(f.v)
			if next, ok := r.nextInRow(v, uint(f.next)); ok {
				u := int(next)
				f.next = int32(u + 1)
				switch {
				case index[u] < 0:
					index[u], low[u] = counter, counter
					counter++
					stack = append(stack, int32(u))
					frames = append(frames, dfsFrame{v: int32(u)})
				case comp[u] < 0 && index[u] < low[v]:
					// Visited but unassigned means u is still on the
					// stack, hence in v's component or an ancestor's.
					low[v] = index[u]
				}
				continue
			}
			frames = frames[:len(frames)-1]
			if low[v] == index[v] {
				c := int32(len(compStart) - 1)
				for {
					x := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[x] = c
					members = append(members, x)
					if int(x) == v {
						break
					}
				}
				compStart = append(compStart, int32(len(members)))
			}
			if len(frames) > 0 {
				p := frames[len(frames)-1].v
				low[p] = min(low[p], low[v])
			}
		}
	}
	s.stack, s.frames, s.members, s.compStart = stack, frames, members, compStart
	return len(compStart) - 1
}
