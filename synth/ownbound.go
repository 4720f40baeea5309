package synth

import (
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
)

// Bounds on what a model's relations can relate, from its rules alone:
// each binary relation is bounded by paths of the input relations (and of
// the orders, and of products of sets) its rules compose, so that a flag
// of the violation screen (a part of a model's own axioms, ownparts.go)
// can be broken only in a skeleton whose events have a cycle of those
// paths. ownprune.go instantiates the bounds on a skeleton's events; this
// file derives them.
//
// A bound is a family of alternatives; each alternative (K, id) says that
// the relation lies within (the union of the kinds K)+, with the identity
// besides when id is set. The family says the relation lies within every
// alternative at once (an intersection r & s lies within each bound of r
// and each bound of s). A relation known to be empty (it reads an input
// that no program with the skeleton's features fills) has the bound
// empty. Each operator maps bounds of its operands to a bound of its
// result:
//
//   - r | s and r ; s: for each alternative of r and each of s, the
//     union of their kinds (a path of r's kinds then s's is a path of
//     both), with the identity where either has it (|) or both have it
//     (;);
//   - r & s: the alternatives of both; r \ s: r's;
//   - r+: r's; r* and r?: r's with the identity; r^-1: each kind
//     reversed;
//   - [S]: the identity alone; S * T: a kind of its own, the pairs of the
//     two sets (ownprune.go over-approximates the sets on a skeleton);
//   - an input relation: a kind of its own; an order: a kind of its own,
//     which ownprune.go spreads over the pairs of the relation it orders,
//     both ways; a relation defined by rules: for each rule, a path of
//     its body's atoms from the head's first variable to its second
//     (every atom of the body holds, so the head's pair is joined by that
//     path), or everything when there is none.
//
// Recursive definitions are solved by iterating from the empty bound
// until nothing changes. A bound so reached is sound whatever the
// iteration visits, since the operators above over-approximate: for a
// fixpoint b of the abstract step F#, the concrete step F maps the
// relations b allows into relations b allows, so the least fixpoint of F
// (the relation's value) lies within b. Where the iteration does not
// settle within a bound of steps, nothing is pruned.

// maxAlternatives caps the alternatives a bound keeps: dropping an
// alternative drops a constraint, which only weakens the bound.
const maxAlternatives = 6

// maxBoundRounds caps the iterations over recursive definitions.
const maxBoundRounds = 64

// kind is one sort of edge of a bound: an input relation (inverse when
// inv), an order, a product of two sets, or every pair (univ).
type kind struct {
	sort kindSort
	name string
	inv  bool
	// s and t are the sets of a product.
	s, t datalog.Expr
	key  string
}

type kindSort int

const (
	kindInput kindSort = iota
	kindOrder
	kindProduct
	kindUniv
)

// alt is one alternative of a bound: the kinds, by key, and the identity.
type alt struct {
	kinds []string // sorted keys
	id    bool
}

// bound is a family of alternatives; empty says the relation is empty.
type bound struct {
	empty bool
	alts  []alt
}

// boundAnalysis derives bounds for the relations of one model, given
// which of its inputs are empty.
type boundAnalysis struct {
	m      *datalog.Model
	empty  map[string]bool
	kinds  map[string]kind
	rules  map[string][]*datalog.Rule
	bounds map[string]bound
	// setEmptyMemo remembers which named sets are known empty.
	setEmptyMemo map[string]bool
}

// top is the bound that says nothing.
func (a *boundAnalysis) top() bound {
	return bound{alts: []alt{{kinds: []string{a.addKind(kind{sort: kindUniv})}, id: true}}}
}

// addKind registers a kind and returns its key.
func (a *boundAnalysis) addKind(k kind) string {
	switch k.sort {
	case kindInput:
		k.key = "in:" + k.name
		if k.inv {
			k.key += "~"
		}
	case kindOrder:
		k.key = "ord:" + k.name
	case kindProduct:
		k.key = "prod:" + exprKey(k.s, func(n string) string { return n }) + "*" + exprKey(k.t, func(n string) string { return n })
	case kindUniv:
		k.key = "univ"
	}
	a.kinds[k.key] = k
	return k.key
}

// inverse returns the key of a kind's reverse.
func (a *boundAnalysis) inverse(key string) string {
	k := a.kinds[key]
	switch k.sort {
	case kindInput:
		k.inv = !k.inv
	case kindProduct:
		k.s, k.t = k.t, k.s
	default:
		// Orders are spread both ways, and univ is every pair.
		return key
	}
	return a.addKind(k)
}

// cost ranks kinds by how many pairs they may hold on a skeleton, so that
// the alternatives kept are the most telling.
func (a *boundAnalysis) cost(key string) int {
	k := a.kinds[key]
	switch k.sort {
	case kindUniv:
		return 100
	case kindProduct:
		return 12
	case kindOrder:
		return 4
	}
	switch k.name {
	case "po", "rf", "rmw", "data", "ctrl", "addr":
		return 1
	case "loc", "vaddr", "same_bytes", "gaddr", "same_instr", "sthd":
		return 6
	}
	return 20
}

func (a *boundAnalysis) altCost(x alt) int {
	c := 0
	for _, k := range x.kinds {
		c += a.cost(k)
	}
	if x.id {
		c++
	}
	return c
}

// normalize drops alternatives implied by others (an alternative whose
// kinds and identity include another's allows more, so says less), sorts
// the rest by cost and keeps the cheapest maxAlternatives.
func (a *boundAnalysis) normalize(b bound) bound {
	if b.empty {
		return bound{empty: true}
	}
	var keep []alt
	for i, x := range b.alts {
		redundant := false
		for j, y := range b.alts {
			if i == j || !subsetOf(y.kinds, x.kinds) || (y.id && !x.id) {
				continue
			}
			// y says as much as x or more; of two equal ones keep the first.
			if !subsetOf(x.kinds, y.kinds) || x.id != y.id || j < i {
				redundant = true
				break
			}
		}
		if !redundant {
			keep = append(keep, x)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		ci, cj := a.altCost(keep[i]), a.altCost(keep[j])
		if ci != cj {
			return ci < cj
		}
		return altKey(keep[i]) < altKey(keep[j])
	})
	if len(keep) > maxAlternatives {
		keep = keep[:maxAlternatives]
	}
	return bound{alts: keep}
}

// subsetOf reports whether sorted xs is within sorted ys.
func subsetOf(xs, ys []string) bool {
	j := 0
	for _, x := range xs {
		for j < len(ys) && ys[j] < x {
			j++
		}
		if j == len(ys) || ys[j] != x {
			return false
		}
	}
	return true
}

func altKey(x alt) string {
	s := strings.Join(x.kinds, ",")
	if x.id {
		s += "+id"
	}
	return s
}

func (b bound) key() string {
	if b.empty {
		return "empty"
	}
	ks := make([]string, len(b.alts))
	for i, x := range b.alts {
		ks[i] = altKey(x)
	}
	return strings.Join(ks, " & ")
}

// mergeKinds is the sorted union of two sorted key lists.
func mergeKinds(xs, ys []string) []string {
	out := make([]string, 0, len(xs)+len(ys))
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		switch {
		case j == len(ys) || (i < len(xs) && xs[i] < ys[j]):
			out = append(out, xs[i])
			i++
		case i == len(xs) || ys[j] < xs[i]:
			out = append(out, ys[j])
			j++
		default:
			out = append(out, xs[i])
			i++
			j++
		}
	}
	return out
}

// combine pairs the alternatives of two bounds: the union of their kinds,
// with the identity where id says.
func (a *boundAnalysis) combine(x, y bound, id func(bool, bool) bool) bound {
	var out []alt
	for _, p := range x.alts {
		for _, q := range y.alts {
			out = append(out, alt{kinds: mergeKinds(p.kinds, q.kinds), id: id(p.id, q.id)})
		}
	}
	return a.normalize(bound{alts: out})
}

func (a *boundAnalysis) union(x, y bound) bound {
	switch {
	case x.empty:
		return y
	case y.empty:
		return x
	}
	return a.combine(x, y, func(p, q bool) bool { return p || q })
}

func (a *boundAnalysis) seq(x, y bound) bound {
	if x.empty || y.empty {
		return bound{empty: true}
	}
	return a.combine(x, y, func(p, q bool) bool { return p && q })
}

func (a *boundAnalysis) inter(x, y bound) bound {
	if x.empty || y.empty {
		return bound{empty: true}
	}
	return a.normalize(bound{alts: append(append([]alt(nil), x.alts...), y.alts...)})
}

func (a *boundAnalysis) withID(x bound) bound {
	if x.empty {
		return bound{alts: []alt{{id: true}}}
	}
	out := make([]alt, len(x.alts))
	for i, p := range x.alts {
		out[i] = alt{kinds: p.kinds, id: true}
	}
	return a.normalize(bound{alts: out})
}

func (a *boundAnalysis) inv(x bound) bound {
	if x.empty {
		return x
	}
	out := make([]alt, len(x.alts))
	for i, p := range x.alts {
		ks := make([]string, len(p.kinds))
		for j, k := range p.kinds {
			ks[j] = a.inverse(k)
		}
		sort.Strings(ks)
		out[i] = alt{kinds: ks, id: p.id}
	}
	return a.normalize(bound{alts: out})
}

// newBoundAnalysis prepares the analysis of model m, whose inputs in
// empty hold nothing.
func newBoundAnalysis(m *datalog.Model, empty map[string]bool) *boundAnalysis {
	a := &boundAnalysis{m: m, empty: empty, kinds: map[string]kind{}, rules: map[string][]*datalog.Rule{},
		bounds: map[string]bound{}, setEmptyMemo: map[string]bool{}}
	for _, r := range m.Rules {
		a.rules[r.Head.Pred] = append(a.rules[r.Head.Pred], r)
	}
	return a
}

// derived reports whether a relation is computed by rules of the model
// (a definition, or rules written as such).
func (a *boundAnalysis) derived(name string) bool {
	r := a.m.Relations[name]
	return r != nil && r.Kind == datalog.RelDerived
}

// solve computes the bounds of every derived binary relation the
// expressions read, through any chain of definitions and rules; false
// when the iteration does not settle.
func (a *boundAnalysis) solve(es []datalog.Expr) bool {
	var names []string
	seen := map[string]bool{}
	var visit func(name string)
	var visitExpr func(e datalog.Expr)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		r := a.m.Relations[name]
		if r == nil {
			return
		}
		for _, o := range a.m.Orders {
			if o.Name == name {
				visit(o.Over)
			}
		}
		if r.Kind != datalog.RelDerived {
			return
		}
		if r.Def != nil {
			visitExpr(r.Def.Expr)
		} else {
			for _, rule := range a.rules[name] {
				for _, l := range rule.Body {
					if at, ok := l.(*datalog.Atom); ok && !at.Negated {
						visit(at.Pred)
					}
				}
			}
		}
		if r.Arity == 2 {
			names = append(names, name)
		}
	}
	visitExpr = func(e datalog.Expr) {
		switch x := e.(type) {
		case *datalog.RelRef:
			visit(x.Name)
		case *datalog.Binary:
			visitExpr(x.L)
			visitExpr(x.R)
		case *datalog.Unary:
			visitExpr(x.X)
		}
	}
	for _, e := range es {
		visitExpr(e)
	}
	for _, n := range names {
		a.bounds[n] = bound{empty: true}
	}
	for round := 0; round < maxBoundRounds; round++ {
		changed := false
		for _, n := range names {
			b := a.relation(n)
			if b.key() != a.bounds[n].key() {
				a.bounds[n] = b
				changed = true
			}
		}
		if !changed {
			return true
		}
	}
	return false
}

// relation computes one derived relation's bound from the current bounds
// of the relations it reads.
func (a *boundAnalysis) relation(name string) bound {
	r := a.m.Relations[name]
	if r.Def != nil {
		return a.expr(r.Def.Expr)
	}
	out := bound{empty: true}
	for _, rule := range a.rules[name] {
		out = a.union(out, a.rule(rule))
	}
	return out
}

// ref is the bound of a named binary relation.
func (a *boundAnalysis) ref(name string) bound {
	r := a.m.Relations[name]
	if r == nil {
		return a.top()
	}
	switch r.Kind {
	case datalog.RelInput:
		if a.empty[name] {
			return bound{empty: true}
		}
		return bound{alts: []alt{{kinds: []string{a.addKind(kind{sort: kindInput, name: name})}}}}
	case datalog.RelOrder:
		for _, o := range a.m.Orders {
			if o.Name == name {
				if a.refEmpty(o.Over) {
					return bound{empty: true}
				}
				return bound{alts: []alt{{kinds: []string{a.addKind(kind{sort: kindOrder, name: name})}}}}
			}
		}
		return a.top()
	case datalog.RelDerived:
		if b, ok := a.bounds[name]; ok {
			return b
		}
	}
	return a.top()
}

// refEmpty reports whether a named relation of either arity is known
// empty.
func (a *boundAnalysis) refEmpty(name string) bool {
	r := a.m.Relations[name]
	if r == nil {
		return false
	}
	if r.Arity == 2 {
		return a.ref(name).empty
	}
	return a.setEmpty(&datalog.RelRef{Name: name})
}

// arity is the arity of an expression (1 for sets, 2 for relations).
func (a *boundAnalysis) arity(e datalog.Expr) int {
	switch x := e.(type) {
	case *datalog.RelRef:
		if r := a.m.Relations[x.Name]; r != nil {
			return r.Arity
		}
	case *datalog.Binary:
		switch x.Op {
		case datalog.OpProduct, datalog.OpSeq:
			return 2
		}
		if _, ok := x.L.(*datalog.Universe); ok {
			return a.arity(x.R)
		}
		return a.arity(x.L)
	case *datalog.Unary:
		switch x.Op {
		case datalog.OpDomain, datalog.OpRange:
			return 1
		case datalog.OpCompl:
			return a.arity(x.X)
		}
	}
	return 2
}

// expr is the bound of a binary expression.
func (a *boundAnalysis) expr(e datalog.Expr) bound {
	switch x := e.(type) {
	case *datalog.RelRef:
		return a.ref(x.Name)
	case *datalog.Universe:
		return a.top()
	case *datalog.Binary:
		switch x.Op {
		case datalog.OpUnion:
			return a.union(a.expr(x.L), a.expr(x.R))
		case datalog.OpSeq:
			return a.seq(a.expr(x.L), a.expr(x.R))
		case datalog.OpInter:
			return a.inter(a.expr(x.L), a.expr(x.R))
		case datalog.OpDiff:
			return a.expr(x.L)
		case datalog.OpProduct:
			if a.setEmpty(x.L) || a.setEmpty(x.R) {
				return bound{empty: true}
			}
			return bound{alts: []alt{{kinds: []string{a.addKind(kind{sort: kindProduct, s: x.L, t: x.R})}}}}
		}
	case *datalog.Unary:
		switch x.Op {
		case datalog.OpPlus:
			return a.expr(x.X)
		case datalog.OpStar, datalog.OpOpt:
			return a.withID(a.expr(x.X))
		case datalog.OpInv:
			return a.inv(a.expr(x.X))
		case datalog.OpIdent:
			if a.setEmpty(x.X) {
				return bound{empty: true}
			}
			return bound{alts: []alt{{id: true}}}
		}
	}
	return a.top()
}

// setEmpty reports whether a set expression is known empty.
func (a *boundAnalysis) setEmpty(e datalog.Expr) bool {
	ops := &setOps[bool]{
		input: func(name string) bool { return a.empty[name] },
		union: func(l, r bool) bool { return l && r },
		inter: func(l, r bool) bool { return l || r },
		diff:  func(l, _ bool) bool { return l },
		unary: func(x *datalog.Unary) (bool, bool) {
			switch x.Op {
			case datalog.OpDomain, datalog.OpRange:
				return a.expr(x.X).empty, true
			}
			return false, false
		},
	}
	return walkSet(a.m, a.setEmptyMemo, ops, e)
}

// rule is the bound of one rule's head: a path of the body's positive
// binary atoms from the head's first variable to its second. A rule with
// a positive atom known empty derives nothing.
func (a *boundAnalysis) rule(r *datalog.Rule) bound {
	type edge struct {
		to string
		b  bound
	}
	adj := map[string][]edge{}
	for _, l := range r.Body {
		at, ok := l.(*datalog.Atom)
		if !ok || at.Negated {
			continue
		}
		if a.refEmpty(at.Pred) {
			return bound{empty: true}
		}
		if len(at.Args) != 2 {
			continue
		}
		x, y := at.Args[0], at.Args[1]
		if x.Kind != datalog.TermVar || y.Kind != datalog.TermVar || x.Name == y.Name {
			continue
		}
		b := a.ref(at.Pred)
		adj[x.Name] = append(adj[x.Name], edge{y.Name, b})
		adj[y.Name] = append(adj[y.Name], edge{x.Name, a.inv(b)})
	}
	if len(r.Head.Args) != 2 {
		return a.top()
	}
	hx, hy := r.Head.Args[0], r.Head.Args[1]
	if hx.Kind != datalog.TermVar || hy.Kind != datalog.TermVar {
		return a.top()
	}
	if hx.Name == hy.Name {
		return bound{alts: []alt{{id: true}}}
	}
	// The shortest path (fewest atoms) from the first variable to the
	// second.
	type step struct {
		at string
		b  bound
	}
	seen := map[string]bool{hx.Name: true}
	queue := []step{{at: hx.Name, b: bound{alts: []alt{{id: true}}}}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range adj[cur.at] {
			if seen[e.to] {
				continue
			}
			seen[e.to] = true
			nb := a.seq(cur.b, e.b)
			if e.to == hy.Name {
				return nb
			}
			queue = append(queue, step{at: e.to, b: nb})
		}
	}
	return a.top()
}
