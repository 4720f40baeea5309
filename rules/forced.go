package rules

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// Some checks decide the direction of an order's pairs before the search
// branches on them. For an order that must relate every pair, a monotone
// check that the other direction fails outright (and fails in every larger
// choice, being monotone) forces the pair. Two shapes of check are
// recognised, from the rules:
//
//   - acyclic(X) where X contains the order (through rules that copy one
//     relation into another, as unions do): b -> a closes a cycle when X
//     already has a path from a to b, so such a pair is forced a -> b. This
//     is coherence over program-ordered writes.
//   - irreflexive(Z) where Z contains the order composed with a relation Y
//     (or Y with the order): b -> a puts (a, a) in Z when Y relates a to b,
//     so such a pair is forced a -> b. This is Fence-SC against causality.

// forcing is one check that forces pairs of an order.
type forcing struct {
	check *checkPlan
	// via is Y for the irreflexive shape; for the acyclic shape it is -1
	// and the pairs follow the paths of the check's relation.
	via relID
}

// planForcing finds, for every order that relates all its pairs, the
// monotone checks that force some of them.
func (p *Program) planForcing() {
	for _, op := range p.orders {
		if op.order.Partial {
			continue
		}
		for _, c := range p.checks {
			if !c.monotone {
				continue
			}
			copies := p.copiesInto(c.rel)
			switch c.check.Kind {
			case datalog.CheckAcyclic:
				if copies[op.rel] {
					op.forcings = append(op.forcings, forcing{check: c, via: -1})
				}
			case datalog.CheckIrreflexive:
				for r := range copies {
					for _, via := range p.composedWith(r, op.rel) {
						op.forcings = append(op.forcings, forcing{check: c, via: via})
					}
				}
			}
		}
	}
}

// copiesInto returns the relations whose pairs r contains by rules of the
// form r(X, Y) :- s(X, Y), transitively, r included.
func (p *Program) copiesInto(r relID) map[relID]bool {
	out := map[relID]bool{r: true}
	stack := []relID{r}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, rp := range p.rulesOf(x) {
			if s, ok := copyRule(rp); ok && !out[s] {
				out[s] = true
				stack = append(stack, s)
			}
		}
	}
	return out
}

// rulesOf returns the rules defining a derived relation.
func (p *Program) rulesOf(r relID) []*rulePlan {
	st := p.rels[r].stratum
	if st < 0 {
		return nil
	}
	var out []*rulePlan
	for _, rp := range p.strata[st].rules {
		if rp.head == r {
			out = append(out, rp)
		}
	}
	return out
}

// copyRule matches h(X, Y) :- s(X, Y) with distinct variables.
func copyRule(rp *rulePlan) (relID, bool) {
	r := rp.rule
	if len(r.Body) != 1 || len(r.Head.Args) != 2 {
		return 0, false
	}
	a, ok := r.Body[0].(*datalog.Atom)
	if !ok || a.Negated || len(a.Args) != 2 {
		return 0, false
	}
	x, y, ok := twoVars(r.Head.Args)
	if !ok {
		return 0, false
	}
	bx, by, ok := twoVars(a.Args)
	if !ok || bx != x || by != y {
		return 0, false
	}
	return rp.litRel[0], true
}

// composedWith returns the relations Y of the rules of r of the form
// r(X, Y) :- o(X, W), Y(W, Y) or r(X, Y) :- Y(X, W), o(W, Y).
func (p *Program) composedWith(r, o relID) []relID {
	var out []relID
	for _, rp := range p.rulesOf(r) {
		rule := rp.rule
		if len(rule.Body) != 2 || len(rule.Head.Args) != 2 {
			continue
		}
		a1, ok1 := rule.Body[0].(*datalog.Atom)
		a2, ok2 := rule.Body[1].(*datalog.Atom)
		if !ok1 || !ok2 || a1.Negated || a2.Negated || len(a1.Args) != 2 || len(a2.Args) != 2 {
			continue
		}
		x, y, ok := twoVars(rule.Head.Args)
		if !ok {
			continue
		}
		l1, m1, ok1 := twoVars(a1.Args)
		m2, r2, ok2 := twoVars(a2.Args)
		if !ok1 || !ok2 || l1 != x || r2 != y || m1 != m2 || m1 == x || m1 == y {
			continue
		}
		switch {
		case rp.litRel[0] == o:
			out = append(out, rp.litRel[1])
		case rp.litRel[1] == o:
			out = append(out, rp.litRel[0])
		}
	}
	return out
}

// twoVars returns the names of two distinct variables.
func twoVars(args []datalog.Term) (string, string, bool) {
	if len(args) != 2 || args[0].Kind != datalog.TermVar || args[1].Kind != datalog.TermVar || args[0].Name == args[1].Name {
		return "", "", false
	}
	return args[0].Name, args[1].Name, true
}

// forcedPairs lists the pairs among pairs that are unrelated in the order
// and forced, each in its forced direction. It returns false when a pair is
// forced both ways: every choice from the current one fails. The forcing
// check is named as a failure then.
func (s *solver) forcedPairs(op *orderPlan, pairs [][2]int) ([][2]int, bool) {
	in := s.in
	in.current()
	o := in.stores[op.rel].rel
	out := s.forced[:0]
	defer func() { s.forced = out[:0] }()
	for _, f := range op.forcings {
		var rel *relations.Rel
		if f.via < 0 {
			rel = in.pool.rel()
			rel.CopyFrom(in.stores[f.check.rel].rel)
			rel.TransitiveClosure()
			defer in.pool.putRel(rel)
		} else {
			rel = in.stores[f.via].rel
		}
		for _, p := range pairs {
			a, b := p[0], p[1]
			if o.Has(a, b) || o.Has(b, a) {
				continue
			}
			ab, ba := rel.Has(a, b), rel.Has(b, a)
			switch {
			case ab && ba:
				s.named(f.check)
				return nil, false
			case ab:
				out = append(out, [2]int{a, b})
			case ba:
				out = append(out, [2]int{b, a})
			}
		}
	}
	return out, true
}
