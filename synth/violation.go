package synth

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/program"
	"github.com/ptxmm/ptxmm/rules"
)

// The violation screen closes a box of a skeleton's lattice (a range of
// choices along one list of dimensions) whose corners do not close it,
// when no execution the allowing model allows at the box's weakest point
// breaks, at its strongest point, what only the other model checks. It is
// sound where the models are paired (checker.NewPair: the same orders,
// final writes read from the same relation, both event-monotone):
//
//  1. A program p of the box separates the models when some outcome is
//     allowed by one model (A, say) and not by the other (B). A's
//     execution E with that outcome makes every axiom of A hold under
//     some choice of the orders; B reads the final state from the same
//     relation and has the same orders, so B rejects E under that choice
//     too, by an axiom A has not (the axioms both have are A's and hold).
//  2. That axiom's relation is a union of parts (its expression with
//     unions, and the reflexive closure `?`, spread over compositions:
//     (rf | co | fr)? ; cause is cause, rf ; cause, co ; cause and
//     fr ; cause). Where A has an axiom of the same name and kind, the
//     parts of B's that A's has too (the same expression over relations
//     with the same definitions, datalog.Merge) hold no tuple A's does
//     not: since A's holds, the tuple or cycle that breaks B's goes
//     through a part of B's own (for an acyclic axiom, a cycle of B's
//     relation through an edge of its own parts: irreflexive(D ; R*)).
//     Where A has no such axiom, the part is the whole relation; a part
//     A's coherence axiom rules out is left out (implied.go). Each
//     model's parts of its own make a flag, in a model with no axiom.
//  3. Along the box's chains the flags' relations only gain tuples as
//     orders and scopes strengthen (judged from the rules as monotone.go
//     judges the axioms; a list of dimensions with a step where one may
//     lose tuples is searched as before), so E, under the same orders
//     extended to the pairs the strongest point orders besides (a strict
//     partial order extends to one over more pairs), raises the flag at
//     the box's strongest point; a dimension none of whose steps changes
//     a flag's relation (a dependency, where the flags read none) is
//     taken at its weakest there, which raises the same flags.
//  4. E is allowed by A at the box's weakest point too (A forbids more as
//     choices strengthen, which the lattice assumes already), with the
//     same final state: the same reads-from and final writes give the
//     same values whatever the orders and dependencies.
//
// So the screen lists the candidates of the strongest program, and a box
// is closed when none whose final state A allows at the weakest point
// (the lattice's own check of that corner) raises a flag of B's parts
// under some choice of the orders, nor, the other way round, of A's
// parts where B allows. A strongest program with a candidate that has no
// final state (values out of thin air: the weakest point cannot tell
// whether it is allowed), or a check that errs, keeps the box. The
// screen pays where the parts of the models' own are rarely broken by an
// execution the other model allows at the weakest point
// (causality-alloy: cause reflexive along a cycle of reads-from and
// program order that stronger orders turn into synchronization); where
// they are broken in most boxes it is given up, after a size, once it
// has closed fewer than a quarter of the boxes it was asked about
// (violationTrial).

// violationTrial is how many boxes the screen must have been asked about
// before it judges whether it pays, at the end of each size (so that
// which boxes it is asked about does not depend on the workers): it is
// kept while it has closed at least one in violationKeep of them, and
// turned off for the rest of the search otherwise. A screen lists the
// candidates of a strongest program without a model's verdicts and tests
// those the weakest point allows, which costs about 0.4 of a check of a
// program (causality-alloy, 4 instructions); a box it closes saves the
// probes and the smaller boxes the split would check, about 8 programs
// there. Kept on, it took 0.83 of the CPU of turning it off for
// no-sc-per-location up to 4 instructions (it closes one box in three),
// and made no difference that two runs could tell for nta-data-only
// (0.80 and 1.26, one in three at 3 instructions).
const violationTrial = 96

// violationKeep: the screen is kept while it closes at least one box in
// violationKeep of those it is asked about.
const violationKeep = 4

// violationScreen checks the boxes of skeletons for executions that may
// break a model's own parts.
type violationScreen struct {
	// sides are the directions the models may disagree in, each with
	// flags to raise; why says why the screen does not apply, when it
	// does not.
	sides []side
	why   string
	// tried and left count the boxes checked and left out; off is set
	// once the screen is seen not to pay.
	tried, left atomic.Int64
	off         atomic.Bool
	// checks counts the programs the screen checked.
	checks atomic.Int64
}

// side is one direction of a disagreement: allow allows an execution
// whose outcome the other model forbids by a part of its own axioms,
// which flags raises (the other model's program with those flags and no
// axiom; plain is the same program with no test at all, which lists the
// candidates without solving anything).
type side struct {
	allow, flags, plain *checker.Model
	// orders are the orders the flags read, each with the relation it
	// orders the pairs of: a candidate where all those are empty has one
	// choice of them, and its flags are tested once, without a search.
	orders [][2]string
	// pool keeps instances of the flags' program with their fillers, by
	// number of events, for reuse.
	pool *instancePool
	// b says the flags are the second model's parts (the first model
	// allows); owner names the model whose parts they are.
	b     bool
	owner string
}

// newViolationScreen prepares the screen for a pair of models.
func newViolationScreen(pair *checker.Pair) *violationScreen {
	v := &violationScreen{}
	if pair.Why != "" {
		v.why = "the models are not paired: " + pair.Why
		return v
	}
	a, b := pair.A.Syntax, pair.B.Syntax
	m := datalog.Merge(a, b)
	if m.OrdersDiffer != "" {
		v.why = m.OrdersDiffer
		return v
	}
	same := func(n string) string { return n }
	renamed := func(n string) string {
		if r, ok := m.Rename[n]; ok {
			return r
		}
		return n
	}
	fa := ownFlags(a, b, same, renamed)
	fb := ownFlags(b, a, renamed, same)
	for k, flags := range [][]*datalog.Check{fa, fb} {
		if len(flags) == 0 {
			continue
		}
		base, other := pair.A, pair.B
		if k == 1 {
			base, other = pair.B, pair.A
		}
		fm, err := flagModel(base, flags)
		if err == nil {
			var plain *checker.Model
			plain, err = flagModel(base, nil)
			v.sides = append(v.sides, side{allow: other, flags: fm, plain: plain, orders: ordersRead(fm.Syntax),
				pool: &instancePool{free: map[int][]*pooled{}}, b: k == 1, owner: base.Name})
		}
		if err != nil {
			v.why, v.sides = err.Error(), nil
			return v
		}
	}
	if len(v.sides) == 0 {
		v.why = "no axiom of either model has parts the other's has not"
	}
	return v
}

// mayBreak reports whether the box from lo to hi (the weakest and the
// strongest programs of a skeleton's lattice along one list of
// dimensions) may hold a separating program: false only when, in each
// direction, no execution the allowing model allows at lo raises a flag
// of the other's own parts at hi (under some orders). An execution
// allowed at some point of the box is allowed at lo, and one that breaks a
// part there breaks it at hi (the chains are monotone), so the separating
// execution of a program of the box would be one. Executions are matched
// between lo and hi by their final states (the same reads-from and final
// writes give the same values, whatever the orders); a strongest program
// with an execution that has no final state, or a check that errs, keeps
// the box. lo's outcomes are the evaluator's (the lattice checks lo first
// anyway).
func (v *violationScreen) mayBreak(ctx context.Context, ev *evaluator, lo, hi *program.Test, opts checker.Options) bool {
	if v == nil || len(v.sides) == 0 || v.off.Load() {
		return true
	}
	ol := ev.outcomes(lo)
	if ol.err != nil || ol.separates() {
		return true
	}
	lhi, err := hi.Parse()
	if err != nil {
		return true
	}
	v.checks.Add(1)
	may := false
	for _, sd := range v.sides {
		allowed := ol.b
		if sd.b {
			allowed = ol.a
		}
		if sd.mayBreak(ctx, allowed, lhi, opts) {
			may = true
			break
		}
	}
	v.tried.Add(1)
	if !may {
		v.left.Add(1)
	}
	return may
}

// mayBreak is the screen in one direction: allowed are the final states
// the allowing model allows at lo. The strongest program's candidates are
// listed without a model's verdicts (checker.Model.ListCandidates: the
// listing was seven eighths of the screen's time when it was a check), and
// each execution with a final state allowed at lo is tested once: its
// flags do not depend on the final writes chosen.
func (sd side) mayBreak(ctx context.Context, allowed map[string]bool, hi *litmus.Test, opts checker.Options) bool {
	if len(allowed) == 0 {
		return false
	}
	var p *pooled
	defer func() {
		if p != nil {
			sd.pool.put(p)
		}
	}()
	may := false
	err := sd.plain.ListCandidates(ctx, hi, opts, func(c checker.Listed) bool {
		if c.NoFinalState() != "" {
			// Whether lo allows it cannot be told.
			may = true
			return false
		}
		if !anyAllowed(c, allowed) {
			return true
		}
		x := c.Execution
		if p != nil && p.events != len(x.Events) {
			sd.pool.put(p)
			p = nil
		}
		if p == nil {
			var err error
			if p, err = sd.pool.get(sd.flags, len(x.Events), opts.MaxMemory); err != nil {
				may = true
				return false
			}
		}
		may = sd.raises(ctx, p, x)
		return !may
	})
	return may || err != nil
}

// anyAllowed reports whether a final state of a listed execution is among
// those allowed.
func anyAllowed(c checker.Listed, allowed map[string]bool) bool {
	for i := range c.States {
		if allowed[c.Format(i)] {
			return true
		}
	}
	return false
}

// raises reports whether a candidate raises a flag under some choice of
// the orders (or its check errs), on an instance of the flags' program
// that p holds (filled for the program's candidates one after another,
// as the checker fills its instances).
func (sd side) raises(ctx context.Context, p *pooled, x *execution.Execution) bool {
	if p.searched {
		// A search left some choice of the orders in the instance.
		p.reset()
	}
	if err := p.fill.FillContext(ctx, p.inst, x); err != nil {
		return true
	}
	single := true
	for _, o := range sd.orders {
		if n, err := p.inst.Size(o[1]); err != nil || n > 0 {
			single = false
			break
		}
	}
	if single {
		// The orders the flags read have nothing to order: their one
		// choice is the empty relation the instance holds.
		for _, f := range sd.flags.Syntax.Checks {
			if ok, err := p.inst.CheckHolds(f.Kind, f.Rel); err != nil || !ok {
				return true
			}
		}
		return p.inst.Err() != nil
	}
	p.searched = true
	if sol := p.inst.Solve(rules.WithContext(ctx)); sol.Err != nil || !sol.Consistent {
		return true
	}
	return len(p.inst.RaisedFlags(rules.WithContext(ctx), rules.WithoutWitnesses())) > 0
}

// judge turns the screen off when it has been asked about enough boxes
// and closed fewer than one in violationKeep of them; the search calls it
// between sizes.
func (v *violationScreen) judge() {
	if v == nil {
		return
	}
	if tried := v.tried.Load(); tried >= violationTrial && violationKeep*v.left.Load() < tried {
		v.off.Store(true)
	}
}

// violationState is what a searcher keeps of the screen, made once,
// when the first box needs it.
type violationState struct {
	violationOnce sync.Once
	violation     *violationScreen
	// own prunes the skeletons with the screen's flags (ownprune.go).
	ownOnce sync.Once
	own     *ownPrune
}

// ownPrune is the searcher's pruning of skeletons by the flags' bounds
// (nil where the models are not paired).
func (s *searcher) ownPrune() *ownPrune {
	s.ownOnce.Do(func() { s.own = newOwnPrune(s.violations(), s.screen) })
	return s.own
}

// violations is the searcher's violation screen.
func (s *searcher) violations() *violationScreen {
	s.violationOnce.Do(func() { s.violation = newViolationScreen(s.pair()) })
	return s.violation
}

// violationClosed returns the violation screen for the boxes of
// skeleton sk's lattice along ds (nil where it does not apply: the models
// are not paired, it was seen not to pay, or along some chain
// of ds a flag's relation may lose tuples). It reports that a box holds
// no separating program.
func (s *searcher) violationClosed(sk *skeleton, ev *evaluator, ds []dim) func(lo, hi point) bool {
	if s.o.noViolationScreen {
		return nil
	}
	v := s.violations()
	if len(v.sides) == 0 || v.off.Load() {
		return nil
	}
	var flags []*checker.Model
	for _, sd := range v.sides {
		flags = append(flags, sd.flags)
	}
	ok, inert := s.mono.flagsMonotone(sk, ds, flags)
	if !ok {
		return nil
	}
	return func(lo, hi point) bool {
		// A dimension that changes no flag's relation is taken at its
		// weakest: the flags are the same, and fewer dependencies make
		// fewer executions whose values come out of thin air.
		top := append(point(nil), hi...)
		for i := range top {
			if inert[i] {
				top[i] = lo[i]
			}
		}
		return !v.mayBreak(s.ctx, ev, sk.test(s.o.Vocabulary, ds, lo), sk.test(s.o.Vocabulary, ds, top), s.o.Check)
	}
}
