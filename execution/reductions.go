package execution

import "github.com/ptxmm/ptxmm/litmus"

// bar.red (PTX ISA 9.7.13.1): "the c predicate (or its complement) from
// all threads [of the barrier] are combined using the specified reduction
// operator. Once the barrier count is reached, the final value is written
// to the destination register in all threads waiting at the barrier."
// The result depends on which arrivals complete together, which the
// enumeration chooses last, after reads-from; but a thread may store the
// result or branch on it, so values must be known before. As with a read,
// whose value is chosen (by reads-from) and must agree with a write, the
// search chooses each result among the values it can take and keeps a
// barrier grouping only if every result is the reduction of its group.
// Every grouping of every candidate is still enumerated once: a completed
// bar.red has exactly one result for it.

// barResult is a bar.red event whose result the search chooses, and the
// largest value it can take.
type barResult struct {
	ev  int
	max int64
}

// barResults lists the bar.red events of the combination whose barrier
// may complete. A bar.red where its thread's run ends blocked never
// completes and writes no register: its value is fixed at 0.
func (s *comboSearch) barResults() []barResult {
	x := s.x
	var out []barResult
	for t, r := range x.Runs {
		base := x.ThreadStart[t]
		for i := range r.Events {
			ev := &x.Events[base+i]
			if ev.Kind != KindBarrier || ev.Instr.Op != litmus.OpBarrier || ev.Instr.BarRed == litmus.BarRedNone {
				continue
			}
			if r.Status == Blocked && i == len(r.Events)-1 {
				ev.Value, x.known[base+i] = Int(0), true
				continue
			}
			max := int64(1)
			if ev.Instr.BarRed == litmus.BarRedPopc {
				// A group has at most one arrival per thread of the CTA.
				max = int64(s.ctaSize(t))
			}
			out = append(out, barResult{ev: base + i, max: max})
		}
	}
	return out
}

// ctaSize counts the threads of thread t's CTA.
func (s *comboSearch) ctaSize(t int) int {
	own := CTAKey(s.a.Test.Threads[t])
	n := 0
	for _, th := range s.a.Test.Threads {
		if CTAKey(th) == own {
			n++
		}
	}
	return n
}

// chooseResults chooses the results of results[j:], pruning with the
// runs' constraints as reads-from does, then completes the candidate.
func (s *comboSearch) chooseResults(j int) {
	if s.stop {
		return
	}
	if j == len(s.results) {
		s.leaf()
		return
	}
	res := s.results[j]
	for v := int64(0); v <= res.max && !s.stop; v++ {
		mark := len(s.values.trail)
		if !s.values.startFalse && s.learn(res.ev, Int(v)) {
			s.chooseResults(j + 1)
		}
		s.forget(mark)
	}
}

// reductionsHold reports whether every completed bar.red's chosen result
// is the reduction of the predicates of its group. A predicate is true
// when it is not 0, and "!c" negates it; .popc counts the true ones, .and
// is 1 when all are, .or when one is. Arrivals of bar.sync or bar.arrive
// in the group contribute nothing (mixing them with bar.red on one
// barrier is "unpredictable": spec.dl flags it as undefined).
func (s *comboSearch) reductionsHold(groups [][]int) bool {
	if len(s.results) == 0 {
		return true
	}
	x := s.x
	for _, g := range groups {
		var members []int
		trues := int64(0)
		for _, ev := range g {
			e := &x.Events[ev]
			if e.BarPredSym == nil {
				continue
			}
			members = append(members, ev)
			// A predicate that thin air leaves undetermined is 0, like
			// the values of such reads.
			v, ok, err := e.BarPredSym.eval(x.readValue(e.Thread))
			if err == nil && ok && (v.N != 0) != e.Instr.PredNeg {
				trues++
			}
		}
		for _, ev := range members {
			var want int64
			switch x.Events[ev].Instr.BarRed {
			case litmus.BarRedPopc:
				want = trues
			case litmus.BarRedAnd:
				want = boolValue(trues == int64(len(members)))
			case litmus.BarRedOr:
				want = boolValue(trues > 0)
			}
			if x.Events[ev].Value.N != want {
				return false
			}
		}
	}
	return true
}

func boolValue(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
