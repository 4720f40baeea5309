package execution

// Values along the search, incrementally.
//
// A read's value is known once its write's value is, and a write's value
// once the values of the reads it is computed from are. The search learns
// values as it chooses writes: choosing a write for a read makes the read
// known when the write's value is; a read becoming known may make the
// writes computed from it known, and with them the reads that already
// read them. Each value is computed once per branch, and undone when the
// search backs up (a trail of the events made known), instead of
// recomputing every value of the branch at each choice. A run's
// constraints are checked when a value they look at becomes known: a
// constraint is decided exactly when all of the values it is computed
// from are known, which happens at the choice that makes the last of them
// known.

// valueIndex is what learning values needs about one combination of runs.
type valueIndex struct {
	// dependents[e] lists the writes whose values are computed from the
	// value of event e (a read, or a bar.red whose result is chosen).
	dependents [][]int
	// constraints[e] lists the constraints that look at the value of e.
	constraints [][]runConstraint
	// readers[w] lists the reads that currently read write w.
	readers [][]int
	// trail lists the events made known, in order, since the choices of
	// the combination began.
	trail []int
	// startFalse is set when a constraint that looks at no value still to
	// learn is false: every choice is rejected.
	startFalse bool
}

// runConstraint is a constraint of thread t's run.
type runConstraint struct {
	t int
	c *Constraint
}

// newValueIndex indexes the values and constraints of the combination.
func (s *comboSearch) newValueIndex() *valueIndex {
	x := s.x
	n := len(x.Events)
	vi := &valueIndex{dependents: make([][]int, n), constraints: make([][]runConstraint, n), readers: make([][]int, n)}
	seen := map[[2]int]bool{}
	for _, w := range s.writes {
		ev := &x.Events[w]
		for _, local := range ev.Sym.valueReads(nil) {
			e := x.ThreadStart[ev.Thread] + local
			if !seen[[2]int{e, w}] {
				seen[[2]int{e, w}] = true
				vi.dependents[e] = append(vi.dependents[e], w)
			}
		}
	}
	for t, run := range x.Runs {
		look := x.readValue(t)
		for i := range run.Constraints {
			c := &run.Constraints[i]
			reads := c.Cond.valueReads(nil)
			pending := false
			for _, local := range reads {
				e := x.ThreadStart[t] + local
				vi.constraints[e] = append(vi.constraints[e], runConstraint{t, c})
				if !x.known[e] {
					pending = true
				}
			}
			if !pending {
				if v, ok, err := c.Cond.eval(look); err == nil && ok && (v.N != 0) != c.Want {
					vi.startFalse = true
				}
			}
		}
	}
	return vi
}

// available reports whether the read at depth k may read write w: an
// mbarrier update may not read a write another update reads (see
// mbarrierChainsHold).
func (s *comboSearch) available(k, w int) bool { return !s.updates[k] || s.takenBy[w] < 0 }

// pick makes the read at depth k read write w, and reports whether the
// choice may still have candidates: its values contradict no constraint
// and its mbarrier chains hold. unpick(k, w, mark) undoes it, either way.
func (s *comboSearch) pick(k, w int) (mark int, ok bool) {
	mark = len(s.values.trail)
	if s.updates[k] {
		s.takenBy[w] = s.reads[k]
	}
	return mark, s.choose(s.reads[k], w) && s.chainHolds(k, w)
}

// unpick undoes pick(k, w).
func (s *comboSearch) unpick(k, w, mark int) {
	if s.updates[k] {
		s.takenBy[w] = -1
	}
	s.unchoose(s.reads[k], w, mark)
}

// choose makes read r read write w and learns the values that follow. It
// reports false when a constraint is decided false or an evaluation fails
// (recorded in s.err); either way, unchoose undoes it.
func (s *comboSearch) choose(r, w int) bool {
	vi := s.values
	s.x.RF[r] = w
	vi.readers[w] = append(vi.readers[w], r)
	if vi.startFalse {
		return false
	}
	v, ok := s.writeValue(w)
	if s.stop {
		return false
	}
	if !ok {
		return true
	}
	return s.learnRead(r, w, v)
}

// unchoose undoes choose(r, w) and what it learned: the events made known
// since the trail had length mark.
func (s *comboSearch) unchoose(r, w, mark int) {
	vi := s.values
	vi.readers[w] = vi.readers[w][:len(vi.readers[w])-1]
	s.forget(mark)
	s.x.RF[r] = -1
}

// forget makes the events made known since the trail had length mark
// unknown again.
func (s *comboSearch) forget(mark int) {
	vi := s.values
	for _, e := range vi.trail[mark:] {
		s.x.known[e] = false
	}
	vi.trail = vi.trail[:mark]
}

// learnRead makes read r, which reads write w of value v, known.
func (s *comboSearch) learnRead(r, w int, v Value) bool {
	x := s.x
	if we, re := &x.Events[w], &x.Events[r]; we.Thread < 0 || we.Off != re.Off || we.Size != re.Size || we.Signed != re.Signed || re.Size != re.OpSize {
		// Only a read of other bytes than its write's, or of another
		// type, changes the value.
		rv, err := readBytes(v, we, re)
		if err != nil {
			s.err = errAt(x.Events[r].Instr.Pos, "%v (in %q)", err, x.Events[r].Instr.Text)
			s.stop = true
			return false
		}
		v = rv
	}
	return s.learn(r, v)
}

// learn sets the value of event e (a read, or a bar.red's result), checks
// the constraints that look at it, and learns the values that follow.
func (s *comboSearch) learn(e int, v Value) bool {
	x, vi := s.x, s.values
	x.Events[e].Value = v
	x.known[e] = true
	vi.trail = append(vi.trail, e)
	for _, rc := range vi.constraints[e] {
		cv, ok, err := rc.c.Cond.eval(x.readValue(rc.t))
		if err != nil {
			s.err = errAt(rc.c.Pos, "%v", err)
			s.stop = true
			return false
		}
		if ok && (cv.N != 0) != rc.c.Want {
			return false
		}
	}
	for _, w := range vi.dependents[e] {
		if len(vi.readers[w]) == 0 {
			continue
		}
		wv, ok := s.writeValue(w)
		if s.stop {
			return false
		}
		if !ok {
			continue
		}
		for _, r := range vi.readers[w] {
			if !x.known[r] && !s.learnRead(r, w, wv) {
				return false
			}
		}
	}
	return true
}
