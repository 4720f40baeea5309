package synth

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
)

// This file decides, from the two models' rules alone, that they agree on
// every execution in which some input relations are empty: a program
// without read-modify-writes has an empty rmw, one without fences empty
// fence sets, and so on. Dead rules (a positive atom over an empty
// relation) are dropped, negations of empty relations are true, and the
// rules that remain are compared: relations with the same name and the
// same rules over relations that are themselves equal are equal (the
// greatest such equality, as bisimilar rule systems over equal inputs
// compute the same least fixpoints); the models agree when their axioms
// test equal relations and their coherence orders are equal. Relations a
// definition generates for its subexpressions are compared by their rules,
// whatever their names. The comparison is syntactic: "equal" is sure,
// "different" may be wrong, which only costs the search time.

// ruleView is one model's rules, ready for comparison.
type ruleView struct {
	m        *datalog.Model
	rules    map[string][]*datalog.Rule
	nonEmpty map[string]bool
	// copies maps a relation defined as a copy of another (one rule,
	// R(X, Y) :- Q(X, Y)) to the relation it copies.
	copies map[string]string
	canon  map[string]string
	// named lists the relations a named relation's canonical text
	// refers to by name.
	refs map[string]map[string]bool
}

// newRuleView prepares a model's rules under a set of empty inputs.
func newRuleView(m *datalog.Model, empty map[string]bool) *ruleView {
	v := &ruleView{m: m, rules: map[string][]*datalog.Rule{}, nonEmpty: map[string]bool{}, copies: map[string]string{},
		canon: map[string]string{}, refs: map[string]map[string]bool{}}
	for _, r := range m.Rules {
		v.rules[r.Head.Pred] = append(v.rules[r.Head.Pred], r)
	}
	for name, rel := range m.Relations {
		switch rel.Kind {
		case datalog.RelInput:
			v.nonEmpty[name] = !empty[name]
		case datalog.RelUniverse:
			v.nonEmpty[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, o := range m.Orders {
			if !v.nonEmpty[o.Name] && v.nonEmpty[o.Over] {
				v.nonEmpty[o.Name], changed = true, true
			}
		}
		for name, rs := range v.rules {
			if v.nonEmpty[name] {
				continue
			}
			for _, r := range rs {
				if v.live(r) {
					v.nonEmpty[name], changed = true, true
					break
				}
			}
		}
	}
	for name, rs := range v.rules {
		var live []*datalog.Rule
		for _, r := range rs {
			if v.live(r) {
				live = append(live, r)
			}
		}
		if len(live) == 1 && len(live[0].Body) == 1 {
			if a, ok := live[0].Body[0].(*datalog.Atom); ok && !a.Negated && sameArgs(live[0].Head.Args, a.Args) {
				v.copies[name] = a.Pred
			}
		}
	}
	return v
}

// sameArgs reports whether two argument lists are the same distinct
// variables in the same order.
func sameArgs(a, b []datalog.Term) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for i := range a {
		if a[i].Kind != datalog.TermVar || b[i].Kind != datalog.TermVar || a[i].Name != b[i].Name || seen[a[i].Name] {
			return false
		}
		seen[a[i].Name] = true
	}
	return true
}

// live reports whether every positive atom of a rule's body is over a
// relation that may hold tuples.
func (v *ruleView) live(r *datalog.Rule) bool {
	for _, l := range r.Body {
		if a, ok := l.(*datalog.Atom); ok && !a.Negated && !v.nonEmpty[a.Pred] {
			return false
		}
	}
	return true
}

// resolve follows copies to the relation a name stands for.
func (v *ruleView) resolve(name string) string {
	for i := 0; i < 100; i++ {
		c, ok := v.copies[name]
		if !ok {
			return name
		}
		name = c
	}
	return name
}

// ref spells a reference to a relation inside a rule: a generated
// relation's rules in full, any other by name (or as empty).
func (v *ruleView) ref(name string, stack []string, owner string) string {
	name = v.resolve(name)
	if !v.nonEmpty[name] {
		return "∅"
	}
	rel := v.m.Relations[name]
	if rel == nil || !rel.Generated {
		if v.refs[owner] == nil {
			v.refs[owner] = map[string]bool{}
		}
		v.refs[owner][name] = true
		return name
	}
	for i, s := range stack {
		if s == name {
			return fmt.Sprintf("#%d", i)
		}
	}
	return "(" + v.body(name, append(stack, name), owner) + ")"
}

// body spells a relation's live rules, each with its variables numbered
// in order of appearance, sorted.
func (v *ruleView) body(name string, stack []string, owner string) string {
	var out []string
	for _, r := range v.rules[name] {
		if !v.live(r) {
			continue
		}
		vars := map[string]int{}
		term := func(t datalog.Term) string {
			switch t.Kind {
			case datalog.TermVar:
				if t.Name == "_" {
					return "_"
				}
				if _, ok := vars[t.Name]; !ok {
					vars[t.Name] = len(vars)
				}
				return fmt.Sprintf("v%d", vars[t.Name])
			case datalog.TermInt:
				return fmt.Sprint(t.Int)
			}
			return fmt.Sprintf("%q", t.Name)
		}
		args := func(ts []datalog.Term) string {
			var s []string
			for _, t := range ts {
				s = append(s, term(t))
			}
			return strings.Join(s, ",")
		}
		var b strings.Builder
		b.WriteString(args(r.Head.Args) + " :- ")
		for _, l := range r.Body {
			switch x := l.(type) {
			case *datalog.Atom:
				if x.Negated {
					if !v.nonEmpty[v.resolve(x.Pred)] {
						continue
					}
					b.WriteString("!")
				}
				b.WriteString(v.ref(x.Pred, stack, owner) + "(" + args(x.Args) + ") ")
			case *datalog.Compare:
				b.WriteString(term(x.L) + x.Op + term(x.R) + " ")
			}
		}
		out = append(out, b.String())
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// text spells a named relation: its kind and, for a derived relation, its
// rules; an order, the relation it orders.
func (v *ruleView) text(name string) string {
	if t, ok := v.canon[name]; ok {
		return t
	}
	name = v.resolve(name)
	rel := v.m.Relations[name]
	var t string
	switch {
	case rel == nil:
		t = "?"
	case !v.nonEmpty[name]:
		t = "∅"
	case rel.Kind == datalog.RelInput:
		t = "input"
	case rel.Kind == datalog.RelUniverse:
		t = "universe"
	case rel.Kind == datalog.RelOrder:
		for _, o := range v.m.Orders {
			if o.Name == name {
				t = fmt.Sprintf("order over %s partial=%v", v.ref(o.Over, nil, name), o.Partial)
			}
		}
	default:
		t = "rules " + v.body(name, []string{name}, name)
	}
	v.canon[name] = t
	return t
}

// equivalent reports whether two models surely agree on every execution
// whose inputs named in empty are empty.
func equivalent(a, b *datalog.Model, empty map[string]bool) bool {
	va, vb := newRuleView(a, empty), newRuleView(b, empty)
	// equal holds the names whose texts agree, then loses those that
	// refer to one that does not.
	names := map[string]bool{}
	for n := range a.Relations {
		if b.Relations[n] != nil && !a.Relations[n].Generated && !b.Relations[n].Generated {
			names[n] = true
		}
	}
	equal := map[string]bool{}
	for n := range names {
		if va.text(n) == vb.text(n) {
			equal[n] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for n := range equal {
			for _, refs := range []map[string]bool{va.refs[va.resolve(n)], vb.refs[vb.resolve(n)]} {
				for r := range refs {
					if !equal[r] {
						delete(equal, n)
						changed = true
					}
				}
			}
		}
	}
	axioms := func(v *ruleView) map[string]string {
		out := map[string]string{}
		for _, c := range v.m.Checks {
			if c.Mode != datalog.ModeAxiom {
				continue
			}
			rel := v.resolve(c.Rel)
			if !v.nonEmpty[rel] {
				continue // an empty relation passes every kind of check
			}
			out[c.Name] = fmt.Sprintf("%s %s", c.Kind, v.ref(c.Rel, nil, "check "+c.Name))
		}
		return out
	}
	ca, cb := axioms(va), axioms(vb)
	if len(ca) != len(cb) {
		return false
	}
	for name, t := range ca {
		if cb[name] != t {
			return false
		}
		for _, v := range []*ruleView{va, vb} {
			for r := range v.refs["check "+name] {
				if !equal[r] {
					return false
				}
			}
		}
	}
	// The coherence order decides the final values.
	return equal["co"] || (va.text("co") == "∅" && vb.text("co") == "∅")
}
