package checker

import (
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/payoff"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// warmStart keeps the orders of the last consistent choice a model run
// found, to try them first on the next candidate: consecutive candidates
// of the search differ in a few reads-from pairs, and most consistent ones
// accept the orders of the one before, which one evaluation confirms where
// the order search would take a step per pair of each order.
//
// The orders are a valid choice for the new candidate only when each
// order's pairs to relate (its "over" relation) are the same as when they
// were found: they then relate every pair they must, and are transitively
// closed and acyclic as Solve made them. If every axiom holds under them
// (and the host's constraint on final writes), the candidate is consistent
// and the instance holds a consistent choice, as after Solve.
//
// Trying costs one evaluation, wasted when the candidate is inconsistent;
// in a search where few candidates are consistent, it is tried only while
// its policy (payoff.WarmStart) says it pays.
type warmStart struct {
	orders []*relations.Rel // the saved orders, nil when none is saved
	overs  []*relations.Rel // their over relations when saved
	// phases are the saved orders by name, for rules.WithPhases.
	phases map[string]*relations.Rel
	// visits, tries and hits count the candidates seen, the warm starts
	// tried and those that succeeded.
	visits, tries, hits int
	// kept holds, by number of events, the relations the worker's earlier
	// checks saved orders in, for save to reuse (nil: none kept). What
	// they hold is never read before save overwrites it: a check starts
	// with no saved orders.
	kept map[int]*warmRels
}

// warmRels are the relations a warm start saves orders in, for one number
// of events.
type warmRels struct {
	orders, overs []*relations.Rel
	phases        map[string]*relations.Rel
}

// maxKeptWarmEvents bounds the number of events of the orders a worker
// keeps relations for between checks: litmus tests' sizes (one word a
// row), not a big test's.
const maxKeptWarmEvents = 64

// worth reports whether to try the saved orders on the next candidate.
func (w *warmStart) worth() bool {
	w.visits++
	return payoff.WarmStart.Policy().Worth(int64(w.tries), int64(w.hits), int64(w.visits))
}

// try sets the saved orders on inst and reports whether they make the
// candidate consistent, with past (when set) false on them.
func (w *warmStart) try(m *Model, inst *rules.Instance, past func(*rules.Instance) bool) bool {
	orders := m.Syntax.Orders
	if w.orders == nil || len(orders) == 0 || w.orders[0].N() != inst.Domain().Len() || !w.worth() {
		return false
	}
	w.tries++
	if !w.holds(orders, inst, past) {
		return false
	}
	w.hits++
	return true
}

// holds sets the saved orders and evaluates the candidate under them.
func (w *warmStart) holds(orders []*datalog.Order, inst *rules.Instance, past func(*rules.Instance) bool) bool {
	for i, o := range orders {
		if err := inst.SetRel(o.Name, w.orders[i]); err != nil {
			return false
		}
	}
	inst.Run()
	if inst.Err() != nil {
		return false
	}
	for i, o := range orders {
		over, err := inst.Rel(o.Over)
		if err != nil || !over.Equal(w.overs[i]) {
			return false
		}
	}
	if !inst.AllHold() || inst.Err() != nil {
		return false
	}
	return past == nil || !past(inst)
}

// save keeps the orders inst holds, which Solve just found consistent.
func (w *warmStart) save(m *Model, inst *rules.Instance) {
	orders := m.Syntax.Orders
	if len(orders) == 0 {
		return
	}
	n := inst.Domain().Len()
	if w.orders == nil || w.orders[0].N() != n {
		k := w.kept[n]
		if k == nil {
			k = newWarmRels(orders, n)
			if w.kept != nil && n <= maxKeptWarmEvents {
				w.kept[n] = k
			}
		}
		w.orders, w.overs, w.phases = k.orders, k.overs, k.phases
	}
	for i, o := range orders {
		rel, err1 := inst.Rel(o.Name)
		over, err2 := inst.Rel(o.Over)
		if err1 != nil || err2 != nil {
			w.orders = nil
			return
		}
		w.orders[i].CopyFrom(rel)
		w.overs[i].CopyFrom(over)
	}
}

// newWarmRels makes the relations to save orders of n events in.
func newWarmRels(orders []*datalog.Order, n int) *warmRels {
	k := &warmRels{orders: make([]*relations.Rel, len(orders)), overs: make([]*relations.Rel, len(orders)),
		phases: make(map[string]*relations.Rel, len(orders))}
	for i, o := range orders {
		k.orders[i], k.overs[i] = relations.NewRel(n), relations.NewRel(n)
		k.phases[o.Name] = k.orders[i]
	}
	return k
}

// solve is Solve with a warm start: the saved orders first, the search
// when they do not do, trying the saved orders' directions first (phase
// saving) when the check asks for no witnesses; warm reports that the consistent
// choice the instance holds may depend on the candidates before (it may
// not be the one the search finds first). past is the host's constraint on
// final writes (nil for none), also passed in opts. Only a consistent
// verdict comes from the saved orders, so the failures of an inconsistent
// candidate are always the search's.
func (r *modelRun) solve(s *session, inst *rules.Instance, past func(*rules.Instance) bool, opts ...rules.SolveOption) (sol rules.SolveResult, warm bool) {
	if s.opts.FullSearch {
		return inst.Solve(opts...), false
	}
	if r.warm.try(r.m, inst, past) {
		return rules.SolveResult{Consistent: true}, true
	}
	if r.warm.orders != nil && s.witnessFree() {
		// Witnesses must be the search's own: no phases then.
		opts = append(opts, rules.WithPhases(r.warm.phases))
		warm = true
	}
	sol = inst.Solve(opts...)
	if sol.Consistent && sol.Err == nil {
		r.warm.save(r.m, inst)
	}
	return sol, warm
}

// firstRaise reports whether raised has a flag no execution raised before:
// its witness is the one the result keeps.
func (r *modelRun) firstRaise(raised []rules.CheckResult) bool {
	for _, f := range raised {
		if !slices.ContainsFunc(r.res.Flags, func(g FlagResult) bool { return g.Name == f.Name }) {
			return true
		}
	}
	return false
}
