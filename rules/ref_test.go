package rules

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ptxmm/ptxmm/datalog"
)

// This file is a reference evaluator written straight from the semantics of
// the language, sharing nothing with the engine but the checked model and
// the domain: relations are maps of tuples, every rule is a nested loop
// over its positive atoms, strata come from a level assignment of its own,
// and each stratum is iterated naively to a fixpoint.

type refTuple [4]int

type refRel map[refTuple]bool

type refDB map[string]refRel

func toRef(t []int) refTuple {
	var r refTuple
	for i := range r {
		r[i] = -1
	}
	copy(r[:], t)
	return r
}

// errRefBudget reports a program too expensive for the reference.
var errRefBudget = fmt.Errorf("over the reference evaluator's budget")

// refEval evaluates the model over a domain of n atoms with the given input
// relations; it fails on programs that are not stratifiable.
func refEval(m *datalog.Model, dom *Domain, inputs refDB) (refDB, error) {
	return refEvalBudget(m, dom, inputs, 0)
}

// refEvalBudget is refEval giving up (with errRefBudget) after budget
// tuple matches, when budget is positive.
func refEvalBudget(m *datalog.Model, dom *Domain, inputs refDB, budget int) (refDB, error) {
	db := refDB{}
	for _, name := range m.Names {
		db[name] = refRel{}
		if r, ok := inputs[name]; ok {
			for t := range r {
				db[name][t] = true
			}
		}
	}
	n := dom.Len()
	for i := 0; i < n; i++ {
		db[datalog.UniverseName][toRef([]int{i})] = true
	}
	// Levels: a head is at least at the level of every positive body
	// relation and above every negated one.
	level := map[string]int{}
	for changed := true; changed; {
		changed = false
		for _, r := range m.Rules {
			h := r.Head.Pred
			for _, l := range r.Body {
				a, ok := l.(*datalog.Atom)
				if !ok {
					continue
				}
				want := level[a.Pred]
				if a.Negated {
					want++
				}
				if want > level[h] {
					level[h] = want
					changed = true
					if want > len(m.Names) {
						return nil, fmt.Errorf("not stratifiable: %s", h)
					}
				}
			}
		}
	}
	maxLevel := 0
	for _, l := range level {
		maxLevel = max(maxLevel, l)
	}
	work := 0
	for lv := 0; lv <= maxLevel; lv++ {
		for grew := true; grew; {
			grew = false
			for _, r := range m.Rules {
				if level[r.Head.Pred] != lv {
					continue
				}
				derived := refRule(r, dom, db, &work, budget)
				if budget > 0 && work > budget {
					return nil, errRefBudget
				}
				for _, t := range derived {
					if !db[r.Head.Pred][t] {
						db[r.Head.Pred][t] = true
						grew = true
					}
				}
			}
		}
	}
	return db, nil
}

func refConst(dom *Domain, t datalog.Term) int {
	i, ok := dom.Lookup(termValue(t))
	if !ok {
		panic("constant not in the domain: " + termValue(t).String())
	}
	return i
}

// refRule returns every head tuple the rule derives from db, counting the
// tuples it tries in work and giving up past a positive budget. Atoms whose
// first argument is bound read an index on it, built for the call (db does
// not change during it).
func refRule(r *datalog.Rule, dom *Domain, db refDB, work *int, budget int) []refTuple {
	env := map[string]int{}
	indexes := map[string]map[int][]refTuple{}
	index := func(pred string) map[int][]refTuple {
		ix, ok := indexes[pred]
		if !ok {
			ix = map[int][]refTuple{}
			for t := range db[pred] {
				ix[t[0]] = append(ix[t[0]], t)
			}
			indexes[pred] = ix
		}
		return ix
	}
	// candidates calls f on the tuples of a's relation that can match.
	var value func(t datalog.Term) (int, bool)
	candidates := func(a *datalog.Atom, f func(refTuple) bool) {
		if v, ok := value(a.Args[0]); ok {
			for _, t := range index(a.Pred)[v] {
				*work++
				if budget > 0 && *work > budget || !f(t) {
					return
				}
			}
			return
		}
		for t := range db[a.Pred] {
			*work++
			if budget > 0 && *work > budget || !f(t) {
				return
			}
		}
	}
	var pos []*datalog.Atom
	for _, l := range r.Body {
		if a, ok := l.(*datalog.Atom); ok && !a.Negated {
			pos = append(pos, a)
		}
	}
	value = func(t datalog.Term) (int, bool) {
		switch t.Kind {
		case datalog.TermVar:
			v, ok := env[t.Name]
			return v, ok
		case datalog.TermWildcard:
			return -1, false
		default:
			return refConst(dom, t), true
		}
	}
	// matches reports whether a stored tuple fits an atom's arguments,
	// binding the unbound variables (returned so they can be unbound).
	matches := func(a *datalog.Atom, t refTuple) ([]string, bool) {
		var fresh []string
		for i, arg := range a.Args {
			switch arg.Kind {
			case datalog.TermWildcard:
			case datalog.TermVar:
				if v, ok := env[arg.Name]; ok {
					if v != t[i] {
						for _, f := range fresh {
							delete(env, f)
						}
						return nil, false
					}
				} else {
					env[arg.Name] = t[i]
					fresh = append(fresh, arg.Name)
				}
			default:
				if refConst(dom, arg) != t[i] {
					for _, f := range fresh {
						delete(env, f)
					}
					return nil, false
				}
			}
		}
		return fresh, true
	}
	var out []refTuple
	finish := func() {
		// Equalities bind what atoms did not.
		var assigned []string
		for changed := true; changed; {
			changed = false
			for _, l := range r.Body {
				c, ok := l.(*datalog.Compare)
				if !ok || c.Op != "=" {
					continue
				}
				for _, lr := range [][2]datalog.Term{{c.L, c.R}, {c.R, c.L}} {
					if lr[0].Kind != datalog.TermVar {
						continue
					}
					if _, ok := env[lr[0].Name]; ok {
						continue
					}
					if v, ok := value(lr[1]); ok {
						env[lr[0].Name] = v
						assigned = append(assigned, lr[0].Name)
						changed = true
					}
				}
			}
		}
		defer func() {
			for _, a := range assigned {
				delete(env, a)
			}
		}()
		for _, l := range r.Body {
			switch l := l.(type) {
			case *datalog.Compare:
				x, ok1 := value(l.L)
				y, ok2 := value(l.R)
				if !ok1 || !ok2 {
					panic("unbound comparison in " + fmt.Sprint(r.Pos))
				}
				if (x == y) != (l.Op == "=") {
					return
				}
			case *datalog.Atom:
				if !l.Negated {
					continue
				}
				// All arguments known: look the tuple up.
				tu, known := make([]int, len(l.Args)), true
				for i, a := range l.Args {
					v, ok := value(a)
					tu[i], known = v, known && ok
				}
				if known {
					if db[l.Pred][toRef(tu)] {
						return
					}
					continue
				}
				found := false
				candidates(l, func(t refTuple) bool {
					if _, ok := matches(l, t); ok {
						found = true
					}
					return !found
				})
				if found {
					return
				}
			}
		}
		head := make([]int, len(r.Head.Args))
		for i, a := range r.Head.Args {
			v, ok := value(a)
			if !ok {
				panic("unbound head variable")
			}
			head[i] = v
		}
		out = append(out, toRef(head))
	}
	var step func(k int)
	step = func(k int) {
		if k == len(pos) {
			finish()
			return
		}
		candidates(pos[k], func(t refTuple) bool {
			fresh, ok := matches(pos[k], t)
			if !ok {
				return true
			}
			step(k + 1)
			for _, f := range fresh {
				delete(env, f)
			}
			return true
		})
	}
	step(0)
	return out
}

// refTuples lists a relation's tuples sorted, as atom indices.
func refTuples(r refRel, arity int) [][]int {
	var out [][]int
	for t := range r {
		out = append(out, append([]int(nil), t[:arity]...))
	}
	sort.Slice(out, func(i, j int) bool { return slices.Compare(out[i], out[j]) < 0 })
	return out
}

// engineTuples lists a relation of an instance the same way.
func engineTuples(in *Instance, name string) [][]int {
	tu, err := in.Tuples(name)
	if err != nil {
		panic(err)
	}
	var out [][]int
	for t := range tu.All() {
		out = append(out, append([]int(nil), t...))
	}
	return out
}

// refCheck evaluates a check on the reference relations: whether it holds
// and, for acyclic, the length of a shortest cycle.
func refCheck(c *datalog.Check, r refRel, n int) (holds bool, cycleLen int) {
	switch c.Kind {
	case datalog.CheckEmpty:
		return len(r) == 0, 0
	case datalog.CheckIrreflexive:
		for t := range r {
			if t[0] == t[1] {
				return false, 0
			}
		}
		return true, 0
	}
	// Shortest cycle by a breadth-first search from every atom.
	succ := make([][]int, n)
	for t := range r {
		succ[t[0]] = append(succ[t[0]], t[1])
	}
	best := 0
	for s := 0; s < n; s++ {
		dist := map[int]int{s: 0}
		queue := []int{s}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, w := range succ[v] {
				if w == s {
					if l := dist[v] + 1; best == 0 || l < best {
						best = l
					}
					continue
				}
				if _, seen := dist[w]; !seen {
					dist[w] = dist[v] + 1
					queue = append(queue, w)
				}
			}
		}
	}
	return best == 0, best
}
