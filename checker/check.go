package checker

import (
	"errors"
	"fmt"
	"time"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Options configure checking.
type Options struct {
	Exec execution.Options
	// MaxCandidates bounds the candidate executions of one test
	// (-max-candidates); 0 means no bound.
	MaxCandidates int
	// Timeout bounds the time spent on one test (-timeout); 0 means none.
	Timeout time.Duration
	// Explain records why each forbidden outcome is forbidden.
	Explain bool
}

// DefaultOptions are the defaults of the command line.
func DefaultOptions() Options {
	o := Options{Exec: execution.DefaultOptions(), MaxCandidates: 5_000_000, Timeout: 5 * time.Minute}
	o.Exec.SpinReduction = true
	return o
}

// errTimeout reports an exhausted -timeout.
type errTimeout struct{ limit time.Duration }

func (e errTimeout) Error() string {
	return fmt.Sprintf("checking took longer than the time limit of %s; raise it with -timeout", e.limit)
}

// session holds the per-test state of a check.
type session struct {
	m        *Model
	opts     Options
	t        *litmus.Test
	a        *execution.Analysis
	res      *Result
	obs      []Observable
	filler   *catalog.Filler
	insts    map[int]*rules.Instance
	seen     map[string]bool
	forbid   map[string]bool
	start    time.Time
	finals   []int // observed location indices (into obs) that need a final write
	finalBuf []int // chosen final write per entry of finals
	coName   string
}

// Check checks one test against the model.
func (m *Model) Check(t *litmus.Test, opts Options) *Result {
	start := time.Now()
	res := &Result{Test: t, Sanity: true}
	err := m.check(t, opts, res, start)
	res.Elapsed = time.Since(start)
	if err != nil {
		res.Err = err
	}
	return res
}

func (m *Model) check(t *litmus.Test, opts Options, res *Result, start time.Time) error {
	eopts := opts.Exec
	eopts.SpinReduction = eopts.SpinReduction && m.Program.EventMonotone()
	a, err := execution.Prepare(t, eopts)
	if err != nil {
		return err
	}
	res.Layout = a.Layout
	res.Cut = a.CutRuns()
	obs, err := observables(t, a.Layout)
	if err != nil {
		return err
	}
	res.Observables = obs
	s := &session{m: m, opts: opts, t: t, a: a, res: res, obs: obs, filler: catalog.NewFiller(m.Syntax),
		insts: map[int]*rules.Instance{}, seen: map[string]bool{}, forbid: map[string]bool{}, start: start}
	for i, o := range obs {
		if o.IsLoc {
			s.finals = append(s.finals, i)
		}
	}
	if len(s.finals) > 0 {
		if err := m.hasCoherence(); err != nil {
			return err
		}
	}
	s.finalBuf = make([]int, len(s.finals))
	var loopErr error
	count := 0
	stats, err := a.Enumerate(opts.MaxCandidates, func(x *execution.Execution) bool {
		count++
		if opts.Timeout > 0 && count%64 == 0 && time.Since(start) > opts.Timeout {
			loopErr = errTimeout{opts.Timeout}
			return false
		}
		if err := s.candidate(x); err != nil {
			loopErr = err
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if loopErr != nil {
		return loopErr
	}
	if stats.Candidates == 0 && hasFilters(t) {
		res.Sanity = false
	}
	s.verdicts()
	return nil
}

func hasFilters(t *litmus.Test) bool {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Filter != nil {
				return true
			}
		}
	}
	return false
}

// instance returns an evaluation instance for executions of n events.
func (s *session) instance(n int) *rules.Instance {
	if in, ok := s.insts[n]; ok {
		return in
	}
	dom := rules.NewDomain()
	for i := 0; i < n; i++ {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	in := s.m.Program.NewInstance(dom)
	s.insts[n] = in
	return in
}

// candidate evaluates one candidate execution, once per choice of final
// writes for the observed locations.
func (s *session) candidate(x *execution.Execution) error {
	inst := s.instance(len(x.Events))
	if err := s.filler.Fill(inst, x); err != nil {
		return err
	}
	if len(s.finals) == 0 {
		s.evaluate(inst, x)
		return nil
	}
	writes := make([][]int, len(s.finals))
	for k, oi := range s.finals {
		for i, ev := range x.Events {
			if ev.Kind == execution.KindWrite && ev.Loc == s.obs[oi].Loc {
				writes[k] = append(writes[k], i)
			}
		}
	}
	pick := make([]int, len(s.finals))
	for {
		for k := range s.finals {
			s.finalBuf[k] = writes[k][pick[k]]
		}
		s.evaluate(inst, x)
		k := 0
		for ; k < len(pick); k++ {
			pick[k]++
			if pick[k] < len(writes[k]) {
				break
			}
			pick[k] = 0
		}
		if k == len(pick) {
			return nil
		}
	}
}

// evaluate solves the model's orders for one candidate with the current
// choice of final writes and records the outcome.
func (s *session) evaluate(inst *rules.Instance, x *execution.Execution) {
	s.res.Candidates++
	var opts []rules.SolveOption
	if len(s.finals) > 0 {
		opts = append(opts, rules.WithPrune(func(in *rules.Instance) bool {
			co, err := in.Rel(CoherenceRelation)
			if err != nil {
				return false
			}
			for _, w := range s.finalBuf {
				if co.Row(w).Any() {
					return true // a later write exists: w cannot be the final one
				}
			}
			return false
		}))
	}
	sol := inst.Solve(opts...)
	if sol.Consistent && x.Undetermined {
		// The model allows a cycle of reads-from and data dependencies, so
		// this execution's values are not determined: it has no final state.
		s.res.ThinAir++
		return
	}
	state := s.state(x)
	key := state.key()
	if sol.Consistent {
		s.res.Consistent++
		for t := range x.Runs {
			if x.Blocked(t) {
				s.res.Blocked++
				break
			}
		}
		if s.t.Condition != nil {
			if evalExpr(s.t.Condition.Expr, s.obs, state) {
				s.res.Positive++
			} else {
				s.res.Negative++
			}
		}
		if !s.seen[key] {
			s.seen[key] = true
			s.res.States = append(s.res.States, state)
		}
		s.assertionCounts(state)
		return
	}
	if s.opts.Explain && !s.forbid[key] && len(sol.Failures) > 0 {
		s.forbid[key] = true
		s.res.Forbidden = append(s.res.Forbidden, Forbidden{State: state, Failures: sol.Failures,
			Execution: x.Clone(), Finals: append([]int(nil), s.finalBuf...)})
	}
}

// state reads the observed final values of a candidate.
func (s *session) state(x *execution.Execution) State {
	st := make(State, len(s.obs))
	k := 0
	for i, o := range s.obs {
		if o.IsLoc {
			st[i] = Val{Defined: true, V: x.Events[s.finalBuf[k]].Value}
			k++
			continue
		}
		if v, ok := x.Reg(o.Thread, o.Reg); ok {
			st[i] = Val{Defined: true, V: v}
		}
	}
	return st
}

// assertionCounts tallies, per assertion, how many consistent executions
// satisfy it; verdicts turns the tallies into outcomes.
func (s *session) assertionCounts(state State) {
	if len(s.res.Assertions) == 0 && len(s.t.Assertions) > 0 {
		for _, a := range s.t.Assertions {
			s.res.Assertions = append(s.res.Assertions, AssertionResult{Name: a.Name, Kind: a.Kind, Holds: true})
		}
	}
	for i, a := range s.t.Assertions {
		if evalExpr(a.Expr, s.obs, state) {
			s.res.Assertions[i].Sometimes = true
		} else {
			s.res.Assertions[i].Holds = false // "always" fails
		}
	}
}

// verdicts computes the herd verdict and the assertion outcomes.
func (s *session) verdicts() {
	r := s.res
	if len(r.Assertions) == 0 {
		for _, a := range s.t.Assertions {
			// No consistent execution: assert holds vacuously, permit fails.
			r.Assertions = append(r.Assertions, AssertionResult{Name: a.Name, Kind: a.Kind, Holds: true})
		}
	}
	for i := range r.Assertions {
		always := r.Assertions[i].Holds
		switch r.Assertions[i].Kind {
		case litmus.AssertSometimes:
			r.Assertions[i].Holds = r.Assertions[i].Sometimes
		default:
			r.Assertions[i].Holds = always
		}
	}
	if c := s.t.Condition; c != nil {
		ok := false
		switch c.Kind {
		case litmus.CondExists:
			ok = r.Positive > 0
		case litmus.CondNotExists:
			ok = r.Positive == 0
		case litmus.CondForall:
			ok = r.Negative == 0
		}
		r.Verdict = "No"
		if ok {
			r.Verdict = "Ok"
		}
	}
}

// IsTimeout reports whether err is an exhausted time limit.
func IsTimeout(err error) bool {
	var t errTimeout
	return errors.As(err, &t)
}
