package relations

// CycleTest decides whether relations have cycles without building a
// witness, and keeps its working arrays from one call to the next: an order
// search tests the same relations at every step, where Acyclic would
// allocate a decomposition and, on a cycle, search for the shortest one.
// The zero value is ready to use. A CycleTest is not safe for concurrent
// use; the relations it reads are only read.
type CycleTest struct {
	// state is 0 for an atom not reached yet, 1 while it is on the path of
	// the depth-first search, 2 once everything it reaches is explored.
	state  []uint8
	frames []dfsFrame
}

// Acyclic reports whether r has no cycle (a self loop is one).
func (t *CycleTest) Acyclic(r *Rel) bool {
	if _, ok := r.Irreflexive(); !ok {
		return false
	}
	if r.n <= 64 {
		return r.acyclicSmall()
	}
	t.reset(r.n)
	for v := 0; v < r.n; v++ {
		if !t.explore(r, v) {
			return false
		}
	}
	return true
}

// AcyclicFrom reports whether no cycle of r can be reached from the atoms
// of roots. A relation that was acyclic before some pairs were added to it
// is acyclic after exactly when AcyclicFrom holds with roots the targets of
// the added pairs, since a new cycle runs through one of them: that is
// how a search that grows a relation step by step tests it in time
// proportional to what the new pairs reach.
func (t *CycleTest) AcyclicFrom(r *Rel, roots *Set) bool {
	sameN("CycleTest.AcyclicFrom", r.n, roots.n)
	t.reset(r.n)
	for v := range roots.All() {
		if !t.explore(r, v) {
			return false
		}
	}
	return true
}

func (t *CycleTest) reset(n int) {
	if len(t.state) != n {
		t.state = make([]uint8, n)
		t.frames = make([]dfsFrame, 0, n)
		return
	}
	clear(t.state)
}

// explore runs a depth-first search from root over atoms not explored yet
// and reports false when it meets an atom on its own path: a cycle.
func (t *CycleTest) explore(r *Rel, root int) bool {
	state := t.state
	if state[root] != 0 {
		return true
	}
	state[root] = 1
	frames := append(t.frames[:0], dfsFrame{v: int32(root)})
	acyclic := true
	for len(frames) > 0 && acyclic {
		f := &frames[len(frames)-1]
		u, ok := r.nextInRow(int(f.v), uint(f.next))
		if ok {
			f.next = int32(u + 1)
			switch state[u] {
			case 1:
				acyclic = false
			case 0:
				state[u] = 1
				frames = append(frames, dfsFrame{v: int32(u)})
			}
			continue
		}
		state[f.v] = 2
		frames = frames[:len(frames)-1]
	}
	t.frames = frames[:0]
	return acyclic
}
