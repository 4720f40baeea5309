package rules

import (
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// closureDir is the shape of a recognised transitive-closure stratum.
type closureDir int

const (
	closureRight  closureDir = iota // T(X,Y) :- T(X,Z), B(Z,Y).
	closureLeft                     // T(X,Y) :- B(X,Z), T(Z,Y).
	closureDouble                   // T(X,Y) :- T(X,Z), T(Z,Y).
)

// closurePlan computes a stratum T = base ∪ base;B+ (or B+;base, or base+)
// with the closure operator of package relations instead of iterating.
type closurePlan struct {
	rel   relID
	base  []*rulePlan
	steps []relID
	dir   closureDir
}

// recognizeClosure reports whether a recursive stratum is a linear
// transitive closure, which covers every "r+" and "r*" of a definition and
// the textbook hand-written transitive closure.
func recognizeClosure(s *stratum, p *Program) *closurePlan {
	if len(s.rels) != 1 || p.rels[s.rels[0]].arity != 2 {
		return nil
	}
	t := s.rels[0]
	cp := &closurePlan{rel: t, dir: -1}
	for _, rp := range s.rules {
		if len(rp.recOccs) == 0 {
			cp.base = append(cp.base, rp)
			continue
		}
		dir, step, ok := linearShape(rp, t, p)
		if !ok || (cp.dir != -1 && dir != cp.dir) {
			return nil
		}
		cp.dir = dir
		if dir != closureDouble {
			cp.steps = append(cp.steps, step)
		}
	}
	if cp.dir == -1 || len(cp.base) == 0 {
		return nil
	}
	return cp
}

// linearShape matches "T(X,Y) :- A(X,Z), B(Z,Y)" with distinct variables.
func linearShape(rp *rulePlan, t relID, p *Program) (closureDir, relID, bool) {
	r := rp.rule
	if len(r.Body) != 2 {
		return 0, 0, false
	}
	a1, ok1 := r.Body[0].(*datalog.Atom)
	a2, ok2 := r.Body[1].(*datalog.Atom)
	if !ok1 || !ok2 || a1.Negated || a2.Negated || len(a1.Args) != 2 || len(a2.Args) != 2 {
		return 0, 0, false
	}
	h := r.Head.Args
	vars := []datalog.Term{h[0], h[1], a1.Args[0], a1.Args[1], a2.Args[0], a2.Args[1]}
	for _, v := range vars {
		if v.Kind != datalog.TermVar {
			return 0, 0, false
		}
	}
	x, y := h[0].Name, h[1].Name
	if x == y || a1.Args[0].Name != x || a2.Args[1].Name != y || a1.Args[1].Name != a2.Args[0].Name {
		return 0, 0, false
	}
	if z := a1.Args[1].Name; z == x || z == y {
		return 0, 0, false
	}
	id1, id2 := p.byName[a1.Pred], p.byName[a2.Pred]
	switch {
	case id1 == t && id2 == t:
		return closureDouble, 0, true
	case id1 == t && p.rels[id2].arity == 2:
		return closureRight, id2, true
	case id2 == t && p.rels[id1].arity == 2:
		return closureLeft, id1, true
	}
	return 0, 0, false
}

// runClosure evaluates a closure stratum.
func (in *Instance) runClosure(cp *closurePlan) {
	if in.trace != nil {
		// One step of the trace, base rules included.
		in.traceClosure(cp)
		tr := in.trace
		in.trace = nil
		defer func() { in.trace = tr }()
	}
	t := in.stores[cp.rel].rel
	s := in.p.strata[in.p.rels[cp.rel].stratum]
	for _, rp := range cp.base {
		in.evalRuleFull(s, slices.Index(s.rules, rp), in.stores[cp.rel])
	}
	if cp.dir == closureDouble {
		t.TransitiveClosure()
		return
	}
	step := in.pool.rel()
	for _, s := range cp.steps {
		step.UnionWith(in.stores[s].rel)
	}
	defer in.pool.putRel(step)
	if cp.dir == closureLeft {
		// T = step* ; base, row by row on step's condensation: composing
		// step⁺ ; base would union a row per pair of the (dense) step⁺.
		t.ReachCompose(step)
		return
	}
	// T = base ; step*: one row union per pair of base, usually sparse.
	step.TransitiveClosure()
	extra := in.pool.rel()
	relations.ComposeInto(extra, t, step)
	t.UnionWith(extra)
	in.pool.putRel(extra)
}
