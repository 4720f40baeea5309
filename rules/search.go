package rules

import "github.com/ptxmm/ptxmm/relations"

// The order search is a depth-first search over the pairs of each order in
// turn: at each pair still unrelated, the first choice (a -> b for the pair
// (a, b), a < b; leaving it unrelated for a partial order) and then the
// others, each followed by the rest of the search, abandoning a choice as
// soon as a monotone check fails. Its result is defined by that order of
// exploration: the first consistent choice in it, and the failures met on
// the way.
//
// The search reaches the same result with far fewer evaluations:
//
//   - It dives: from a state, it takes the first choice at every remaining
//     pair of the order at once and evaluates the state reached, once. When
//     that state passes, so did every state on the way (the monotone checks
//     only get worse as the orders grow), so the depth-first search would
//     have gone the same way. When it fails, a bisection over the choices
//     finds the first state on the way that fails, in a logarithmic number
//     of evaluations, and the search goes on from the state before it with
//     the other choices, deepest first, as the depth-first search would.
//   - Every evaluation is incremental (incr.go): only what the new pairs
//     derive is computed, and the checks are tested on the new tuples.
//   - When the caller does not ask for witnesses, pairs whose other
//     direction a check rejects outright are oriented first (forced.go);
//     that prunes only choices that fail, so the consistent choice found is
//     the same, but the failures listed can be fewer.

// orderSearch is what an instance keeps for the search of its orders:
// the solver, whose scratch and statistics serve the next search too, the
// order being searched, which a limit error names (limits.go), and the
// inverses the ways of forced pairs read (ways.go). Reset empties the
// solver and forgets the order; the inverses are keyed by the versions of
// their relations, which Reset moves on.
type orderSearch struct {
	solve     *solver
	searching *orderPlan
	inverses  map[relID]*inverseCache
}

// solver is the state of one order search.
type solver struct {
	in     *Instance
	cfg    solveConfig
	pairs  [][][2]int // per order: the unordered pairs to relate
	result SolveResult
	seen   map[string]bool
	// full makes the next test evaluate the checks whole rather than on
	// the last step's changes: the state before it was not tested.
	// fromBase makes it test on the changes only the checks that held at
	// the checkpoint the last step started from.
	full, fromBase bool
	// path and kept are stacks shared by the nested dives (each uses the
	// part above where it started): the choices of a dive, and the states
	// on its way the search can return to.
	path []decision
	kept []keptState
	// forced is scratch for forced pairs, wayScratch for the ways they
	// are found along (ways.go).
	forced     [][2]int
	wayScratch wayScratch
	// ways are the statistics of the ways, kept across searches; reach
	// is the closure of the acyclic check forcedPairs is at, once needed.
	ways  []wayStat
	reach *relations.Rel
	// forcings are the statistics of the forcings, with the ways of each
	// worth following (worthWays).
	forcings []forcingStat
	// done is forcedPairs' scratch: the pairs forced so far in a call.
	done *relations.Rel
	// phase[k] is the order whose directions order k's dives take first
	// (WithPhases), nil for the smaller event first.
	phase []*relations.Rel
	// pruned says that the last node failed its own test, before
	// expanding anything.
	pruned bool
	// restart, when set, unwinds the search to the start of order
	// restartOrder's search, to test the pair restartPair there: it
	// failed both ways deeper in (restart.go). tested[k] lists the pairs
	// order k's search tested so since it started; settled[k] is set once
	// such a test found a pair failing neither way there, which ends the
	// restarts of that search.
	restart      bool
	restartOrder int
	restartPair  [2]int
	tested       [][][2]int
	settled      []bool
}

// decision is a pair of a dive's path: its index in the order's pairs,
// whether the first choice orients it (a total order) or leaves it
// unrelated (a partial one), and whether it orients it from the larger
// event to the smaller (a phase says so).
type decision struct {
	j           int
	orient, rev bool
}

// first returns the direction a decision's first choice orients its pair.
func (d decision) first(p [2]int) (int, int) {
	if d.rev {
		return p[1], p[0]
	}
	return p[0], p[1]
}

// keptState is a state on a dive's path: after its first idx choices, at
// trail mark mark.
type keptState struct {
	idx, mark int
}

// Solve searches for a choice of every .order relation under which all
// checks hold: each order must relate every pair of its "over" relation one
// way or the other (or leave it unrelated, for a partial order) and be a
// strict partial order. The search orients one pair at a time in a fixed
// order, keeps each order transitively closed, and abandons a partial
// choice as soon as a check that can only get worse as the orders grow (one
// not depending on an order through a negation) fails; it returns the first
// consistent choice in that order. The inputs must be set before calling
// Solve.
func (in *Instance) Solve(opts ...SolveOption) SolveResult {
	s := in.search.solve
	if s == nil {
		s = &solver{in: in, seen: map[string]bool{}, pairs: make([][][2]int, len(in.p.orders))}
		in.search.solve = s
	}
	s.cfg = solveConfig{}
	for _, o := range opts {
		o(&s.cfg)
	}
	s.result = SolveResult{}
	clear(s.seen)
	s.setPhases()
	s.restart = false
	// A nested Solve (RaisedFlags searching from a host hook) must not
	// share the scratch of the search that is running.
	in.search.solve = nil
	defer func() { in.search.solve = s }()
	err := in.guarded(s.cfg.ctx, func() {
		defer func() { in.search.searching = nil }()
		s.full, s.fromBase = true, in.startSearch()
		if s.node(0, 0) {
			s.result.Consistent = true
			s.result.Failures = nil
			// The host may read any relation of the solution: compute
			// those the search left out, under the search's context and
			// limits.
			in.run()
		} else {
			in.undo(in.inc.searchBase)
		}
	})
	s.path, s.kept = s.path[:0], s.kept[:0]
	if err != nil {
		return SolveResult{Nodes: s.result.Nodes, Err: err}
	}
	res := s.result
	s.result = SolveResult{}
	return res
}

// startSearch takes in pending insertions, empties the orders and brings
// the strata the search tests up to date. After a search on unchanged
// inputs, undoing its trail does both. It reports whether the state is one
// step of insertions away from a checkpoint, so that the checks that held
// there can be tested on that step's changes.
func (in *Instance) startSearch() bool {
	inc := &in.inc
	in.settle()
	switch {
	case !inc.valid:
		in.restart()
	case inc.searchBase >= 0:
		in.undo(inc.searchBase)
	}
	// Undoing leaves the strata it touched to recompute when the domain is
	// small (incr.go).
	in.runNeeded()
	inc.searchBase = in.inc.mark()
	return inc.afterInsert && !inc.recompute
}

// restart empties the orders and the trail and brings the strata the search
// tests up to date: the state a search or a checkpoint starts from.
func (in *Instance) restart() {
	inc := &in.inc
	in.inc.beginStep()
	inc.trail, inc.data = inc.trail[:0], inc.data[:0]
	for _, op := range in.p.orders {
		if o := in.stores[op.rel].rel; !o.IsEmpty() {
			o.Clear()
			in.inputChanged(op.rel)
		}
	}
	in.runNeeded()
	inc.valid = true
	inc.searchBase = -1
}

// node tests the state just reached (order k, pair index i) and searches
// on from it.
func (s *solver) node(k, i int) bool {
	if s.cfg.noWitness {
		if s.probe() {
			s.pruned = true
			return false
		}
	} else if pruned, _ := s.test(); pruned {
		s.fail(true)
		s.pruned = true
		return false
	}
	ok := s.expand(k, i)
	s.pruned = false
	return ok
}

// test evaluates the monotone checks and the host's prune on the current
// state, and returns the check that failed, if one did.
func (s *solver) test() (bool, *checkPlan) {
	in := s.in
	s.result.Nodes++
	if s.cfg.maxNodes > 0 && s.result.Nodes > s.cfg.maxNodes {
		// Every state fails from here on, so the search unwinds at once.
		s.result.Undecided = true
		return true, nil
	}
	in.intr.poll()
	in.current()
	full, fromBase := s.full, s.fromBase
	s.full, s.fromBase = false, false
	for i, c := range in.p.checks {
		if !c.monotone {
			continue
		}
		whole := in.inc.recompute || (full && !(fromBase && in.inc.baseHeld[i]))
		if (whole && in.violated(c)) || (!whole && in.violatedByStep(c)) {
			return true, c
		}
	}
	return s.cfg.prune != nil && s.cfg.prune(in), nil
}

// probe is test for states the depth-first search might not visit: in
// witness mode it records nothing (the failures to report are those of the
// states that search visits), and otherwise only the name of the check
// that failed.
func (s *solver) probe() bool {
	pruned, c := s.test()
	if pruned && c != nil && s.cfg.noWitness {
		s.named(c)
	}
	return pruned
}

// named records a failed check by name, once.
func (s *solver) named(c *checkPlan) {
	if !s.seen[c.check.Name] {
		s.seen[c.check.Name] = true
		s.result.Failures = append(s.result.Failures, CheckResult{Name: c.check.Name, Kind: c.check.Kind, Rel: s.in.p.rels[c.rel].name})
	}
}

// expand searches on from a state that passed its test.
func (s *solver) expand(k, i int) bool {
	in := s.in
	if k == len(in.p.orders) {
		return s.leaf()
	}
	op := in.p.orders[k]
	in.search.searching = op
	if i == 0 {
		s.pairs[k] = s.pairsOf(op, s.pairs[k][:0])
		if s.restarts(op) {
			return s.searchWithRestarts(k)
		}
	}
	return s.orderSearch(k, i)
}

// orderSearch searches order k from pair index i on, the pairs its checks
// force first.
func (s *solver) orderSearch(k, i int) bool {
	in := s.in
	op := in.p.orders[k]
	if s.cfg.noWitness && len(op.forcings) > 0 {
		if forced := s.forcedPairs(op, s.pairs[k][i:]); len(forced) > 0 {
			m := in.inc.mark()
			in.inc.beginStep()
			o := in.stores[op.rel].rel
			for _, p := range forced {
				switch {
				case o.Has(p[1], p[0]):
					// Two forced pairs close a cycle with the order: the
					// pairs oriented so far go on the trail to be undone.
					in.propagate()
					in.undo(m)
					return false
				case !o.Has(p[0], p[1]):
					in.orient(op, p[0], p[1])
				}
			}
			in.propagate()
			if s.probe() {
				in.undo(m)
				return false
			}
			if s.orderSearch(k, i) {
				return true
			}
			in.undo(m)
			return false
		}
	}
	return s.dive(k, i)
}

// leaf tests a complete choice: the checks that are not monotone, and the
// host's tests of complete choices.
func (s *solver) leaf() bool {
	in := s.in
	in.current()
	for _, c := range in.p.checks {
		if !c.monotone && in.violated(c) {
			if s.cfg.noWitness {
				s.named(c)
			} else {
				s.fail(false)
			}
			return false
		}
	}
	for _, t := range s.cfg.finalTests {
		if !t(in) {
			return false
		}
	}
	return s.cfg.accept == nil || s.cfg.accept(in)
}

// dive searches order k from pair index i: it takes the first choice at
// every remaining pair, and then the other choices, deepest first.
func (s *solver) dive(k, i int) bool {
	in := s.in
	op := in.p.orders[k]
	o := in.stores[op.rel].rel
	pairs := s.pairs[k]
	pathBase, keptBase := len(s.path), len(s.kept)
	defer func() { s.path, s.kept = s.path[:pathBase], s.kept[:keptBase] }()
	m0 := in.inc.mark()
	s.kept = append(s.kept, keptState{idx: 0, mark: m0})
	in.inc.beginStep()
	oriented := false
	for j := i; j < len(pairs); j++ {
		a, b := pairs[j][0], pairs[j][1]
		if o.Has(a, b) || o.Has(b, a) {
			continue
		}
		d := decision{j: j, orient: !op.order.Partial}
		if d.orient && s.phase[k] != nil && s.phase[k].Has(b, a) {
			d.rev = true
		}
		s.path = append(s.path, d)
		if d.orient {
			x, y := d.first(pairs[j])
			in.orient(op, x, y)
			oriented = true
		}
	}
	steps := len(s.path) - pathBase
	if steps == 0 {
		return s.expand(k+1, 0)
	}
	top := steps
	leafPruned := false
	if oriented {
		in.propagate()
		leafPruned = s.probe()
	}
	if !leafPruned {
		if s.expand(k+1, 0) {
			return true
		}
		in.undo(m0)
	} else {
		in.undo(m0)
		top = s.bisect(k, pathBase, keptBase, steps)
		if !s.cfg.noWitness {
			// Record the failures of the first failing state, the one the
			// depth-first search visits.
			s.goTo(k, pathBase, keptBase, top-1)
			m := in.inc.mark()
			if s.apply(k, pathBase, top-1, top) {
				in.propagate()
			}
			s.fail(true)
			in.undo(m)
		}
	}
	for t := top; t >= 1; t-- {
		s.goTo(k, pathBase, keptBase, t-1)
		d := s.path[pathBase+t-1]
		a, b := d.first(pairs[d.j])
		alts := [2][2]int{{b, a}}
		nalts := 1
		if !d.orient {
			alts, nalts = [2][2]int{{a, b}, {b, a}}, 2
		}
		for _, alt := range alts[:nalts] {
			m := in.inc.mark()
			in.inc.beginStep()
			in.orient(op, alt[0], alt[1])
			in.propagate()
			if s.node(k, d.j+1) {
				return true
			}
			in.undo(m)
			if s.restart || d.orient && s.pruned && s.askRestart(k, pairs[d.j]) {
				in.undo(m0)
				return false
			}
		}
	}
	in.undo(m0)
	return false
}

// bisect finds the first state on a dive's path that fails, knowing that
// the state before the path passes and the state after it fails; it
// returns its index (the number of choices that reach it) and leaves the
// instance in some state before it, kept.
func (s *solver) bisect(k, pathBase, keptBase, steps int) int {
	in := s.in
	lo, hi := 0, steps
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		s.goTo(k, pathBase, keptBase, lo)
		m := in.inc.mark()
		if !s.apply(k, pathBase, lo, mid) {
			// Only unrelated pairs of a partial order: the state is lo's.
			s.kept = append(s.kept, keptState{idx: mid, mark: m})
			lo = mid
			continue
		}
		in.propagate()
		if s.probe() {
			in.undo(m)
			hi = mid
			continue
		}
		s.kept = append(s.kept, keptState{idx: mid, mark: in.inc.mark()})
		lo = mid
	}
	return hi
}

// goTo puts the instance in the state after the first x choices of the
// current dive, from the deepest kept state at or before it.
func (s *solver) goTo(k, pathBase, keptBase, x int) {
	in := s.in
	for len(s.kept) > keptBase+1 && s.kept[len(s.kept)-1].idx > x {
		s.kept = s.kept[:len(s.kept)-1]
	}
	top := s.kept[len(s.kept)-1]
	in.undo(top.mark)
	if top.idx == x {
		return
	}
	if s.apply(k, pathBase, top.idx, x) {
		in.propagate()
	}
	s.kept = append(s.kept, keptState{idx: x, mark: in.inc.mark()})
}

// apply takes the first choices of path entries from to to (the choices
// from+1 to to), without propagating them, and reports whether any
// oriented a pair.
func (s *solver) apply(k, pathBase, from, to int) bool {
	in := s.in
	in.inc.beginStep()
	op := in.p.orders[k]
	pairs := s.pairs[k]
	any := false
	for t := from; t < to; t++ {
		d := s.path[pathBase+t]
		if d.orient {
			x, y := d.first(pairs[d.j])
			in.orient(op, x, y)
			any = true
		}
	}
	return any
}

// setPhases resolves the orders of WithPhases to the program's orders,
// leaving out those over another domain size.
func (s *solver) setPhases() {
	s.phase = s.phase[:0]
	for _, op := range s.in.p.orders {
		var ph *relations.Rel
		if o := s.cfg.phases[s.in.p.rels[op.rel].name]; o != nil && o.N() == s.in.n && s.cfg.noWitness {
			ph = o
		}
		s.phase = append(s.phase, ph)
	}
}

// fail records the violated checks of the current state.
func (s *solver) fail(monotoneOnly bool) {
	s.in.current()
	for _, c := range s.in.p.checks {
		if monotoneOnly && !c.monotone {
			continue
		}
		if s.seen[c.check.Name] || !s.in.violated(c) {
			continue
		}
		s.seen[c.check.Name] = true
		if s.cfg.noWitness {
			s.result.Failures = append(s.result.Failures, CheckResult{Name: c.check.Name, Kind: c.check.Kind, Rel: s.in.p.rels[c.rel].name})
			continue
		}
		f := s.in.evalCheck(c)
		if len(s.in.p.orders) > 0 {
			f.Orders = map[string]*relations.Rel{}
			for _, op := range s.in.p.orders {
				f.Orders[s.in.p.rels[op.rel].name] = s.in.stores[op.rel].rel.Clone()
			}
		}
		s.result.Failures = append(s.result.Failures, f)
	}
}

// pairsOf lists the unordered pairs of an order's "over" relation into buf.
func (s *solver) pairsOf(op *orderPlan, buf [][2]int) [][2]int {
	s.in.current()
	over := s.in.stores[op.over].rel
	for a, b := range over.All() {
		if a < b || (a > b && !over.Has(b, a)) {
			x, y := a, b
			if x > y {
				x, y = y, x
			}
			buf = append(buf, [2]int{x, y})
		}
	}
	return buf
}

// addToOrder adds the pairs of src to the order of op as they are (no
// closure), the new ones going to the step's changes.
func (in *Instance) addToOrder(op *orderPlan, src store) {
	ch := in.chgStore(op.rel)
	ov, cv := in.relRows(op.rel), in.rowsOf(ch)
	for i := range ov {
		// Row by row from the relation itself: src may be the host's.
		row := src.rel.Row(i).Words()
		orow, crow := ov[i], cv[i]
		lo, hi := len(row), 0
		for k, y := range row {
			if y &^= orow[k]; y != 0 {
				orow[k] |= y
				crow[k] |= y
				lo, hi = min(lo, k), k+1
			}
		}
		if lo < hi {
			if ch.track != nil {
				ch.track.add(i, lo, hi)
			}
			in.markChanged(op.rel)
		}
	}
}

// orient adds a -> b to the order of op, a transitively closed acyclic
// relation, and closes it again: everything reaching a now reaches
// everything b reaches. The new pairs go to the step's changes. The caller
// checks that b does not already reach a.
func (in *Instance) orient(op *orderPlan, a, b int) {
	o := in.stores[op.rel].rel
	ch := in.chgStore(op.rel)
	ov, cv := in.relRows(op.rel), in.rowsOf(ch)
	brow := ov[b]
	bw, bbit := b>>6, uint64(1)<<(uint(b)&63)
	for x := 0; x < in.n; x++ {
		if x != a && !o.Has(x, a) {
			continue
		}
		xrow, crow := ov[x], cv[x]
		lo, hi := len(xrow), 0
		for k, y := range brow {
			if k == bw {
				y |= bbit
			}
			y &^= xrow[k]
			if y != 0 {
				xrow[k] |= y
				crow[k] |= y
				lo, hi = min(lo, k), k+1
			}
		}
		if lo < hi && ch.track != nil {
			ch.track.add(x, lo, hi)
		}
	}
	in.markChanged(op.rel)
	// One orientation looks at every row: a dive orients up to every pair
	// of the order before the next node polls (a thread of 900 stores:
	// 400,000 orientations, seconds past the deadline), so each counts.
	in.intr.tick(in.n)
}
