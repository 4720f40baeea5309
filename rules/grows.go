package rules

import "fmt"

// MonotoneIn reports whether the program's verdict can only go from
// consistent to inconsistent as tuples are added to the named relations:
// no axiom (.check) depends on one of them, or on an .order relation,
// through an odd number of negations, and neither do the pairs an order
// must relate. Then a candidate whose relations are known only in part
// (each a subset of what its completions hold) that Solve finds
// inconsistent has only inconsistent completions: a host may abandon it.
// Names the program does not know are ignored. When it returns false, why
// names the first relation and axiom (or order) in the way.
func (p *Program) MonotoneIn(names []string) (ok bool, why string) {
	type base struct {
		id   relID
		name string
	}
	var grow []base
	for _, n := range names {
		if id, known := p.byName[n]; known {
			grow = append(grow, base{id, n})
		}
	}
	for _, op := range p.orders {
		grow = append(grow, base{op.rel, p.rels[op.rel].name})
	}
	shrinks := func(r relID) (string, bool) {
		for _, b := range grow {
			if p.oddDeps[r].has(b.id) {
				return b.name, true
			}
		}
		return "", false
	}
	for _, c := range p.checks {
		if b, bad := shrinks(c.rel); bad {
			return false, fmt.Sprintf("axiom %s depends on %s through a negation", c.check.Name, b)
		}
	}
	for _, op := range p.orders {
		if b, bad := shrinks(op.over); bad {
			return false, fmt.Sprintf("the pairs of .order %s (%s) depend on %s through a negation", op.order.Name, op.order.Over, b)
		}
	}
	return true, ""
}
