package checker

import (
	"slices"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// Flags and the reduction of awaits.
//
// The spin reduction leaves out the executions in which an await fails
// before it passes: each has the final state and the verdict of the
// execution without its failed iterations, which the search keeps, as the
// model is event-monotone. Not so the flags: a failed iteration's read may
// race with a write that the passing iteration is ordered after (a load
// before the acquire that ends the wait), and a model may test anything
// of it. So after the search, while some flag of a model is raised by no
// execution checked, the probe runs (the runs that go round an await
// after failing it, up to the unrolling bound, as the unrolled search
// would) are searched for it: only the combinations of runs with a probe
// whose executions may raise a flag still wanted (rules.Instance.
// MayRaiseOver, over the choices the combination makes), and each
// execution is evaluated for those flags only. Probe executions add no
// state, no count and no hang. A flag whose witnesses persist when events
// are removed (rules.Program.FlagPersists: spec.dl's races) is raised by
// a probe execution that the search did not raise it on only through a
// witness holding an event of a failed iteration: the execution without
// them is consistent (the model is event-monotone), the search checked it,
// and the witness is still there. So a combination is searched only when
// the flag's bound holds such a witness (rules.Instance.MayRaiseThrough).

// probeFlags searches the probe runs for the flags no execution raised.
func (s *session) probeFlags() error {
	if s.err != nil || !s.a.HasProbes() || s.opts.StopAtWitness && s.halt {
		return nil
	}
	wanted := s.wantedFlags()
	if wanted == nil {
		return nil
	}
	// The probe search is another search, with a plan of its own
	// (plan.forProbes), on this goroutine: the worker's state of the main
	// search that it would change is set aside until it ends. Only the
	// models that want a flag take part, and the payoff of asking about
	// partial candidates was learned about other combinations of runs.
	main, runs, payoff := s.plan, s.runs, s.payoff
	s.probing, s.runs, s.payoff = true, nil, nil
	for i, r := range runs {
		if len(wanted[i]) > 0 {
			r.probing = wanted[i]
			s.runs = append(s.runs, r)
		}
	}
	s.plan = main.forProbes(!s.opts.FullSearch && s.monotoneModels())
	defer func() {
		for _, r := range s.runs {
			r.probing = nil
		}
		s.plan, s.runs, s.probing, s.payoff = main, runs, false, payoff
	}()
	search := s.search()
	search.Relevant, search.Pruned, search.Uncounted = nil, nil, true
	var live func([]*execution.Run) bool
	if combos, ok := s.probeCombos(main.a, s.a); ok {
		search.Combos = combos
	} else {
		live = s.baseFilter(main.a)
	}
	search.Filter = func(runs []*execution.Run) bool {
		n := execution.FailedIters(runs)
		return n > 0 && (s.probeDepth == 0 || n <= s.probeDepth) && (live == nil || live(runs))
	}
	search.Combo = s.probeCombo
	var loopErr error
	_, err := s.a.Search(search, func(x *execution.Execution) bool {
		if err := s.ctx.Err(); err != nil {
			loopErr = s.stopReason(err)
			return false
		}
		if err := s.candidate(x); err != nil {
			loopErr = err
			return false
		}
		return s.stillWanted()
	})
	if err == nil {
		err = loopErr
	}
	if err == nil {
		err = s.err
	}
	return err
}

// wantedFlags lists, per model run, the flags no execution raised that
// the probes are searched for (nil when there are none): every flag, or
// when only the executions deciding the test are checked, the .undefined
// tests, the only ones that change the verdict.
func (s *session) wantedFlags() [][]string {
	var out [][]string
	any := false
	for _, r := range s.runs {
		var names []string
		for _, c := range r.m.Program.Flags() {
			if s.onlyDeciding && c.Mode != datalog.ModeUndefined {
				continue
			}
			if !r.raised(c.Name) {
				names = append(names, c.Name)
				any = true
			}
		}
		out = append(out, names)
	}
	if !any {
		return nil
	}
	return out
}

// stillWanted reports whether some flag the probes are searched for is
// still raised by no execution.
func (s *session) stillWanted() bool {
	for _, r := range s.runs {
		for _, name := range r.probing {
			if !r.raised(name) {
				return true
			}
		}
	}
	return false
}

// raised reports whether an execution raised the flag called name.
func (r *modelRun) raised(name string) bool {
	return slices.ContainsFunc(r.res.Flags, func(f FlagResult) bool { return f.Name == name })
}

// probed keeps of the flags a probe execution raises those the probes are
// searched for and no execution raised yet.
func (r *modelRun) probed(raised []rules.CheckResult) []rules.CheckResult {
	return slices.DeleteFunc(raised, func(f rules.CheckResult) bool { return !slices.Contains(r.probing, f.Name) || r.raised(f.Name) })
}

// probeCombo reports whether some execution of x's combination of runs
// may raise a flag the probes are searched for.
func (s *session) probeCombo(x *execution.Execution) bool {
	varying := fill.ChoicesVarying(x)
	var failed []int
	for t, run := range x.Runs {
		for _, e := range run.Failed {
			failed = append(failed, x.ThreadStart[t]+e)
		}
	}
	for _, r := range s.runs {
		if len(r.probing) == 0 {
			continue
		}
		inst, err := r.instance(s.ctx, len(x.Events))
		if err == nil {
			err = r.filler.FillPartial(inst, x)
		}
		if err != nil {
			return true // evaluating the candidates reports the error
		}
		var names []string
		for _, name := range r.probing {
			if !r.raised(name) {
				names = append(names, name)
			}
		}
		if inst.MayRaiseThrough(names, failed, varying...) {
			return true
		}
	}
	return false
}
