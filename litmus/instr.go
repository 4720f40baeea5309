package litmus

import "strings"

// This file parses statements (labels and one instruction) and the memory
// instructions; instr_ops.go parses the others. Both formats share it: the
// caller hands over exactly a statement's tokens (a herd cell, or a .test
// statement without its ';').

// instrKinds lists the mnemonics for the "unknown instruction" diagnostic.
const instrKinds = "ld, st, suld, sust, tld, cold, atom, red, multimem, fence, membar, bar, barrier, mbarrier, cp, wgmma, mapa, tcgen05, mov, add, sub, mul, and, or, xor, setp, beq, bne, bra or goto"

// parseStatement parses a herd cell or a .test statement: any number of
// labels "L:" followed by at most one instruction, appended to tb's thread.
func (p *parser) parseStatement(toks []token, stop token, tb *threadBuild) {
	c := newCursor(toks, stop)
	for c.i+1 < len(c.toks) && c.peek().kind == tokIdent && c.peekAt(1).is(":") {
		t := c.next()
		c.next()
		if !isRegName(t.text) {
			p.errorf(t.off, "malformed label %q: labels are plain names", t.text)
			continue
		}
		in := &Instr{Op: OpLabel, Label: t.text, Pos: p.pos(t.off), Text: t.text + ":"}
		tb.th.Instrs = append(tb.th.Instrs, in)
		tb.labels = append(tb.labels, labelRef{in: in, off: t.off})
	}
	if c.done() {
		return
	}
	guard, ok := p.parseGuard(c)
	if !ok {
		p.instrFailed = true
		return
	}
	in := p.parseInstr(newCursor(c.toks[c.i:], stop), tb.th.Index, tb)
	if in == nil {
		p.instrFailed = true
		return
	}
	if guard != nil {
		in.Guard, in.GuardNeg = guard.reg, guard.neg
		in.Pos, in.Text = p.pos(guard.off), p.text(guard.off, c.lastEnd())
	}
	tb.th.Instrs = append(tb.th.Instrs, in)
}

// guardPrefix is a guard predicate "@p" or "@!p" before an instruction.
type guardPrefix struct {
	reg Operand
	neg bool
	off int
}

// parseGuard reads an optional guard predicate. PTX writes "@p INSTR" to
// execute INSTR only when predicate register p is true (not 0), "@!p"
// when it is false.
func (p *parser) parseGuard(c *cursor) (*guardPrefix, bool) {
	if c.done() || !c.peek().is("@") {
		return nil, true
	}
	g := &guardPrefix{off: c.next().off}
	if !c.done() && c.peek().is("!") {
		c.next()
		g.neg = true
	}
	reg, ok := p.regOperand(c, "@", "guard predicate")
	if !ok {
		return nil, false
	}
	g.reg = reg
	if c.done() {
		p.errorf(c.peek().off, "expected an instruction after the guard @%s, found %s", reg.Reg, c.peek().describe())
		return nil, false
	}
	return g, true
}

// parseInstr parses the instruction in c for thread tb. It returns nil,
// after reporting why, when the instruction is malformed or unsupported.
func (p *parser) parseInstr(c *cursor, thread int, tb *threadBuild) *Instr {
	t := c.peek()
	if t.kind != tokIdent || c.done() {
		p.errorf(t.off, "expected an instruction, found %s", t.describe())
		return nil
	}
	c.next()
	op, qs, ok := p.splitMnemonic(t)
	if !ok {
		return nil
	}
	in := &Instr{Pos: p.pos(t.off), Text: p.text(t.off, c.lastEnd())}
	m := mnemonic{text: t.text, op: op, qs: qs, off: t.off}
	if !p.threadAllows(tb, &m) {
		return nil
	}
	switch op {
	case "ld", "suld", "tld", "cold":
		if m.op == "ld" {
			if _, ok = p.takeNC(&m); !ok {
				break
			}
		}
		ok = p.parseLoad(c, in, m, thread)
	case "st", "sust":
		if m.op == "st" && len(m.qs) > 0 && m.qs[0].name == "async" {
			ok = p.parseStAsync(c, in, m, thread)
			break
		}
		ok = p.parseStore(c, in, m, thread)
	case "atom", "red":
		if m.op == "red" && len(m.qs) > 0 && m.qs[0].name == "async" {
			ok = p.parseStAsync(c, in, m, thread)
			break
		}
		ok = p.parseAtom(c, in, m, thread)
	case "multimem":
		ok = p.parseMultimem(c, in, m, thread)
	case "fence":
		ok = p.parseFence(c, in, m)
	case "membar":
		ok = p.parseMembar(c, in, m)
	case "bar", "barrier":
		if m.op == "barrier" && len(m.qs) > 0 && m.qs[0].name == "cluster" {
			ok = p.parseClusterBarrier(c, in, m)
			break
		}
		if m.op == "bar" && len(m.qs) > 0 && m.qs[0].name == "warp" {
			ok = p.parseWarpSync(c, in, m, thread)
			break
		}
		ok = p.parseBarrier(c, in, m)
	case "mbarrier":
		ok = p.parseMBarrier(c, in, m, thread)
	case "cp":
		ok = p.parseCp(c, in, m, thread)
	case "wgmma":
		ok = p.parseWgmma(c, in, m, thread)
	case "mapa":
		ok = p.parseMapa(c, in, m, thread)
	case "tcgen05":
		ok = p.parseTcgen05(c, in, m, thread)
	case "mov":
		ok = p.parseMov(c, in, m, thread)
	case "add", "sub", "mul", "and", "or", "xor":
		ok = p.parseArith(c, in, m)
	case "setp":
		ok = p.parseSetp(c, in, m)
	case "beq", "bne", "bra", "goto":
		ok = p.parseBranch(c, in, m, tb)
	case "prefetch", "prefetchu":
		// Not a cache hint ptxmm may drop: accepted only where the PTX ISA
		// says a hint leaves the memory consistency behaviour unchanged
		// (docs/litmus.md 4.9.4).
		p.errorf(t.off, "%s is not supported: its page (prefetch, prefetchu) says which cache line it brings into which cache, but not that it leaves the memory consistency behaviour unchanged, and ptxmm drops a cache hint only where the PTX ISA says so", op)
		return nil
	default:
		if isAPIMnemonic(op) {
			ok = p.parseAPI(c, in, m)
			break
		}
		p.errorf(t.off, "unknown instruction %q: expected %s", t.text, instrKinds)
		return nil
	}
	if !ok || tb.th.Host && !p.checkHostInstr(in, m) {
		return nil
	}
	return in
}

// parseLoad parses ld, suld, tld and cold: "ld.SEM.SCOPE DST, ADDR". In
// herd files "ld DST, IMM" and "ld DST, REG" are register moves, and in
// .test files a load may end with "== V", a filter on its value.
func (p *parser) parseLoad(c *cursor, in *Instr, m mnemonic, thread int) bool {
	q, ok := p.ldstQuals(in, m, OpLoad)
	if !ok {
		return false
	}
	if in.Vec > 0 {
		if !p.vectorRegs(c, in, m.op) || !p.expectComma(c, m.op, "destination") {
			return false
		}
	} else if !p.destination(c, in, m.op) {
		return false
	}
	isImm, ok := p.memOperand(c, in, thread, m.op, m.op == "ld" && in.Vec == 0, q.firstOff)
	if !ok {
		return false
	}
	if isImm {
		if q.firstOff >= 0 {
			p.errorf(q.firstOff, "a register move (ld DST, IMM) takes no memory order or scope")
			return false
		}
		if q.spaceQ != nil {
			p.errorf(q.spaceQ.off, "a register move (ld DST, IMM) takes no state space")
			return false
		}
		for _, x := range q.hints {
			if x != nil {
				p.errorf(x.off, "a register move (ld DST, IMM) takes no cache qualifier, found .%s", x.name)
				return false
			}
		}
		toMov(in)
		return p.endOperands(c, m.op)
	}
	if !p.cachePolicy(c, &q.hints, m.op) {
		return false
	}
	if t := c.peek(); !c.done() && (t.is("==") || t.is("!=") || t.is("=")) {
		if p.format != FormatNV {
			p.errorf(t.off, "load filters (%s V) are only supported in .test files", t.text)
			return false
		}
		if !t.is("==") {
			p.errorf(t.off, "expected '==' in a load filter, found %s", t.describe())
			return false
		}
		if in.Vec > 0 {
			p.errorf(t.off, "a vector load takes no filter: filter a scalar load of one element instead")
			return false
		}
		c.next()
		v, off, ok := p.intLit(c)
		if !ok {
			return false
		}
		typ := in.Type
		if typ.Size == 0 {
			typ = DefaultType()
		}
		if n := typ.RegSize(); !FitsBytes(v, n) {
			p.errorf(off, "a %d-byte load never returns %d: a load filter's value must fit in the bytes the load reads (a type such as .u64 makes a wider load)", n, v)
			return false
		}
		in.Filter = &v
	}
	return p.endOperands(c, m.op)
}

// ldstQuals reads the qualifiers of a load or store and sets in's
// operation, memory order, scope and proxy from them.
func (p *parser) ldstQuals(in *Instr, m mnemonic, op Op) (memQuals, bool) {
	q, ok := p.readMemQuals(m, memSems(m.op), nil)
	if !ok {
		return q, false
	}
	scope, ok := p.ldstScope(m, q)
	if !ok || !p.checkHints(&q.hints, m.op, "", q.sem) || !p.checkGlobalOnly(q, m.op) {
		return q, false
	}
	if q.vecQ != nil && q.sem == SemMMIO {
		// The ld and st pages write the mmio forms without .vec:
		// "ld.mmio.relaxed.sys{.global}.type d, [a]".
		p.errorf(q.vecQ.off, "%s.mmio takes no vector qualifier: PTX writes %s.mmio.relaxed.sys{.global}.TYPE, one scalar access", m.op, m.op)
		return q, false
	}
	in.Op, in.Sem, in.Scope, in.Proxy, in.SpaceQ = op, q.sem, scope, proxyOf(m.op), q.space
	in.Type, in.Vec = q.typ, q.vec
	if q.vecQ != nil && m.op != "ld" && m.op != "st" && m.op != ncLoad {
		p.errorf(q.vecQ.off, "%s.%s is not supported: vectors are supported on ld and st", m.op, q.vecQ.name)
		return q, false
	}
	if q.vecQ != nil && q.typ.Packed > 0 {
		p.errorf(q.vecQ.off, "a vector of .%s is not supported: use .%s without a vector, or a vector of .b32", q.typ.Name, q.typ.Name)
		return q, false
	}
	if q.vecQ != nil && q.typQ == nil {
		p.errorf(q.vecQ.off, "%s.%s needs a data type for its elements, such as .u32", m.op, q.vecQ.name)
		return q, false
	}
	return q, true
}

// toMov turns a herd "ld DST, SRC" into a register move, SRC being in.A.
func toMov(in *Instr) {
	in.Op, in.Sem, in.Scope, in.Proxy, in.SpaceQ = OpMov, SemWeak, ScopeNone, ProxyGeneric, SpaceQNone
	in.Addr = Operand{}
}

// parseStore parses st and sust: "st.SEM.SCOPE ADDR, VALUE".
func (p *parser) parseStore(c *cursor, in *Instr, m mnemonic, thread int) bool {
	q, ok := p.ldstQuals(in, m, OpStore)
	if !ok {
		return false
	}
	if _, ok := p.memOperand(c, in, thread, m.op, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, m.op, "address") {
		return false
	}
	if in.Vec > 0 {
		if !p.vectorVals(c, in, thread, m.op) {
			return false
		}
	} else if !p.valueOperand(c, in, &in.Src, thread, m.op, "value") {
		return false
	}
	if !p.cachePolicy(c, &q.hints, m.op) {
		return false
	}
	return p.endOperands(c, m.op)
}

// parseAtom parses "atom.SEM.SCOPE.OP DST, ADDR, V[, V2]" and
// "red.SEM.SCOPE.OP ADDR, V". Without a memory order they are .relaxed,
// and without a scope .gpu, as the PTX ISA says for atom and red.
func (p *parser) parseAtom(c *cursor, in *Instr, m mnemonic, thread int) bool {
	q, ok := p.readMemQuals(m, rmwSems(m.op), rmwOps(m.op))
	if !ok {
		return false
	}
	if q.atomOpQ == nil {
		p.errorf(m.off, "%s needs an operation: .%s", m.op, strings.Join(rmwOps(m.op), ", ."))
		return false
	}
	if !p.atomType(m, q) || !p.checkHints(&q.hints, m.op, q.atomOp, q.sem) || !p.checkGlobalOnly(q, m.op) {
		return false
	}
	in.Op, in.Sem, in.Scope, in.Proxy, in.AtomOp, in.SpaceQ = OpAtom, SemRelaxed, ScopeGPU, ProxyGeneric, q.atomOp, q.space
	in.Type = q.typ
	if m.op == "red" {
		in.Op = OpRed
	}
	if q.semQ != nil {
		in.Sem = q.sem
	}
	if q.scopeQ != nil {
		in.Scope = q.scope
	}
	if m.op == "atom" {
		if !p.destination(c, in, m.op) {
			return false
		}
	}
	if _, ok := p.memOperand(c, in, thread, m.op, false, -1); !ok {
		return false
	}
	// inc and dec may leave out their operand: then they add or subtract
	// one without a bound.
	if (in.AtomOp == "inc" || in.AtomOp == "dec") && c.done() {
		return p.cachePolicy(c, &q.hints, m.op)
	}
	if !p.expectComma(c, m.op, "address") {
		return false
	}
	if !p.valueOperand(c, in, &in.Src, thread, m.op, "operand") {
		return false
	}
	if in.AtomOp == "cas" {
		if !p.expectComma(c, m.op, "compare value") {
			return false
		}
		if !p.valueOperand(c, in, &in.Src2, thread, m.op, "new value") {
			return false
		}
	}
	if !p.cachePolicy(c, &q.hints, m.op) {
		return false
	}
	return p.endOperands(c, m.op)
}

// atomType checks the data type of an atom or red: a 32- or 64-bit
// integer type, or a 16-bit one for atom.cas (PTX ISA, atom: .b16 cas).
// Vectors, packed and floating-point types need floating-point
// arithmetic, which ptxmm does not have.
func (p *parser) atomType(m mnemonic, q memQuals) bool {
	if q.vecQ != nil {
		p.errorf(q.vecQ.off, "%s.%s is not supported: vectors are supported on ld and st", m.op, q.vecQ.name)
		return false
	}
	if q.typQ == nil {
		return true
	}
	switch {
	case q.typ.Float:
		p.errorf(q.typQ.off, "%s.%s is not supported: ptxmm has no floating-point arithmetic; expected an integer type (.u32, .s32, .b32, .u64, .s64 or .b64)", m.op, q.typQ.name)
		return false
	case q.typ.Size == 1 || q.typ.Size == 2 && (q.atomOp != "cas" || q.typ.Name != "b16"):
		p.errorf(q.typQ.off, "%s has no .%s form: expected .u32, .s32, .b32, .u64, .s64 or .b64 (and .b16 for atom.cas)", m.op, q.typQ.name)
		return false
	}
	return true
}
