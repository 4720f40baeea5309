package rules

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
)

// EventMonotone reports whether removing events from an execution can only
// remove violations of the program's checks: every negation that a check
// depends on applies to a "local" relation, one whose tuples are facts
// about the events they mention and nothing else (input relations, and
// relations built from them without projecting variables away — no
// composition, closure, domain or range). Hosts use it to justify leaving
// out events that cannot change an outcome, such as failed spin-loop
// iterations.
func (p *Program) EventMonotone() bool { return p.eventMonotone == "" }

// EventMonotoneWhy says why the program is not event-monotone (the first
// negation in the way), or "" when it is.
func (p *Program) EventMonotoneWhy() string { return p.eventMonotone }

// computeEventMonotone decides EventMonotone once, at compile time: ""
// when it holds, otherwise the reason.
func (p *Program) computeEventMonotone() string {
	local := make([]bool, len(p.rels))
	for i, r := range p.rels {
		local[i] = r.kind != datalog.RelDerived
	}
	for _, s := range p.strata {
		if s.recursive {
			continue
		}
		ok := true
		for _, rp := range s.rules {
			if !ruleIsLocal(rp, local) {
				ok = false
			}
		}
		for _, r := range s.rels {
			local[r] = ok
		}
	}
	// Walk back from the checks through the rules, looking at every negation.
	needed := make([]bool, len(p.rels))
	var stack []relID
	for _, c := range p.checks {
		if !needed[c.rel] {
			needed[c.rel] = true
			stack = append(stack, c.rel)
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st := p.rels[r].stratum
		if st < 0 {
			continue
		}
		for _, rp := range p.strata[st].rules {
			if rp.head != r {
				continue
			}
			for i, b := range rp.bodyRels {
				if rp.bodyNeg[i] && !local[b] {
					return fmt.Sprintf("%s reads %s through a negation, and %s can lose tuples when events are removed", p.rels[rp.head].name, p.rels[b].name, p.rels[b].name)
				}
				if !needed[b] {
					needed[b] = true
					stack = append(stack, b)
				}
			}
		}
	}
	return ""
}

// ruleIsLocal reports whether a rule uses only local relations and every
// body variable appears in its head.
func ruleIsLocal(rp *rulePlan, local []bool) bool {
	for _, b := range rp.bodyRels {
		if !local[b] {
			return false
		}
	}
	return ruleProjectsNothing(rp)
}

// FlagPersists reports whether the .flag or .undefined test called name,
// raised on an execution, is raised on the execution less some of its
// events too, by a witness of the events left: its relation keeps its
// tuples over the events left, and its check looks at tuples one by one
// (empty, irreflexive; not acyclic, whose cycle may pass through an event
// removed). With an event-monotone program, a host that leaves out events
// (failed spin-loop iterations) then needs to look for such a flag only
// through the tuples holding an event it left out (MayRaiseThrough). It is
// false for an unknown name.
func (p *Program) FlagPersists(name string) bool {
	for _, f := range p.flags {
		if f.check.Name == name {
			return f.check.Kind != datalog.CheckAcyclic && p.persists[f.rel]
		}
	}
	return false
}

// FlagArity returns the arity of the relation the .flag or .undefined
// test called name looks at, 0 for an unknown name.
func (p *Program) FlagArity(name string) int {
	for _, f := range p.flags {
		if f.check.Name == name {
			return p.rels[f.rel].arity
		}
	}
	return 0
}

// computePersistence decides, once at compile time, which relations keep
// their tuples over the events left when events are removed (persists),
// and which gain none (shrinks). An input relation does both: its tuples
// are facts about the events they hold. A rule's head gains no tuple when
// its positive atoms gain none and its negated atoms lose none; it loses
// none when its positive atoms lose none, its negated atoms gain none, and
// it projects no variable away (a tuple derived through an event removed
// is lost). Recursive strata are taken to lose tuples.
func (p *Program) computePersistence() {
	persists := make([]bool, len(p.rels))
	shrinks := make([]bool, len(p.rels))
	for i, r := range p.rels {
		persists[i] = r.kind != datalog.RelDerived
		shrinks[i] = persists[i]
	}
	for _, s := range p.strata {
		// shrinks is a greatest fixpoint over the stratum's rules.
		for _, r := range s.rels {
			shrinks[r] = true
		}
		for changed := true; changed; {
			changed = false
			for _, rp := range s.rules {
				if !shrinks[rp.head] {
					continue
				}
				for i, b := range rp.bodyRels {
					if rp.bodyNeg[i] && !persists[b] || !rp.bodyNeg[i] && !shrinks[b] {
						shrinks[rp.head], changed = false, true
						break
					}
				}
			}
		}
		if s.recursive {
			continue
		}
		for _, r := range s.rels {
			persists[r] = true
		}
		for _, rp := range s.rules {
			ok := ruleProjectsNothing(rp)
			for i, b := range rp.bodyRels {
				if rp.bodyNeg[i] && !shrinks[b] || !rp.bodyNeg[i] && !persists[b] {
					ok = false
				}
			}
			if !ok {
				persists[rp.head] = false
			}
		}
	}
	p.persists = persists
}

// ruleProjectsNothing reports whether every variable of the rule's body
// appears in its head.
func ruleProjectsNothing(rp *rulePlan) bool {
	head := map[string]bool{}
	for _, t := range rp.rule.Head.Args {
		if t.Kind == datalog.TermVar {
			head[t.Name] = true
		}
	}
	for _, l := range rp.rule.Body {
		var args []datalog.Term
		switch l := l.(type) {
		case *datalog.Atom:
			args = l.Args
		case *datalog.Compare:
			args = []datalog.Term{l.L, l.R}
		}
		for _, t := range args {
			if t.Kind == datalog.TermWildcard || (t.Kind == datalog.TermVar && !head[t.Name]) {
				return false
			}
		}
	}
	return true
}
