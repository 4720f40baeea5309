package rules

import (
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
)

// A host that evaluates many candidates of one set of inputs, differing
// only in a few "varying" relations (the reads-from of one combination of
// thread runs), asks RaisedFlags about each consistent one. Many flags can
// be decided for all of them at once: a data race needs two conflicting
// operations that are not morally strong, and in a test whose accesses are
// all strong no reads-from and no coherence order makes one. When a flag's
// relation can only shrink as a varying relation grows (it depends on it
// through an odd number of negations only), or only grow (an even number
// only), and only shrinks, or only grows, with the orders, its value with
// each varying relation at its bound (empty, or whole: every tuple over
// the atoms) and the orders at theirs contains its value on every
// candidate. If the flag holds there, it holds on every candidate until an
// input that does not vary changes (the instance counts those changes:
// fixedEpoch), and RaisedFlags skips it. (RaisedFlags takes no varying
// relation whole; MayRaiseOver and MayRaiseThrough do: a test of the
// barriers' groups that .red and .sync never complete together grows
// with the groups, and holds with them whole in a test without bar.red.)
//
// Deciding costs two evaluations (the bound, then the candidate's own
// relations again), so a flag is decided only once it has been asked about
// boundAfter times with the same fixed inputs.
const boundAfter = 8

// Varying is the analysis of a program's flags over a set of inputs that
// vary from one candidate to the next (Program.Varying), shared by the
// instances that take it (Instance.SetVarying).
type Varying struct {
	ids   []relID
	flags []flagPlan
	// fixed[r] says r is an input that does not vary: a change of it
	// forgets every bound decided.
	fixed []bool
}

// flagPlan says whether a flag has a bound over the varying inputs.
type flagPlan struct {
	// usable says the bound can decide the flag; grows that it takes the
	// orders at their largest (otherwise empty).
	usable, grows bool
	// whole lists, in order, the varying relations the bound takes with
	// every tuple (the flag's relation grows with them); it takes the
	// others empty.
	whole []relID
}

// sameBound reports whether two plans evaluate the program at the same
// bound.
func (b flagPlan) sameBound(o flagPlan) bool {
	return b.grows == o.grows && slices.Equal(b.whole, o.whole)
}

// flagBounds is what an instance keeps to rule flags out by their bounds:
// the varying relations SetVarying gave (vary), what is known of each
// flag's bound (known, nil until first decided), fixedEpoch, which counts
// the changes of the inputs that do not vary (a bound learned at another
// epoch is forgotten), and the largest value of each order a bound takes
// (orderbound.go), kept while the order's pairs do not change. Reset
// forgets what is known and moves the epoch on; vary stays set.
type flagBounds struct {
	vary       *Varying
	known      []flagBound
	fixedEpoch uint64
	largest    []largestCache
}

// flagBound is what an Instance knows about one flag's bound.
type flagBound struct {
	// epoch is the instance's fixedEpoch+1 when asks started counting.
	epoch uint64
	// asks counts the questions since the fixed inputs last changed.
	asks int
	// decided says holds is known for the fixed inputs as they are: the
	// flag holds on every candidate.
	decided, holds bool
}

// Varying analyses the program's flags for a host whose candidates differ
// in the named input relations only (the others keep their values from
// one candidate to the next, or change rarely). Names that are not input
// relations of the program are ignored.
func (p *Program) Varying(names ...string) *Varying {
	varying := map[relID]bool{}
	for _, n := range names {
		if id, known := p.byName[n]; known && p.rels[id].kind == datalog.RelInput {
			varying[id] = true
		}
	}
	v := &Varying{flags: make([]flagPlan, len(p.flags)), fixed: make([]bool, len(p.rels))}
	for id, r := range p.rels {
		if varying[relID(id)] {
			v.ids = append(v.ids, relID(id))
		} else {
			v.fixed[id] = r.kind == datalog.RelInput
		}
	}
	for i, f := range p.flags {
		v.flags[i] = p.flagPlanOf(f.rel, varying, false)
	}
	return v
}

// SetVarying gives the instance v, which must come from the instance's
// program (Program.Varying): RaisedFlags then rules out, once per value of
// the inputs that do not vary, the flags no value of those that do could
// raise.
func (in *Instance) SetVarying(v *Varying) {
	in.bounds.vary = v
	in.bounds.known = nil
}

// flagPlanOf decides whether a flag testing relation r has a bound over the
// varying relations: each one r depends on through an even number of
// negations only is taken whole (every tuple over the instance's atoms,
// for arities one and two) when whole allows it, each other one empty,
// and none may be reached both ways. RaisedFlags (Varying) takes none
// whole: it decides each flag with a bound by an evaluation of its own
// per value of the fixed inputs, which costs more than evaluating the few
// flags growing with the varying relations on each candidate.
func (p *Program) flagPlanOf(r relID, varying map[relID]bool, whole bool) flagPlan {
	var b flagPlan
	depends := false
	for v := range varying {
		if p.evenDeps[r].has(v) {
			if !whole || p.oddDeps[r].has(v) || p.rels[v].arity > 2 {
				return flagPlan{} // both ways, or too large to take whole: no bound
			}
			b.whole = append(b.whole, v)
		}
		depends = depends || p.baseDeps[r].has(v)
	}
	slices.Sort(b.whole)
	grows, shrinks := p.withOrders(r)
	if !depends && !p.dependsOnOrders(r) || !grows && !shrinks {
		return flagPlan{}
	}
	if b.grows = !shrinks; b.grows {
		// The orders at their largest are computed from their pairs,
		// which must then be largest with the varying relations at their
		// bound, and not depend on another order.
		for _, op := range p.orders {
			if !p.baseDeps[r].has(op.rel) {
				continue
			}
			for d := range p.baseDeps[op.over].all() {
				if p.rels[d].kind == datalog.RelOrder {
					return flagPlan{}
				}
				if !varying[d] {
					continue
				}
				if slices.Contains(b.whole, d) && p.oddDeps[op.over].has(d) || !slices.Contains(b.whole, d) && p.evenDeps[op.over].has(d) {
					return flagPlan{}
				}
			}
		}
	}
	b.usable = true
	return b
}

// fresh forgets what is known of flag i's bound when an input that does
// not vary changed since it was learned.
func (in *Instance) fresh(i int) {
	if b := &in.bounds.known[i]; b.epoch != in.bounds.fixedEpoch+1 {
		*b = flagBound{epoch: in.bounds.fixedEpoch + 1}
	}
}

// beyondReach reports whether flag i holds on every candidate that
// differs from the current one in the varying relations only, as decided.
func (in *Instance) beyondReach(i int) bool {
	return in.bounds.known != nil && in.bounds.known[i].decided && in.bounds.known[i].holds
}

// decideBounds counts the question for each flag with a bound and decides
// those asked about boundAfter times since their fixed inputs last
// changed. The instance must be up to date; afterwards it holds the same
// inputs and orders again, but must be brought up to date (Run).
func (in *Instance) decideBounds() {
	if in.bounds.known == nil {
		in.bounds.known = make([]flagBound, len(in.bounds.vary.flags))
	}
	var due []int
	for i := range in.bounds.known {
		b := &in.bounds.known[i]
		if !in.bounds.vary.flags[i].usable {
			continue
		}
		in.fresh(i)
		if b.decided {
			continue
		}
		if b.asks++; b.asks >= boundAfter {
			due = append(due, i)
		}
	}
	if len(due) == 0 {
		return
	}
	ids := in.boundInputs(in.bounds.vary.ids)
	saved := in.saveInputs(ids)
	for _, i := range due {
		b := &in.bounds.known[i]
		b.holds = in.holdsAtBound(in.p.flags[i], in.bounds.vary.flags[i], in.bounds.vary.ids)
		b.decided = true
	}
	in.restoreInputs(ids, saved)
}

// boundInputs lists the relations a bound sets: the varying ones and the
// orders.
func (in *Instance) boundInputs(varying []relID) []relID {
	ids := append([]relID(nil), varying...)
	for _, op := range in.p.orders {
		ids = append(ids, op.rel)
	}
	return ids
}

// saveInputs copies the relations ids, in their order.
func (in *Instance) saveInputs(ids []relID) []store {
	saved := make([]store, len(ids))
	for k, id := range ids {
		saved[k] = newStore(in.p.rels[id].arity, in.n)
		saved[k].copyFrom(in.stores[id])
	}
	return saved
}

// restoreInputs gives the relations ids the values saveInputs saved.
func (in *Instance) restoreInputs(ids []relID, saved []store) {
	for k, id := range ids {
		in.stores[id].copyFrom(saved[k])
		in.invalidate(id)
	}
}

// holdsAtBound evaluates flag f at the bound of its plan (runAtBound),
// and reports whether it holds there. A failed evaluation (a limit)
// counts as not holding.
func (in *Instance) holdsAtBound(f *checkPlan, plan flagPlan, varying []relID) bool {
	in.runAtBound(plan, varying)
	return in.err == nil && !in.violatedNow(f)
}

// runAtBound evaluates the program with the varying relations whole
// (those plan.whole lists) or empty, and the orders at their largest
// (plan.grows) or empty.
func (in *Instance) runAtBound(plan flagPlan, varying []relID) {
	for _, id := range varying {
		s := in.stores[id]
		if slices.Contains(plan.whole, id) {
			s.fill()
			in.invalidate(id)
		} else if !s.isEmpty() {
			s.clear()
			in.invalidate(id)
		}
	}
	in.setOrdersAtBound(plan.grows)
	in.Run()
}

// setOrdersAtBound sets every order to its largest value (grows) or
// empties it. Orders come after the orders their pairs depend on, so each
// one's pairs are computed with the earlier ones already at their bound.
func (in *Instance) setOrdersAtBound(grows bool) {
	for _, op := range in.p.orders {
		o := in.stores[op.rel].rel
		if grows {
			in.Run()
			o.CopyFrom(in.largestOrder(op))
		} else {
			o.Clear()
		}
		in.invalidate(op.rel)
	}
}

// MayRaiseOver reports whether the .flag or .undefined test called name
// may be raised on some candidate that differs from the instance's inputs
// in the input relations named varying only. It is false when the test
// holds on its bound over them (with them empty and the orders at their
// bound, as RaisedFlags decides with SetVarying's relations), true when it
// fails there, has no such bound, or the evaluation fails; and true for
// an unknown name. The instance keeps its inputs and orders but must be
// brought up to date (Run) before it is read.
func (in *Instance) MayRaiseOver(name string, varying ...string) bool {
	f, plan, ids, bounded := in.boundOf(name, varying)
	if !bounded {
		return true
	}
	all := in.boundInputs(ids)
	saved := in.saveInputs(all)
	holds := in.holdsAtBound(f, plan, ids)
	in.restoreInputs(all, saved)
	return !holds
}

// boundOf finds the test called name and its bound over the input
// relations named varying; bounded is false when there is none (an
// unknown name, no bound, or a failed evaluation), and the instance is
// then left as it was. Otherwise the instance is up to date.
func (in *Instance) boundOf(name string, varying []string) (f *checkPlan, plan flagPlan, ids []relID, bounded bool) {
	for _, c := range in.p.flags {
		if c.check.Name == name {
			f = c
		}
	}
	if f == nil {
		return nil, plan, nil, false
	}
	set := map[relID]bool{}
	for _, n := range varying {
		if id, ok := in.p.byName[n]; ok && in.p.rels[id].kind == datalog.RelInput && !set[id] {
			set[id] = true
			ids = append(ids, id)
		}
	}
	plan = in.p.flagPlanOf(f.rel, set, true)
	if !plan.usable && in.p.dependsOnAny(f.rel, set) {
		return nil, plan, nil, false
	}
	in.Run()
	return f, plan, ids, in.err == nil
}

// MayRaiseThrough is MayRaiseOver for the tests called names, each of
// which the host needs only through a witness holding one of events: for
// a test that persists (Program.FlagPersists), the candidates that differ
// from one the host already checked in events added only. It is false
// when no tuple of any such test's relation at its bound holds one of
// events (and MayRaiseOver is false for the tests that do not persist);
// true when one does, when a test has no bound, and for an unknown name.
// Each bound is evaluated once for all the tests that take it.
func (in *Instance) MayRaiseThrough(names []string, events []int, varying ...string) bool {
	// The tests that persist, grouped by the bound they are evaluated at.
	type group struct {
		plan flagPlan
		fs   []*checkPlan
	}
	var groups []group
	var ids []relID
	for _, name := range names {
		if !in.p.FlagPersists(name) {
			if in.MayRaiseOver(name, varying...) {
				return true
			}
			continue
		}
		f, plan, fids, bounded := in.boundOf(name, varying)
		if !bounded {
			return true
		}
		k := slices.IndexFunc(groups, func(g group) bool { return g.plan.sameBound(plan) })
		if k < 0 {
			k = len(groups)
			groups = append(groups, group{plan: plan})
		}
		groups[k].fs = append(groups[k].fs, f)
		ids = fids
	}
	if len(groups) == 0 {
		return false
	}
	all := in.boundInputs(ids)
	saved := in.saveInputs(all)
	defer in.restoreInputs(all, saved)
	for _, g := range groups {
		in.runAtBound(g.plan, ids)
		if in.err != nil {
			return true
		}
		for _, f := range g.fs {
			may := false
			in.stores[f.rel].each(func(t []int) bool {
				for _, a := range t {
					if slices.Contains(events, a) {
						may = true
						return false
					}
				}
				return true
			})
			if may {
				return true
			}
		}
	}
	return false
}

// dependsOnAny reports whether relation r depends on one of the relations
// set or on an order.
func (p *Program) dependsOnAny(r relID, set map[relID]bool) bool {
	for v := range set {
		if p.baseDeps[r].has(v) {
			return true
		}
	}
	return p.dependsOnOrders(r)
}
