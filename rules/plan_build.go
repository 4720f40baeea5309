package rules

import (
	"slices"
	"sort"

	"github.com/ptxmm/ptxmm/datalog"
)

// compileRule compiles one rule. Bodies whose variables form a forest of
// binary atoms (chains with side conditions, the shape of every relational
// definition) become algebra plans; anything else becomes a join plan.
func (p *Program) compileRule(r *datalog.Rule, inComp map[relID]bool) (*rulePlan, error) {
	rp := &rulePlan{rule: r, head: p.byName[r.Head.Pred], litRel: make([]relID, len(r.Body))}
	for i, l := range r.Body {
		a, ok := l.(*datalog.Atom)
		if !ok {
			rp.litRel[i] = -1
			continue
		}
		id := p.byName[a.Pred]
		rp.litRel[i] = id
		rp.bodyRels = append(rp.bodyRels, id)
		rp.bodyNeg = append(rp.bodyNeg, a.Negated)
		if !a.Negated && !slices.Contains(rp.positive, id) && p.rels[id].kind != datalog.RelUniverse {
			rp.positive = append(rp.positive, id)
		}
		if !a.Negated && inComp[id] {
			rp.recOccs = append(rp.recOccs, i)
		}
		if !a.Negated && !inComp[id] && p.rels[id].kind != datalog.RelUniverse {
			rp.extOccs = append(rp.extOccs, i)
		}
	}
	b := &algBuilder{p: p, rp: rp, rule: r}
	if n, ok := b.build(); ok {
		rp.alg = n
		return rp, nil
	}
	rp.join = compileJoin(p, rp)
	return rp, nil
}

// constIndex returns the index of a constant in the rule's constant list.
func (rp *rulePlan) constIndex(t datalog.Term) int {
	v := termValue(t)
	for i, c := range rp.consts {
		if c == v {
			return i
		}
	}
	rp.consts = append(rp.consts, v)
	return len(rp.consts) - 1
}

func termValue(t datalog.Term) Value {
	if t.Kind == datalog.TermInt {
		return Value{Kind: KindInt, Int: t.Int}
	}
	return Value{Kind: KindString, Str: t.Name}
}

// algBuilder compiles one rule body into relation algebra.
type algBuilder struct {
	p    *Program
	rp   *rulePlan
	rule *datalog.Rule

	alias  map[string]string // union-find over variables joined by "="
	sets   map[string][]*node
	negs   map[string][]*node
	groups map[[2]string]*edgeGroup
	order  []string // variables in order of first appearance
	guards []*node
}

// edgeGroup holds every binary constraint between two variables, oriented
// from u to v.
type edgeGroup struct {
	u, v   string
	pos    []*node
	neg    []*node
	noDiag bool
}

func (b *algBuilder) find(v string) string {
	for b.alias[v] != "" && b.alias[v] != v {
		v = b.alias[v]
	}
	return v
}

func (b *algBuilder) see(v string) {
	if _, ok := b.sets[v]; !ok {
		b.sets[v] = nil
		b.order = append(b.order, v)
	}
}

func (b *algBuilder) addSet(v string, s *node, negated bool) {
	b.see(v)
	if negated {
		b.negs[v] = append(b.negs[v], s)
	} else {
		b.sets[v] = append(b.sets[v], s)
	}
}

func (b *algBuilder) group(u, v string) (*edgeGroup, bool) {
	if g, ok := b.groups[[2]string{u, v}]; ok {
		return g, false
	}
	if g, ok := b.groups[[2]string{v, u}]; ok {
		return g, true
	}
	g := &edgeGroup{u: u, v: v}
	b.groups[[2]string{u, v}] = g
	return g, false
}

func leaf(id relID, arity, occ int) *node { return &node{kind: nLeaf, arity: arity, rel: id, occ: occ} }

func bin(k nodeKind, arity int, a, c *node) *node {
	if a == nil {
		return c
	}
	if c == nil {
		return a
	}
	return &node{kind: k, arity: arity, a: a, b: c}
}

func (b *algBuilder) build() (*node, bool) {
	head := b.rule.Head
	if len(head.Args) > 2 || len(b.rule.Body) == 0 {
		return nil, false
	}
	for _, t := range head.Args {
		if t.Kind != datalog.TermVar {
			return nil, false
		}
	}
	b.alias = map[string]string{}
	b.sets = map[string][]*node{}
	b.negs = map[string][]*node{}
	b.groups = map[[2]string]*edgeGroup{}
	for _, l := range b.rule.Body {
		if c, ok := l.(*datalog.Compare); ok && c.Op == "=" && c.L.Kind == datalog.TermVar && c.R.Kind == datalog.TermVar {
			x, y := b.find(c.L.Name), b.find(c.R.Name)
			if x != y {
				b.alias[y] = x
			}
		}
	}
	for i, l := range b.rule.Body {
		if !b.addLiteral(i, l) {
			return nil, false
		}
	}
	for _, t := range head.Args {
		b.see(b.find(t.Name))
	}
	return b.assemble()
}

// addLiteral records one body literal as set or edge constraints; it
// returns false for shapes the algebra does not cover.
func (b *algBuilder) addLiteral(i int, l datalog.Literal) bool {
	switch l := l.(type) {
	case *datalog.Compare:
		return b.addCompare(l)
	case *datalog.Atom:
		id := b.p.byName[l.Pred]
		ar := b.p.rels[id].arity
		lf := leaf(id, ar, i)
		args := make([]datalog.Term, len(l.Args))
		for j, t := range l.Args {
			if t.Kind == datalog.TermVar {
				t.Name = b.find(t.Name)
			}
			args[j] = t
		}
		switch ar {
		case 1:
			switch args[0].Kind {
			case datalog.TermVar:
				b.addSet(args[0].Name, lf, l.Negated)
				return true
			case datalog.TermWildcard:
				if l.Negated {
					return false
				}
				b.guards = append(b.guards, lf)
				return true
			}
			return false
		case 2:
			return b.addBinary(lf, args, l.Negated)
		}
	}
	return false
}

func (b *algBuilder) addBinary(lf *node, args []datalog.Term, negated bool) bool {
	t0, t1 := args[0], args[1]
	isVar := func(t datalog.Term) bool { return t.Kind == datalog.TermVar }
	switch {
	case isVar(t0) && isVar(t1) && t0.Name == t1.Name:
		b.addSet(t0.Name, &node{kind: nDiagSet, arity: 1, a: lf}, negated)
	case isVar(t0) && isVar(t1):
		b.see(t0.Name)
		b.see(t1.Name)
		g, flipped := b.group(t0.Name, t1.Name)
		n := lf
		if flipped {
			n = &node{kind: nInverse, arity: 2, a: lf}
		}
		if negated {
			g.neg = append(g.neg, n)
		} else {
			g.pos = append(g.pos, n)
		}
	case isVar(t0) && t1.Kind == datalog.TermWildcard:
		b.addSet(t0.Name, &node{kind: nDomain, arity: 1, a: lf}, negated)
	case t0.Kind == datalog.TermWildcard && isVar(t1):
		b.addSet(t1.Name, &node{kind: nRange, arity: 1, a: lf}, negated)
	case isVar(t0) && t1.IsConst():
		c := &node{kind: nConst, arity: 1, konst: b.rp.constIndex(t1)}
		b.addSet(t0.Name, &node{kind: nPreimage, arity: 1, a: lf, b: c}, negated)
	case t0.IsConst() && isVar(t1):
		c := &node{kind: nConst, arity: 1, konst: b.rp.constIndex(t0)}
		b.addSet(t1.Name, &node{kind: nImage, arity: 1, a: lf, b: c}, negated)
	case t0.Kind == datalog.TermWildcard && t1.Kind == datalog.TermWildcard && !negated:
		b.guards = append(b.guards, &node{kind: nDomain, arity: 1, a: lf})
	default:
		return false
	}
	return true
}

func (b *algBuilder) addCompare(c *datalog.Compare) bool {
	l, r := c.L, c.R
	if l.Kind == datalog.TermVar {
		l.Name = b.find(l.Name)
	}
	if r.Kind == datalog.TermVar {
		r.Name = b.find(r.Name)
	}
	switch {
	case l.Kind == datalog.TermVar && r.Kind == datalog.TermVar:
		if c.Op == "=" {
			return true // already unified
		}
		if l.Name == r.Name {
			return false // X != X never holds; the join plan handles it
		}
		b.see(l.Name)
		b.see(r.Name)
		g, _ := b.group(l.Name, r.Name)
		g.noDiag = true
		return true
	case l.Kind == datalog.TermVar && r.IsConst():
		b.addSet(l.Name, &node{kind: nConst, arity: 1, konst: b.rp.constIndex(r)}, c.Op == "!=")
		return true
	case r.Kind == datalog.TermVar && l.IsConst():
		b.addSet(r.Name, &node{kind: nConst, arity: 1, konst: b.rp.constIndex(l)}, c.Op == "!=")
		return true
	}
	return false
}

// assemble turns the recorded constraints into one plan for the head.
func (b *algBuilder) assemble() (*node, bool) {
	head := b.rule.Head
	var hx, hy string
	hx = b.find(head.Args[0].Name)
	binaryHead := len(head.Args) == 2
	if binaryHead {
		hy = b.find(head.Args[1].Name)
	}
	var pair *edgeGroup
	var pairFlipped bool
	if binaryHead && hx != hy {
		if g, ok := b.groups[[2]string{hx, hy}]; ok {
			pair = g
		} else if g, ok := b.groups[[2]string{hy, hx}]; ok {
			pair, pairFlipped = g, true
		}
	}
	// Adjacency over the groups with a positive atom, leaving out the head pair.
	adj := map[string][]*edgeGroup{}
	edges := 0
	for _, g := range b.sortedGroups() {
		if g == pair {
			continue
		}
		if len(g.pos) == 0 {
			return nil, false // a negative constraint between variables no atom joins
		}
		adj[g.u] = append(adj[g.u], g)
		adj[g.v] = append(adj[g.v], g)
		edges++
	}
	comp := map[string]int{}
	ncomp := 0
	for _, v := range b.order {
		if _, ok := comp[v]; ok {
			continue
		}
		size, compEdges := b.component(v, ncomp, comp, adj)
		_ = size
		if compEdges >= size {
			return nil, false // a cycle: not a forest
		}
		ncomp++
	}
	guards := b.guards
	for c := 0; c < ncomp; c++ {
		root := ""
		for _, v := range b.order {
			if comp[v] == c {
				root = v
				break
			}
		}
		if comp[hx] == c || (binaryHead && comp[hy] == c) {
			continue
		}
		guards = append(guards, b.setOf(root, nil, adj))
	}
	var result *node
	switch {
	case !binaryHead:
		result = b.setOf(hx, nil, adj)
	case hx == hy:
		result = &node{kind: nIdent, arity: 2, a: b.setOf(hx, nil, adj)}
	default:
		result = b.binaryResult(hx, hy, pair, pairFlipped, comp, adj)
	}
	for _, g := range guards {
		result = &node{kind: nGuard, arity: result.arity, a: result, b: g}
	}
	return result, true
}

func (b *algBuilder) sortedGroups() []*edgeGroup {
	var gs []*edgeGroup
	for _, g := range b.groups {
		gs = append(gs, g)
	}
	idx := map[string]int{}
	for i, v := range b.order {
		idx[v] = i
	}
	sort.Slice(gs, func(i, j int) bool {
		if idx[gs[i].u] != idx[gs[j].u] {
			return idx[gs[i].u] < idx[gs[j].u]
		}
		return idx[gs[i].v] < idx[gs[j].v]
	})
	return gs
}

// component labels v's connected component and returns its numbers of
// vertices and edges.
func (b *algBuilder) component(v string, c int, comp map[string]int, adj map[string][]*edgeGroup) (int, int) {
	stack := []string{v}
	comp[v] = c
	vertices, degree := 0, 0
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		vertices++
		degree += len(adj[x])
		for _, g := range adj[x] {
			y := g.u
			if y == x {
				y = g.v
			}
			if _, ok := comp[y]; !ok {
				comp[y] = c
				stack = append(stack, y)
			}
		}
	}
	return vertices, degree / 2
}

// step is the relation of a group oriented from 'from' to the other end.
func (b *algBuilder) step(g *edgeGroup, from string) *node {
	var r *node
	for _, n := range g.pos {
		r = bin(nInter, 2, r, n)
	}
	for _, n := range g.neg {
		r = &node{kind: nDiff, arity: 2, a: r, b: n}
	}
	if g.noDiag {
		r = &node{kind: nDropDiag, arity: 2, a: r}
	}
	if from != g.u {
		r = invert(r)
	}
	return r
}

// invert pushes an inverse down to the leaves where that is free.
func invert(n *node) *node {
	if n.kind == nInverse {
		return n.a
	}
	return &node{kind: nInverse, arity: 2, a: n}
}

// setOf computes the set of values v can take given its own constraints and
// the subtrees hanging off it (excluding the neighbours in skip).
func (b *algBuilder) setOf(v string, skip map[string]bool, adj map[string][]*edgeGroup) *node {
	return b.setFrom(v, "", skip, adj)
}

func (b *algBuilder) setFrom(v, parent string, skip map[string]bool, adj map[string][]*edgeGroup) *node {
	var s *node
	for _, n := range b.sets[v] {
		s = bin(nInter, 1, s, n)
	}
	for _, g := range adj[v] {
		c := g.u
		if c == v {
			c = g.v
		}
		if c == parent || skip[c] {
			continue
		}
		child := b.setFrom(c, v, nil, adj)
		st := b.step(g, v)
		var pre *node
		if st.kind == nInverse {
			pre = &node{kind: nImage, arity: 1, a: st.a, b: child}
		} else {
			pre = &node{kind: nPreimage, arity: 1, a: st, b: child}
		}
		s = bin(nInter, 1, s, pre)
	}
	if s == nil {
		s = &node{kind: nUniverse, arity: 1}
	}
	for _, n := range b.negs[v] {
		s = &node{kind: nDiff, arity: 1, a: s, b: n}
	}
	return s
}

// binaryResult builds the relation between two distinct head variables.
func (b *algBuilder) binaryResult(hx, hy string, pair *edgeGroup, pairFlipped bool, comp map[string]int, adj map[string][]*edgeGroup) *node {
	var result *node
	if comp[hx] == comp[hy] {
		path := b.path(hx, hy, adj)
		for i := 0; i+1 < len(path); i++ {
			from, to := path[i], path[i+1]
			var g *edgeGroup
			for _, e := range adj[from] {
				if (e.u == from && e.v == to) || (e.u == to && e.v == from) {
					g = e
				}
			}
			skipTo := map[string]bool{to: true}
			if i > 0 {
				skipTo[path[i-1]] = true
			}
			var dom *node
			if i == 0 {
				dom = b.setOf(from, skipTo, adj)
			}
			skipNext := map[string]bool{from: true}
			if i+2 < len(path) {
				skipNext[path[i+2]] = true
			}
			rng := b.setOf(to, skipNext, adj)
			st := &node{kind: nRestrict, arity: 2, a: b.step(g, from), dom: trivialToNil(dom), rng: trivialToNil(rng)}
			if st.dom == nil && st.rng == nil {
				st = st.a
			}
			if result == nil {
				result = st
			} else {
				result = &node{kind: nCompose, arity: 2, a: result, b: st}
			}
		}
	}
	if pair != nil && len(pair.pos) > 0 {
		from := hx
		if pairFlipped {
			from = hx // step orients from hx regardless of how the group was keyed
		}
		base := b.step(&edgeGroup{u: pair.u, v: pair.v, pos: pair.pos}, from)
		if result == nil {
			result = &node{kind: nRestrict, arity: 2, a: base, dom: trivialToNil(b.setOf(hx, nil, adj)), rng: trivialToNil(b.setOf(hy, nil, adj))}
			if result.dom == nil && result.rng == nil {
				result = base
			}
		} else {
			result = &node{kind: nInter, arity: 2, a: result, b: base}
		}
	}
	if result == nil {
		result = &node{kind: nProduct, arity: 2, a: b.setOf(hx, nil, adj), b: b.setOf(hy, nil, adj)}
	}
	if pair != nil {
		for _, n := range pair.neg {
			if pair.u != hx {
				n = invert(n)
			}
			result = &node{kind: nDiff, arity: 2, a: result, b: n}
		}
		if pair.noDiag {
			result = &node{kind: nDropDiag, arity: 2, a: result}
		}
	}
	return result
}

func trivialToNil(n *node) *node {
	if n != nil && n.kind == nUniverse {
		return nil
	}
	return n
}

// path finds the variables on the tree path from x to y (x != y).
func (b *algBuilder) path(x, y string, adj map[string][]*edgeGroup) []string {
	steps, _ := breadthFirst(x, func(v string, yield func(string, string)) {
		for _, g := range adj[v] {
			w := g.u
			if w == v {
				w = g.v
			}
			yield(w, w)
		}
	}, func(v string) bool { return v == y })
	return append([]string{x}, steps...)
}
