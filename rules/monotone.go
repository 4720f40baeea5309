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
	head := map[string]bool{}
	for _, t := range rp.rule.Head.Args {
		if t.Kind == datalog.TermVar {
			head[t.Name] = true
		}
	}
	for _, b := range rp.bodyRels {
		if !local[b] {
			return false
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
