package rules

import "github.com/ptxmm/ptxmm/relations"

// RuleTrace records the relational work of an evaluation: each rule whose
// plan it evaluated (with the body atom that read a delta, for semi-naive
// rounds; rules skipped for an empty body relation are left out) and each
// closure it took, in order. Replaying it repeats that work and none of
// the bookkeeping around it (which strata are dirty, which derive
// nothing, which came out unchanged, the order search): the benchmarks
// compare an evaluation with its replays to tell what the bookkeeping
// costs (BenchmarkEvaluate).
type RuleTrace struct {
	in    *Instance
	steps []traceStep
	// scratch receives what replayed rules derive, one store per arity,
	// so that replaying leaves the instance's relations as they are;
	// opVals holds the value of each plan node ReplayOps computes.
	scratch map[int]store
	opVals  map[*node]value
	closed  map[*closurePlan]*relations.Rel
	ops     int
}

// traceStep is one rule evaluated (rp, reading the delta of the atom at
// deltaOcc, -1 for none) or one closure stratum computed.
type traceStep struct {
	rp       *rulePlan
	deltaOcc int
	closure  *closurePlan
}

// TraceRules runs f, recording the rules the instance evaluates meanwhile.
func (in *Instance) TraceRules(f func()) *RuleTrace {
	t := &RuleTrace{in: in, scratch: map[int]store{}, opVals: map[*node]value{}, closed: map[*closurePlan]*relations.Rel{}}
	saved := in.trace
	in.trace = t
	defer func() { in.trace = saved }()
	f()
	return t
}

// Rules returns how many rule evaluations and closures the trace holds.
func (t *RuleTrace) Rules() int { return len(t.steps) }

// Ops returns how many relation operations the last ReplayOps made.
func (t *RuleTrace) Ops() int { return t.ops }

// Replay evaluates the recorded rules' plans again, in order, through the
// evaluator, over the relations as they are now; what they derive goes to
// scratch relations. A closure stratum is computed again in place, which
// leaves it as it was when it is up to date.
func (t *RuleTrace) Replay() {
	in := t.in
	for _, st := range t.steps {
		if st.closure != nil {
			in.cur = in.p.rels[st.closure.rel].stratum
			in.runClosure(st.closure)
			continue
		}
		in.cur = in.p.rels[st.rp.head].stratum
		in.evalRuleInto(st.rp, st.deltaOcc, t.scratchStore(in.p.rels[st.rp.head].arity))
	}
}

func (t *RuleTrace) scratchStore(arity int) store {
	dst, ok := t.scratch[arity]
	if !ok {
		dst = newStore(arity, t.in.n)
		t.scratch[arity] = dst
	}
	return dst
}

// ReplayOps repeats the recorded work as bare operations of package
// relations: each plan node of each recorded rule computed from its
// operands into a relation of its own (a copy and an in-place operation
// where relations has no three-operand form), the union of each rule's
// result into its head, and each closure; a rule that is a join (not an
// algebra plan) is evaluated by the evaluator. It is the cost of the
// evaluation's bit-matrix operations, with no evaluator around them.
func (t *RuleTrace) ReplayOps() {
	in := t.in
	t.ops = 0
	for _, st := range t.steps {
		if st.closure != nil {
			c := t.closed[st.closure]
			if c == nil {
				c = relations.NewRel(in.n)
				t.closed[st.closure] = c
			}
			c.CopyFrom(in.stores[st.closure.rel].rel)
			c.TransitiveClosure()
			t.ops++
			continue
		}
		rp := st.rp
		dst := t.scratchStore(in.p.rels[rp.head].arity)
		in.cur = in.p.rels[rp.head].stratum
		if rp.join != nil {
			in.evalJoin(rp, st.deltaOcc, dst)
			t.ops++
			continue
		}
		v := t.op(rp.alg, rp, st.deltaOcc)
		if v.set != nil {
			dst.set.UnionWith(v.set)
		} else {
			dst.rel.UnionWith(v.rel)
		}
		t.ops++
	}
}

// val returns the scratch value of plan node n, allocated on first use.
func (t *RuleTrace) val(n *node) value {
	v, ok := t.opVals[n]
	if !ok {
		if n.arity == 1 {
			v = value{set: relations.NewSet(t.in.n)}
		} else {
			v = value{rel: relations.NewRel(t.in.n)}
		}
		t.opVals[n] = v
	}
	return v
}

// op computes plan node n with operations of package relations.
func (t *RuleTrace) op(n *node, rp *rulePlan, deltaOcc int) value {
	in := t.in
	switch n.kind {
	case nLeaf:
		st := in.stores[n.rel]
		if n.occ == deltaOcc {
			st = in.deltaStore(n.rel)
		}
		return value{set: st.set, rel: st.rel}
	case nUniverse:
		return value{set: in.stores[in.universe].set}
	}
	t.ops++
	d := t.val(n)
	switch n.kind {
	case nConst:
		d.set.Clear()
		d.set.Add(in.ruleConsts[rp][n.konst])
	case nGuard:
		g := t.op(n.b, rp, deltaOcc)
		if (g.set != nil && g.set.IsEmpty()) || (g.rel != nil && g.rel.IsEmpty()) {
			if d.set != nil {
				d.set.Clear()
			} else {
				d.rel.Clear()
			}
			return d
		}
		return t.op(n.a, rp, deltaOcc)
	case nCompose:
		relations.ComposeInto(d.rel, t.op(n.a, rp, deltaOcc).rel, t.op(n.b, rp, deltaOcc).rel)
	case nInter, nUnion, nDiff:
		a, b := t.op(n.a, rp, deltaOcc), t.op(n.b, rp, deltaOcc)
		if d.set != nil {
			d.set.CopyFrom(a.set)
			setOp(n.kind, d.set, b.set)
		} else {
			d.rel.CopyFrom(a.rel)
			relOp(n.kind, d.rel, b.rel)
		}
	case nInverse:
		relations.InverseInto(d.rel, t.op(n.a, rp, deltaOcc).rel)
	case nRestrict:
		d.rel.CopyFrom(t.op(n.a, rp, deltaOcc).rel)
		if n.dom != nil {
			d.rel.RestrictDomain(t.op(n.dom, rp, deltaOcc).set)
		}
		if n.rng != nil {
			d.rel.RestrictRange(t.op(n.rng, rp, deltaOcc).set)
		}
	case nIdent, nProduct:
		a := t.op(n.a, rp, deltaOcc).set
		var b *relations.Set
		if n.kind == nProduct {
			b = t.op(n.b, rp, deltaOcc).set
		}
		d.rel.Clear()
		for i := range a.All() {
			if b == nil {
				d.rel.Add(i, i)
			} else {
				copy(rowWords(d.rel, i), b.Bits().Words())
			}
		}
	case nDomain:
		t.op(n.a, rp, deltaOcc).rel.DomainInto(d.set)
	case nRange:
		t.op(n.a, rp, deltaOcc).rel.RangeInto(d.set)
	case nPreimage:
		a, b := t.op(n.a, rp, deltaOcc).rel, t.op(n.b, rp, deltaOcc).set
		d.set.Clear()
		for i := range in.n {
			if a.Row(i).IntersectionCardinality(b.Bits()) > 0 {
				d.set.Add(i)
			}
		}
	case nImage:
		relations.ImageInto(d.set, t.op(n.b, rp, deltaOcc).set, t.op(n.a, rp, deltaOcc).rel)
	case nDropDiag, nKeepDiag, nDiagSet:
		a := t.op(n.a, rp, deltaOcc).rel
		if n.kind == nDiagSet {
			d.set.Clear()
		} else {
			d.rel.CopyFrom(a)
		}
		for i := range in.n {
			switch {
			case n.kind == nDiagSet:
				if a.Has(i, i) {
					d.set.Add(i)
				}
			case n.kind == nDropDiag:
				d.rel.Remove(i, i)
			default:
				keep := a.Has(i, i)
				clear(rowWords(d.rel, i))
				if keep {
					d.rel.Add(i, i)
				}
			}
		}
	}
	return d
}

func setOp(kind nodeKind, a, b *relations.Set) {
	switch kind {
	case nInter:
		a.IntersectWith(b)
	case nUnion:
		a.UnionWith(b)
	default:
		a.DifferenceWith(b)
	}
}

func relOp(kind nodeKind, a, b *relations.Rel) {
	switch kind {
	case nInter:
		a.IntersectWith(b)
	case nUnion:
		a.UnionWith(b)
	default:
		a.DifferenceWith(b)
	}
}

// traceRule records a rule evaluation when a trace is on.
func (in *Instance) traceRule(rp *rulePlan, deltaOcc int) {
	in.trace.steps = append(in.trace.steps, traceStep{rp: rp, deltaOcc: deltaOcc})
}

// traceClosure records a closure stratum when a trace is on.
func (in *Instance) traceClosure(cp *closurePlan) {
	in.trace.steps = append(in.trace.steps, traceStep{closure: cp})
}
