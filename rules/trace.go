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
	// closed holds each closure stratum's replayed closure; prog is the
	// compiled form ReplayOps runs.
	scratch map[int]store
	closed  map[*closurePlan]*relations.Rel
	prog    []replayOp
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
	t := &RuleTrace{in: in, scratch: map[int]store{}, closed: map[*closurePlan]*relations.Rel{}}
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
// result into its head, and each closure as the evaluator computes it
// (its base rules' plans, then the closure); a rule that is a join (not
// an algebra plan) is evaluated by the evaluator. It is the cost of the
// evaluation's bit-matrix operations, with no evaluator around them: the
// first call compiles the trace into a flat list of operations whose
// operands are resolved (replayOp), which later calls run in a loop.
func (t *RuleTrace) ReplayOps() {
	if t.prog == nil {
		t.compileOps()
		return
	}
	for i := range t.prog {
		t.prog[i].run(t.in)
	}
}

// compileOps builds t.prog from the recorded steps, running each operation
// as it is added: a guard's test then sees its operand, and the branch it
// takes (which the replays repeat, on the same relations) is known.
func (t *RuleTrace) compileOps() {
	in := t.in
	t.prog = []replayOp{}
	for _, st := range t.steps {
		if cp := st.closure; cp != nil {
			c := t.closed[cp]
			if c == nil {
				c = relations.NewRel(in.n)
				t.closed[cp] = c
			}
			in.cur = in.p.rels[cp.rel].stratum
			t.emit(replayOp{kind: opClear, drel: c})
			for _, rp := range cp.base {
				t.emitRule(rp, -1, store{arity: 2, rel: c})
			}
			step := relations.NewRel(in.n)
			if cp.dir != closureDouble {
				t.emit(replayOp{kind: opClear, drel: step})
				for _, s := range cp.steps {
					t.emit(replayOp{kind: nUnion, drel: step, arel: step, brel: in.stores[s].rel})
				}
			}
			t.emit(replayOp{kind: opClosure, drel: c, arel: step, dir: cp.dir, tmp: relations.NewRel(in.n)})
			continue
		}
		rp := st.rp
		in.cur = in.p.rels[rp.head].stratum
		t.emitRule(rp, st.deltaOcc, t.scratchStore(in.p.rels[rp.head].arity))
	}
	t.ops = len(t.prog)
}

// emitRule adds the operations of one rule evaluation whose result goes to
// dst.
func (t *RuleTrace) emitRule(rp *rulePlan, deltaOcc int, dst store) {
	if rp.join != nil {
		t.emit(replayOp{kind: opJoin, rp: rp, deltaOcc: deltaOcc, dst: dst, stratum: t.in.cur})
		return
	}
	v := t.compile(rp.alg, rp, deltaOcc)
	if v.set != nil {
		t.emit(replayOp{kind: nUnion, dset: dst.set, aset: dst.set, bset: v.set})
	} else {
		t.emit(replayOp{kind: nUnion, drel: dst.rel, arel: dst.rel, brel: v.rel})
	}
}

// emit appends op to the program and runs it.
func (t *RuleTrace) emit(op replayOp) {
	t.prog = append(t.prog, op)
	t.prog[len(t.prog)-1].run(t.in)
}

// val returns a new scratch value for plan node n.
func (t *RuleTrace) val(n *node) value {
	if n.arity == 1 {
		return value{set: relations.NewSet(t.in.n)}
	}
	return value{rel: relations.NewRel(t.in.n)}
}

// compile adds the operations computing plan node n and returns where its
// value is.
func (t *RuleTrace) compile(n *node, rp *rulePlan, deltaOcc int) value {
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
	case nGuard:
		g := t.compile(n.b, rp, deltaOcc)
		t.emit(replayOp{kind: nGuard, aset: g.set, arel: g.rel})
		if !t.prog[len(t.prog)-1].empty {
			return t.compile(n.a, rp, deltaOcc)
		}
		d := t.val(n)
		t.emit(replayOp{kind: opClear, dset: d.set, drel: d.rel})
		return d
	}
	op := replayOp{kind: n.kind}
	if n.kind == nConst {
		op.konst = in.ruleConsts[rp][n.konst]
	}
	if n.a != nil {
		a := t.compile(n.a, rp, deltaOcc)
		op.aset, op.arel = a.set, a.rel
	}
	if n.b != nil {
		b := t.compile(n.b, rp, deltaOcc)
		op.bset, op.brel = b.set, b.rel
	}
	if n.kind == nRestrict {
		if n.dom != nil {
			op.bset = t.compile(n.dom, rp, deltaOcc).set
		}
		if n.rng != nil {
			op.rset = t.compile(n.rng, rp, deltaOcc).set
		}
	}
	d := t.val(n)
	op.dset, op.drel = d.set, d.rel
	t.emit(op)
	return d
}

// Replay operations beyond the plan's node kinds.
const (
	opClear   nodeKind = iota + 100 // empty the destination
	opJoin                          // a join rule, through the evaluator
	opClosure                       // a closure stratum's closure
	opCopy                          // the destination becomes a copy of the operand (flat.go)
)

// replayOp is one operation of a compiled trace: a plan node's kind (or
// one of the op kinds above), its destination and its operands.
type replayOp struct {
	kind             nodeKind
	dset, aset, bset *relations.Set
	rset             *relations.Set // nRestrict's range
	drel, arel, brel *relations.Rel
	tmp              *relations.Rel // opClosure's scratch
	konst            int
	dir              closureDir
	empty            bool // what nGuard found
	// skip is how many operations a flat rule's guard jumps over when its
	// condition is empty (flat.go).
	skip int

	// opJoin's rule, delta occurrence, destination and stratum.
	rp       *rulePlan
	deltaOcc int
	dst      store
	stratum  int
}

// run makes the operation. A guard only tests its operand: the compiled
// program holds the branch it took (compile).
func (op *replayOp) run(in *Instance) {
	d := op.drel
	switch op.kind {
	case opClear:
		if op.dset != nil {
			op.dset.Clear()
		} else {
			d.Clear()
		}
	case opJoin:
		in.cur = op.stratum
		in.evalJoin(op.rp, op.deltaOcc, op.dst)
	case opClosure:
		switch op.dir {
		case closureDouble:
			d.TransitiveClosure()
		case closureLeft:
			d.ReachCompose(op.arel)
		default:
			op.arel.TransitiveClosure()
			relations.ComposeInto(op.tmp, d, op.arel)
			d.UnionWith(op.tmp)
		}
	case nGuard:
		op.empty = (op.aset != nil && op.aset.IsEmpty()) || (op.arel != nil && op.arel.IsEmpty())
	case opCopy:
		if op.dset != nil {
			op.dset.CopyFrom(op.aset)
		} else {
			d.CopyFrom(op.arel)
		}
	case nConst:
		op.dset.Clear()
		op.dset.Add(op.konst)
	case nCompose:
		relations.ComposeInto(d, op.arel, op.brel)
	case nInter, nUnion, nDiff:
		if op.dset != nil {
			if op.dset != op.aset {
				op.dset.CopyFrom(op.aset)
			}
			setOp(op.kind, op.dset, op.bset)
		} else {
			if d != op.arel {
				d.CopyFrom(op.arel)
			}
			relOp(op.kind, d, op.brel)
		}
	case nInverse:
		relations.InverseInto(d, op.arel)
	case nRestrict:
		d.CopyFrom(op.arel)
		if op.bset != nil {
			d.RestrictDomain(op.bset)
		}
		if op.rset != nil {
			d.RestrictRange(op.rset)
		}
	case nIdent, nProduct:
		d.Clear()
		for i := range op.aset.All() {
			if op.kind == nIdent {
				d.Add(i, i)
			} else {
				copy(rowWords(d, i), op.bset.Bits().Words())
			}
		}
	case nDomain:
		op.arel.DomainInto(op.dset)
	case nRange:
		op.arel.RangeInto(op.dset)
	case nPreimage:
		op.dset.Clear()
		for i := range in.n {
			if op.arel.Row(i).IntersectionCardinality(op.bset.Bits()) > 0 {
				op.dset.Add(i)
			}
		}
	case nImage:
		relations.ImageInto(op.dset, op.bset, op.arel)
	case nDropDiag, nKeepDiag, nDiagSet:
		a := op.arel
		if op.kind == nDiagSet {
			op.dset.Clear()
		} else {
			d.CopyFrom(a)
		}
		for i := range in.n {
			switch {
			case op.kind == nDiagSet:
				if a.Has(i, i) {
					op.dset.Add(i)
				}
			case op.kind == nDropDiag:
				d.Remove(i, i)
			default:
				keep := a.Has(i, i)
				clear(rowWords(d, i))
				if keep {
					d.Add(i, i)
				}
			}
		}
	}
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
