package execution

import "slices"

// This file narrows the limits of fair_limit.go by putting one location's
// accesses in the order coherence gives them. In the fragment, every
// access of a location k is morally strong with every other, so
// sequential consistency per location (8.10.5, sc_per_location) makes
// program order between k's accesses together with their reads-from,
// coherence and from-read acyclic; a cycle of program order between any
// events and those relations of k would pass, between two of k's
// relations, from one access of k to a later one of the same thread, so
// it is excluded too. In a fair execution coherence and from-read are
// prefix-finite (Lahav et al.), and so is that order, so the execution's
// steps can be listed in a sequence of order type omega consistent with
// it. There, each read of k reads the last write of k before it (a write
// between would follow the read in from-read), and a read-modify-write of
// k is one step (8.10.3, atomicity_rmw, leaves no write between the write
// it reads and its own, and whatever else follows its read follows its
// write). That sequence is a run of the transition system whose states are
// each thread's local state and k's current value, with reads of other
// locations taking any value the limits allow. From its limit point on, a
// fair execution that runs for ever stays in a strongly connected part of
// that system, reached from the start, whose steps are all steps of the
// limit, in which every thread that runs for ever steps and the others
// have finished; if no reachable part is one, the limit is ruled out
// (docs/model.md, "Several locations", "One location's accesses in
// order").

// sequencedEdge is a step of the runs sequenced explores: to the state
// numbered to, by thread, a step of the limit when stays is set, writing
// the location in order when writes is.
type sequencedEdge struct {
	to, thread    int
	stays, writes bool
}

// sequenced reports whether the limit (limit, the threads in forever
// running for ever) survives with location k's accesses in coherence order,
// given what each thread may read from the others (others, and late in the
// limit) and the states on each thread's paths to its targets. It says
// the limit survives when the runs have more states than are left of the
// bound on all such runs of the program (sequencedLeft).
func (l *limitProgram) sequenced(k int, limit []locLimit, forever int, others, late [][]uint64, paths [][]bool, writes bool) bool {
	nth := len(l.threads)
	ok := make([]func(limitEdge) bool, nth)
	stay := make([]func(limitEdge) bool, nth)
	for i := range nth {
		ok[i] = l.readable(others[i])
		stay[i] = inLimit(limit, ok[i], late[i])
	}
	// A state is each thread's local state, then k's current value, then
	// for each thread and location other than k the values it wrote
	// (bits 0 to 7) and those it read that its own writes do not explain
	// (bits 8 to 15), so far on the run.
	nloc := 0
	if writes {
		nloc = len(limit)
	}
	marks := func(s []int64, i, j int) *int64 { return &s[nth+1+i*nloc+j] }
	var states [][]int64
	var edges [][]sequencedEdge
	var index stateIndex
	add := func(s []int64) int {
		j, fresh := index.number(s)
		if fresh {
			states = append(states, s)
			edges = append(edges, nil)
		}
		return j
	}
	add(make([]int64, nth+1+nth*nloc))
	for at := 0; at < len(states); at++ {
		s := states[at]
		for i, lt := range l.threads {
			v := s[i]
			if lt.final[v] {
				continue
			}
			for _, e := range lt.edges[v] {
				if !ok[i](e) || !paths[i][e.to] {
					continue
				}
				kv := s[nth]
				if e.rloc == k && int64(e.rval) != kv {
					// A read of k reads the last write before it.
					continue
				}
				if e.wloc == k {
					kv = int64(e.wval)
				}
				n := slices.Clone(s)
				n[i], n[nth] = int64(e.to), kv
				if writes && e.wloc >= 0 && e.wloc != k {
					*marks(n, i, e.wloc) |= 1 << e.wval
				}
				if writes && e.rloc >= 0 && e.rloc != k && !e.own {
					*marks(n, i, e.rloc) |= 1 << (maxLimitValues + e.rval)
				}
				to := add(n)
				edges[at] = append(edges[at], sequencedEdge{to: to, thread: i, stays: forever>>i&1 != 0 && stay[i](e), writes: e.wloc == k})
				if len(states) > l.sequencedLeft {
					l.sequencedLeft, l.sequencedCut = 0, true
					return true
				}
			}
		}
	}
	l.sequencedLeft -= len(states)
	// The threads that do not run for ever have finished in the limit.
	settled := func(s []int64) bool {
		for i, lt := range l.threads {
			if forever>>i&1 == 0 && !lt.final[s[i]] {
				return false
			}
		}
		return true
	}
	succ := make([][]int, len(states))
	for v, es := range edges {
		if !settled(states[v]) {
			continue
		}
		for _, e := range es {
			if e.stays {
				succ[v] = append(succ[v], e.to)
			}
		}
	}
	lim := limit[k]
	for _, comp := range components(succ) {
		in := make(map[int]bool, len(comp))
		for _, v := range comp {
			in[v] = true
		}
		steps, wrote := 0, false
		for _, v := range comp {
			for _, e := range edges[v] {
				if e.stays && in[e.to] {
					steps |= 1 << e.thread
					wrote = wrote || e.writes
				}
			}
		}
		if steps != forever || wrote != lim.forever {
			continue
		}
		if !lim.forever && states[comp[0]][nth] != int64(lim.last) {
			continue
		}
		if writes && !l.runWrites(states[comp[0]], k, limit, marks) {
			continue
		}
		return true
	}
	return false
}

// runWrites reports whether the writes of locations other than k made on
// a run that has reached s (in the limit, all the execution's writes: each
// event of the execution is a step of the run) explain what it read and
// the limit: each value a thread read that its own writes do not explain
// is written by another thread, and a location written finitely often
// ends with a value written, or with its initial value when nothing
// writes it.
func (l *limitProgram) runWrites(s []int64, k int, limit []locLimit, marks func([]int64, int, int) *int64) bool {
	const low = 1<<maxLimitValues - 1
	for j, lim := range limit {
		if j == k {
			continue
		}
		var all int64
		for i := range l.threads {
			all |= *marks(s, i, j) & low
		}
		for i := range l.threads {
			var others int64
			for o := range l.threads {
				if o != i {
					others |= *marks(s, o, j) & low
				}
			}
			if *marks(s, i, j)>>maxLimitValues&^others != 0 {
				return false
			}
		}
		if !lim.forever && (all == 0 && lim.last != 0 || all != 0 && all>>lim.last&1 == 0) {
			return false
		}
	}
	return true
}
