package checker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/limits"
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
	// Spent is the time already spent on the test before it is checked
	// (parsing its file), which counts against Timeout.
	Spent time.Duration
	// Explain records why each forbidden outcome is forbidden.
	Explain bool
	// StopAtWitness ends the enumeration at the first consistent execution
	// that decides the test (herd7's -speedcheck fast): one satisfying the
	// condition of exists and ~exists, one contradicting that of forall or
	// of a .test file's only assert, one satisfying its only permit. It
	// implies OnlyDeciding. Past the witness, the search goes on only
	// through the combinations of runs that may raise an .undefined test
	// no execution raised yet, which would make the verdict Undef.
	StopAtWitness bool
	// OnlyDeciding checks only the executions that may decide the test
	// in that way (herd7's -speedcheck true and fast): the others are
	// left out, uncounted, as soon as the values of their reads-from
	// choices rule them out (deciding.go). The verdict is the same; the
	// states, counts and flags are those of the executions checked.
	// Nothing is left out for a test that no single execution decides,
	// nor when a host watches every candidate.
	OnlyDeciding bool
	// MaxKept bounds the candidates a caller keeps (Candidates,
	// CheckKeep), one per choice of final writes: past it the check stops
	// with an error naming -max-candidates. 0 means no bound.
	MaxKept int
	// MaxMemory bounds the estimated memory of checking one test
	// (-max-memory); 0 means no bound. Budget, when set, is the limit
	// shared by tests checked in parallel: each reserves its estimate from
	// it before allocating (limits.go).
	MaxMemory int64
	Budget    *limits.Budget
	// Cores, when set, are the cores shared with the tests checked in
	// parallel, of which the caller holds one while it checks: a big
	// test's search takes the free ones (parallel.go).
	Cores *limits.Cores
	// splitMin, when positive, replaces the size from which a search is
	// split across cores (parallel.go), for the tests of the split;
	// pruneMin likewise the size from which it abandons partial
	// candidates (search.go), for the tests of that search.
	splitMin, pruneMin int
	// FullSearch builds every candidate execution, instead of abandoning
	// the partial candidates the model already rejects (search.go). The
	// results are the same; it exists to compare against.
	FullSearch bool
	// Progress, when set, counts the candidate executions built so far,
	// for a progress display that reads it while the check runs.
	Progress *atomic.Int64
}

// DefaultOptions are the defaults of the command line, except MaxMemory:
// the command line takes its default from the machine
// (limits.DefaultMaxMemory), a library caller chooses its own.
func DefaultOptions() Options {
	o := Options{Exec: execution.DefaultOptions(), MaxCandidates: 5_000_000, Timeout: 5 * time.Minute}
	o.Exec.SpinReduction, o.Exec.PlainSpins, o.Exec.Probes = true, true, true
	return o
}

// errTimeout reports an exhausted -timeout.
type errTimeout struct{ limit time.Duration }

func (e errTimeout) Error() string {
	return fmt.Sprintf("checking took longer than the time limit of %s; raise it with -timeout", e.limit)
}

// IsTimeout reports whether err is an exhausted time limit.
func IsTimeout(err error) bool {
	var t errTimeout
	return errors.As(err, &t)
}

// modelRun is the state of one model during a check.
type modelRun struct {
	m *Model
	// w is the worker whose filler and instances the run uses
	// (workers.go); filler is w's.
	w      *worker
	filler *fill.Filler
	insts  map[int]*rules.Instance
	res    *Result
	seen   map[string]bool
	forbid map[string]bool
	// cur is the instance of the candidate being evaluated; maxBytes the
	// memory its instances may take and instBytes what the cached ones
	// are estimated to take (limits.go).
	cur       *rules.Instance
	maxBytes  int64
	instBytes int64
	// warm holds the orders of the last consistent choice (warm.go).
	warm warmStart
	// pruned is the constraint on final writes of the last candidate
	// (finals.go).
	pruned pastPrune
	// probing lists, while the probe runs are searched, the flags they
	// are searched for (probes.go).
	probing []string
}

// verdict is one model's judgement of one candidate (with one choice of
// final writes).
type verdict struct {
	consistent bool
	failures   []rules.CheckResult
}

// session is one goroutine's search of a test's candidates for one or
// more models over one shared enumeration: the test's plan, shared with
// the other goroutines of a split search (plan.go), and the state of this
// goroutine's search, which a fork starts afresh (parallel.go).
// TestSessionFields lists which is which.
type session struct {
	*plan
	finalBuf []int // the final write chosen for each slot
	// regs are the observed registers looked up in the last candidate's
	// runs (zero entries for locations), for state.
	regs []execution.RegisterRef
	// stateBuf holds the state of the candidate being evaluated, and
	// keyBuf its key: what keeps one is a copy (State.clone), as most
	// states were seen before.
	stateBuf State
	keyBuf   []byte
	// solveBuf and flagBuf hold the options of a candidate's evaluation
	// (modelRun.evaluate), kept from one candidate to the next.
	solveBuf, flagBuf []rules.SolveOption
	runs              []*modelRun
	// stopped is set when StopAtWitness found its witness; halt when
	// the search may end there (verdictsKnown).
	stopped, halt bool
	// partial holds the values a partial candidate determines
	// (deciding.go).
	partial   partialState
	undefined undefinedWatch
	// err is the first error an evaluation stopped with; reserved is the
	// memory the check took from the shared budget and waited how long
	// it waited for it (limits.go): the goroutine that starts the check
	// takes it, for all the goroutines searching it.
	err      error
	reserved int64
	waited   time.Duration
	// skipped counts the candidates the search left out (plan.prune).
	skipped int
	// payoff says where asking about partial candidates pays (search.go):
	// kept across the parts a worker searches, the plan's when it has one
	// (a split search's, shared); leafConsistent is set when some model
	// finds the candidate being evaluated consistent.
	payoff   *execution.Payoff
	accepted []int // the reads-from of the last partial candidate accepted
	rfBuf    []int // a candidate's reads-from while rejectsOnly changes it
	// learning is set while learn asks about candidates it expects the
	// models to reject.
	learning       bool
	leafConsistent bool
	// cost is what the order searches outside learning took, from which
	// learning's questions get their budget (search.go).
	cost searchCost
	// probing is set while the probe runs are searched for flags
	// (probes.go).
	probing bool
	// pair, when set, tells the two models of a pair apart on each
	// candidate the merged program finds consistent (pair.go); a fork of
	// a split search has none.
	pair *pairState
}

// Check checks one test against the model.
func (m *Model) Check(t *litmus.Test, opts Options) *Result {
	return CheckAll([]*Model{m}, t, opts)[0]
}

// CheckAll checks one test against several models, enumerating its
// candidate executions once and evaluating every model on each.
func CheckAll(models []*Model, t *litmus.Test, opts Options) []*Result {
	return checkAllWith(models, t, opts, nil, nil)
}

// checkAllWith is CheckAll with a hook that sees every candidate and every
// model's verdict on it, and a hook that receives the session before
// enumeration starts.
func checkAllWith(models []*Model, t *litmus.Test, opts Options, observe func(*execution.Execution, State, []verdict), setup func(*session)) []*Result {
	return checkAllContext(context.Background(), models, t, opts, observe, setup)
}

// checkAllContext is checkAllWith under a context whose cancellation stops
// the check.
func checkAllContext(ctx context.Context, models []*Model, t *litmus.Test, opts Options, observe func(*execution.Execution, State, []verdict), setup func(*session)) []*Result {
	start := time.Now().Add(-opts.Spent)
	s := &session{plan: &plan{opts: opts, t: t, observe: observe, ctx: ctx}}
	if setup != nil {
		setup(s)
	}
	for _, m := range models {
		s.runs = append(s.runs, newModelRun(m, &Result{Test: t, Sanity: true, Explained: opts.Explain}, 0))
	}
	err := s.check(start)
	for _, r := range s.runs {
		r.release()
	}
	out := make([]*Result, len(s.runs))
	for i, r := range s.runs {
		r.res.Elapsed = time.Since(start)
		if err != nil {
			r.res.Err = err
		}
		out[i] = r.res
	}
	return out
}

// check fills in the plan of the test, searches its candidates and
// gives each model run its verdicts.
func (s *session) check(start time.Time) error {
	t, opts := s.t, s.opts
	eopts, note := awaitOptions(s.runs, opts.Exec)
	eopts.MaxBytes = opts.MaxMemory
	s.probeDepth = eopts.ProbeDepth
	a, err := s.prepare(start, eopts)
	defer s.preparedCancel()
	if err != nil {
		return err
	}
	s.a = a
	if slices.ContainsFunc(a.Awaits, func(n int) bool { return n > 0 }) {
		for _, r := range s.runs {
			r.res.Awaits = note
		}
	}
	obs, err := observables(t, a.Layout)
	if err != nil {
		return err
	}
	s.obs = obs
	s.slots = observedSlots(a.Layout, obs)
	s.ranges = slotRanges(obs, s.slots)
	for _, r := range s.runs {
		r.res.Layout, r.res.Cut, r.res.Observables = a.Layout, a.CutRuns(), obs
		if len(s.slots) > 0 {
			if err := r.m.hasCoherence(); err != nil {
				return err
			}
		}
	}
	s.makeBuffers()
	if g, ok := decidingTarget(t); ok {
		s.target = &g
		s.onlyDeciding = (opts.OnlyDeciding || opts.StopAtWitness) && s.observe == nil
	}
	if err := s.reserveMemory(); err != nil {
		return err
	}
	defer s.releaseMemory()
	cancel := s.startClock(start)
	defer cancel()
	s.setPrune(s.pruning())
	if s.recordsLive() {
		s.live = &liveCombos{}
	}
	stats, err := s.searchAll()
	if err == nil {
		err = s.probeFlags()
	}
	if err != nil {
		return err
	}
	s.termination()
	for _, r := range s.runs {
		r.res.Stopped, r.res.OnlyDeciding = s.stopped, s.onlyDeciding
		if stats.Candidates == 0 && hasFilters(t) && !s.onlyDeciding {
			r.res.Sanity = false
		}
		r.verdicts(t)
		r.explainEmpty(s.a, stats)
		r.explainForbidden()
		r.explainAllowed()
	}
	return nil
}

// awaitOptions turns off what the models do not allow of the reduction
// of awaits (docs/model.md, "Awaits and termination"), and says why: a
// model that is not event-monotone could reject an execution without its
// failed iterations, which are then unrolled; one without a coherence
// order cannot tell the last writes an await polling memory for ever
// reads, so such an await does not spin.
func awaitOptions(runs []*modelRun, o execution.Options) (execution.Options, string) {
	var why []string
	for _, r := range runs {
		if w := r.m.Program.EventMonotoneWhy(); o.SpinReduction && w != "" {
			o.SpinReduction = false
			why = append(why, fmt.Sprintf("failed iterations of awaits are unrolled (-unroll), not left out: in the model, %s, so leaving a failed iteration out could make a consistent execution inconsistent", w))
		}
		if err := r.m.hasCoherence(); o.PlainSpins && err != nil {
			o.PlainSpins = false
			why = append(why, fmt.Sprintf("whether an await polling memory waits for ever is not decided: %v", err))
		}
	}
	o.ProbeDepth = probeDepth(runs)
	return o, strings.Join(why, "; ")
}

// probeDepth is the most failed iterations a probe run needs (0: as many
// as the unrolling bound allows). A flag that persists when events are
// removed (rules.Program.FlagPersists) and is raised only by executions
// with failed iterations is raised by one with at most as many as its
// relation's arity: removing the failed iterations that hold no event of
// its witness keeps the execution consistent and the witness (probes.go).
func probeDepth(runs []*modelRun) int {
	depth := 0
	for _, r := range runs {
		if !r.m.flagsBounded {
			return 0
		}
		depth = max(depth, r.m.flagDepth)
	}
	return depth
}

// flagDepth is probeDepth's figure for one program, found once per model
// (a test's look at every flag by name was 0.4% of the suite): the largest
// arity of its flags' relations, and whether every flag persists (false:
// as many failed iterations as the bound allows).
func flagDepth(p *rules.Program) (depth int, bounded bool) {
	for _, c := range p.Flags() {
		if !p.FlagPersists(c.Name) {
			return 0, false
		}
		depth = max(depth, p.FlagArity(c.Name))
	}
	return depth, true
}

// enumerate searches the candidates of part (nil for all) and evaluates
// each, while keep (when set) holds. Stats.Candidates counts every
// candidate, those the search left out included, as the results do.
func (s *session) enumerate(part *execution.Part, keep func() bool) (execution.Stats, error) {
	var loopErr error
	search := s.search()
	search.Part = part
	if s.yields != nil {
		search.MaxCandidates = 0 // counted across the parts below
	}
	stats, err := s.a.Search(search, func(x *execution.Execution) bool {
		// The deadline is looked at before every candidate and, through
		// the context, inside each one's evaluation and order search.
		if s.err != nil {
			loopErr = s.err
			return false
		}
		if err := s.ctx.Err(); err != nil {
			loopErr = s.stopReason(err)
			return false
		}
		if keep != nil && !keep() {
			return false
		}
		if err := s.countCandidates(1); err != nil {
			loopErr = err
			return false
		}
		if s.opts.Progress != nil {
			s.opts.Progress.Add(1)
		}
		if err := s.candidate(x); err != nil {
			loopErr = err
			return false
		}
		return !s.halt
	})
	if err == nil {
		err = loopErr
	}
	if err == nil {
		err = s.err
	}
	stats.Candidates = execution.AddCounts(stats.Candidates, stats.Pruned)
	for _, r := range s.runs {
		r.res.Candidates = execution.AddCounts(r.res.Candidates, s.skipped)
	}
	s.skipped = 0
	return stats, err
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

// eventDomain returns a domain whose first n atoms are the events e0 to
// e(n-1), the names queries and explanations use for them.
func eventDomain(n int) *rules.Domain {
	dom := rules.NewDomain()
	for i := 0; i < n; i++ {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	return dom
}

// instance returns an evaluation instance for executions of n events.
func (r *modelRun) instance(ctx context.Context, n int) (*rules.Instance, error) {
	if in, ok := r.insts[n]; ok {
		return in, nil
	}
	in, err := r.newInstance(ctx, n)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// Stopped while its relations were made.
		return nil, stopCause(ctx)
	}
	if err != nil {
		return nil, err
	}
	r.insts[n] = in
	return in, nil
}

// candidate evaluates one candidate execution, once per choice of final
// writes for the observed locations.
func (s *session) candidate(x *execution.Execution) error {
	s.leafConsistent = false
	err := s.evaluateAll(x)
	if err == nil {
		s.noteLive(x)
	}
	if err == nil && s.prune && !s.leafConsistent {
		s.learn(x, false)
		err = s.err
	}
	return err
}

// evaluateAll fills the models' instances with candidate x and evaluates
// it once per choice of final writes.
func (s *session) evaluateAll(x *execution.Execution) error {
	for _, r := range s.runs {
		inst, err := r.instance(s.ctx, len(x.Events))
		if err != nil {
			return err
		}
		r.cur = inst
		if err := r.filler.FillContext(s.ctx, inst, x); err != nil {
			return s.stopReason(err)
		}
	}
	if len(s.slots) == 0 {
		s.evaluate(x)
		return s.err
	}
	writes := slotWrites(x, s.slots)
	if s.prune {
		return s.searchFinals(x, writes, len(writes))
	}
	eachFinalChoice(writes, s.finalBuf, func() bool {
		s.evaluate(x)
		return s.err == nil && !s.halt
	})
	return s.err
}

// evaluate solves every model's orders for one candidate with the current
// choice of final writes and records the outcomes.
func (s *session) evaluate(x *execution.Execution) {
	state := s.state(x)
	flagsOnly := false
	if s.probing {
		flagsOnly = true
	} else if s.stopped || !s.wanted(state) {
		if !s.undefinedPossible(x) {
			return
		}
		flagsOnly = true
	}
	s.keyBuf = state.appendKey(s.keyBuf[:0])
	// The verdicts are for the host watching every candidate, if any.
	var vs []verdict
	if s.observe != nil && !s.probing {
		vs = make([]verdict, len(s.runs))
	}
	for i, r := range s.runs {
		v := r.evaluate(s, x, state, flagsOnly)
		if s.err != nil {
			return
		}
		if vs != nil {
			vs[i] = v
		}
	}
	if vs != nil {
		s.observe(x, state.clone(), vs)
	}
}

// witnessFree reports whether the check asks the models for verdicts only:
// no explanation, and no host watching every candidate's failures.
func (s *session) witnessFree() bool { return !s.opts.Explain && s.observe == nil }

// evaluate solves the orders of candidate x and records what it finds:
// with flagsOnly (an execution OnlyDeciding leaves out, evaluated for the
// .undefined tests it may raise), only its flags.
func (r *modelRun) evaluate(s *session, x *execution.Execution, state State, flagsOnly bool) verdict {
	inst := r.cur
	if !s.probing {
		r.res.Candidates++
		r.res.Evaluated++
	}
	opts := append(s.flagBuf[:0], s.withCtx)
	var past func(*rules.Instance) bool
	if len(s.slots) > 0 || len(x.LatestReads) > 0 {
		var prune rules.SolveOption
		past, prune = r.pruned.of(r.m, x, s.slots, s.finalBuf)
		opts = append(opts, prune)
	}
	// The witnesses of the flags an execution is the first to raise are
	// built in every mode.
	flagOpts := opts
	s.flagBuf = flagOpts
	if s.witnessFree() {
		// In a slice of its own: solve appends to it.
		opts = append(append(s.solveBuf[:0], flagOpts...), rules.WithoutWitnesses())
		s.solveBuf = opts
	}
	sol, warm := r.solve(s, inst, past, opts...)
	s.cost.add(sol.Nodes)
	if sol.Err != nil {
		if s.err == nil {
			s.err = s.stopReason(r.wholeTest(sol.Err, s.opts.MaxMemory))
		}
		return verdict{}
	}
	v := verdict{consistent: sol.Consistent, failures: sol.Failures}
	if sol.Consistent {
		s.leafConsistent = true
		if s.pair != nil && !s.probing {
			s.pair.record(s, r, x, state, flagsOnly)
		}
	}
	if sol.Consistent && x.Undetermined {
		// The model allows a cycle of reads-from and data dependencies, so
		// this execution's values are not determined: it has no final state.
		r.res.ThinAir++
		return v
	}
	if sol.Consistent {
		raised := inst.RaisedFlags(opts...)
		if s.probing {
			raised = r.probed(raised)
		}
		if (warm || s.witnessFree()) && r.firstRaise(raised) {
			// This execution is the first to raise a flag: its
			// witness is kept. It is built (witness-free checks
			// raise flags by name) under the orders the search finds
			// first, as without the warm start.
			sol = inst.Solve(opts...)
			if sol.Err == nil && !sol.Consistent {
				sol.Err = fmt.Errorf("internal error: the orders of a previous candidate make this one consistent, but the order search finds no consistent choice")
			}
			if sol.Err != nil {
				if s.err == nil {
					s.err = s.stopReason(r.wholeTest(sol.Err, s.opts.MaxMemory))
				}
				return verdict{}
			}
			raised = inst.RaisedFlags(flagOpts...)
			if s.probing {
				raised = r.probed(raised)
			}
		}
		r.recordFlags(x, raised)
		if s.stopped {
			s.halt = s.verdictsKnown()
		}
		if flagsOnly {
			return v
		}
		if stuck := x.Stuck(); len(stuck) > 0 {
			r.res.Hangs++
			if r.res.Stuck == nil {
				r.res.Stuck = stuck
			}
			if !x.Settled() {
				// A thread waits forever with instructions still to
				// execute: the execution has no final state to judge
				// (docs/model.md, "Hangs").
				r.res.Consistent++
				r.res.Unjudged++
				return v
			}
		}
	}
	if flagsOnly {
		return v
	}
	key := s.keyBuf
	if sol.Consistent {
		r.res.Consistent++
		if s.t.Condition != nil {
			if evalExpr(s.t.Condition.Expr, s.obs, state) {
				r.res.Positive++
			} else {
				r.res.Negative++
			}
		}
		if s.opts.StopAtWitness && s.settles(state) {
			s.stopped = true
			s.halt = s.verdictsKnown()
		}
		if !r.seen[string(key)] {
			r.seen[string(key)] = true
			r.res.States = append(r.res.States, state.clone())
			if s.opts.Explain && explainsAllowed(s.t, s.obs, state) {
				r.res.Allowed = append(r.res.Allowed, Allowed{State: state.clone(), Execution: x.Clone(),
					Finals: append([]int(nil), s.finalBuf...)})
			}
		}
		r.assertionCounts(s.t, s.obs, state)
		return v
	}
	if s.opts.Explain && noFinalState(x) == "" && !r.forbid[string(key)] && len(sol.Failures) > 0 {
		r.forbid[string(key)] = true
		r.res.Forbidden = append(r.res.Forbidden, Forbidden{State: state.clone(), Failures: sol.Failures,
			Execution: x.Clone(), Finals: append([]int(nil), s.finalBuf...)})
	}
	return v
}

// state reads the observed final values of a candidate.
func (s *session) state(x *execution.Execution) State {
	if s.stateBuf == nil {
		s.stateBuf = make(State, len(s.obs))
	}
	st := s.stateBuf
	for i, o := range s.obs {
		if o.IsLoc {
			r := s.ranges[i]
			st[i] = Val{Defined: true, V: x.FinalValue(o.Loc, s.finalBuf[r[0]:r[1]])}
			continue
		}
		s.regs[i] = x.Register(s.regs[i], o.Thread, o.Reg)
		v, ok := x.RegisterValue(s.regs[i])
		st[i] = Val{Defined: ok, V: v}
	}
	return st
}

// clone returns a copy of s that outlives the session's buffer.
func (s State) clone() State { return slices.Clone(s) }

// assertionCounts tallies, per assertion, whether every and whether some
// consistent execution satisfies it; verdicts turns the tallies into outcomes.
func (r *modelRun) assertionCounts(t *litmus.Test, obs []Observable, state State) {
	res := r.res
	if len(res.Assertions) == 0 && len(t.Assertions) > 0 {
		for _, a := range t.Assertions {
			res.Assertions = append(res.Assertions, AssertionResult{Name: a.Name, Kind: a.Kind, Holds: true})
		}
	}
	for i, a := range t.Assertions {
		if evalExpr(a.Expr, obs, state) {
			res.Assertions[i].Sometimes = true
			res.Assertions[i].Positive++
		} else {
			res.Assertions[i].Holds = false // "always" fails
			res.Assertions[i].Negative++
		}
	}
}

// verdicts computes the herd verdict and the assertion outcomes.
func (r *modelRun) verdicts(t *litmus.Test) {
	res := r.res
	if len(res.Assertions) == 0 {
		for _, a := range t.Assertions {
			// No consistent execution: assert holds vacuously, permit fails.
			res.Assertions = append(res.Assertions, AssertionResult{Name: a.Name, Kind: a.Kind, Holds: true})
		}
	}
	for i := range res.Assertions {
		if res.Assertions[i].Kind == litmus.AssertSometimes {
			res.Assertions[i].Holds = res.Assertions[i].Sometimes
		}
	}
	if c := t.Condition; c != nil {
		if res.Undefined() {
			res.Verdict = "Undef"
			return
		}
		ok := false
		switch c.Kind {
		case litmus.CondExists:
			ok = res.Positive > 0
		case litmus.CondNotExists:
			ok = res.Positive == 0
		case litmus.CondForall:
			ok = res.Negative == 0
		}
		res.Verdict = "No"
		if ok {
			res.Verdict = "Ok"
		}
	}
}

// explainForbidden expands the witnesses of the forbidden outcomes that
// are still forbidden at the end (an outcome another candidate reached
// consistently is allowed, and dropped).
func (r *modelRun) explainForbidden() {
	var kept []Forbidden
	for _, f := range r.res.Forbidden {
		if r.seen[f.State.key()] {
			continue
		}
		f.Explanations = explainAll(r.m, f.Execution, f.Failures)
		kept = append(kept, f)
	}
	r.res.Forbidden = kept
}
