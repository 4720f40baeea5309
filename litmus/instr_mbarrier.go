package litmus

// This file parses the mbarrier instructions, barrier.cluster and mapa (PTX
// ISA: mbarrier, barrier.cluster, mapa; the defaults are documented in
// docs/litmus.md and docs/model.md).

// mbarrierForms lists the supported mbarrier instructions for diagnostics.
const mbarrierForms = "mbarrier.init, mbarrier.arrive, mbarrier.arrive.expect_tx, mbarrier.arrive_drop, mbarrier.arrive_drop.expect_tx, mbarrier.expect_tx, mbarrier.complete_tx, mbarrier.test_wait or mbarrier.try_wait (each optionally .parity for the waits), mbarrier.inval"

// parseMBarrier parses the mbarrier instructions:
//
//	mbarrier.init b, N
//	mbarrier.arrive{.expect_tx}{.SEM}{.SCOPE}{.SPACE}{.b64} [_,] b {, COUNT | , TX}
//	mbarrier.arrive_drop{.expect_tx}{.SEM}{.SCOPE}{.SPACE}{.b64} [_,] b {, COUNT | , TX}
//	mbarrier.inval{.shared{::cta}}{.b64} b
//	mbarrier.expect_tx{.relaxed}{.SCOPE}{.SPACE} b, TX
//	mbarrier.complete_tx{.relaxed}{.SCOPE}{.SPACE} b, TX
//	mbarrier.test_wait{.parity}{.SEM}{.SCOPE}{.shared{::cta}} r, b {, PHASE}
//	mbarrier.try_wait{.parity}{.SEM}{.SCOPE}{.shared{::cta}} r, b {, PHASE {, HINT}}
func (p *parser) parseMBarrier(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) == 0 {
		p.errorf(m.off, "mbarrier needs an operation: expected %s", mbarrierForms)
		return false
	}
	opQ := m.qs[0]
	rest := m.qs[1:]
	in.Op = OpMBarrier
	spec := qualSpec{types: true, scopes: []Scope{ScopeCTA, ScopeCluster}}
	switch opQ.name {
	case "init":
		in.MBarOp = MBarInit
		spec = qualSpec{types: true, spaces: []SpaceQual{SpaceQShared}}
	case "inval":
		in.MBarOp = MBarInval
		spec = qualSpec{types: true, spaces: []SpaceQual{SpaceQShared}}
	case "arrive", "arrive_drop":
		in.MBarOp = MBarArrive
		if opQ.name == "arrive_drop" {
			in.MBarOp = MBarArriveDrop
		}
		spec.sems = []Sem{SemRelease, SemRelaxed}
		spec.spaces = []SpaceQual{SpaceQShared, SpaceQCluster}
		spec.flags = []string{"expect_tx", "noComplete"}
	case "expect_tx", "complete_tx":
		in.MBarOp = MBarExpectTx
		if opQ.name == "complete_tx" {
			in.MBarOp = MBarCompleteTx
		}
		spec.sems = []Sem{SemRelaxed}
		spec.spaces = []SpaceQual{SpaceQShared, SpaceQCluster}
	case "test_wait", "try_wait":
		in.MBarOp = MBarTestWait
		if opQ.name == "try_wait" {
			in.MBarOp = MBarTryWait
		}
		spec.sems = []Sem{SemAcquire, SemRelaxed}
		spec.spaces = []SpaceQual{SpaceQShared}
		spec.flags = []string{"parity"}
	default:
		p.errorf(opQ.off, "mbarrier.%s is not supported: expected %s", opQ.name, mbarrierForms)
		return false
	}
	spec.mn = "mbarrier." + opQ.name
	if in.MBarOp.IsWait() {
		// Waits test a phase of the executing CTA's own mbarriers only.
		for _, x := range rest {
			if x.name == "shared::cluster" {
				p.errorf(x.off, "%s cannot use a .shared::cluster mbarrier: a thread can only wait on the mbarriers of its own CTA (.shared::cta); other CTAs of the cluster can only arrive on them", spec.mn)
				return false
			}
		}
	}
	q, ok := p.sortQuals(rest, spec)
	if !ok {
		return false
	}
	in.SpaceQ = q.space
	in.Parity = q.flags["parity"] != nil
	expectTx := q.flags["expect_tx"] != nil
	in.NoComplete = q.flags["noComplete"] != nil
	if in.NoComplete && !p.noCompleteForm(q, spec.mn) {
		return false
	}
	p.mbarrierSemantics(in, q)
	switch in.MBarOp {
	case MBarInit:
		if !p.mbarOperand(c, in, thread, spec.mn) || !p.expectComma(c, spec.mn, "mbarrier") {
			return false
		}
		countOff := c.peek().off
		in.Src, ok = p.immOrReg(c, spec.mn, "expected arrival count")
		// The mbarrier.init page gives count the range [1, 2^20-1], as a
		// declared mbarrier's count; an integer outside it is no PTX.
		if ok && in.Src.Kind == OperandImm && (in.Src.Imm < 1 || in.Src.Imm > maxMBarCount) {
			p.errorf(countOff, "mbarrier.init expects 1 to %d arrivals per phase, found %d", maxMBarCount, in.Src.Imm)
			return false
		}
	case MBarInval:
		ok = p.mbarOperand(c, in, thread, spec.mn)
	case MBarArrive, MBarArriveDrop:
		ok = p.parseArriveOperands(c, in, thread, spec.mn, expectTx)
		if ok && in.NoComplete && in.Src.At == lineColOf(in.Pos) {
			p.errorf(q.flags["noComplete"].off, "%s.noComplete needs the arrival count: %s.noComplete{.release.cta}{.shared{::cta}}.b64 state, [addr], count", spec.mn, spec.mn)
			return false
		}
	case MBarExpectTx, MBarCompleteTx:
		if !p.mbarOperand(c, in, thread, spec.mn) || !p.expectComma(c, spec.mn, "mbarrier") {
			return false
		}
		in.Src = Operand{Kind: OperandImm, Imm: 1, At: lineColOf(in.Pos)}
		in.Src2, ok = p.immOrReg(c, spec.mn, "transaction count")
	default:
		ok = p.parseWaitOperands(c, in, thread, spec.mn)
	}
	if !ok {
		return false
	}
	return p.endOperands(c, spec.mn)
}

// noCompleteForm checks the qualifiers .noComplete allows: the
// mbarrier.arrive and mbarrier.arrive_drop pages write it
// "mbarrier.arrive.noComplete{.release.cta}{.shared{::cta}}.b64 state,
// [addr], count" (and the same for arrive_drop): no .relaxed, no .cluster,
// no .shared::cluster, no .expect_tx.
func (p *parser) noCompleteForm(q sortedQuals, mn string) bool {
	bad := func(x *qual) bool {
		p.errorf(x.off, "%s.noComplete cannot be .%s: the form is %s.noComplete{.release.cta}{.shared{::cta}}.b64 state, [addr], count", mn, x.name, mn)
		return false
	}
	switch {
	case q.semQ != nil && q.sem != SemRelease:
		return bad(q.semQ)
	case q.scopeQ != nil && q.scope != ScopeCTA:
		return bad(q.scopeQ)
	case q.spaceQ != nil && q.space == SpaceQCluster:
		return bad(q.spaceQ)
	case q.flags["expect_tx"] != nil:
		return bad(q.flags["expect_tx"])
	}
	return true
}

// mbarrierSemantics applies the PTX defaults: arrives and arrive_drops are
// .release.cta (PTX ISA 9.7.13.15.13 and 9.7.13.15.14), waits .acquire.cta,
// expect_tx and complete_tx .relaxed.cta (the instruction pages allow only
// .relaxed there and state no default); mbarrier.init and mbarrier.inval
// are weak writes (docs/model.md, "mbarrier.arrive_drop and
// mbarrier.inval").
func (p *parser) mbarrierSemantics(in *Instr, q sortedQuals) {
	switch in.MBarOp {
	case MBarInit, MBarInval:
		in.Sem, in.Scope = SemWeak, ScopeNone
		return
	case MBarArrive, MBarArriveDrop:
		in.Sem = SemRelease
	case MBarExpectTx, MBarCompleteTx:
		in.Sem = SemRelaxed
	default:
		in.Sem = SemAcquire
	}
	in.Scope = ScopeCTA
	if q.semQ != nil {
		in.Sem = q.sem
	}
	if q.scopeQ != nil {
		in.Scope = q.scope
	}
}

// mbarOperand reads the mbarrier operand into in.Addr.
func (p *parser) mbarOperand(c *cursor, in *Instr, thread int, mn string) bool {
	_, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1)
	return ok
}

// parseArriveOperands reads "[_,] b {, COUNT}" or, with .expect_tx,
// "[_,] b, TX". The optional "_" is PTX's sink for the state result.
func (p *parser) parseArriveOperands(c *cursor, in *Instr, thread int, mn string, expectTx bool) bool {
	if c.peek().is("_") && !c.done() && c.peekAt(1).is(",") {
		c.next()
		c.next()
	}
	if !p.mbarOperand(c, in, thread, mn) {
		return false
	}
	in.Src = Operand{Kind: OperandImm, Imm: 1, At: lineColOf(in.Pos)}
	in.Src2 = Operand{Kind: OperandImm, Imm: 0, At: lineColOf(in.Pos)}
	if expectTx {
		if !p.expectComma(c, mn, "mbarrier") {
			return false
		}
		var ok bool
		in.Src2, ok = p.immOrReg(c, mn, "transaction count")
		return ok
	}
	if c.done() {
		return true
	}
	if !p.expectComma(c, mn, "mbarrier") {
		return false
	}
	var ok bool
	in.Src, ok = p.immOrReg(c, mn, "arrival count")
	return ok
}

// parseWaitOperands reads "r, b {, PHASE {, HINT}}" of test_wait and
// try_wait: r becomes 1 when the phase is complete. PHASE is the phase
// number (or, with .parity, its parity) and defaults to 0; try_wait's time
// hint is accepted and has no effect.
func (p *parser) parseWaitOperands(c *cursor, in *Instr, thread int, mn string) bool {
	if !p.destination(c, in, mn) {
		return false
	}
	if !p.mbarOperand(c, in, thread, mn) {
		return false
	}
	in.Src = Operand{Kind: OperandImm, Imm: 0, At: lineColOf(in.Pos)}
	if c.done() {
		return true
	}
	if !p.expectComma(c, mn, "mbarrier") {
		return false
	}
	var ok bool
	what := "phase"
	if in.Parity {
		what = "phase parity"
	}
	if in.Src, ok = p.immOrReg(c, mn, what); !ok {
		return false
	}
	if c.done() {
		return true
	}
	if in.MBarOp != MBarTryWait {
		return p.endOperands(c, mn)
	}
	if !p.expectComma(c, mn, what) {
		return false
	}
	in.Src2, ok = p.immOrReg(c, mn, "time hint")
	return ok
}

// parseClusterBarrier parses barrier.cluster.arrive{.release|.relaxed}{.aligned}
// and barrier.cluster.wait{.acquire}{.aligned}. The arrive is .release and
// the wait .acquire by default (PTX ISA, barrier.cluster).
func (p *parser) parseClusterBarrier(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) < 2 || (m.qs[1].name != "arrive" && m.qs[1].name != "wait") {
		off := m.off
		if len(m.qs) > 1 {
			off = m.qs[1].off
		}
		p.errorf(off, "barrier.cluster needs .arrive or .wait: expected barrier.cluster.arrive{.release|.relaxed}{.aligned} or barrier.cluster.wait{.acquire}{.aligned}")
		return false
	}
	in.Op, in.Scope = OpClusterBarrier, ScopeCluster
	spec := qualSpec{mn: "barrier.cluster." + m.qs[1].name, flags: []string{"aligned"}}
	if m.qs[1].name == "arrive" {
		in.BarKind, in.Sem = BarArrive, SemRelease
		spec.sems = []Sem{SemRelease, SemRelaxed}
	} else {
		in.BarKind, in.Sem = BarSync, SemAcquire
		spec.sems = []Sem{SemAcquire}
	}
	q, ok := p.sortQuals(m.qs[2:], spec)
	if !ok {
		return false
	}
	if q.semQ != nil {
		in.Sem = q.sem
	}
	return p.endOperands(c, spec.mn)
}

// parseMapa parses "mapa{.shared::cluster}{.u32|.u64} r, a, K": r becomes
// the address of CTA K's copy of the shared variable a (a name, or a
// register holding a shared address), K being the CTA number of the
// thread placement.
func (p *parser) parseMapa(c *cursor, in *Instr, m mnemonic, thread int) bool {
	spec := qualSpec{mn: "mapa", spaces: []SpaceQual{SpaceQCluster}, types: true}
	q, ok := p.sortQuals(m.qs, spec)
	if !ok {
		return false
	}
	in.Op, in.SpaceQ = OpMapa, q.space
	if !p.destination(c, in, "mapa") {
		return false
	}
	if !p.valueOperand(c, in, &in.A, thread, "mapa", "shared address") {
		return false
	}
	if !p.expectComma(c, "mapa", "shared address") {
		return false
	}
	if in.B, ok = p.immOrReg(c, "mapa", "CTA"); !ok {
		return false
	}
	return p.endOperands(c, "mapa")
}
