package synth

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/program"
)

// Which memory order and scope an instruction takes depends on the point
// of the skeleton's lattice, so each set of orders or scopes (RLX, ACQ,
// ..., CTA, ..., SYS) taken alone surely holds none of its events. But an
// event takes exactly one order and at most one scope at a point: an
// atom is in one of RLX, ACQ, REL and ACQ_REL at every point, so surely
// in their union (it is surely strong), and its scope is one of the
// vocabulary's, so the union of [CTA] ; scta, ..., [GPU] ; sgpu surely
// holds it with every event of its CTA. Each node is therefore given the
// list of its profiles, the (order, scope) pairs its instruction may
// take at some point (dims.go, skeleton.test). A set expression reads
// its nodes one at a time (walkSet spells union, intersection,
// difference and complement, node by node, and anything else as "may
// hold anything, surely nothing"), so it is evaluated once per profile
// index k, each node taking its k-th profile (its last where it has
// fewer; the two events of an atom, one instruction, take the same): at
// the actual point each node takes one of its profiles, and what the
// evaluation at that index says of that node holds there. A set may then
// hold what some index says it may, and surely holds what every index
// says it surely holds; a union of relations guarded by sets
// (execEval.guarded) surely holds, from a node, what every index's
// guards let through.

// profile is an (order, scope) pair an instruction may take.
type profile struct {
	sem   program.Sem
	scope program.Scope
}

// profiles lists the orders and scopes a node's instruction may take, as
// skeleton.dims offers them and skeleton.test completes them: a weak
// access has no scope, a strong operation one of the vocabulary's. An
// initial write and an alias fence take neither (their one profile is
// in no set of orders or scopes).
func profiles(n pnode, scopes []program.Scope) []profile {
	var sems []program.Sem
	switch {
	case n.iw:
	case n.kind == program.Load:
		sems = []program.Sem{program.Weak, program.Relaxed, program.Acquire}
	case n.kind == program.Store:
		sems = []program.Sem{program.Weak, program.Relaxed, program.Release}
	case n.kind == program.RMW:
		sems = []program.Sem{program.Relaxed, program.Acquire, program.Release, program.AcqRel}
	case n.kind == program.Fence && n.fence == program.Weak:
		sems = []program.Sem{program.AcqRel, program.SC}
	case n.kind == program.Fence:
		sems = []program.Sem{n.fence}
	}
	if len(sems) == 0 {
		return []profile{{sem: program.Weak, scope: program.NoScope}}
	}
	var out []profile
	for _, s := range sems {
		if s == program.Weak {
			out = append(out, profile{sem: s, scope: program.NoScope})
			continue
		}
		for _, sc := range scopes {
			out = append(out, profile{sem: s, scope: sc})
		}
	}
	return out
}

// attribute reports whether a set names memory orders or scopes, and
// whether the profile is in it.
func (q profile) attribute(name string) (in, ok bool) {
	switch name {
	case "RLX":
		return q.sem == program.Relaxed, true
	case "ACQ":
		return q.sem == program.Acquire, true
	case "REL":
		return q.sem == program.Release, true
	case "ACQ_REL":
		return q.sem == program.AcqRel, true
	case "SC":
		return q.sem == program.SC, true
	case "CTA":
		return q.scope == program.CTA, true
	case "CLUSTER":
		return q.scope == program.Cluster, true
	case "GPU":
		return q.scope == program.GPU, true
	case "SYS":
		return q.scope == program.Sys, true
	}
	return false, false
}

// at is node i's profile at index k.
func (p *pruneInstance) at(i, k int) profile {
	ps := p.prof[i]
	if k >= len(ps) {
		k = len(ps) - 1
	}
	return ps[k]
}

// attributeSetAt is a set of orders or scopes at profile index k: exact,
// each node taking its k-th profile.
func (p *pruneInstance) attributeSetAt(name string, k int) (nodeSets, bool) {
	if _, ok := (profile{}).attribute(name); !ok {
		return nodeSets{}, false
	}
	if p.a.empty[name] {
		return nodeSets{}, true
	}
	var m uint64
	for i := range p.ns {
		if in, _ := p.at(i, k).attribute(name); in {
			m |= 1 << i
		}
	}
	return nodeSets{over: m, under: m}, true
}

// setsAt spreads a set expression at each profile index; one that reads
// no set of orders or scopes (dep false) is the same at every index, and
// spread once.
func (p *pruneInstance) setsAt(e datalog.Expr, dep bool) []nodeSets {
	n := p.nprof
	if !dep {
		n = 1
	}
	out := make([]nodeSets, n)
	for k := range out {
		p.curK = k
		out[k] = walkSet(p.a.m, p.memo[k], p.ops, e)
	}
	return out
}

// atIndex is a set's spreading at profile index k (setsAt).
func atIndex(at []nodeSets, k int) nodeSets {
	if k >= len(at) {
		return at[0]
	}
	return at[k]
}

// readsAttributes reports whether a set expression reads a set of orders
// or scopes, through any chain of definitions.
func readsAttributes(m *datalog.Model, e datalog.Expr, seen map[string]bool) bool {
	switch x := e.(type) {
	case *datalog.RelRef:
		if _, ok := (profile{}).attribute(x.Name); ok {
			return true
		}
		r := m.Relations[x.Name]
		if seen[x.Name] || r == nil || r.Def == nil {
			return false
		}
		seen[x.Name] = true
		return readsAttributes(m, r.Def.Expr, seen)
	case *datalog.Binary:
		return readsAttributes(m, x.L, seen) || readsAttributes(m, x.R, seen)
	case *datalog.Unary:
		return readsAttributes(m, x.X, seen)
	}
	return false
}

// join is what a set may and surely holds over every profile index.
func (p *pruneInstance) join(at []nodeSets) nodeSets {
	s := nodeSets{under: p.all}
	for _, x := range at {
		s.over |= x.over
		s.under &= x.under
	}
	return s
}

// setProfiles gives each node its profiles and prepares the evaluation
// of sets per profile index.
func (p *pruneInstance) setProfiles(scopes []program.Scope) {
	p.prof = make([][]profile, len(p.ns))
	p.nprof = 1
	for i, n := range p.ns {
		p.prof[i] = profiles(n, scopes)
		p.nprof = max(p.nprof, len(p.prof[i]))
	}
	p.memo = make([]map[string]nodeSets, p.nprof)
	for k := range p.memo {
		p.memo[k] = make(map[string]nodeSets, 32)
	}
	ops := &setOps[nodeSets]{
		top:  nodeSets{over: p.all},
		univ: nodeSets{over: p.all, under: p.all},
		input: func(name string) nodeSets {
			if s, ok := p.attributeSetAt(name, p.curK); ok {
				return s
			}
			return p.inputSet(name)
		},
		union: func(l, r nodeSets) nodeSets { return nodeSets{over: l.over | r.over, under: l.under | r.under} },
		inter: func(l, r nodeSets) nodeSets { return nodeSets{over: l.over & r.over, under: l.under & r.under} },
		diff:  func(l, r nodeSets) nodeSets { return nodeSets{over: l.over &^ r.under, under: l.under &^ r.over} },
	}
	ops.unary = func(x *datalog.Unary) (nodeSets, bool) {
		if x.Op != datalog.OpCompl {
			return nodeSets{}, false
		}
		s := walkSet(p.a.m, p.memo[p.curK], ops, x.X)
		return nodeSets{over: p.all &^ s.under, under: p.all &^ s.over}, true
	}
	p.ops = ops
}

// placeOf is where a thread runs: skeleton.test's place.
func placeOf(places []program.Place, t int) program.Place {
	if places == nil {
		return program.Place{CTA: t, Cluster: -1}
	}
	return places[t]
}

// placeUnder is the pairs of threads' events that scta, sclu and sgpu
// surely hold: events of threads placed alike (the same CTA, cluster and
// GPU), and for sgpu of threads on one GPU. Initial writes belong to no
// thread, and to no CTA, cluster or GPU.
func (p *pruneInstance) placeUnder(name string) graph {
	g := make(graph, len(p.ns))
	for i, a := range p.ns {
		for j, b := range p.ns {
			if a.thread < 0 || b.thread < 0 {
				continue
			}
			pa, pb := placeOf(p.places, a.thread), placeOf(p.places, b.thread)
			if pa == pb || (name == "sgpu" && pa.GPU == pb.GPU) {
				g[i] |= 1 << j
			}
		}
	}
	return g
}

// instrProfiles lists, per instruction with more than one profile, its
// nodes (an atom's two), each node's profiles the same list.
func (p *pruneInstance) instrProfiles() [][]int {
	var out [][]int
	for i, n := range p.ns {
		if len(p.prof[i]) < 2 {
			continue
		}
		if k := len(out); k > 0 {
			if m := p.ns[out[k-1][0]]; m.thread == n.thread && m.slot == n.slot {
				out[k-1] = append(out[k-1], i)
				continue
			}
		}
		out = append(out, []int{i})
	}
	return out
}

// fixProfile gives an instruction's nodes their q-th profile only, and
// returns what restores them; what was spread from the profiles before
// is forgotten.
func (p *pruneInstance) fixProfile(nodes []int, q int) func() {
	saved := make([][]profile, len(nodes))
	for j, i := range nodes {
		saved[j] = p.prof[i]
		p.prof[i] = p.prof[i][q : q+1]
	}
	p.forgetProfiles()
	return func() {
		for j, i := range nodes {
			p.prof[i] = saved[j]
		}
		p.forgetProfiles()
	}
}

// forgetProfiles drops what was spread from the nodes' profiles: the
// named sets and the kinds (products of sets, and orders over them).
func (p *pruneInstance) forgetProfiles() {
	p.nprof = 1
	for i := range p.ns {
		p.nprof = max(p.nprof, len(p.prof[i]))
	}
	for k := range p.memo {
		clear(p.memo[k])
	}
	clear(p.kinds)
}

// profilesOpen reports whether open holds for some choice of a profile
// for each instruction (the point's order and scope), both models'
// evaluations taking the same (they read one program at one point):
// instructions are fixed one after the other, and a partial choice
// under which open fails (no completion can separate) closes its
// branch. Sound as the profile indices are: at the actual point each
// instruction takes one of its profiles, and the evaluations with it
// fixed hold there.
//
// budget counts down the evaluations the branching may still take (an
// extension is one); once spent, the choice is kept (keeping is always
// sound), so that a skeleton's judgement stays within a bounded cost,
// the same on every run.
func profilesOpen(fe, ae *execEval, instrs [][]int, open func() bool, budget *int) bool {
	if *budget <= 0 {
		return true
	}
	if len(instrs) == 0 {
		return extensionsOpen(fe, ae, func() bool { *budget--; return open() })
	}
	nodes := instrs[0]
	for q := range fe.p.prof[nodes[0]] {
		*budget--
		rf, ra := fe.p.fixProfile(nodes, q), ae.p.fixProfile(nodes, q)
		fe.forget()
		ae.forget()
		found := open() && profilesOpen(fe, ae, instrs[1:], open, budget)
		rf()
		ra()
		fe.forget()
		ae.forget()
		if found {
			return true
		}
	}
	return false
}
