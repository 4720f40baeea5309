package synth

import (
	"math/bits"
	"sync"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/scc"
)

// The bounds of ownbound.go take every reads-from at once, and nothing
// of the allowing model: a read and a later write of its location in one
// thread make a cycle of program order and reads-from, which no
// execution the allowing model allows has where its axioms forbid
// reading a later write. This file judges a skeleton one choice of
// reads-from at a time, with both models: for each choice, each relation
// of a model is evaluated on the skeleton's nodes between two graphs, one
// that holds every pair it may hold (over) and one that holds only pairs
// it surely holds (under), whatever the memory orders, scopes and
// dependencies of the skeleton's lattice and the orders (co_ms, fence_sc)
// chosen. A choice is out when an axiom of the allowing model surely
// fails on it (its relation's under graph breaks it: no execution with
// that reads-from is allowed at any point), or when no flag of the other
// model's parts can be raised on it (their over graphs hold them). A
// skeleton with no choice left has no execution that the allowing model
// allows and the other model rejects by its own parts: no separating
// program.
//
// Each operator maps the graphs of its operands to graphs of its result
// (r | s: over and under by union; r & s: by intersection; r \ s: the
// over graph of r less the under graph of s, the under graph of r less
// the over graph of s; r ; s, closures, inverses: the same operation on
// each; products and identities of sets: over the over and under node
// sets of the sets). Recursive definitions are solved from empty graphs
// up: the program is stratified, so the operators are monotone in a
// recursive relation, and the iteration reaches, for over, a fixpoint
// that contains the relation's least one, and stays, for under, within
// it. Inputs are spread as follows: reads-from is the choice itself;
// program order, read-modify-write pairs, locations and the event sets
// eventNodes spells exactly (E, IW, M, R, W, F, PF, GEN, LD, ATOM,
// ALIAS) are the same for every program of the skeleton, and so are the
// pairs of same_bytes and vaddr said sure (input); the others may hold
// what pruneInstance.input and attributeSet say and surely hold nothing;
// an order may hold any pair of what it orders, either way, and surely
// holds nothing, until a linear extension of it is chosen (ext,
// extensionsOpen): then it holds only pairs of the extension, and surely
// those of its pairs it orders the extension's way; a relation defined
// by rules written as such (no definition) is bounded by its path bound
// and surely holds nothing.

// maxReadsFrom caps the choices of reads-from a skeleton is judged by;
// beyond it, the skeleton is searched.
const maxReadsFrom = 4096

// ival is a relation between two graphs: over holds every pair it may
// hold, under the pairs it surely holds.
type ival struct{ over, under graph }

// relPlan orders the definitions of one model that some expressions
// read: the strongly connected components of their dependencies, each
// after those it reads.
type relPlan struct {
	a         *boundAnalysis
	overs     map[string]bound
	sccs      [][]string
	recursive []bool
	// comp is the component of each definition.
	comp map[string]int
	// defs number the definitions, component by component, with their
	// code; inputs and sets number what the code reads, and checks are
	// the compiled expressions of the checks planned for.
	defs     []string
	defIndex map[string]int
	code     []*cnode
	// fixed says a definition reads no reads-from (through any chain):
	// its graphs are the same for every choice, and kept across them.
	fixed  []bool
	inputs []string
	// orders are the orders the code reads, by index, and orderPairs
	// the code of the pairs each orders.
	orders     []*datalog.Order
	orderPairs []*cnode
	sets       []datalog.Expr
	// setAttr says a set reads a set of orders or scopes (its
	// spreading depends on the profile index).
	setAttr []bool
	checks  []*cnode
}

// newRelPlan plans the evaluation of the binary definitions the checks
// read, and compiles them.
func newRelPlan(a *boundAnalysis, overs map[string]bound, checks []*datalog.Check) *relPlan {
	var es []datalog.Expr
	for _, c := range checks {
		es = append(es, c.Expr)
	}
	rp := &relPlan{a: a, overs: overs, comp: map[string]int{}}
	deps := map[string][]string{}
	var names []string
	seen := map[string]bool{}
	var refs func(e datalog.Expr, out *[]string)
	refs = func(e datalog.Expr, out *[]string) {
		switch x := e.(type) {
		case *datalog.RelRef:
			*out = append(*out, x.Name)
		case *datalog.Binary:
			refs(x.L, out)
			refs(x.R, out)
		case *datalog.Unary:
			refs(x.X, out)
		}
	}
	var visit func(n string)
	visit = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		r := a.m.Relations[n]
		if r == nil {
			return
		}
		var ds []string
		for _, o := range a.m.Orders {
			if o.Name == n {
				ds = append(ds, o.Over)
			}
		}
		if r.Kind == datalog.RelDerived && r.Def != nil {
			refs(r.Def.Expr, &ds)
		}
		if sub := ruleUnder(a, n); sub != "" {
			ds = append(ds, sub)
		}
		for _, d := range ds {
			visit(d)
		}
		if r.Kind == datalog.RelDerived && r.Def != nil && r.Arity == 2 {
			names = append(names, n)
		}
		deps[n] = ds
	}
	var roots []string
	for _, e := range es {
		refs(e, &roots)
	}
	for _, n := range roots {
		visit(n)
	}
	// The components of the definitions, each after those it reads
	// (internal/scc's order); a component is recursive when it has
	// several members or one that reads itself. Dependencies through
	// orders and sets are followed to reach the definitions they read.
	at := map[string]int{}
	for k, n := range names {
		at[n] = k
	}
	defDeps := func(n string) []int {
		var out []int
		walked := map[string]bool{}
		var walk func(string)
		walk = func(d string) {
			if walked[d] {
				return
			}
			walked[d] = true
			if k, ok := at[d]; ok {
				out = append(out, k)
				return
			}
			for _, x := range deps[d] {
				walk(x)
			}
		}
		for _, d := range deps[n] {
			walk(d)
		}
		return out
	}
	succ := make([][]int, len(names))
	for k, n := range names {
		succ[k] = defDeps(n)
	}
	for _, comp := range scc.Components(succ, func(v int) int { return v }) {
		rec := len(comp) > 1
		var members []string
		for _, k := range comp {
			members = append(members, names[k])
			for _, d := range succ[k] {
				rec = rec || d == k
			}
		}
		for _, x := range members {
			rp.comp[x] = len(rp.sccs)
		}
		rp.sccs = append(rp.sccs, members)
		rp.recursive = append(rp.recursive, rec)
	}
	rp.compile(checks)
	return rp
}

// op is what a compiled node computes.
type op int

const (
	opTop   op = iota // may hold anything, surely nothing
	opEmpty           // holds nothing
	opUniv            // every pair
	opInput           // an input relation (reads-from: the choice)
	opDef             // a definition
	opOrder           // an order, over the pairs of l
	opRule            // a relation defined by rules: its path bound
	opUnion
	opInter
	opDiff
	opSeq
	opProduct // sets s * t
	opIdent   // [s]
	opPlus
	opStar
	opOpt
	opInv
	opCompl
	// opGuard is a union some of whose operands are guarded by sets
	// ([s] ; r or s * t): evaluated per profile index (ownprofile.go).
	opGuard
)

// cnode is a relational expression compiled against a model: names
// resolved to the inputs, definitions and sets the evaluation indexes.
type cnode struct {
	op   op
	l, r *cnode
	// idx is the input's, definition's or order's index; s and t the
	// sets'.
	idx, s, t int
	b         bound
	// terms are the operands of a guarded union (opGuard).
	terms []gterm
}

// gterm is an operand of a guarded union: [s] ; c, s * t (prod), or,
// with s -1, c unguarded.
type gterm struct {
	s, t int
	prod bool
	c    *cnode
}

// compiler compiles expressions of one model.
type compiler struct {
	rp *relPlan
}

// compile compiles a binary expression.
func (c compiler) compile(e datalog.Expr) *cnode {
	switch e := e.(type) {
	case *datalog.RelRef:
		return c.ref(e.Name)
	case *datalog.Universe:
		return &cnode{op: opUniv}
	case *datalog.Binary:
		if e.Op == datalog.OpProduct {
			return &cnode{op: opProduct, s: c.rp.setIndex(e.L), t: c.rp.setIndex(e.R)}
		}
		if e.Op == datalog.OpUnion {
			if g := c.guarded(e); g != nil {
				return g
			}
		}
		var o op
		switch e.Op {
		case datalog.OpUnion:
			o = opUnion
		case datalog.OpInter:
			o = opInter
		case datalog.OpDiff:
			o = opDiff
		case datalog.OpSeq:
			o = opSeq
		default:
			return &cnode{op: opTop}
		}
		return &cnode{op: o, l: c.compile(e.L), r: c.compile(e.R)}
	case *datalog.Unary:
		var o op
		switch e.Op {
		case datalog.OpIdent:
			return &cnode{op: opIdent, s: c.rp.setIndex(e.X)}
		case datalog.OpPlus:
			o = opPlus
		case datalog.OpStar:
			o = opStar
		case datalog.OpOpt:
			o = opOpt
		case datalog.OpInv:
			o = opInv
		case datalog.OpCompl:
			o = opCompl
		default:
			return &cnode{op: opTop}
		}
		return &cnode{op: o, l: c.compile(e.X)}
	}
	return &cnode{op: opTop}
}

// ref compiles a reference to a binary relation.
func (c compiler) ref(name string) *cnode {
	a := c.rp.a
	r := a.m.Relations[name]
	if r == nil {
		return &cnode{op: opTop}
	}
	switch r.Kind {
	case datalog.RelInput:
		if a.empty[name] {
			return &cnode{op: opEmpty}
		}
		return &cnode{op: opInput, idx: c.rp.inputIndex(name)}
	case datalog.RelOrder:
		for _, o := range a.m.Orders {
			if o.Name == name {
				return &cnode{op: opOrder, l: c.ref(o.Over), idx: c.rp.orderIndex(o)}
			}
		}
	case datalog.RelDerived:
		if r.Def != nil {
			if k, ok := c.rp.defIndex[name]; ok {
				return &cnode{op: opDef, idx: k}
			}
			return &cnode{op: opTop}
		}
		if b, ok := a.bounds[name]; ok {
			n := &cnode{op: opRule, b: b}
			if sub := ruleUnder(a, name); sub != "" {
				n.l = c.ref(sub)
			}
			return n
		}
	}
	return &cnode{op: opTop}
}

// setIndex numbers a set expression for the evaluation's cache.
func (rp *relPlan) setIndex(e datalog.Expr) int {
	rp.sets = append(rp.sets, e)
	rp.setAttr = append(rp.setAttr, readsAttributes(rp.a.m, e, map[string]bool{}))
	return len(rp.sets) - 1
}

// orderIndex numbers an order.
func (rp *relPlan) orderIndex(o *datalog.Order) int {
	for i, n := range rp.orders {
		if n.Name == o.Name {
			return i
		}
	}
	rp.orders = append(rp.orders, o)
	return len(rp.orders) - 1
}

// inputIndex numbers an input relation.
func (rp *relPlan) inputIndex(name string) int {
	for i, n := range rp.inputs {
		if n == name {
			return i
		}
	}
	rp.inputs = append(rp.inputs, name)
	return len(rp.inputs) - 1
}

// compile compiles every planned definition and the checks' expressions.
func (rp *relPlan) compile(checks []*datalog.Check) {
	rp.defIndex = map[string]int{}
	for _, comp := range rp.sccs {
		for _, n := range comp {
			rp.defIndex[n] = len(rp.defs)
			rp.defs = append(rp.defs, n)
		}
	}
	c := compiler{rp: rp}
	rp.code = make([]*cnode, len(rp.defs))
	for k, n := range rp.defs {
		rp.code[k] = c.compile(rp.a.m.Relations[n].Def.Expr)
	}
	for _, ch := range checks {
		rp.checks = append(rp.checks, c.compile(ch.Expr))
	}
	// The pairs of each order read, compiled on their own for the
	// components of the order (execEval.orderSpan); compiling them may
	// number more orders.
	for i := 0; i < len(rp.orders); i++ {
		rp.orderPairs = append(rp.orderPairs, c.ref(rp.orders[i].Over))
	}
	// Components come after those they read: one pass settles fixed.
	rp.fixed = make([]bool, len(rp.defs))
	for _, comp := range rp.sccs {
		fixed := true
		for _, n := range comp {
			fixed = fixed && !rp.readsRF(rp.code[rp.defIndex[n]])
		}
		for _, n := range comp {
			rp.fixed[rp.defIndex[n]] = fixed
		}
	}
}

// readsRF reports whether compiled code reads reads-from, directly or
// through a definition not known fixed (those of its own component
// included, which are not settled yet).
func (rp *relPlan) readsRF(c *cnode) bool {
	if c == nil {
		return false
	}
	switch c.op {
	case opInput:
		return rp.inputs[c.idx] == "rf"
	case opOrder:
		// The choice fixes a linear extension of each order too
		// (sideMayRaise).
		return true
	case opDef:
		return !rp.fixed[c.idx]
	case opGuard:
		for _, t := range c.terms {
			if rp.readsRF(t.c) {
				return true
			}
		}
		return false
	}
	return rp.readsRF(c.l) || rp.readsRF(c.r)
}

// execEval evaluates one model's relations on a skeleton's nodes for one
// choice of reads-from, or a set of choices (reads-from between two
// graphs too: the relations' graphs then hold for every choice within),
// each relation when first asked for.
type execEval struct {
	rp *relPlan
	p  *pruneInstance
	rf ival
	// ext, where not nil for an order, is a strict total order of the
	// nodes of each component of the order's pairs that extends the
	// order: the order holds none of the pairs ext does not, and, unless
	// partial, every pair of its pairs in ext's direction.
	ext map[string]graph
	// vals holds the definitions' graphs, valid where stamp is gen.
	vals  []ival
	stamp []uint32
	gen   uint32
	// inputs keeps the graphs of inputs that do not depend on the
	// choice, across choices; sets those of the sets.
	inputs []ival
	haveIn []bool
	sets   []nodeSets
	setsAt [][]nodeSets
	haveS  []bool
	// buf is where graphs are cut from, reset for each choice; graphs
	// of fixed definitions are allocated apart (persist), and kept.
	buf     []uint64
	persist int
	kept    []bool
}

// newExecEval prepares an evaluation of rp's model on p's nodes.
func newExecEval(rp *relPlan, p *pruneInstance) *execEval {
	return &execEval{rp: rp, p: p, vals: make([]ival, len(rp.defs)), stamp: make([]uint32, len(rp.defs)), kept: make([]bool, len(rp.defs)),
		inputs: make([]ival, len(rp.inputs)), haveIn: make([]bool, len(rp.inputs)),
		sets: make([]nodeSets, len(rp.sets)), setsAt: make([][]nodeSets, len(rp.sets)), haveS: make([]bool, len(rp.sets))}
}

// forget drops the graphs and sets computed from the nodes' profiles:
// every set, and every definition kept across choices.
func (x *execEval) forget() {
	clear(x.haveS)
	clear(x.kept)
	x.gen++
}

// bufPool keeps the evaluations' buffers between skeletons.
var bufPool = sync.Pool{New: func() any { b := make([]uint64, 0, 1<<14); return &b }}

// release hands the evaluation's buffer back.
func (x *execEval) release() {
	if x.buf != nil {
		b := x.buf[:0]
		bufPool.Put(&b)
		x.buf = nil
	}
}

// newGraph returns an empty graph cut from the evaluation's buffer.
func (x *execEval) newGraph() graph {
	n := len(x.p.ns)
	if x.persist > 0 {
		return make(graph, n)
	}
	if x.buf == nil {
		x.buf = *bufPool.Get().(*[]uint64)
	}
	if len(x.buf)+n > cap(x.buf) {
		// Graphs cut before stay in the old buffer, which the
		// collector frees with them.
		x.buf = make([]uint64, 0, 2*cap(x.buf))
	}
	g := x.buf[len(x.buf) : len(x.buf)+n : len(x.buf)+n]
	x.buf = x.buf[:len(x.buf)+n]
	clear(g)
	return g
}

func (x *execEval) full() graph {
	g := x.newGraph()
	for i := range g {
		g[i] = x.p.all
	}
	return g
}

// reset starts the evaluation of a choice: reads-from between over and
// under.
func (x *execEval) reset(over, under graph) {
	x.gen++
	if x.buf != nil {
		x.buf = x.buf[:0]
	}
	o, u := x.newGraph(), x.newGraph()
	copy(o, over)
	copy(u, under)
	x.rf = ival{over: o, under: u}
}

// def evaluates a definition, with the component it belongs to when
// that is recursive.
func (x *execEval) def(k int) ival {
	if x.stamp[k] == x.gen || x.kept[k] {
		return x.vals[k]
	}
	rp := x.rp
	if rp.fixed[k] {
		x.persist++
		defer func() {
			x.persist--
			for _, n := range rp.sccs[rp.comp[rp.defs[k]]] {
				x.kept[rp.defIndex[n]] = true
			}
		}()
	}
	c := rp.comp[rp.defs[k]]
	if !rp.recursive[c] {
		x.vals[k] = x.eval(rp.code[k])
		x.stamp[k] = x.gen
		return x.vals[k]
	}
	comp := rp.sccs[c]
	for _, n := range comp {
		m := rp.defIndex[n]
		x.vals[m] = ival{over: x.newGraph(), under: x.newGraph()}
		x.stamp[m] = x.gen
	}
	for round := 0; round < maxBoundRounds; round++ {
		settled := true
		for _, n := range comp {
			m := rp.defIndex[n]
			v := x.eval(rp.code[m])
			if !v.over.equal(x.vals[m].over) || !v.under.equal(x.vals[m].under) {
				settled = false
			}
			x.vals[m] = v
		}
		if settled {
			return x.vals[k]
		}
	}
	for _, n := range comp {
		x.vals[rp.defIndex[n]] = ival{over: x.full(), under: x.newGraph()}
	}
	return x.vals[k]
}

// surely are the binary inputs whose graph is the same for every program
// of the skeleton: their under graph is their over graph.
var surely = setOf("po", "rmw", "loc", "same_instr", "sthd")

// input is the graphs of an input relation.
func (x *execEval) input(k int) ival {
	name := x.rp.inputs[k]
	if name == "rf" {
		return x.rf
	}
	if x.haveIn[k] {
		return x.inputs[k]
	}
	over := x.p.input(name)
	under := make(graph, len(x.p.ns))
	switch {
	case surely[name]:
		under = over
	case name == "same_bytes":
		// Every access of these skeletons, and the initial write,
		// takes the whole of its location, through either address.
		for i, a := range x.p.ns {
			for j, b := range x.p.ns {
				if a.loc >= 0 && a.loc == b.loc {
					under[i] |= 1 << j
				}
			}
		}
	case name == "scta" || name == "sclu" || name == "sgpu":
		under = x.p.placeUnder(name)
	case name == "vaddr":
		// Two accesses through the same address of a location, and
		// each access with itself (an atom's two events too); the
		// initial write uses the location's first address (its
		// declaration's). A node of either address is sure of its
		// own instruction's only.
		for i, a := range x.p.ns {
			for j, b := range x.p.ns {
				same := a.alias == b.alias && !a.anyAlias && !b.anyAlias
				if a.loc >= 0 && a.loc == b.loc && (same || (!a.iw && a.thread == b.thread && a.slot == b.slot)) {
					under[i] |= 1 << j
				}
			}
		}
	}
	x.inputs[k], x.haveIn[k] = ival{over: over, under: under}, true
	return x.inputs[k]
}

// set is the node sets of a numbered set expression.
func (x *execEval) set(k int) nodeSets {
	x.setAt(k)
	return x.sets[k]
}

// setAt is the node sets of a numbered set expression at each profile
// index.
func (x *execEval) setAt(k int) []nodeSets {
	if !x.haveS[k] {
		x.setsAt[k] = x.p.setsAt(x.rp.sets[k], x.rp.setAttr[k])
		x.sets[k], x.haveS[k] = x.p.join(x.setsAt[k]), true
	}
	return x.setsAt[k]
}

// eval evaluates a compiled expression.
func (x *execEval) eval(c *cnode) ival {
	switch c.op {
	case opEmpty:
		return ival{over: x.newGraph(), under: x.newGraph()}
	case opUniv:
		return ival{over: x.full(), under: x.full()}
	case opInput:
		return x.input(c.idx)
	case opDef:
		return x.def(c.idx)
	case opRule:
		under := x.newGraph()
		if c.l != nil {
			copy(under, x.eval(c.l).under)
		}
		return ival{over: x.p.bound(c.b), under: under}
	case opGuard:
		return x.guarded(c)
	case opOrder:
		pairs := x.eval(c.l)
		over := pairs.over
		sym, cl := x.newGraph(), x.newGraph()
		transposeInto(sym, over)
		for i := range sym {
			sym[i] |= over[i]
		}
		closeInto(cl, sym)
		for i := range cl {
			cl[i] &^= 1 << i
		}
		under := x.newGraph()
		o := x.rp.orders[c.idx]
		if ext := x.ext[o.Name]; ext != nil {
			for i := range cl {
				cl[i] &= ext[i]
				if !o.Partial {
					under[i] = pairs.under[i] & ext[i]
				}
			}
		}
		return ival{over: cl, under: under}
	case opProduct:
		s, t := x.set(c.s), x.set(c.t)
		over, under := x.newGraph(), x.newGraph()
		for i := range over {
			if s.over&(1<<i) != 0 {
				over[i] = t.over
			}
			if s.under&(1<<i) != 0 {
				under[i] = t.under
			}
		}
		return ival{over: over, under: under}
	case opIdent:
		s := x.set(c.s)
		over, under := x.newGraph(), x.newGraph()
		for i := range over {
			over[i] = s.over & (1 << i)
			under[i] = s.under & (1 << i)
		}
		return ival{over: over, under: under}
	case opUnion, opInter, opDiff, opSeq:
		l, r := x.eval(c.l), x.eval(c.r)
		over, under := x.newGraph(), x.newGraph()
		switch c.op {
		case opUnion:
			for i := range over {
				over[i], under[i] = l.over[i]|r.over[i], l.under[i]|r.under[i]
			}
		case opInter:
			for i := range over {
				over[i], under[i] = l.over[i]&r.over[i], l.under[i]&r.under[i]
			}
		case opDiff:
			for i := range over {
				over[i], under[i] = l.over[i]&^r.under[i], l.under[i]&^r.over[i]
			}
		case opSeq:
			compose(over, l.over, r.over)
			compose(under, l.under, r.under)
		}
		return ival{over: over, under: under}
	case opPlus, opStar, opOpt, opInv, opCompl:
		v := x.eval(c.l)
		over, under := x.newGraph(), x.newGraph()
		switch c.op {
		case opPlus, opStar:
			closeInto(over, v.over)
			closeInto(under, v.under)
			if c.op == opStar {
				addID(over)
				addID(under)
			}
		case opOpt:
			copy(over, v.over)
			copy(under, v.under)
			addID(over)
			addID(under)
		case opInv:
			transposeInto(over, v.over)
			transposeInto(under, v.under)
		case opCompl:
			for i := range over {
				over[i], under[i] = x.p.all&^v.under[i], x.p.all&^v.over[i]
			}
		}
		return ival{over: over, under: under}
	}
	return ival{over: x.full(), under: x.newGraph()}
}

// ns are the nodes evaluated on.
func (x *execEval) ns() []pnode { return x.p.ns }

// orderSpan is the graph of the pairs order k may relate, either way,
// with no linear extension chosen: the pairs of the components its pairs
// join.
func (x *execEval) orderSpan(k int) graph {
	over := x.eval(x.rp.orderPairs[k]).over
	sym, cl := x.newGraph(), x.newGraph()
	transposeInto(sym, over)
	for i := range sym {
		sym[i] |= over[i]
	}
	closeInto(cl, sym)
	return cl
}

// compose sets dst to g ; h.
func compose(dst, g, h graph) {
	for i, row := range g {
		var acc uint64
		for row != 0 {
			j := bits.TrailingZeros64(row)
			row &^= 1 << j
			acc |= h[j]
		}
		dst[i] = acc
	}
}

// closeInto sets dst to the transitive closure of g.
func closeInto(dst, g graph) {
	copy(dst, g)
	for k := range dst {
		for i := range dst {
			if dst[i]&(1<<k) != 0 {
				dst[i] |= dst[k]
			}
		}
	}
}

// transposeInto sets dst to the inverse of g.
func transposeInto(dst, g graph) {
	clear(dst)
	for i, row := range g {
		for row != 0 {
			j := bits.TrailingZeros64(row)
			row &^= 1 << j
			dst[j] |= 1 << i
		}
	}
}

func addID(g graph) {
	for i := range g {
		g[i] |= 1 << i
	}
}

// fails reports whether a check of the kind fails on g: a cycle, a pair
// of an event with itself, or any pair.
func (g graph) fails(k datalog.CheckKind) bool {
	switch k {
	case datalog.CheckAcyclic:
		g = g.closure()
		fallthrough
	case datalog.CheckIrreflexive:
		for i, row := range g {
			if row&(1<<i) != 0 {
				return true
			}
		}
		return false
	case datalog.CheckEmpty:
		for _, row := range g {
			if row != 0 {
				return true
			}
		}
		return false
	}
	return true
}

func (g graph) equal(h graph) bool {
	for i := range g {
		if g[i] != h[i] {
			return false
		}
	}
	return true
}
