package litmus

// This file parses the multimem instructions (PTX ISA 9.7.9.14,
// "multimem.ld_reduce, multimem.st, multimem.red"; docs/model.md,
// "Multimem addresses"):
//
//	multimem.ld_reduce{.weak|.relaxed|.acquire}{.SCOPE}{.global}.OP{.TYPE} d, [a]
//	multimem.st{.weak|.relaxed|.release}{.SCOPE}{.global}{.TYPE} [a], b
//	multimem.red{.relaxed|.release}{.SCOPE}{.global}.OP{.TYPE} [a], b

// multimemForms lists the multimem instructions for diagnostics.
const multimemForms = "multimem.ld_reduce, multimem.st or multimem.red"

// multimemOps are the integer reductions of multimem.ld_reduce and
// multimem.red.
var multimemOps = []string{"min", "max", "add", "and", "or", "xor"}

// parseMultimem parses a multimem instruction into a load, store or red
// marked Multimem.
func (p *parser) parseMultimem(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) == 0 {
		p.errorf(m.off, "multimem needs an operation: expected %s", multimemForms)
		return false
	}
	opQ := m.qs[0]
	mn := "multimem." + opQ.name
	spec := qualSpec{mn: mn, scopes: []Scope{ScopeCTA, ScopeCluster, ScopeGPU, ScopeSys}, spaces: []SpaceQual{SpaceQGlobal}, types: true}
	sem := SemWeak
	switch opQ.name {
	case "ld_reduce":
		in.Op = OpLoad
		spec.sems, spec.flags = []Sem{SemWeak, SemRelaxed, SemAcquire}, multimemOps
	case "st":
		in.Op = OpStore
		spec.sems = []Sem{SemWeak, SemRelaxed, SemRelease}
	case "red":
		in.Op, sem = OpRed, SemRelaxed
		spec.sems, spec.flags = []Sem{SemRelaxed, SemRelease}, multimemOps
	default:
		p.errorf(opQ.off, "%s is not supported: expected %s", mn, multimemForms)
		return false
	}
	q, ok := p.sortQuals(m.qs[1:], spec)
	if !ok {
		return false
	}
	if len(spec.flags) > 0 {
		var ops []*qual // in the order written
		for i := range m.qs[1:] {
			if x := &m.qs[1+i]; q.flags[x.name] == x {
				ops = append(ops, x)
			}
		}
		switch {
		case len(ops) == 0:
			p.errorf(m.off, "%s needs a reduction: .min, .max, .add, .and, .or or .xor", mn)
			return false
		case len(ops) > 1:
			p.errorf(ops[1].off, "%s has two reductions, .%s and .%s", mn, ops[0].name, ops[1].name)
			return false
		}
		in.AtomOp = ops[0].name
	}
	if q.semQ != nil {
		sem = q.sem
	}
	scope, ok := p.multimemScope(mn, sem, q)
	if !ok {
		return false
	}
	in.Multimem, in.Sem, in.Scope, in.Proxy, in.SpaceQ = true, sem, scope, ProxyGeneric, q.space
	if in.Op == OpLoad {
		if !p.destination(c, in, mn) {
			return false
		}
		if _, ok := p.memOperand(c, in, thread, mn, false, -1); !ok {
			return false
		}
		return p.endOperands(c, mn)
	}
	if _, ok := p.memOperand(c, in, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "address") || !p.valueOperand(c, in, &in.Src, thread, mn, "operand") {
		return false
	}
	return p.endOperands(c, mn)
}

// multimemScope applies the instruction page's rules for the scope: a weak
// operation has none; multimem.red is .sys by default; the page gives
// multimem.ld_reduce and multimem.st no default, so a strong one must name
// its scope, as a strong ld or st must.
func (p *parser) multimemScope(mn string, sem Sem, q sortedQuals) (Scope, bool) {
	switch {
	case sem == SemWeak && q.scopeQ != nil && q.semQ == nil:
		p.errorf(q.scopeQ.off, "scope .%s needs a memory order: write %s.relaxed.%s (without one, %s is weak)", q.scopeQ.name, mn, q.scopeQ.name, mn)
		return ScopeNone, false
	case sem == SemWeak && q.scopeQ != nil:
		p.errorf(q.scopeQ.off, "weak operations take no scope, found .%s", q.scopeQ.name)
		return ScopeNone, false
	case sem == SemWeak:
		return ScopeNone, true
	case q.scopeQ != nil:
		return q.scope, true
	case mn == "multimem.red":
		return ScopeSys, true
	}
	p.errorf(q.semQ.off, "%s.%s needs a scope: .cta, .cluster, .gpu or .sys (the PTX ISA gives %s no default scope)", mn, q.semQ.name, mn)
	return ScopeNone, false
}
