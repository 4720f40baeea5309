package checker

import (
	"context"
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Pair is two models checked together, for a host that compares the
// outcomes they allow on many tests (ptxmm diff -synth). Their programs
// are merged (datalog.Merge) and the merged program, with the axioms both
// models have, stands for both: each candidate is evaluated once, its
// orders searched once, and a candidate no choice of the orders makes
// consistent with the shared axioms is inconsistent under both models
// (each model's axioms include them). Where a choice is found, each
// model's own axioms are tested on the merged program's relations under
// it; only where one fails there and reads the orders is the model's own
// order search run, on an instance of its own.
//
// Why says when the models cannot be paired so; CheckPair then checks
// them as CheckAll does.
type Pair struct {
	A, B *Model
	// Why is empty when the pair is checked through its merged program;
	// else it says why not.
	Why string
	// shared is the merged program with the axioms both models have,
	// nil when Why is set; own lists, for each model, its axioms the
	// other has not (by their relations in the merged program), and
	// orderFree those that read no order.
	shared *Model
	own    [2][]ownAxiom
	// undefined is set when shared also holds both models' .undefined
	// tests (NewDiffPair).
	undefined bool
}

// ownAxiom is an axiom of one model of a pair that the other has not.
type ownAxiom struct {
	check     *datalog.Check
	rel       string
	orderFree bool
}

// NewPair merges two models for CheckPair.
func NewPair(a, b *Model) *Pair { return newPair(a, b, false) }

// NewDiffPair merges two models for DiffPair: as NewPair, and the merged
// program also holds both models' .undefined tests, which decide whether
// a verdict is Undef.
func NewDiffPair(a, b *Model) *Pair { return newPair(a, b, true) }

func newPair(a, b *Model, undefined bool) *Pair {
	p := &Pair{A: a, B: b, undefined: undefined}
	m := datalog.Merge(a.Syntax, b.Syntax)
	switch {
	case m.OrdersDiffer != "":
		p.Why = m.OrdersDiffer
	case m.Rename[b.finals] != a.finals:
		p.Why = "the models' final writes are read from different relations"
	case a.Program.EventMonotoneWhy() != "" || b.Program.EventMonotoneWhy() != "":
		p.Why = "a model is not event-monotone, so the candidates depend on the models checked together (awaits)"
	}
	if p.Why != "" {
		return p
	}
	var axioms, tests []string
	for _, c := range m.Model.Checks {
		switch {
		case c.Mode == datalog.ModeUndefined && undefined:
			tests = append(tests, c.Name)
		case c.Mode != datalog.ModeAxiom:
		case slices.Contains(m.Shared, c.Name):
			axioms = append(axioms, c.Name)
		default:
			k := 0
			if slices.Contains(m.OnlyB, c.Name) {
				k = 1
			}
			p.own[k] = append(p.own[k], ownAxiom{check: c, rel: c.Rel, orderFree: m.OrderFree[c.Name]})
		}
	}
	if len(axioms) <= len(p.own[0]) || len(axioms) <= len(p.own[1]) {
		// A candidate consistent with the shared axioms would then often
		// fail a model's own, and need the model's own search too.
		p.Why = fmt.Sprintf("the models share %d axioms and have %d and %d of their own", len(axioms), len(p.own[0]), len(p.own[1]))
		return p
	}
	syntax := m.WithChecks(append(axioms, tests...))
	prog, errs := rules.Compile(syntax)
	if errs.HasErrors() {
		p.Why = fmt.Sprintf("internal error: the merged program does not compile: %v", errs)
		return p
	}
	p.shared = (&Compiled{Syntax: syntax, Program: prog}).Model(a.Name + "+" + b.Name)
	if p.shared.Program.EventMonotoneWhy() != "" {
		p.Why, p.shared = "the merged program is not event-monotone", nil
	}
	return p
}

// CheckPair checks one test against both models of the pair and returns
// their results with the final states of their consistent executions,
// their counts of consistent executions (of those out of thin air, of
// hangs, of those that satisfy the condition and each assertion or not),
// as CheckAll finds them, and the test's layout and candidate count;
// through the merged program, the results carry no flags, verdicts or
// explanations (with Options.Explain it checks as CheckAll does).
func CheckPair(ctx context.Context, p *Pair, t *litmus.Test, opts Options) []*Result {
	if p.shared == nil || opts.Explain {
		return CheckAllContext(ctx, []*Model{p.A, p.B}, t, opts)
	}
	out, _ := checkPair(ctx, p, t, opts)
	return out
}

// checkPair is CheckPair through the merged program; it also returns the
// merged program's own result, whose flags are those its tests raise on
// the candidates consistent with the shared axioms.
func checkPair(ctx context.Context, p *Pair, t *litmus.Test, opts Options) ([]*Result, *Result) {
	// A split search's forks would evaluate candidates without telling
	// the models apart: the merged program's search is not split.
	opts.Cores = nil
	ps := &pairState{pair: p}
	for k, m := range []*Model{p.A, p.B} {
		ps.res[k] = &Result{Test: t, Sanity: true}
		ps.seen[k] = map[string]bool{}
		ps.runs[k] = newModelRun(m, &Result{Test: t}, 0)
	}
	rs := checkAllContext(ctx, []*Model{p.shared}, t, opts, nil, func(s *session) { s.pair = ps })
	for k := range ps.runs {
		ps.runs[k].release()
	}
	r := rs[0]
	out := make([]*Result, 2)
	for k := range out {
		res := ps.res[k]
		res.Layout, res.Observables, res.Cut, res.Candidates, res.Elapsed = r.Layout, r.Observables, r.Cut, r.Candidates, r.Elapsed
		res.Err = r.Err
		if res.Err == nil {
			res.Err = ps.err
		}
		out[k] = res
	}
	return out, r
}

// pairState is a session's record of the two models of a pair.
type pairState struct {
	pair *Pair
	res  [2]*Result
	seen [2]map[string]bool
	// runs are the models' own, for the candidates the merged program
	// cannot decide.
	runs [2]*modelRun
	err  error
}

// record tells, for a candidate the merged program's run r found
// consistent (its instance holds the orders found), which models find it
// consistent, and records its state for those, as modelRun.evaluate does.
func (p *pairState) record(s *session, r *modelRun, x *execution.Execution, state State, flagsOnly bool) {
	for k := range p.runs {
		if !p.consistent(s, k, r.cur, x) {
			continue
		}
		res := p.res[k]
		if x.Undetermined {
			res.ThinAir++
			continue
		}
		if flagsOnly {
			continue
		}
		if stuck := x.Stuck(); len(stuck) > 0 {
			res.Hangs++
			if res.Stuck == nil {
				res.Stuck = stuck
			}
			if !x.Settled() {
				res.Consistent++
				res.Unjudged++
				continue
			}
		}
		res.Consistent++
		if s.t.Condition != nil {
			if evalExpr(s.t.Condition.Expr, s.obs, state) {
				res.Positive++
			} else {
				res.Negative++
			}
		}
		if key := string(s.keyBuf); !p.seen[k][key] {
			p.seen[k][key] = true
			res.States = append(res.States, state.clone())
		}
		(&modelRun{res: res}).assertionCounts(s.t, s.obs, state)
	}
}

// consistent reports whether model k finds the candidate consistent: its
// own axioms hold on the merged instance under the orders found, or fail
// there without reading the orders (inconsistent), or else its own order
// search decides.
func (p *pairState) consistent(s *session, k int, sh *rules.Instance, x *execution.Execution) bool {
	search := false
	for _, a := range p.pair.own[k] {
		holds, err := sh.CheckHolds(a.check.Kind, a.rel)
		if err != nil {
			p.fail(err)
			return false
		}
		if holds {
			continue
		}
		if a.orderFree {
			return false
		}
		search = true
	}
	if !search {
		return true
	}
	r := p.runs[k]
	inst, err := r.instance(s.ctx, len(x.Events))
	if err != nil {
		p.fail(err)
		return false
	}
	r.cur = inst
	if err := r.filler.FillContext(s.ctx, inst, x); err != nil {
		p.fail(s.stopReason(err))
		return false
	}
	opts := []rules.SolveOption{s.withCtx, rules.WithoutWitnesses()}
	var past func(*rules.Instance) bool
	if len(s.slots) > 0 || len(x.LatestReads) > 0 {
		past = pastFinal(r.m, x, s.slots, s.finalBuf)
		opts = append(opts, rules.WithPrune(past))
	}
	sol, _ := r.solve(s, inst, past, opts...)
	if sol.Err != nil {
		p.fail(s.stopReason(r.wholeTest(sol.Err, s.opts.MaxMemory)))
		return false
	}
	return sol.Consistent
}

func (p *pairState) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}
