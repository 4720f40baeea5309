package synth

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// A relation of two events whose rules read, besides sets of the two
// events, only inputs the step leaves alone is guarded: spec.dl's incl
// (([CTA] ; scta) | ([CLUSTER] ; sclu) | ([GPU] ; sgpu) | ...) relates an
// event to the threads its scope includes. Widening the event's scope
// from .cta to .gpu takes it out of CTA, which the rules alone read as
// losing the pairs of the first rule; they are not lost when the rule the
// event now passes (GPU, sgpu) holds wherever the one it left (CTA, scta)
// did. That inclusion is a fact of the catalog (a CTA lies within its
// GPU), tested, as the screen learns what each feature fills, on every
// pair of events of every candidate execution of the step's samples, in
// each placement of threads the vocabulary has.

// guardRule is one rule of a guarded relation: the head's two variables
// and the body's atoms.
type guardRule struct {
	x, y  string
	atoms []*datalog.Atom
}

// guardedRules lists the relations of two events whose every rule has two
// distinct variables in its head and only positive atoms over those
// variables, each over a set (an input or a definition over one event's
// sets) or an input of two columns the step leaves unchanged.
func guardedRules(m *datalog.Model, unary map[string]bool, ch map[string]change) map[string][]guardRule {
	byHead := map[string][]*datalog.Rule{}
	for _, r := range m.Rules {
		byHead[r.Head.Pred] = append(byHead[r.Head.Pred], r)
	}
	out := map[string][]guardRule{}
	for name, rs := range byHead {
		rel := m.Relations[name]
		if rel == nil || rel.Kind != datalog.RelDerived || rel.Arity != 2 {
			continue
		}
		var grs []guardRule
		ok := true
		for _, r := range rs {
			h := r.Head.Args
			if h[0].Kind != datalog.TermVar || h[1].Kind != datalog.TermVar || h[0].Name == h[1].Name || h[0].Name == "_" || h[1].Name == "_" {
				ok = false
				break
			}
			g := guardRule{x: h[0].Name, y: h[1].Name}
			for _, l := range r.Body {
				a, isAtom := l.(*datalog.Atom)
				if !isAtom || a.Negated {
					ok = false
					break
				}
				for _, t := range a.Args {
					if t.Kind != datalog.TermVar || (t.Name != g.x && t.Name != g.y) {
						ok = false
					}
				}
				ar := m.Relations[a.Pred]
				switch {
				case !ok || ar == nil:
					ok = false
				case len(a.Args) == 1 && (unary[a.Pred] || ar.Kind == datalog.RelInput || ar.Kind == datalog.RelUniverse):
				case len(a.Args) == 2 && ar.Kind == datalog.RelInput && ch[a.Pred] == 0:
				default:
					ok = false
				}
				if !ok {
					break
				}
				g.atoms = append(g.atoms, a)
			}
			if !ok {
				break
			}
			grs = append(grs, g)
		}
		if ok && len(grs) > 0 {
			out[name] = grs
		}
	}
	return out
}

// guardedChanges computes the changes of the guarded relations and
// returns their names. ia and ib are the inputs at the two values, over
// every candidate; cands are the inputs of each candidate of both.
// (Definitions over one event's sets and their rules come from ix.)
func guardedChanges(ix *ruleIndex, ch map[string]change, ia, ib inputs, cands []inputs) map[string]bool {
	m, unary := ix.m, ix.unary
	grs := guardedRules(m, unary, ch)
	if len(grs) == 0 {
		return nil
	}
	// The sets of each event of each candidate, for implies, computed
	// when first asked for (only a step that takes an event out of a
	// guard asks).
	cs := &candSets{ix: ix, cands: cands, memb: make([][]map[string]bool, len(cands))}
	events := changedEvents(m, ia, ib)
	inA, inB := map[int]map[string]bool{}, map[int]map[string]bool{}
	for e := range events {
		inA[e], inB[e] = ix.members(ia, e), ix.members(ib, e)
	}
	names := map[string]bool{}
	implied := map[string]bool{}
	for name, rs := range grs {
		names[name] = true
		for e := range events {
			inA, inB := inA[e], inB[e]
			set := func(in map[string]bool, src inputs, n string) bool {
				if unary[n] {
					return in[n]
				}
				if m.Relations[n].Kind == datalog.RelUniverse {
					return true
				}
				return src[n] != nil && src[n].Has([]int{e})
			}
			// onE reports whether rule r's sets of the variable e
			// stands for hold at a value.
			onE := func(r guardRule, v string, in map[string]bool, src inputs) bool {
				for _, a := range r.atoms {
					if len(a.Args) == 1 && a.Args[0].Name == v && !set(in, src, a.Pred) {
						return false
					}
				}
				return true
			}
			for _, v := range []func(guardRule) string{func(r guardRule) string { return r.x }, func(r guardRule) string { return r.y }} {
				for i, r := range rs {
					before, after := onE(r, v(r), inA, ia), onE(r, v(r), inB, ib)
					if after && !before {
						ch[name] |= gains
					}
					if !before || after {
						continue
					}
					// Rule r no longer holds for e: some rule e
					// now passes must hold wherever r did.
					covered := false
					for j, q := range rs {
						if j == i || !onE(q, v(q), inB, ib) {
							continue
						}
						k := fmt.Sprint(name, i, j, v(r) == r.x)
						if _, ok := implied[k]; !ok {
							implied[k] = implies(m, unary, r, v(r), q, v(q), cs)
						}
						if implied[k] {
							covered = true
							break
						}
					}
					if !covered {
						ch[name] |= loses
					}
				}
			}
		}
		// What the relations of two columns, and the sets of other
		// events, change is carried as through any rule.
		for _, r := range rs {
			for _, a := range r.atoms {
				if len(a.Args) == 2 {
					ch[name] |= ch[a.Pred]
				}
			}
		}
	}
	return names
}

// implies reports whether, in every candidate and for every pair of
// events, rule r's atoms other than the sets of its variable vr hold only
// where rule q's atoms other than the sets of its variable vq hold (the
// variables matched by their places in the heads).
func implies(m *datalog.Model, unary map[string]bool, r guardRule, vr string, q guardRule, vq string, cs *candSets) bool {
	if (vr == r.x) != (vq == q.x) {
		return false
	}
	for c, in := range cs.cands {
		n := cs.events(c)
		holds := func(g guardRule, skip string, x, y int) bool {
			val := func(name string) int {
				if name == g.x {
					return x
				}
				return y
			}
			for _, a := range g.atoms {
				if len(a.Args) == 1 {
					if a.Args[0].Name == skip {
						continue
					}
					e := val(a.Args[0].Name)
					switch {
					case unary[a.Pred]:
						if !cs.member(c, e, a.Pred) {
							return false
						}
					case m.Relations[a.Pred].Kind == datalog.RelUniverse:
					default:
						if in[a.Pred] == nil || !in[a.Pred].Has([]int{e}) {
							return false
						}
					}
					continue
				}
				t := []int{val(a.Args[0].Name), val(a.Args[1].Name)}
				if in[a.Pred] == nil || !in[a.Pred].Has(t) {
					return false
				}
			}
			return true
		}
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				if holds(r, vr, x, y) && !holds(q, vq, x, y) {
					return false
				}
			}
		}
	}
	return true
}

// candSets computes the sets of the events of candidates once (memb
// remembers the definitions' answers per candidate and event).
type candSets struct {
	ix    *ruleIndex
	cands []inputs
	memb  [][]map[string]bool
}

// events is the number of events of candidate c.
func (cs *candSets) events(c int) int {
	if cs.memb[c] == nil {
		cs.memb[c] = make([]map[string]bool, eventCount(cs.cands[c]))
	}
	return len(cs.memb[c])
}

// member reports whether event e of candidate c is in the set or
// one-event definition n.
func (cs *candSets) member(c, e int, n string) bool {
	cs.events(c)
	if cs.memb[c][e] == nil {
		cs.memb[c][e] = map[string]bool{}
	}
	return cs.ix.member(cs.cands[c], e, n, cs.memb[c][e])
}

// eventCount is the number of events of a candidate: one more than the
// largest event any input names.
func eventCount(in inputs) int {
	n := 0
	for _, ts := range in {
		for t := range ts.All() {
			for _, e := range t {
				n = max(n, e+1)
			}
		}
	}
	return n
}

// changedEvents lists the events some set holds at one value and not the
// other.
func changedEvents(m *datalog.Model, a, b inputs) map[int]bool {
	out := map[int]bool{}
	for n, rel := range m.Relations {
		if rel.Kind != datalog.RelInput || rel.Arity != 1 {
			continue
		}
		for _, pair := range [][2]*relations.Tuples{{a[n], b[n]}, {b[n], a[n]}} {
			if pair[0] == nil {
				continue
			}
			for t := range pair[0].All() {
				if pair[1] == nil || !pair[1].Has(t) {
					out[t[0]] = true
				}
			}
		}
	}
	return out
}
