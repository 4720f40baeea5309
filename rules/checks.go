package rules

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// checkPlan is a compiled named check.
type checkPlan struct {
	check *datalog.Check
	rel   relID
	// monotone is true when the check's relation does not depend on any
	// .order relation through a negation, so that a violation found with a
	// partial choice of the orders survives every completion of it.
	monotone bool
	// slot numbers the checks and flags together, for the cache of their
	// verdicts (Instance.verdicts).
	slot int
}

func (p *Program) compileChecks() {
	for i, c := range p.model.Checks {
		cp := &checkPlan{check: c, rel: p.byName[c.Rel], slot: i}
		if c.Mode == datalog.ModeAxiom {
			p.checks = append(p.checks, cp)
		} else {
			p.flags = append(p.flags, cp)
		}
	}
}

// CheckResult is the verdict of one check on one instance.
type CheckResult struct {
	Name  string
	Kind  datalog.CheckKind
	Holds bool
	// Witness shows why a check fails: the atoms of a shortest cycle for
	// acyclic (each related to the next, the last to the first), the atom
	// related to itself for irreflexive, and a tuple for empty.
	Witness []int
	// Rel is the relation the check tests.
	Rel string
	// Orders holds, for a failure found by Solve, the .order relations as
	// they were when the check failed, so that the failure can be replayed
	// (SetRel each, then RecordProvenance) and explained.
	Orders map[string]*relations.Rel
}

// Checks returns the program's axioms (.check) in source order; the .flag
// and .undefined tests are returned by Flags.
func (p *Program) Checks() []*datalog.Check {
	out := make([]*datalog.Check, len(p.checks))
	for i, c := range p.checks {
		out[i] = c.check
	}
	return out
}

// evalCheck tests one check against the current relations.
func (in *Instance) evalCheck(c *checkPlan) CheckResult {
	res := CheckResult{Name: c.check.Name, Kind: c.check.Kind, Holds: true, Rel: in.p.rels[c.rel].name}
	in.freshenCheck(c)
	st := in.stores[c.rel]
	switch c.check.Kind {
	case datalog.CheckAcyclic:
		if cycle, ok := st.rel.Acyclic(); !ok {
			res.Holds, res.Witness = false, cycle
		}
	case datalog.CheckIrreflexive:
		if w, ok := st.rel.Irreflexive(); !ok {
			res.Holds, res.Witness = false, []int{w}
		}
	case datalog.CheckEmpty:
		if t, ok := st.first(); ok {
			res.Holds, res.Witness = false, t
		}
	}
	return res
}

// violated is a cheap test of a check that skips building a witness. The
// answer is kept until the check's relation changes (its version): most
// checks read relations a new candidate's reads-from leaves as they were.
func (in *Instance) violated(c *checkPlan) bool {
	in.freshenCheck(c)
	if in.verdicts == nil {
		in.verdicts = make([]checkVerdict, len(in.p.model.Checks))
	}
	v := &in.verdicts[c.slot]
	if at := in.versions[c.rel] + 1; v.at != at {
		v.at, v.violated = at, in.violatedNow(c)
	}
	return v.violated
}

// checkVerdict is a check's violated answer at version at-1 of its
// relation (0: none yet).
type checkVerdict struct {
	at       uint64
	violated bool
}

// violatedNow tests a check on its relation as it is.
func (in *Instance) violatedNow(c *checkPlan) bool {
	return in.violates(c.check.Kind, in.stores[c.rel])
}

// CheckHolds tests a check of the given kind on a relation of the
// instance, brought up to date first, as the program's own checks are
// tested: for a host that tests axioms the program does not state (the
// checker tests each model's own axioms of a pair on their merged
// program).
func (in *Instance) CheckHolds(kind datalog.CheckKind, name string) (bool, error) {
	id, err := in.lookup(name, 0, false)
	if err != nil {
		return false, err
	}
	in.freshen(id)
	return !in.violates(kind, in.stores[id]), nil
}

// violates tests a check of the given kind on a relation's store as it is.
func (in *Instance) violates(kind datalog.CheckKind, st store) bool {
	switch kind {
	case datalog.CheckAcyclic:
		return !in.inc.cycles.Acyclic(st.rel)
	case datalog.CheckIrreflexive:
		_, ok := st.rel.Irreflexive()
		return !ok
	default:
		return !st.isEmpty()
	}
}

// freshenCheck brings a check's relation up to date when the order search
// may have left it out: the flags' relations, which a host's test of
// complete choices reads.
func (in *Instance) freshenCheck(c *checkPlan) {
	if s := in.p.rels[c.rel].stratum; s >= 0 && !in.p.search.needed[s] {
		in.freshen(c.rel)
	}
}

// violatedByStep tests a check that held before the current step of the
// order search on what the step changed: a relation that was acyclic has a
// cycle only through a new pair, so only what the new pairs lead to is
// searched; an irreflexive or empty one fails only on new tuples.
func (in *Instance) violatedByStep(c *checkPlan) bool {
	inc := &in.inc
	if inc.lost[c.rel] {
		return in.violated(c)
	}
	if !inc.changed[c.rel] {
		return false
	}
	ch := inc.chg[c.rel]
	switch c.check.Kind {
	case datalog.CheckAcyclic:
		return !inc.cycles.AcyclicFrom(in.stores[c.rel].rel, in.targetsOf(ch))
	case datalog.CheckIrreflexive:
		_, ok := ch.rel.Irreflexive()
		return !ok
	default:
		return true
	}
}

// targetsOf returns the atoms pairs of a binary store lead to, in a scratch
// set.
func (in *Instance) targetsOf(st store) *relations.Set {
	t := in.inc.targets
	if t == nil {
		t = relations.NewSet(in.n)
		in.inc.targets = t
	}
	if st.track == nil {
		st.rel.RangeInto(t)
		return t
	}
	t.Clear()
	words := t.Bits().Words()
	for _, i := range st.track.rows {
		row, base := st.track.span(i)
		orRow(words[base:base+len(row)], row)
	}
	return t
}

// Checks evaluates every check on the current relations (call Run first).
func (in *Instance) Checks() []CheckResult {
	in.Run()
	out := make([]CheckResult, len(in.p.checks))
	for i, c := range in.p.checks {
		out[i] = in.evalCheck(c)
	}
	return out
}

// AllHold reports whether every check holds, without building witnesses.
func (in *Instance) AllHold() bool {
	in.Run()
	for _, c := range in.p.checks {
		if in.violated(c) {
			return false
		}
	}
	return true
}
