package execution

import "math/bits"

// This file holds the path conditions of a limit (fair_limit.go): the
// strongly connected components a thread running for ever may stay in,
// what their steps write and read, and the entries into and last writes
// of a location's set of values along the threads' paths.

// limitComponents is what the steps inside the components that threads
// running for ever may stay in do to each location (bit sets of value
// indices).
type limitComponents struct {
	writes   []uint64 // the values written
	rmwReads []uint64 // the values read by a read-modify-write that writes
	stores   []bool   // whether some step writes it without reading it
	// moves[k][a] holds the values b that a read-modify-write of k
	// writes when it reads a.
	moves [][maxLimitValues]uint64
}

func (c *limitComponents) reset(nloc int) {
	c.writes, c.rmwReads, c.stores = make([]uint64, nloc), make([]uint64, nloc), make([]bool, nloc)
	c.moves = make([][maxLimitValues]uint64, nloc)
}

// add adds what d's steps do to c's.
func (c *limitComponents) add(d *limitComponents) {
	for k := range c.writes {
		c.writes[k] |= d.writes[k]
		c.rmwReads[k] |= d.rmwReads[k]
		c.stores[k] = c.stores[k] || d.stores[k]
		for a := range c.moves[k] {
			c.moves[k][a] |= d.moves[k][a]
		}
	}
}

// rmwRead reports whether the values of often can follow one another in
// k's coherence order by writes of the components, each value again and
// again. Every write after the limit point is one of theirs. When those
// are all read-modify-writes, each reads the write before it (8.10.3: no
// write comes between the write an atom reads and its own), so the values
// of k's writes from the limit point on, in coherence order, are a walk of
// the components' moves (a value read to the value written), and one that
// visits every value of often again and again: those values must lie in
// one strongly connected part of the moves. (For a single value, some
// read-modify-write must take it and write it back.)
func (c *limitComponents) rmwRead(k int, often uint64) bool {
	if c.stores[k] {
		return true
	}
	first := bits.TrailingZeros64(often)
	forth := c.walk(k, often, first, false)
	back := c.walk(k, often, first, true)
	return often&^forth == 0 && often&^back == 0
}

// walk returns the values of often reachable from value a by one or more
// of location k's moves within often (backwards when back is set).
func (c *limitComponents) walk(k int, often uint64, a int, back bool) uint64 {
	next := func(v int) uint64 {
		if !back {
			return c.moves[k][v] & often
		}
		var out uint64
		for u := range c.moves[k] {
			if c.moves[k][u]>>v&1 != 0 {
				out |= 1 << u
			}
		}
		return out & often
	}
	var seen uint64
	stack := []int{a}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for n := next(v) &^ seen; n != 0; n &= n - 1 {
			u := bits.TrailingZeros64(n)
			seen |= 1 << u
			stack = append(stack, u)
		}
	}
	return seen
}

// entered reports whether location k can come to be written only values
// of the set often (a location written for ever, as the limit says),
// given the values each thread may read from the others' writes, each thread's targets and
// the states on its paths to them. When some write of a value outside
// often surely exists (the initial write, or one that some thread writes
// on every path to its target), let w be the last in coherence; the write
// after it writes a value of often. If no thread's path stores such a
// value with st, that write is an atom's, which reads w (8.10.3: no write
// comes between the write an atom reads and its own; by coherence, that
// one precedes its own), and its thread then reads k only at w's
// successors, all of values of often (8.10.5), until its target.
func (l *limitProgram) entered(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	in := func(v int) bool { return often>>v&1 != 0 }
	surely := !in(0) // the initial value is one of the values at index 0
	for v := range l.values[k] {
		for i, lt := range l.threads {
			if surely || in(v) {
				break
			}
			ok := l.readable(others[i])
			r := lt.reach(0, func(e limitEdge) bool { return ok(e) && !(e.wloc == k && e.wval == v) })
			surely = !anyBoth(r, targets[i])
		}
	}
	if !surely {
		return true
	}
	if !in(0) && l.entriesOnce(k, often, others, targets, paths) && l.lastReadsSet(k, often, others, targets, paths) {
		return false
	}
	// Some entry into often reaches its thread's target.
	return !l.pathWritesOf(k, others, paths, func(i, _ int, e limitEdge, ok func(limitEdge) bool) bool {
		if !entry(e, k, often) {
			return true
		}
		after := func(f limitEdge) bool {
			return ok(f) && (f.rloc != k || in(f.rval)) && (f.wloc != k || in(f.wval))
		}
		return !anyBoth(l.threads[i].reach(e.to, after), targets[i])
	})
}

// lastWrite reports whether value v (an index) can be location k's last
// value, as the limit of a location written finitely often says: the last
// write in coherence is its thread's last write of k in program order
// (8.10.5: coherence follows program order between a thread's writes of
// one location), so the value some thread's own last write has at its
// target; or the initial value when every thread can reach its target
// without writing k.
func (l *limitProgram) lastWrite(k, v int, targets [][]bool) bool {
	none := true
	for i, lt := range l.threads {
		unwritten := false
		for s, t := range targets[i] {
			if !t {
				continue
			}
			switch lt.ownLast[s][k] {
			case int64(v):
				return true
			case -1:
				unwritten = true
			}
		}
		none = none && unwritten
	}
	return v == 0 && none
}

// An entry into a set of values S of location k is a write of a value of
// S whose predecessor in coherence is of a value outside S: an st of a
// value of S, or an atom taking a value outside S and writing one of S
// (8.10.3). When the initial value is outside S and the last write outside
// S (w, which surely exists: entered) takes a value of S, two entries are
// needed: the first write of a value of S, before w in coherence (w's
// predecessor is one), and the write after w. entriesOnce and
// lastReadsSet find when there can be only one.

// entriesOnce reports whether every entry into often on the threads' paths
// is made by one and the same instruction, which lies on no cycle of its
// thread's control flow, so that the execution has at most one entry.
func (l *limitProgram) entriesOnce(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	thread, pc := -1, -1
	return l.pathWritesOf(k, others, paths, func(i, v int, e limitEdge, _ func(limitEdge) bool) bool {
		if !entry(e, k, often) {
			return true
		}
		lt := &l.threads[i]
		switch {
		case !lt.once[v]:
			return false
		case thread < 0:
			thread, pc = i, lt.pc[v]
		case thread != i || pc != lt.pc[v]:
			return false
		}
		return true
	})
}

// lastReadsSet reports whether every write that can be the last one of a
// value outside often is an atom taking a value of often: a write of such
// a value on a thread's path after which its thread reaches its target
// writing only values of often to k (its later writes follow it in
// coherence, 8.10.5), and there is at least one.
func (l *limitProgram) lastReadsSet(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	in := func(v int) bool { return often>>v&1 != 0 }
	found := false
	all := l.pathWritesOf(k, others, paths, func(i, _ int, e limitEdge, ok func(limitEdge) bool) bool {
		if in(e.wval) {
			return true
		}
		after := func(f limitEdge) bool { return ok(f) && (f.wloc != k || in(f.wval)) }
		if !anyBoth(l.threads[i].reach(e.to, after), targets[i]) {
			return true
		}
		if !e.rmw || e.rloc != k || !in(e.rval) {
			return false
		}
		found = true
		return true
	})
	return all && found
}

// pathWritesOf calls f on each step of the threads' paths (paths) that
// writes location k and that its thread may take given the values it may
// read from the others' writes (others), with the thread, the state the
// step leaves and the steps that thread may take, until f returns false;
// it reports whether f never did.
func (l *limitProgram) pathWritesOf(k int, others [][]uint64, paths [][]bool, f func(i, v int, e limitEdge, ok func(limitEdge) bool) bool) bool {
	for i, lt := range l.threads {
		ok := l.readable(others[i])
		for v, es := range lt.edges {
			for _, e := range es {
				if !paths[i][v] || !paths[i][e.to] || !ok(e) || e.wloc != k {
					continue
				}
				if !f(i, v, e, ok) {
					return false
				}
			}
		}
	}
	return true
}

// entry reports whether e, a step writing location k, is an entry into
// the values of often: it writes one of them, and is no read-modify-write
// taking one of them (or reading elsewhere).
func entry(e limitEdge, k int, often uint64) bool {
	return often>>e.wval&1 != 0 && !(e.rmw && (e.rloc != k || often>>e.rval&1 != 0))
}

func anyBoth(a, b []bool) bool {
	for i := range a {
		if a[i] && b[i] {
			return true
		}
	}
	return false
}

// reach returns the states reachable from from by the steps ok allows.
func (lt limitThread) reach(from int, ok func(limitEdge) bool) []bool {
	seen := make([]bool, len(lt.edges))
	seen[from] = true
	stack := []int{from}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range lt.edges[v] {
			if !seen[e.to] && ok(e) {
				seen[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	return seen
}

// coreach returns the states of reach from which the steps ok allows
// lead, within reach, to a state of target.
func (lt limitThread) coreach(reach, target []bool, ok func(limitEdge) bool) []bool {
	pred := make([][]int, len(lt.edges))
	for v, es := range lt.edges {
		if !reach[v] {
			continue
		}
		for _, e := range es {
			if ok(e) {
				pred[e.to] = append(pred[e.to], v)
			}
		}
	}
	seen := make([]bool, len(lt.edges))
	var stack []int
	for v, t := range target {
		if t && reach[v] {
			seen[v] = true
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range pred[v] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return seen
}

// stays returns the states of reach that lie in a strongly connected
// component of the steps limit allows (a thread can stay there for ever),
// adding what those components' steps do to comps.
func (lt limitThread) stays(reach []bool, limit func(limitEdge) bool, comps *limitComponents) []bool {
	succ := make([][]int, len(lt.edges))
	for v, es := range lt.edges {
		if !reach[v] {
			continue
		}
		for _, e := range es {
			if limit(e) {
				succ[v] = append(succ[v], e.to)
			}
		}
	}
	in := make([]int, len(lt.edges))
	out := make([]bool, len(lt.edges))
	for c, comp := range components(succ) {
		for _, v := range comp {
			in[v], out[v] = c+1, true
		}
	}
	for v, es := range lt.edges {
		if !out[v] {
			continue
		}
		for _, e := range es {
			if in[e.to] != in[v] || !limit(e) || e.wloc < 0 {
				continue
			}
			comps.writes[e.wloc] |= 1 << e.wval
			if !e.rmw || e.rloc != e.wloc {
				comps.stores[e.wloc] = true
			} else {
				comps.rmwReads[e.wloc] |= 1 << e.rval
				comps.moves[e.wloc][e.rval] |= 1 << e.wval
			}
		}
	}
	return out
}
