package rules

// Restarts. When both directions of a pair fail deep in an order's search
// (the first by the dive, the other at once), the failure may not depend on
// the choices made before it: in a candidate whose reads-from closes a
// cycle through two writes' coherence, say, either direction of that pair
// fails whatever else is chosen. Depth-first search would prove that by
// trying every choice of the pairs before it, one by one. Instead the search
// unwinds to where the order's search started and tests the pair there, on
// its own: a direction that fails there fails in every choice containing it
// (the checks tested are monotone), so a pair failing both ways there
// leaves no consistent choice, and a pair failing one way is oriented the
// other before the search starts again. Each pair is tested so at most once
// per start of the order's search, and a test that finds the pair failing
// neither way (the failure depended on the choices before it: the work
// since the start was spent for nothing) ends the restarts of that search,
// so that the work is at most about twice the search's own.
//
// A restart throws away the work since the start, which a search that goes
// on to find a consistent choice did not need to: restarts are taken only
// where the host expects none (WithRestarts). They change the order in
// which choices are visited, not the verdict, so they are taken only
// without witnesses, and for total orders.

// restarts reports whether order op's search may restart.
func (s *solver) restarts(op *orderPlan) bool {
	return s.cfg.restarts && s.cfg.noWitness && !op.order.Partial
}

// askRestart asks for a restart of order k's search to test pair p, both of
// whose directions just failed, unless p was tested since that search
// started; it reports whether it did.
func (s *solver) askRestart(k int, p [2]int) bool {
	if !s.restarts(s.in.p.orders[k]) || k >= len(s.settled) || s.settled[k] {
		return false
	}
	for _, q := range s.tested[k] {
		if q == p {
			return false
		}
	}
	s.restart, s.restartOrder, s.restartPair = true, k, p
	return true
}

// searchWithRestarts searches order k from its start, restarting as the
// search asks: each time, it tests the pair the search names on its own,
// and gives up or orients it before searching again.
func (s *solver) searchWithRestarts(k int) bool {
	in := s.in
	op := in.p.orders[k]
	for len(s.tested) <= k {
		s.tested = append(s.tested, nil)
		s.settled = append(s.settled, false)
	}
	s.tested[k], s.settled[k] = s.tested[k][:0], false
	m := in.inc.mark()
	for {
		if s.orderSearch(k, 0) {
			return true
		}
		if !s.restart || s.restartOrder != k {
			// A failure, or a restart of an earlier order's search
			// unwinding through this one.
			in.undo(m)
			return false
		}
		s.restart = false
		p := s.restartPair
		s.tested[k] = append(s.tested[k], p)
		o := in.stores[op.rel].rel
		if o.Has(p[0], p[1]) || o.Has(p[1], p[0]) {
			continue // oriented since, by an earlier test
		}
		ab, ba := s.failsWith(op, p[0], p[1]), s.failsWith(op, p[1], p[0])
		switch {
		case ab && ba:
			in.undo(m)
			return false
		case ab:
			p[0], p[1] = p[1], p[0]
		case !ba:
			// The failure depends on earlier choices.
			s.settled[k] = true
			continue
		}
		if s.orientAndProbe(op, p[0], p[1]) {
			in.undo(m)
			return false
		}
	}
}

// failsWith reports whether orienting a -> b in order op, alone, fails a
// monotone check; the state is left as it was.
func (s *solver) failsWith(op *orderPlan, a, b int) bool {
	m := s.in.inc.mark()
	failed := s.orientAndProbe(op, a, b)
	s.in.undo(m)
	return failed
}

// orientAndProbe orients a -> b in order op as one step and reports
// whether a monotone check fails then; the step stays on the trail.
func (s *solver) orientAndProbe(op *orderPlan, a, b int) bool {
	in := s.in
	in.inc.beginStep()
	in.orient(op, a, b)
	in.propagate()
	return s.probe()
}
