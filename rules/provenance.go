package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/tuplekey"
)

// Provenance: when asked, the evaluator reports every tuple a rule derives
// (the record hook), and the instance keeps, for each derived tuple, the
// rule that first derived it and a rank: the order in which tuples were
// first derived. A rule application only reads tuples that existed before
// it, so every derived tuple has a derivation whose body tuples all have
// smaller ranks; Why finds one by searching the rule's body with that bound,
// which makes every derivation tree finite. Normal evaluation pays a test
// of a flag per rule application: it is off unless RecordProvenance is
// running.

// provenance is the instance's provenance: whether the evaluation is
// recording, and what it recorded. It is a type of its own because the
// evaluation only asks it one question (recording: must each derived tuple
// be reported, and the shortcuts that derive tuples in bulk be passed
// over?) and reports to it (record), while Why and Path read what it
// keeps; Reset forgets it whole (forget).
type provenance struct {
	// recording is set while RecordProvenance evaluates: every rule
	// application then reports the tuples it derives (record).
	recording bool
	// first holds the first derivations recorded, nil before
	// RecordProvenance.
	first *firstDerivations
}

// firstDerivations holds, per relation, the rule that first derived each
// tuple and the tuple's rank, and the rank the next tuple gets.
type firstDerivations struct {
	next    int
	entries []map[string]provEntry // per relation
}

type provEntry struct {
	rank int
	rule *rulePlan
}

// start begins recording, for the relations of p, forgetting what was
// recorded before.
func (pv *provenance) start(p *Program) {
	f := &firstDerivations{entries: make([]map[string]provEntry, len(p.rels))}
	for i := range f.entries {
		f.entries[i] = map[string]provEntry{}
	}
	pv.first = f
	pv.recording = true
}

// record notes that rule rp derives tuple of relation head, unless the
// tuple was derived before.
func (pv *provenance) record(rp *rulePlan, head relID, tuple []int) {
	f := pv.first
	k := tuplekey.Of(tuple)
	if _, ok := f.entries[head][k]; ok {
		return
	}
	f.next++
	f.entries[head][k] = provEntry{rank: f.next, rule: rp}
}

// forget forgets what was recorded and stops recording.
func (pv *provenance) forget() { *pv = provenance{} }

// RecordProvenance re-evaluates every relation from the current inputs and
// orders while recording first derivations. Call it after the last change
// to the inputs or orders and before Why or Path; any later change makes the
// recorded provenance stale.
func (in *Instance) RecordProvenance() {
	in.prov.start(in.p)
	// Provenance comes from one evaluation of everything from scratch:
	// pending insertions become plain changes of the inputs first, so
	// that no stratum is evaluated at the checkpoint and then updated.
	in.forgetTrail()
	in.sched.dirty.setAll(len(in.p.strata))
	in.Run()
	in.prov.recording = false
}

// Derivation is one derivation tree of a tuple: the rule that derives it and
// the derivations of its positive body tuples; base tuples (inputs, orders,
// the universe) have no rule.
type Derivation struct {
	Rel   string
	Tuple []int
	// Rule is nil for a base tuple.
	Rule     *datalog.Rule
	Children []*Derivation
}

// VisibleChildren returns d's children with those of generated relations
// (named with a $, from desugared relational definitions) replaced by their
// own visible children, so that a tree shows only relations a user wrote.
func (d *Derivation) VisibleChildren() []*Derivation {
	var out []*Derivation
	for _, c := range d.Children {
		if strings.ContainsRune(c.Rel, '$') && c.Rule != nil {
			out = append(out, c.VisibleChildren()...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// rankOf returns a tuple's rank: 0 for base tuples, the recorded rank for
// derived ones, and -1 for tuples not in the relation.
func (in *Instance) rankOf(r relID, t []int) int {
	if !in.stores[r].has(t) {
		return -1
	}
	if in.p.rels[r].kind != datalog.RelDerived {
		return 0
	}
	if e, ok := in.prov.first.entries[r][tuplekey.Of(t)]; ok {
		return e.rank
	}
	return -1
}

// Why returns a derivation tree of a tuple of a relation, down to base
// tuples. It needs RecordProvenance.
func (in *Instance) Why(rel string, tuple []int) (*Derivation, error) {
	if in.prov.first == nil {
		return nil, fmt.Errorf("no provenance recorded: call RecordProvenance first")
	}
	id, ok := in.p.byName[rel]
	if !ok {
		return nil, fmt.Errorf("unknown relation %s", rel)
	}
	if in.p.rels[id].arity != len(tuple) {
		return nil, fmt.Errorf("relation %s has %d column(s), not %d", rel, in.p.rels[id].arity, len(tuple))
	}
	if in.rankOf(id, tuple) < 0 {
		return nil, fmt.Errorf("%s%s does not hold", rel, in.tupleText(tuple))
	}
	return in.derive(id, tuple, 0)
}

// maxDepth bounds derivation trees, which are finite but may be deep.
const maxDepth = 10000

func (in *Instance) derive(r relID, t []int, depth int) (*Derivation, error) {
	d := &Derivation{Rel: in.p.rels[r].name, Tuple: append([]int(nil), t...)}
	if in.p.rels[r].kind != datalog.RelDerived {
		return d, nil
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("derivation deeper than %d steps", maxDepth)
	}
	e := in.prov.first.entries[r][tuplekey.Of(t)]
	body, ok := in.matchBody(e.rule, t, e.rank)
	if !ok {
		return nil, fmt.Errorf("internal: no derivation found for %s%s", d.Rel, in.tupleText(t))
	}
	d.Rule = e.rule.rule
	for _, b := range body {
		c, err := in.derive(b.rel, b.tuple, depth+1)
		if err != nil {
			return nil, err
		}
		d.Children = append(d.Children, c)
	}
	return d, nil
}

// bodyTuple is one positive body atom's tuple in a derivation.
type bodyTuple struct {
	rel   relID
	tuple []int
	lit   int // body index
}

// matchBody finds values for the rule's body variables that derive head
// tuple t from body tuples of rank below rank.
func (in *Instance) matchBody(rp *rulePlan, t []int, rank int) ([]bodyTuple, bool) {
	r := rp.rule
	bind := map[string]int{}
	for i, a := range r.Head.Args {
		switch a.Kind {
		case datalog.TermVar:
			if v, ok := bind[a.Name]; ok && v != t[i] {
				return nil, false
			}
			bind[a.Name] = t[i]
		default:
			if c, ok := in.dom.Lookup(termValue(a)); !ok || c != t[i] {
				return nil, false
			}
		}
	}
	var found []bodyTuple
	var search func(k int) bool
	search = func(k int) bool {
		if k == len(r.Body) {
			return in.sideConditionsHold(r, bind)
		}
		a, ok := r.Body[k].(*datalog.Atom)
		if !ok || a.Negated {
			return search(k + 1)
		}
		id := rp.litRel[k]
		st := in.stores[id]
		ok = false
		st.each(func(u []int) bool {
			var fresh []string
			match := true
			for i, arg := range a.Args {
				switch arg.Kind {
				case datalog.TermVar:
					if v, seen := bind[arg.Name]; seen {
						if v != u[i] {
							match = false
						}
					} else {
						bind[arg.Name] = u[i]
						fresh = append(fresh, arg.Name)
					}
				case datalog.TermWildcard:
				default:
					if c, okc := in.dom.Lookup(termValue(arg)); !okc || c != u[i] {
						match = false
					}
				}
				if !match {
					break
				}
			}
			if match {
				if rk := in.rankOf(id, u); rk >= 0 && rk < rank {
					found = append(found, bodyTuple{rel: id, tuple: append([]int(nil), u...), lit: k})
					if search(k + 1) {
						ok = true
						return false
					}
					found = found[:len(found)-1]
				}
			}
			for _, f := range fresh {
				delete(bind, f)
			}
			return true
		})
		return ok
	}
	if !search(0) {
		return nil, false
	}
	return found, true
}

// sideConditionsHold tests the negated atoms and comparisons of a body
// under complete bindings.
func (in *Instance) sideConditionsHold(r *datalog.Rule, bind map[string]int) bool {
	val := func(t datalog.Term) (int, bool) {
		if t.Kind == datalog.TermVar {
			v, ok := bind[t.Name]
			return v, ok
		}
		return in.dom.Lookup(termValue(t))
	}
	for _, l := range r.Body {
		switch l := l.(type) {
		case *datalog.Compare:
			a, ok1 := val(l.L)
			b, ok2 := val(l.R)
			if !ok1 || !ok2 || (a == b) == (l.Op == "!=") {
				return false
			}
		case *datalog.Atom:
			if !l.Negated {
				continue
			}
			st := in.stores[in.p.byName[l.Pred]]
			wild := false
			t := make([]int, len(l.Args))
			for i, a := range l.Args {
				if a.Kind == datalog.TermWildcard {
					wild = true
					t[i] = -1
					continue
				}
				v, ok := val(a)
				if !ok {
					return false
				}
				t[i] = v
			}
			if !wild {
				if st.has(t) {
					return false
				}
				continue
			}
			holds := false
			st.each(func(u []int) bool {
				for i := range t {
					if t[i] >= 0 && t[i] != u[i] {
						return true
					}
				}
				holds = true
				return false
			})
			if holds {
				return false
			}
		}
	}
	return true
}

func (in *Instance) tupleText(t []int) string {
	parts := make([]string, len(t))
	for i, a := range t {
		if a >= 0 && a < in.dom.Len() {
			parts[i] = in.dom.Value(a).String()
		} else {
			parts[i] = strconv.Itoa(a)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
