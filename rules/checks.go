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
}

func (p *Program) compileChecks() {
	for _, c := range p.model.Checks {
		cp := &checkPlan{check: c, rel: p.byName[c.Rel]}
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

// violated is a cheap test of a check that skips building a witness.
func (in *Instance) violated(c *checkPlan) bool {
	st := in.stores[c.rel]
	switch c.check.Kind {
	case datalog.CheckAcyclic:
		_, ok := st.rel.Acyclic()
		return !ok
	case datalog.CheckIrreflexive:
		_, ok := st.rel.Irreflexive()
		return !ok
	default:
		return !st.isEmpty()
	}
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
