package rules

import "github.com/ptxmm/ptxmm/relations"

// Flat rules. On a small domain a rule's algebra plan costs more to walk
// (a call per node, scratch relations taken from the pool and given back,
// values owned or borrowed, row views looked up) than its bit-matrix
// operations cost to make: a test of a handful of events spends most of
// an evaluation of spec.dl so. Each rule evaluated over whole relations
// (not a semi-naive delta) is compiled once per instance into a flat list
// of the operations of its plan with their operands resolved (the form
// RuleTrace.ReplayOps runs), which later evaluations run in a loop. A
// guard is an operation that jumps over the operations of its guarded
// operand when its condition is empty.
//
// The scratch relations of the operations are shared by every rule (the
// k-th set of one rule is the k-th of every other): one rule is evaluated
// at a time. Large domains, where the evaluator's row lists and sparse
// values pay, provenance and traces keep the plan walk.

// flatMaxAtoms is the largest domain rules are compiled flat on: up to it a
// row of a relation is one word.
const flatMaxAtoms = 64

// flatRule is one rule's plan as a flat list of operations, and where its
// result is.
type flatRule struct {
	ops []replayOp
	set *relations.Set
	rel *relations.Rel
}

// flatRules is an instance's flat rules, built on first use: rules[s][k] is
// rule k of stratum s, and sets and rels the shared scratch.
type flatRules struct {
	rules [][]*flatRule
	sets  []*relations.Set
	rels  []*relations.Rel
}

// flatOn reports whether rule rp of a stratum is evaluated flat, when it
// reads no delta.
func (in *Instance) flatOn(rp *rulePlan) bool {
	return rp.join == nil && in.n <= flatMaxAtoms && !in.prov.recording && in.trace == nil
}

// evalRuleFull evaluates rule k of stratum s over whole relations and adds
// its tuples to dst: flat where it can (flatOn), through evalRuleInto
// otherwise.
func (in *Instance) evalRuleFull(s *stratum, k int, dst store) {
	rp := s.rules[k]
	if !in.flatOn(rp) {
		in.evalRuleInto(rp, -1, dst)
		return
	}
	if len(rp.recOccs) == 0 {
		// Every positive atom reads an earlier stratum or an input.
		if in.starterStarved(rp) {
			return
		}
	} else {
		for _, r := range rp.positive {
			if in.emptyRel(r) {
				return
			}
		}
	}
	in.runFlat(s, k, rp, &dst, false)
}

// runFlatStratum evaluates the rules of non-recursive stratum s (or of a
// recursive one whose recursion is idle) over whole relations, flat,
// into the stratum's stores: evalRuleFull for each rule, with the
// starvation test of the rules that start the stratum made here, which
// spares a call for each of the many rules starved on a small test.
func (in *Instance) runFlatStratum(s *stratum) {
	for k, rp := range s.rules {
		if rp.join == nil && len(rp.recOccs) == 0 {
			if !in.starterStarved(rp) {
				in.runFlat(s, k, rp, &in.stores[rp.head], false)
			}
			continue
		}
		in.evalRuleFull(s, k, in.stores[rp.head])
	}
}

// runFlat evaluates rule k of stratum s, rp, flat, adding its tuples to
// dst; evalRuleFull has found that it may derive something. fresh says
// that dst holds no tuple (runDirtyFlat's first rule of a stratum of one
// relation): the tuples are copied rather than added, a copy of the words
// where the union tests each, which was a tenth of a small test's
// evaluation.
func (in *Instance) runFlat(s *stratum, k int, rp *rulePlan, dst *store, fresh bool) {
	fr := in.evalFlat(s, k)
	switch {
	case fr.set != nil && fresh:
		dst.set.CopyFrom(fr.set)
	case fr.set != nil:
		dst.set.UnionWith(fr.set)
	case dst.track != nil:
		// The next relation of a recursive stratum, whose rows are listed.
		in.unionRows(in.storeRows(rp.head, *dst), value{rel: fr.rel}, dst.track)
	case fresh:
		dst.rel.CopyFrom(fr.rel)
	default:
		dst.rel.UnionWith(fr.rel)
	}
}

// evalFlat evaluates rule k of stratum s flat, into the compiled rule's
// set or rel, which it returns.
func (in *Instance) evalFlat(s *stratum, k int) *flatRule {
	fr := in.flatRule(s, k)
	ops := fr.ops
	for i := 0; i < len(ops); i++ {
		op := &ops[i]
		op.run(in)
		if op.kind == nGuard && op.empty {
			if op.dset != nil {
				op.dset.Clear()
			} else {
				op.drel.Clear()
			}
			i += op.skip
		}
	}
	return fr
}

// flatRule returns rule k of stratum s compiled flat.
func (in *Instance) flatRule(s *stratum, k int) *flatRule {
	if f := in.flat.rules; f != nil {
		if fr := f[s.index][k]; fr != nil {
			return fr
		}
	}
	return in.compileFlat(s, k)
}

// compileFlat compiles rule k of stratum s flat and keeps it. The first
// call makes room for every rule of every stratum, in one array.
func (in *Instance) compileFlat(s *stratum, k int) *flatRule {
	f := &in.flat
	if f.rules == nil {
		total := 0
		for _, t := range in.p.strata {
			total += len(t.rules)
		}
		all := make([]*flatRule, total)
		f.rules = make([][]*flatRule, len(in.p.strata))
		for i, t := range in.p.strata {
			f.rules[i], all = all[:len(t.rules):len(t.rules)], all[len(t.rules):]
		}
	}
	rp := s.rules[k]
	c := flatCompiler{in: in, rp: rp}
	v := c.node(rp.alg)
	fr := &flatRule{ops: c.ops, set: v.set, rel: v.rel}
	f.rules[s.index][k] = fr
	return fr
}

// flatCompiler builds one rule's flat operations; sets and rels count the
// scratch relations taken so far.
type flatCompiler struct {
	in         *Instance
	rp         *rulePlan
	ops        []replayOp
	sets, rels int
}

// scratch returns the next scratch value for plan node n.
func (c *flatCompiler) scratch(n *node) value {
	f := &c.in.flat
	if n.arity == 1 {
		if c.sets == len(f.sets) {
			c.in.growScratch(setBytes(c.in.n))
			f.sets = append(f.sets, relations.NewSet(c.in.n))
		}
		c.sets++
		return value{set: f.sets[c.sets-1]}
	}
	if c.rels == len(f.rels) {
		c.in.growScratch(relBytes(c.in.n))
		f.rels = append(f.rels, relations.NewRel(c.in.n))
	}
	c.rels++
	return value{rel: f.rels[c.rels-1]}
}

// node adds the operations computing plan node n and returns where its
// value is: a stored relation for a leaf, a scratch relation otherwise.
func (c *flatCompiler) node(n *node) value {
	in := c.in
	switch n.kind {
	case nLeaf:
		st := in.stores[n.rel]
		return value{set: st.set, rel: st.rel}
	case nUniverse:
		return value{set: in.stores[in.universe].set}
	case nGuard:
		g := c.node(n.b)
		d := c.scratch(n)
		at := len(c.ops)
		c.ops = append(c.ops, replayOp{kind: nGuard, aset: g.set, arel: g.rel, dset: d.set, drel: d.rel})
		a := c.node(n.a)
		c.ops = append(c.ops, replayOp{kind: opCopy, dset: d.set, drel: d.rel, aset: a.set, arel: a.rel})
		c.ops[at].skip = len(c.ops) - at - 1
		return d
	}
	op := replayOp{kind: n.kind}
	if n.kind == nConst {
		op.konst = in.ruleConsts[c.rp][n.konst]
	}
	if n.a != nil {
		a := c.node(n.a)
		op.aset, op.arel = a.set, a.rel
	}
	if n.b != nil {
		b := c.node(n.b)
		op.bset, op.brel = b.set, b.rel
	}
	if n.kind == nRestrict {
		if n.dom != nil {
			op.bset = c.node(n.dom).set
		}
		if n.rng != nil {
			op.rset = c.node(n.rng).set
		}
	}
	d := c.scratch(n)
	op.dset, op.drel = d.set, d.rel
	c.ops = append(c.ops, op)
	return d
}
