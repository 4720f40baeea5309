package litmus

import "strings"

// This file reads instruction operands: registers, integers, values and
// memory operands.

// isRegName reports whether a name can be a register: registers are plain
// names, or PTX-style %names, without dots.
func isRegName(s string) bool {
	return s != "" && !strings.ContainsAny(s, ".:") && !strings.Contains(s[1:], "%")
}

// isAddrName reports whether a name can be an address: a plain name
// without dots. A %name is always a register.
func isAddrName(s string) bool {
	return isRegName(s) && s[0] != '%'
}

// expectComma consumes the ',' between operands.
func (p *parser) expectComma(c *cursor, mn, after string) bool {
	if c.accept(",") {
		return true
	}
	t := c.peek()
	p.errorf(t.off, "expected ',' after the %s of %s, found %s", after, mn, t.describe())
	return false
}

// regOperand reads a register name.
func (p *parser) regOperand(c *cursor, mn, what string) (Operand, bool) {
	t := c.peek()
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected a register as the %s of %s, found %s", what, mn, t.describe())
		return Operand{}, false
	}
	c.next()
	return Operand{Kind: OperandReg, Reg: t.text, At: p.at(t.off)}, true
}

// destination reads "DST," at the start of an instruction that writes a
// register, storing the register in in.Dst.
func (p *parser) destination(c *cursor, in *Instr, mn string) bool {
	dst, ok := p.regOperand(c, mn, "destination")
	if !ok {
		return false
	}
	in.Dst = dst.Reg
	return p.expectComma(c, mn, "destination")
}

// operandPair reads "A, B", two immediates or registers, into in.A and in.B:
// the operands of arithmetic and of a conditional branch.
func (p *parser) operandPair(c *cursor, in *Instr, mn string) bool {
	var ok bool
	if in.A, ok = p.immOrReg(c, mn, "first operand"); !ok {
		return false
	}
	if !p.expectComma(c, mn, "first operand") {
		return false
	}
	in.B, ok = p.immOrReg(c, mn, "second operand")
	return ok
}

// intLit reads an integer with an optional minus sign.
func (p *parser) intLit(c *cursor) (int64, int, bool) {
	t := c.peek()
	neg := false
	if t.is("-") && !c.done() {
		neg = true
		c.next()
		t = c.peek()
	}
	if t.kind != tokInt || c.done() {
		p.errorf(t.off, "expected an integer, found %s", t.describe())
		return 0, t.off, false
	}
	c.next()
	v, err := parseIntLit(t.text, neg)
	if err != nil {
		p.errorf(t.off, "%v", err)
		return 0, t.off, false
	}
	return v, t.off, true
}

// startsInt reports whether the next token begins an integer literal.
func startsInt(c *cursor) bool {
	if c.done() {
		return false
	}
	t := c.peek()
	return t.kind == tokInt || t.is("-") && c.peekAt(1).kind == tokInt && c.i+1 < len(c.toks)
}

// immOrReg reads an operand that is an integer or a register.
func (p *parser) immOrReg(c *cursor, mn, what string) (Operand, bool) {
	if startsInt(c) {
		off := c.peek().off
		v, _, ok := p.intLit(c)
		return Operand{Kind: OperandImm, Imm: v, At: p.at(off)}, ok
	}
	t := c.peek()
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected an integer or a register as the %s of %s, found %s", what, mn, t.describe())
		return Operand{}, false
	}
	return p.regOperand(c, mn, what)
}

// valueOperand reads a value: an integer, or a name that is a register or
// the address of a location (settled by resolution).
func (p *parser) valueOperand(c *cursor, in *Instr, dst *Operand, thread int, mn, what string) bool {
	if startsInt(c) {
		off := c.peek().off
		v, _, ok := p.intLit(c)
		*dst = Operand{Kind: OperandImm, Imm: v, At: p.at(off)}
		return ok
	}
	t := c.peek()
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected an integer, a register or an address as the %s of %s, found %s", what, mn, t.describe())
		return false
	}
	c.next()
	*dst = Operand{Kind: OperandAddr, Addr: t.text, At: p.at(t.off)}
	p.refs = append(p.refs, nameRef{in: in, op: dst, role: roleValue, thread: thread, qualOff: -1})
	return true
}

// memOperand reads a memory operand: "[x]" or, in herd files, "x". The
// name is an address or a register holding one (settled by resolution).
// ldSrc marks the second operand of herd "ld", which may also be a plain
// integer or register to move; it returns isImm when it read an integer.
func (p *parser) memOperand(c *cursor, in *Instr, thread int, mn string, ldSrc bool, qualOff int) (isImm bool, ok bool) {
	return p.memOperandTo(c, in, &in.Addr, thread, mn, ldSrc, qualOff)
}

// memOperandTo is memOperand storing the operand in dst, one of in's
// operand fields.
func (p *parser) memOperandTo(c *cursor, in *Instr, dst *Operand, thread int, mn string, ldSrc bool, qualOff int) (isImm bool, ok bool) {
	t := c.peek()
	bracket := t.is("[") && !c.done()
	if !bracket {
		if p.format == FormatNV {
			p.errorf(t.off, "expected a bracketed address such as [x] as the memory operand of %s, found %s", mn, t.describe())
			return false, false
		}
		if ldSrc && startsInt(c) {
			off := c.peek().off
			v, _, ok := p.intLit(c)
			in.A = Operand{Kind: OperandImm, Imm: v, At: p.at(off)}
			return true, ok
		}
	} else {
		c.next()
		t = c.peek()
	}
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected an address or a register as the memory operand of %s, found %s", mn, t.describe())
		return false, false
	}
	c.next()
	*dst = Operand{Kind: OperandAddr, Addr: t.text, At: p.at(t.off)}
	role := roleMem
	if ldSrc && !bracket {
		role = roleLdSrc
	}
	p.refs = append(p.refs, nameRef{in: in, op: dst, role: role, thread: thread, qualOff: qualOff})
	if bracket {
		if c.peek().is("+") || c.peek().is("-") {
			if !p.addrOffset(c, in, dst, mn) {
				return false, false
			}
		}
		if !c.accept("]") {
			e := c.peek()
			p.errorf(e.off, "expected ']' after the address of %s, found %s", mn, e.describe())
			return false, false
		}
	}
	return false, true
}

// addrOffset reads the "+N" of "[x+N]": a byte offset from the address,
// which must keep the access naturally aligned (PTX ISA, "Addresses as
// Operands"). Only ld, st, atom and red take one.
func (p *parser) addrOffset(c *cursor, in *Instr, dst *Operand, mn string) bool {
	sign := c.next()
	if dst != &in.Addr || (in.Op != OpLoad && in.Op != OpStore && in.Op != OpAtom && in.Op != OpRed) {
		p.errorf(sign.off, "address offsets are supported on ld, st, atom and red only, not on %s", mn)
		return false
	}
	if sign.is("-") {
		p.errorf(sign.off, "negative address offsets are not supported: an access must lie inside its variable")
		return false
	}
	t := c.peek()
	if c.done() || t.kind != tokInt {
		p.errorf(t.off, "expected a byte offset after '+' in the address of %s, found %s", mn, t.describe())
		return false
	}
	c.next()
	v, err := parseIntLit(t.text, false)
	if err != nil || v > 1<<20 {
		p.errorf(t.off, "address offset %s is out of range: expected an integer from 0 to %d", t.text, 1<<20)
		return false
	}
	in.Offset = v
	typ := in.Type
	if typ.Size == 0 {
		typ = DefaultType()
	}
	if align := int64(typ.RegSize() * max(in.Vec, 1)); v%align != 0 {
		p.errorf(t.off, "%s at offset %d is not aligned: a %d-byte access needs an offset that is a multiple of %d (PTX requires naturally aligned addresses)", mn, v, align, align)
		return false
	}
	return true
}

// vectorRegs reads the destination of a vector load, "{r0, r1}", one
// register per element.
func (p *parser) vectorRegs(c *cursor, in *Instr, mn string) bool {
	return p.vectorList(c, in, mn, func(k int) bool {
		if !p.noSink(c, mn, "read") {
			return false
		}
		r, ok := p.regOperand(c, mn, "destination")
		in.VecDst = append(in.VecDst, r.Reg)
		return ok
	})
}

// vectorVals reads the value of a vector store, "{r0, 1}", one value per
// element.
func (p *parser) vectorVals(c *cursor, in *Instr, thread int, mn string) bool {
	in.VecSrc = make([]Operand, in.Vec)
	return p.vectorList(c, in, mn, func(k int) bool {
		if k >= len(in.VecSrc) || !p.noSink(c, mn, "written") {
			return false
		}
		return p.valueOperand(c, in, &in.VecSrc[k], thread, mn, "value")
	})
}

// vectorList reads "{a, b, ...}" with exactly in.Vec items, each read by
// item.
func (p *parser) vectorList(c *cursor, in *Instr, mn string, item func(k int) bool) bool {
	open := c.peek()
	if c.done() || !open.is("{") {
		p.errorf(open.off, "expected '{' to open the %d elements of %s.v%d, found %s", in.Vec, mn, in.Vec, open.describe())
		return false
	}
	c.next()
	for k := 0; ; k++ {
		if k == in.Vec {
			t := c.peek()
			p.errorf(t.off, "%s.v%d has %d elements, found more", mn, in.Vec, in.Vec)
			return false
		}
		if !item(k) {
			return false
		}
		if c.accept("}") {
			if k+1 != in.Vec {
				p.errorf(open.off, "%s.v%d has %d elements, found %d", mn, in.Vec, in.Vec, k+1)
				return false
			}
			return true
		}
		if !c.accept(",") {
			t := c.peek()
			p.errorf(t.off, "expected ',' or '}' in the elements of %s.v%d, found %s", mn, in.Vec, t.describe())
			return false
		}
	}
}

// endOperands reports anything left after an instruction's operands.
func (p *parser) endOperands(c *cursor, mn string) bool {
	if c.done() {
		return true
	}
	t := c.peek()
	p.errorf(t.off, "unexpected %s after the operands of %s", t.describe(), mn)
	return false
}

// noSink rejects PTX's sink symbol _ as an element of a vector operand.
// The ld and st pages give it a meaning no register has: "data from
// corresponding memory location is not read" (ld), "no data is being
// written at the corresponding destination address" (st). Read as a
// register named _, the element would be read or written (a store of 0),
// so it is an error rather than a wrong answer (docs/model.md, "Audit of
// the memory-instruction pages").
func (p *parser) noSink(c *cursor, mn, done string) bool {
	t := c.peek()
	if c.done() || !t.is("_") {
		return true
	}
	p.errorf(t.off, "the sink symbol _ is not supported in the elements of %s: PTX's _ leaves its element's memory not %s, and ptxmm makes one memory operation per element; use a shorter vector or scalar accesses for the elements you need", mn, done)
	return false
}
