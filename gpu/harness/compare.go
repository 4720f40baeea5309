package harness

import (
	"encoding/binary"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

// compare gives each observed state the model's verdict and whether it
// satisfies the condition, and lists the states the model allows that
// the GPU never showed.
func (o *Outcome) compare() {
	_, cond, hasCond := report.Condition(o.Test)
	for _, s := range o.States {
		if hasCond {
			s.Satisfies = checker.Satisfies(cond, o.printing.Observables, s.State)
		}
		s.Verdict = Unknown
	}
	r := o.Model
	if r == nil || o.printing == nil {
		return
	}
	perm, ok := o.modelOrder()
	if !ok {
		return
	}
	allowed := map[string]bool{}
	for _, st := range r.States {
		allowed[stateKey(st, perm)] = true
	}
	forbidden := map[string]*checker.Forbidden{}
	for i := range r.Forbidden {
		forbidden[stateKey(r.Forbidden[i].State, perm)] = &r.Forbidden[i]
	}
	seen := map[string]bool{}
	for _, s := range o.States {
		k := stateKey(s.State, nil)
		seen[k] = true
		switch {
		case allowed[k]:
			s.Verdict = Allowed
		case r.Undefined():
			s.Verdict = Undefined
		case forbidden[k] != nil:
			s.Verdict, s.Why = Forbidden, forbidden[k]
		case r.Loop:
			s.Verdict = Unknown
		default:
			s.Verdict = Unreached
		}
	}
	for _, st := range r.States {
		if !seen[stateKey(st, perm)] {
			o.Unseen = append(o.Unseen, reorder(st, perm))
		}
	}
}

// modelOrder maps the plan's observables to the model's: perm[k] is the
// model's index of the plan's observable k.
func (o *Outcome) modelOrder() ([]int, bool) {
	mine, theirs := o.printing.Observables, o.Model.Observables
	if len(mine) != len(theirs) {
		return nil, false
	}
	perm := make([]int, len(mine))
	for k, m := range mine {
		perm[k] = -1
		for j, t := range theirs {
			if m.IsLoc == t.IsLoc && (m.IsLoc && m.Name == t.Name || !m.IsLoc && m.Thread == t.Thread && m.Reg == t.Reg) {
				perm[k] = j
			}
		}
		if perm[k] < 0 {
			return nil, false
		}
	}
	return perm, true
}

// reorder puts a model state in the plan's order.
func reorder(st checker.State, perm []int) checker.State {
	out := make(checker.State, len(perm))
	for k, j := range perm {
		out[k] = st[j]
	}
	return out
}

// stateKey identifies a state (a model state through perm, nil for an
// observed one); values that are not numbers never equal observed ones.
func stateKey(st checker.State, perm []int) string {
	if perm != nil {
		st = reorder(st, perm)
	}
	var b []byte
	for _, v := range st {
		switch {
		case !v.Defined:
			b = append(b, 'u')
		case v.V.IsAddr || v.V.IsMBar:
			b = append(b, 'a')
			b = binary.AppendVarint(b, v.V.N)
		default:
			b = append(b, 'i')
			b = binary.AppendVarint(b, v.V.N)
		}
	}
	return string(b)
}
