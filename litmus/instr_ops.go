package litmus

import "strings"

// This file parses the instructions that are not memory accesses: fences,
// barriers, register operations and branches.

// parseFence parses fence.SEM.SCOPE and fence.proxy.KIND.
func (p *parser) parseFence(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) > 1 && m.qs[0].name == "proxy" && m.qs[1].name == "async" {
		return p.parseProxyAsyncFence(c, in, m)
	}
	if len(m.qs) > 0 && m.qs[0].name == "proxy" {
		return p.parseProxyFence(c, in, m)
	}
	if len(m.qs) > 0 && m.qs[0].name == "mbarrier_init" {
		return p.parseMBarInitFence(c, in, m)
	}
	var semQ, scopeQ, restrictQ *qual
	in.Op, in.Sem = OpFence, SemAcqRel // fence without a memory order is fence.acq_rel (PTX ISA)
	for i := range m.qs {
		x := &m.qs[i]
		if s, ok := semOf(x.name); ok && (s == SemSC || s == SemAcqRel || s == SemAcquire || s == SemRelease) {
			if semQ != nil {
				p.errorf(x.off, "fence has two memory-order qualifiers, .%s and .%s", semQ.name, x.name)
				return false
			}
			semQ, in.Sem = x, s
			continue
		}
		if s, ok := scopeOf(x.name); ok {
			if scopeQ != nil {
				p.errorf(x.off, "fence has two scopes, .%s and .%s", scopeQ.name, x.name)
				return false
			}
			scopeQ, in.Scope = x, s
			continue
		}
		if strings.HasPrefix(x.name, "sync_restrict") {
			if restrictQ != nil {
				p.errorf(x.off, "fence has two restrictions, .%s and .%s", restrictQ.name, x.name)
				return false
			}
			restrictQ = x
			continue
		}
		p.errorf(x.off, "fence.%s is not supported: expected fence.sc, fence.acq_rel, fence.acquire or fence.release with a scope, fence.proxy.KIND or fence.mbarrier_init.release.cluster", x.name)
		return false
	}
	if scopeQ == nil {
		p.errorf(m.off, "%s needs a scope: .cta, .cluster, .gpu or .sys", m.text)
		return false
	}
	if restrictQ != nil && !p.syncRestrict(in, m, restrictQ, semQ, scopeQ) {
		return false
	}
	return p.endOperands(c, m.text)
}

// syncRestrict checks the restriction of fence.release.sync_restrict::
// shared::cta.cluster and fence.acquire.sync_restrict::shared::cluster
// .cluster (PTX ISA 8.6, fence page): "When .sync_restrict is
// .sync_restrict::shared::cta, .sem must be .release ... when .sync_restrict
// is .sync_restrict::shared::cluster, .sem must be .acquire ... the .scope
// must be specified as .cluster". The restriction goes to in.SpaceQ: the
// state space on whose objects the fence's effect applies.
func (p *parser) syncRestrict(in *Instr, m mnemonic, r, semQ, scopeQ *qual) bool {
	want, space := SemRelease, SpaceQShared
	switch r.name {
	case "sync_restrict::shared::cta":
	case "sync_restrict::shared::cluster":
		want, space = SemAcquire, SpaceQCluster
	case "sync_restrict::shared::cluster::read":
		p.errorf(r.off, "%s is not supported: .sync_restrict::shared::cluster::read (PTX ISA 9.4) makes fence.proxy.async::generic.release a non-cumulative fence, which ptxmm does not model (docs/litmus.md, section 4.4)", m.text)
		return false
	default:
		p.errorf(r.off, "unknown restriction .%s on %s: expected .sync_restrict::shared::cta (with .release) or .sync_restrict::shared::cluster (with .acquire)", r.name, m.op)
		return false
	}
	if in.Sem != want {
		at := r.off
		if semQ != nil {
			at = semQ.off
		}
		p.errorf(at, "%s: .%s requires .%s and the scope .cluster (fence page)", m.text, r.name, want)
		return false
	}
	if in.Scope != ScopeCluster {
		p.errorf(scopeQ.off, "%s: .%s requires the scope .cluster, not .%s", m.text, r.name, scopeQ.name)
		return false
	}
	in.SpaceQ = space
	return true
}

// parseProxyFence parses fence.proxy.alias and the fences of the surface,
// texture and constant proxies.
func (p *parser) parseProxyFence(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) < 2 {
		p.errorf(m.off, "fence.proxy needs a kind: .alias, .async, .surface, .texture or .constant")
		return false
	}
	k := m.qs[1]
	in.Op = OpProxyFence
	switch k.name {
	case "alias":
		in.Alias = true
	case "surface":
		in.Proxy = ProxySurface
	case "texture":
		in.Proxy = ProxyTexture
	case "constant":
		in.Proxy = ProxyConstant
	case "async::generic":
		return p.parseUniProxyFence(c, in, m)
	case "tensormap::generic":
		p.errorf(k.off, "%s is not supported: ptxmm does not model the tensormap proxy (tensormap.replace, the tensor-map reads of cp.async.bulk.tensor), which fence.proxy.tensormap::generic orders (docs/litmus.md, section 4.4)", m.text)
		return false
	default:
		p.errorf(k.off, "fence.proxy.%s is not supported: expected fence.proxy.alias, fence.proxy.async, fence.proxy.surface, fence.proxy.texture or fence.proxy.constant", k.name)
		return false
	}
	if len(m.qs) > 2 {
		p.errorf(m.qs[2].off, "unexpected qualifier .%s after %s.proxy.%s", m.qs[2].name, m.op, k.name)
		return false
	}
	return p.endOperands(c, m.text)
}

// parseUniProxyFence parses the unidirectional generic-to-async proxy
// fences of PTX ISA 8.6, fence.proxy.async::generic.release.sync_restrict::
// shared::cta.cluster and fence.proxy.async::generic.acquire.sync_restrict::
// shared::cluster.cluster: a proxy fence of the async proxy (Op
// OpProxyFence, Proxy ProxyAsync) with a memory order, the scope .cluster
// and the restriction in SpaceQ. Its memory order is what tells it from
// the bidirectional fence.proxy.async, which has none.
func (p *parser) parseUniProxyFence(c *cursor, in *Instr, m mnemonic) bool {
	in.Op, in.Proxy = OpProxyFence, ProxyAsync
	var semQ, scopeQ, restrictQ *qual
	for i := 2; i < len(m.qs); i++ {
		x := &m.qs[i]
		sem, isSem := semOf(x.name)
		scope, isScope := scopeOf(x.name)
		switch {
		case isSem && (sem == SemRelease || sem == SemAcquire) && semQ == nil:
			semQ, in.Sem = x, sem
		case isScope && scopeQ == nil:
			scopeQ, in.Scope = x, scope
		case strings.HasPrefix(x.name, "sync_restrict") && restrictQ == nil:
			restrictQ = x
		default:
			p.errorf(x.off, "unexpected qualifier .%s on %s: expected .release.sync_restrict::shared::cta.cluster or .acquire.sync_restrict::shared::cluster.cluster", x.name, m.text)
			return false
		}
	}
	if semQ == nil || restrictQ == nil || scopeQ == nil {
		p.errorf(m.qs[1].off, "%s needs a memory order, a restriction and a scope: fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster or fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster", m.text)
		return false
	}
	if !p.syncRestrict(in, m, restrictQ, semQ, scopeQ) {
		return false
	}
	return p.endOperands(c, m.text)
}

// parseMembar parses membar.cta, membar.gl and membar.sys, which PTX defines
// as fence.sc at scope cta, gpu and sys, and membar.proxy.KIND.
func (p *parser) parseMembar(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) == 0 {
		p.errorf(m.off, "membar needs a level: .cta, .gl or .sys, or .proxy.KIND")
		return false
	}
	if m.qs[0].name == "proxy" {
		return p.parseMembarProxy(c, in, m)
	}
	in.Op, in.Sem = OpFence, SemSC
	switch m.qs[0].name {
	case "cta":
		in.Scope = ScopeCTA
	case "gl":
		in.Scope = ScopeGPU
	case "sys":
		in.Scope = ScopeSys
	default:
		p.errorf(m.qs[0].off, "membar.%s is not supported: expected membar.cta, membar.gl, membar.sys or membar.proxy.KIND", m.qs[0].name)
		return false
	}
	if len(m.qs) > 1 {
		p.errorf(m.qs[1].off, "unexpected qualifier .%s after membar.%s", m.qs[1].name, m.qs[0].name)
		return false
	}
	return p.endOperands(c, m.text)
}

// typeQualsOnly rejects every qualifier but one integer data type, for
// the register instructions; the type, if any, goes to in.Type (the
// result wraps around to it).
func (p *parser) typeQualsOnly(in *Instr, m mnemonic) bool {
	for i, x := range m.qs {
		if !isTypeQual(x.name) {
			p.errorf(x.off, "unknown qualifier .%s on %s: expected a type such as .u32", x.name, m.op)
			return false
		}
		if i > 0 {
			p.errorf(x.off, "%s has two data types, .%s and .%s", m.op, m.qs[0].name, x.name)
			return false
		}
		in.Type, _ = dataTypeOf(x.name)
	}
	return true
}

// parseMov parses "mov DST, SRC".
func (p *parser) parseMov(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if !p.typeQualsOnly(in, m) {
		return false
	}
	in.Op = OpMov
	if !p.destination(c, in, m.op) {
		return false
	}
	if !p.valueOperand(c, in, &in.A, thread, m.op, "source") {
		return false
	}
	return p.endOperands(c, m.op)
}

// parseArith parses "OP DST, A, B" for add, sub, mul, and, or and xor.
func (p *parser) parseArith(c *cursor, in *Instr, m mnemonic) bool {
	if !p.typeQualsOnly(in, m) {
		return false
	}
	in.Op, in.ArithOp = OpArith, m.op
	if !p.destination(c, in, m.op) {
		return false
	}
	if !p.operandPair(c, in, m.op) {
		return false
	}
	return p.endOperands(c, m.op)
}

// parseBranch parses "beq A, B, LABEL", "bne A, B, LABEL", "goto LABEL"
// and PTX's "bra{.uni} LABEL" (the same as goto; with a guard, "@p bra L"
// is PTX's conditional branch).
func (p *parser) parseBranch(c *cursor, in *Instr, m mnemonic, tb *threadBuild) bool {
	for i, q := range m.qs {
		if m.op == "bra" && i == 0 && q.name == "uni" {
			continue
		}
		what := "it takes none"
		if m.op == "bra" {
			what = "expected bra or bra.uni"
		}
		p.errorf(q.off, "unknown qualifier .%s on %s: %s", q.name, m.op, what)
		return false
	}
	in.Op = OpGoto
	if m.op != "goto" && m.op != "bra" {
		in.Op, in.Cmp = OpBranch, m.op[1:]
		if !p.operandPair(c, in, m.op) {
			return false
		}
		if !p.expectComma(c, m.op, "second operand") {
			return false
		}
	}
	t := c.peek()
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected a label as the target of %s, found %s", m.op, t.describe())
		return false
	}
	c.next()
	in.Label = t.text
	tb.targets = append(tb.targets, labelRef{in: in, off: t.off})
	return p.endOperands(c, m.op)
}

// parseMembarProxy parses membar.proxy.alias and membar.proxy.async{.global|
// .shared::cta|.shared::cluster}, the old spelling of the bidirectional
// proxy fences: chapter 8 counts "a fence.proxy or a membar.proxy
// instruction" as a proxy fence operation, and the membar page's
// .proxykind list holds only these kinds, so each is parsed as the
// fence.proxy of the same kind.
func (p *parser) parseMembarProxy(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) < 2 {
		p.errorf(m.off, "membar.proxy needs a kind: .alias or .async")
		return false
	}
	switch m.qs[1].name {
	case "alias":
		return p.parseProxyFence(c, in, m)
	case "async":
		return p.parseProxyAsyncFence(c, in, m)
	}
	p.errorf(m.qs[1].off, "membar.proxy.%s is not supported: expected membar.proxy.alias or membar.proxy.async (the fence.proxy spelling takes the surface, texture and constant kinds)", m.qs[1].name)
	return false
}
