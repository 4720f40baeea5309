package synth

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/program"
)

// Shapes no execution of which can break a part of either model's own
// axioms hold no separating program, and are not searched.
//
// Where the models are paired, a program separates them only through an
// execution one model allows and the other rejects by a flag of the
// violation screen (violation.go, points 1 and 2: a part of an axiom of
// its own), under some choice of the orders. ownbound.go bounds each
// flag's relation, from the rules alone, by paths of input relations,
// orders and products of sets. This file spreads each of those over a
// skeleton's events, over-approximating what every execution of every
// program of the skeleton (every memory order, scope and dependency of
// its lattice, every reads-from) can fill: reads-from joins any write of
// a location to any read of it in another instruction, a dependency any
// read to what follows it in its thread, an order any two events of the
// pairs it orders, both ways, an input whose structure is not spelt here
// every pair of events. A flag can then be raised only where the bound
// allows it: for irreflexive and acyclic flags, an event that lies, in
// every alternative of the bound, on a cycle of its kinds (or where the
// alternative holds the identity); for empty ones, a pair of events so
// joined. A skeleton where no flag of either side can be raised is left
// out: every program of it gives the two models the same outcomes, so it
// has no separating test, and the tests the search reports are the same
// (TestOwnPruneAgrees compares the two searches; TestOwnPruneCovers checks
// the spread of each input against the catalog's).
//
// Only skeletons of loads, stores, atoms, fences and alias fences are
// judged (their events are spelt below); any other is searched.

// pnode is one event of a skeleton, as the bounds see it.
type pnode struct {
	thread, slot int // -1, -1 for an initial write
	loc          int // -1 for a fence
	r, w, f, pf  bool
	iw, alias    bool
	// anyAlias says the node's address is one of its location's two,
	// whichever the shape's alias variants take (prefixNodes).
	anyAlias bool
	// kind is the node's instruction's kind, and fence the kind of a
	// fence (0 for one of a chain: acq_rel or sc).
	kind  program.Kind
	fence program.Sem
}

// eventNodes spells the events of a skeleton: an initial write per
// location, then per thread each instruction's events (an atom's read
// then its write); false when the skeleton has an instruction of another
// kind.
func eventNodes(sk *skeleton) ([]pnode, bool) {
	var ns []pnode
	for l := 0; l < sk.nlocs; l++ {
		ns = append(ns, pnode{thread: -1, slot: -1, loc: l, w: true, iw: true})
	}
	for t, th := range sk.threads {
		for k, sl := range th {
			if sl.proxy != program.Generic {
				return nil, false
			}
			switch sl.kind {
			case program.Load:
				ns = append(ns, pnode{thread: t, slot: k, loc: sl.loc, r: true, alias: sl.alias, kind: sl.kind})
			case program.Store:
				ns = append(ns, pnode{thread: t, slot: k, loc: sl.loc, w: true, alias: sl.alias, kind: sl.kind})
			case program.RMW:
				ns = append(ns, pnode{thread: t, slot: k, loc: sl.loc, r: true, alias: sl.alias, kind: sl.kind},
					pnode{thread: t, slot: k, loc: sl.loc, w: true, alias: sl.alias, kind: sl.kind})
			case program.Fence:
				ns = append(ns, pnode{thread: t, slot: k, loc: -1, f: true, kind: sl.kind, fence: sl.fence})
			case program.AliasFence:
				ns = append(ns, pnode{thread: t, slot: k, loc: -1, pf: true, kind: sl.kind})
			default:
				return nil, false
			}
		}
	}
	return ns, len(ns) <= 64
}

// graph is a relation over at most 64 nodes: row i holds the nodes i
// relates to.
type graph []uint64

// nodeSets spreads a set over the nodes: over may be in it, under surely
// are.
type nodeSets struct{ over, under uint64 }

// pruneInstance spreads a model's bounds over one skeleton's nodes.
type pruneInstance struct {
	a     *boundAnalysis
	overs map[string]bound
	ns    []pnode
	all   uint64
	kinds map[string]graph
	// places are where the skeleton's threads run (nil: each in a CTA
	// of its own on GPU 0); prof are each node's profiles, nprof the
	// most a node has, and memo the named sets spread at each profile
	// index (ownprofile.go).
	places []program.Place
	prof   [][]profile
	nprof  int
	memo   []map[string]nodeSets
	// ops walk set expressions at profile index curK.
	ops  *setOps[nodeSets]
	curK int
}

// preciseSets are the input sets whose members eventNodes says exactly.
func (p *pruneInstance) inputSet(name string) nodeSets {
	var m uint64
	for i, n := range p.ns {
		in := false
		switch name {
		case "E":
			in = true
		case "IW":
			in = n.iw
		case "M":
			in = n.r || n.w
		case "GEN":
			// Every access of these skeletons is generic, and so is a
			// memory fence.
			in = n.r || n.w || n.f
		case "R":
			in = n.r
		case "W":
			in = n.w
		case "F":
			in = n.f
		case "PF":
			in = n.pf
		case "LD":
			// An initial write's kind is the zero Kind: read kinds
			// only of the instructions'.
			in = !n.iw && n.kind == program.Load
		case "ATOM":
			in = !n.iw && n.kind == program.RMW
		case "ALIAS":
			in = !n.iw && n.kind == program.AliasFence
		default:
			if _, ok := (profile{}).attribute(name); ok {
				// Each node's memberships over its profiles.
				at := make([]nodeSets, p.nprof)
				for k := range at {
					at[k], _ = p.attributeSetAt(name, k)
				}
				return p.join(at)
			}
			if p.a.empty[name] {
				return nodeSets{}
			}
			return nodeSets{over: p.all}
		}
		if in {
			m |= 1 << i
		}
	}
	return nodeSets{over: m, under: m}
}

// set spreads a set expression over the nodes: what it may hold at some
// profile index, and surely holds at every one (ownprofile.go).
func (p *pruneInstance) set(e datalog.Expr) nodeSets {
	return p.join(p.setsAt(e, readsAttributes(p.a.m, e, map[string]bool{})))
}

// input spreads an input relation over the nodes.
func (p *pruneInstance) input(name string) graph {
	g := make(graph, len(p.ns))
	if p.a.empty[name] {
		return g
	}
	sameSlot := func(a, b pnode) bool { return a.thread >= 0 && a.thread == b.thread && a.slot == b.slot }
	poBefore := func(a, b pnode) bool {
		return a.thread >= 0 && a.thread == b.thread && (a.slot < b.slot || (a.slot == b.slot && a.r && b.w && !a.w))
	}
	for i, a := range p.ns {
		for j, b := range p.ns {
			var in bool
			switch name {
			case "po":
				in = poBefore(a, b)
			case "rf":
				// An atom may read its own write in a candidate (the
				// axioms reject it).
				in = a.w && b.r && a.loc == b.loc
			case "rmw":
				in = a.r && b.w && sameSlot(a, b) && i != j
			case "data", "ctrl", "addr":
				in = a.r && poBefore(a, b) && !sameSlot(a, b)
			case "loc", "same_bytes":
				in = a.loc >= 0 && a.loc == b.loc
			case "vaddr", "gaddr":
				// Accesses of one location through its two addresses
				// use different virtual (and generic) addresses; an
				// initial write uses the declaration's, whichever that
				// is taken to be.
				in = a.loc >= 0 && a.loc == b.loc && (a.iw || b.iw || a.alias == b.alias || a.anyAlias || b.anyAlias)
			case "same_instr":
				in = sameSlot(a, b)
			case "sthd":
				in = a.thread >= 0 && a.thread == b.thread
			case "scta", "sclu", "sgpu":
				// Initial writes run on no thread, so in no CTA,
				// cluster or GPU.
				in = a.thread >= 0 && b.thread >= 0
			default:
				in = true
			}
			if in {
				g[i] |= 1 << j
			}
		}
	}
	return g
}

// kind spreads a kind over the nodes.
func (p *pruneInstance) kind(key string) graph {
	if g, ok := p.kinds[key]; ok {
		return g
	}
	k := p.a.kinds[key]
	g := make(graph, len(p.ns))
	switch k.sort {
	case kindInput:
		g = p.input(k.name)
		if k.inv {
			g = g.transpose()
		}
	case kindProduct:
		s, t := p.set(k.s).over, p.set(k.t).over
		for i := range p.ns {
			if s&(1<<i) != 0 {
				g[i] = t
			}
		}
	case kindOrder:
		// Any pairs of the relation ordered, either way, and what
		// transitivity adds: the components of its pairs, less the
		// identity (an order is strict).
		over := p.bound(p.overs[k.name])
		sym := make(graph, len(p.ns))
		for i := range p.ns {
			sym[i] = over[i]
			for j := range p.ns {
				if over[j]&(1<<i) != 0 {
					sym[i] |= 1 << j
				}
			}
		}
		g = sym.closure()
		for i := range g {
			g[i] &^= 1 << i
		}
	default:
		for i := range g {
			g[i] = p.all
		}
	}
	p.kinds[key] = g
	return g
}

// alt spreads one alternative: the closure of its kinds' union, with the
// identity where it has it.
func (p *pruneInstance) alt(x alt) graph {
	g := make(graph, len(p.ns))
	for _, key := range x.kinds {
		for i, row := range p.kind(key) {
			g[i] |= row
		}
	}
	g = g.closure()
	if x.id {
		for i := range g {
			g[i] |= 1 << i
		}
	}
	return g
}

// bound spreads a bound: the pairs every alternative allows.
func (p *pruneInstance) bound(b bound) graph {
	g := make(graph, len(p.ns))
	if b.empty {
		return g
	}
	for i := range g {
		g[i] = p.all
	}
	for _, x := range b.alts {
		for i, row := range p.alt(x) {
			g[i] &= row
		}
	}
	return g
}

// mayRaise reports whether a flag of the given kind over a relation so
// bounded can be raised on the nodes.
func (p *pruneInstance) mayRaise(k datalog.CheckKind, b bound) bool {
	g := p.bound(b)
	for i, row := range g {
		switch k {
		case datalog.CheckIrreflexive, datalog.CheckAcyclic:
			if row&(1<<i) != 0 {
				return true
			}
		case datalog.CheckEmpty:
			if row != 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

func (g graph) transpose() graph {
	t := make(graph, len(g))
	for i, row := range g {
		for row != 0 {
			j := bits.TrailingZeros64(row)
			row &^= 1 << j
			t[j] |= 1 << i
		}
	}
	return t
}

// closure is the transitive closure (Warshall's, by rows).
func (g graph) closure() graph {
	c := append(graph(nil), g...)
	for k := range c {
		for i := range c {
			if c[i]&(1<<k) != 0 {
				c[i] |= c[k]
			}
		}
	}
	return c
}

// ownPrune holds, per feature set, the bounds of each side's flags and
// of its allowing model's axioms.
type ownPrune struct {
	sides []side
	sc    *screen
	mu    sync.Mutex
	cache map[feature][]sidePlan
	// byEmpty holds the plans by the inputs they take empty.
	byEmpty map[string][]sidePlan
	// fired counts, per side and axiom of the allowing model, the
	// choices of reads-from the axiom ruled out; use says which axioms
	// are evaluated: all at first, and from each size on those that
	// ruled some choice out in the sizes before (judge). Leaving an
	// axiom out only prunes less.
	fired [][]atomic.Int64
	use   [][]bool
	// tried and left count the skeletons judged and left out; off is set
	// once the pruning is seen not to pay (judge).
	tried, left atomic.Int64
	off         bool
	// prefixTried counts the location assignments judged, prefixLeft
	// the skeletons left out with theirs (ownprefix.go); prefixOff is
	// set once judging them is seen not to pay (judge).
	prefixTried, prefixLeft atomic.Int64
	prefixOff               bool
}

// ownPruneTrial is how many skeletons the pruning must have judged before
// it judges whether it pays, at the end of each size; it is kept while it
// leaves out at least one in ownPruneKeep of them. Judging a skeleton
// costs up to about half a check of a program (causality-alloy, 4
// instructions: 1.37 s for 3,970 skeletons), and one left out saves the
// checks of its lattice's corners, and the violation screen, at the
// least (three programs a skeleton left out there).
const (
	ownPruneTrial = 96
	ownPruneKeep  = 8
)

// modelPlan is what is derived of one model for one feature set: the
// bounds of the relations some checks read, and the plan of their
// evaluation; ok is false where the bounds could not be solved (nothing
// is pruned).
type modelPlan struct {
	a      *boundAnalysis
	checks []*datalog.Check
	bounds []bound
	// overs are the bounds of the relations the orders order the pairs
	// of, by order.
	overs map[string]bound
	plan  *relPlan
	ok    bool
}

// sidePlan is one side's flags (the other model's own parts) and the
// axioms of the model that allows.
type sidePlan struct {
	flags, allow modelPlan
}

// newOwnPrune prepares the pruning for the violation screen's sides.
func newOwnPrune(v *violationScreen, sc *screen) *ownPrune {
	if v == nil || len(v.sides) == 0 {
		return nil
	}
	op := &ownPrune{sides: v.sides, sc: sc, cache: map[feature][]sidePlan{}, byEmpty: map[string][]sidePlan{}}
	for _, sd := range v.sides {
		n := len(axiomsOf(sd.allow.Syntax))
		op.fired = append(op.fired, make([]atomic.Int64, n))
		use := make([]bool, n)
		for i := range use {
			use[i] = true
		}
		op.use = append(op.use, use)
	}
	return op
}

// axiomsOf lists a model's axioms.
func axiomsOf(m *datalog.Model) []*datalog.Check {
	var out []*datalog.Check
	for _, c := range m.Checks {
		if c.Mode == datalog.ModeAxiom {
			out = append(out, c)
		}
	}
	return out
}

// judge keeps, for the sizes to come, the axioms that ruled some choice
// of reads-from out; the search calls it between sizes, so that which
// skeletons are pruned does not depend on the workers.
func (op *ownPrune) judge() {
	if op == nil {
		return
	}
	if tried := op.tried.Load(); tried >= ownPruneTrial && ownPruneKeep*op.left.Load() < tried {
		op.off = true
	}
	// An assignment judged costs about what a skeleton judged does; it
	// pays where it leaves out more skeletons than it judges
	// assignments.
	if tried := op.prefixTried.Load(); tried >= ownPruneTrial && op.prefixLeft.Load() < tried {
		op.prefixOff = true
	}
	for k := range op.use {
		for i := range op.use[k] {
			op.use[k][i] = op.fired[k][i].Load() > 0
		}
	}
}

// analysis returns the sides' plans for a feature set.
func (op *ownPrune) analysis(fs feature) []sidePlan {
	op.mu.Lock()
	defer op.mu.Unlock()
	if sp, ok := op.cache[fs]; ok {
		return sp
	}
	empty := op.sc.emptyInputs(fs)
	// Feature sets that leave the same inputs empty share their plans.
	var names []string
	for n, e := range empty {
		if e {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	key := strings.Join(names, ",")
	if sp, ok := op.byEmpty[key]; ok {
		op.cache[fs] = sp
		return sp
	}
	var out []sidePlan
	for _, sd := range op.sides {
		axioms := axiomsOf(sd.allow.Syntax)
		out = append(out, sidePlan{flags: planModel(sd.flags.Syntax, sd.flags.Syntax.Checks, empty),
			allow: planModel(sd.allow.Syntax, axioms, empty)})
	}
	op.cache[fs] = out
	op.byEmpty[key] = out
	return out
}

// planModel derives the bounds of the relations of m that checks read.
func planModel(m *datalog.Model, checks []*datalog.Check, empty map[string]bool) modelPlan {
	a := newBoundAnalysis(m, empty)
	mp := modelPlan{a: a, checks: checks}
	var es []datalog.Expr
	for _, c := range checks {
		es = append(es, c.Expr)
	}
	if !a.solve(es) {
		return mp
	}
	for _, c := range checks {
		mp.bounds = append(mp.bounds, a.expr(c.Expr))
	}
	// The spreading on skeletons only reads what is derived here, from
	// several workers at once.
	mp.overs = map[string]bound{}
	for _, o := range m.Orders {
		mp.overs[o.Name] = a.ref(o.Over)
		for _, x := range mp.overs[o.Name].alts {
			for _, k := range x.kinds {
				a.inverse(k)
			}
		}
	}
	for _, b := range mp.bounds {
		for _, x := range b.alts {
			for _, k := range x.kinds {
				a.inverse(k)
			}
		}
	}
	for _, b := range a.bounds {
		for _, x := range b.alts {
			for _, k := range x.kinds {
				a.inverse(k)
			}
		}
	}
	mp.plan = newRelPlan(a, mp.overs, checks)
	mp.ok = true
	return mp
}

// instance spreads the plan's model over nodes.
func (mp *modelPlan) instance(ns []pnode, all uint64, places []program.Place, scopes []program.Scope) *pruneInstance {
	return newPruneInstance(mp.a, mp.overs, ns, all, places, scopes)
}

// newPruneInstance spreads a's model over nodes of a skeleton whose
// threads run at places, under a vocabulary's scopes.
func newPruneInstance(a *boundAnalysis, overs map[string]bound, ns []pnode, all uint64, places []program.Place, scopes []program.Scope) *pruneInstance {
	p := &pruneInstance{a: a, overs: overs, ns: ns, all: all, kinds: map[string]graph{}, places: places}
	p.setProfiles(scopes)
	return p
}

// pruned reports whether no program of the skeleton can separate the
// models: no execution of it that the allowing model may allow can raise
// a flag of the other's own parts, in either direction.
func (op *ownPrune) pruned(sk *skeleton, fs feature) bool {
	if op == nil || op.off {
		return false
	}
	op.tried.Add(1)
	if op.prunes(sk, fs) {
		op.left.Add(1)
		return true
	}
	return false
}

// prunes is pruned's judgement.
func (op *ownPrune) prunes(sk *skeleton, fs feature) bool {
	ns, ok := eventNodes(sk)
	if !ok {
		return false
	}
	return op.prunesNodes(ns, sk.places, fs)
}

// prunesNodes judges a skeleton's nodes, whose threads run at places,
// with the plans of the feature set fs.
func (op *ownPrune) prunesNodes(ns []pnode, places []program.Place, fs feature) bool {
	var all uint64
	if len(ns) == 64 {
		all = ^uint64(0)
	} else {
		all = 1<<len(ns) - 1
	}
	for k, sp := range op.analysis(fs) {
		if !sp.flags.ok || !sp.allow.ok {
			return false
		}
		scopes := op.sc.o.Vocabulary.Scopes
		fi := sp.flags.instance(ns, all, places, scopes)
		may := false
		for i, c := range sp.flags.checks {
			if fi.mayRaise(c.Kind, sp.flags.bounds[i]) {
				may = true
				break
			}
		}
		if may && sideMayRaise(sp, fi, sp.allow.instance(ns, all, places, scopes), op.use[k], op.fired[k]) {
			return false
		}
	}
	return true
}

// profileBudget caps the evaluations a skeleton's judgement may take
// profile by profile (profilesOpen), over all its choices of reads-from;
// beyond it, the choice in hand is kept.
const profileBudget = 128

// maxExtensions caps the linear extensions of the orders a choice of
// reads-from is judged by; beyond it, the choice is kept.
const maxExtensions = 720

// extensionsOpen reports whether open holds for some linear extension of
// the orders both evaluations read (fe and ae, the flags' and the
// allowing model's: the models of a pair have the same orders, chosen
// once for both). Whatever strict partial order the host chooses for an
// order, it relates only nodes its pairs join (transitivity stays within
// the components of its pairs, taken either way), and it has a linear
// extension: on each component, a strict total order that holds it. So
// some combination of strict total orders of the components, one per
// component of each order, holds every order of the execution: it may
// hold only the pairs that combination holds, and, where the order is
// not partial, surely holds each pair of its pairs (one way or the other
// in the execution) in the combination's direction (execEval.ext). An
// execution the allowing model allows that raises a flag is then within
// the graphs of one combination, and open holds there.
func extensionsOpen(fe, ae *execEval, open func() bool) bool {
	type span struct {
		name  string
		nodes []int
	}
	var spans []span
	byName := map[string]graph{}
	var names []string
	for _, x := range []*execEval{fe, ae} {
		for k, o := range x.rp.orders {
			g := x.orderSpan(k)
			if byName[o.Name] == nil {
				byName[o.Name] = make(graph, len(g))
				names = append(names, o.Name)
			}
			for i := range g {
				byName[o.Name][i] |= g[i]
			}
		}
	}
	if len(names) == 0 {
		return true
	}
	total := 1
	for _, name := range names {
		// The two models' spans joined, and closed again: components
		// that share a node are one.
		g := byName[name].closure()
		var done uint64
		for i := range g {
			comp := g[i] | 1<<i
			if done&(1<<i) != 0 || bits.OnesCount64(comp) < 2 {
				continue
			}
			done |= comp
			var nodes []int
			for m := comp; m != 0; m &= m - 1 {
				nodes = append(nodes, bits.TrailingZeros64(m))
			}
			spans = append(spans, span{name, nodes})
			for f := 2; f <= len(nodes); f++ {
				total *= f
				if total > maxExtensions {
					return true
				}
			}
		}
	}
	n := len(fe.ns())
	exts := map[string]graph{}
	for _, name := range names {
		exts[name] = make(graph, n)
	}
	fe.ext, ae.ext = exts, exts
	defer func() { fe.ext, ae.ext = nil, nil }()
	// pick orders the components one after the other: each permutation
	// of a component's nodes is added to its order's graph, tried with
	// the components after it, and taken away.
	var pick func(k int) bool
	pick = func(k int) bool {
		if k == len(spans) {
			return open()
		}
		sp := spans[k]
		g := exts[sp.name]
		found := false
		permute(len(sp.nodes), func(p []int) {
			if found {
				return
			}
			for a := 0; a < len(p); a++ {
				for b := a + 1; b < len(p); b++ {
					g[sp.nodes[p[a]]] |= 1 << sp.nodes[p[b]]
				}
			}
			found = pick(k + 1)
			for _, i := range sp.nodes {
				g[i] &^= comp(sp.nodes)
			}
		})
		return found
	}
	return pick(0)
}

// comp is the node set of nodes.
func comp(nodes []int) uint64 {
	var m uint64
	for _, i := range nodes {
		m |= 1 << i
	}
	return m
}

// sideMayRaise reports whether, for some choice of reads-from, the
// allowing model's axioms may hold and a flag may be raised. The choices
// are searched read by read, each partial choice evaluated with the
// reads-from of the reads not yet chosen between nothing and every write
// they may read: a flag no completion may raise, or an axiom every
// completion surely breaks, closes the branch.
func sideMayRaise(sp sidePlan, fi, ai *pruneInstance, use []bool, fired []atomic.Int64) bool {
	ns := fi.ns
	var reads []int
	var writes [][]int
	total := 1
	for i, r := range ns {
		if !r.r {
			continue
		}
		var ws []int
		for j, w := range ns {
			if w.w && w.loc == r.loc {
				ws = append(ws, j)
			}
		}
		reads = append(reads, i)
		writes = append(writes, ws)
		total *= len(ws)
		if total > maxReadsFrom {
			return true
		}
	}
	fe := newExecEval(sp.flags.plan, fi)
	ae := newExecEval(sp.allow.plan, ai)
	instrs := fi.instrProfiles()
	budget := profileBudget
	defer fe.release()
	defer ae.release()
	over, under := make(graph, len(ns)), make(graph, len(ns))
	for k, r := range reads {
		for _, w := range writes[k] {
			over[w] |= 1 << r
		}
	}
	// open reports whether some completion of the choice so far may
	// separate.
	open := func() bool {

		fe.reset(over, under)
		raised := false
		for i, c := range sp.flags.checks {
			if fe.eval(sp.flags.plan.checks[i]).over.fails(c.Kind) {
				raised = true
				break
			}
		}
		if !raised {
			return false
		}
		ae.reset(over, under)
		for i, c := range sp.allow.checks {
			if use[i] && ae.eval(sp.allow.plan.checks[i]).under.fails(c.Kind) {
				fired[i].Add(1)
				return false
			}
		}

		return true
	}
	var choose func(k int) bool
	choose = func(k int) bool {
		if !open() {
			return false
		}
		if k == len(reads) {
			// Judged first with every profile at once, and only where
			// that keeps the choice, profile by profile.
			return extensionsOpen(fe, ae, open) && (instrs == nil || profilesOpen(fe, ae, instrs, open, &budget))
		}
		r := reads[k]
		for _, w := range writes[k] {
			over[w] &^= 1 << r
		}
		may := false
		for _, w := range writes[k] {
			over[w] |= 1 << r
			under[w] |= 1 << r
			may = choose(k + 1)
			over[w] &^= 1 << r
			under[w] &^= 1 << r
			if may {
				break
			}
		}
		for _, w := range writes[k] {
			over[w] |= 1 << r
		}
		return may
	}
	return choose(0)
}
