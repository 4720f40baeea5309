package litmus

import "strings"

// This file parses the CTA barriers (PTX ISA 9.7.13.1):
//
//	barrier{.cta}.sync{.aligned}            a{, b}
//	barrier{.cta}.arrive{.aligned}          a, b
//	barrier{.cta}.red.popc{.aligned}.u32    d, a{, b}, {!}c
//	barrier{.cta}.red.op{.aligned}.pred     p, a{, b}, {!}c      .op = {.and, .or}
//	bar{.cta}.sync                          a{, b}
//	bar{.cta}.arrive                        a, b
//	bar{.cta}.red.popc.u32                  d, a{, b}, {!}c
//	bar{.cta}.red.op.pred                   p, a{, b}, {!}c
//
// bar{.cta}.X is barrier{.cta}.X.aligned, and .aligned only promises that
// every thread executes the same instruction, which a litmus test's
// threads do or not by construction; .cta changes nothing. The barrier
// operands differ between the formats: herd files write Dartagnan's
// "I{, B{, N}}" (instance, logical barrier, thread count), .test files
// PTX's "a{, b}" (logical barrier, which also names the instance, and
// thread count).

// barrierForms lists the forms for "not supported" diagnostics.
const barrierForms = "bar{.cta}.sync, bar{.cta}.arrive, bar{.cta}.red.popc.u32, bar{.cta}.red.and.pred, bar{.cta}.red.or.pred, or the same with barrier and an optional .aligned after .sync, .arrive or the reduction"

// barrierQuals reads the qualifiers of a CTA barrier into in: its kind and,
// for .red, the reduction. The qualifiers come in the grammar's order.
func (p *parser) barrierQuals(in *Instr, m mnemonic) bool {
	qs := m.qs
	i := 0
	next := func() *qual {
		if i < len(qs) {
			return &qs[i]
		}
		return nil
	}
	if q := next(); q != nil && q.name == "cta" {
		i++
	}
	kind := next()
	if kind == nil {
		p.errorf(m.off, "%s needs .sync, .arrive or .red", m.text)
		return false
	}
	i++
	in.Op, in.BarKind = OpBarrier, BarSync
	switch kind.name {
	case "sync":
	case "arrive":
		in.BarKind = BarArrive
	case "red":
		op := next()
		switch {
		case op == nil:
			p.errorf(m.off, "%s needs a reduction: .popc (with .u32), .and or .or (with .pred)", m.text)
			return false
		case op.name == "popc":
			in.BarRed = BarRedPopc
		case op.name == "and":
			in.BarRed = BarRedAnd
		case op.name == "or":
			in.BarRed = BarRedOr
		default:
			p.errorf(op.off, "unknown reduction .%s on %s.red: expected .popc, .and or .or", op.name, m.op)
			return false
		}
		i++
	default:
		p.errorf(kind.off, "%s is not supported: expected %s", m.text, barrierForms)
		return false
	}
	if q := next(); q != nil && q.name == "aligned" {
		if m.op == "bar" {
			rest := strings.Replace(strings.TrimPrefix(m.text, "bar"), ".aligned", "", 1)
			p.errorf(q.off, "bar takes no .aligned: bar%s already is barrier%s.aligned", rest, rest)
			return false
		}
		i++
	}
	if in.BarRed != BarRedNone {
		want := "pred"
		if in.BarRed == BarRedPopc {
			want = "u32"
		}
		q := next()
		if q == nil || q.name != want {
			at, found := m.off, "none"
			if q != nil {
				at, found = q.off, "."+q.name
			}
			p.errorf(at, "%s.red.%s needs the type .%s (after the reduction), found %s", m.op, in.BarRed, want, found)
			return false
		}
		i++
	}
	if q := next(); q != nil {
		p.errorf(q.off, "%s is not supported: expected %s", m.text, barrierForms)
		return false
	}
	return true
}

// parseBarrier parses a CTA barrier instruction (see the top of the file).
func (p *parser) parseBarrier(c *cursor, in *Instr, m mnemonic) bool {
	if !p.barrierQuals(in, m) {
		return false
	}
	if in.BarRed != BarRedNone && !p.destination(c, in, m.text) {
		return false
	}
	max := 3 // herd: I, B, N
	if p.format == FormatNV {
		max = 2 // PTX: a, b
	}
	var args []Operand
	var offs []int
	for {
		if in.BarRed != BarRedNone && c.peek().is("!") && !c.done() {
			// {!}c, the reduction's predicate, ends the operands.
			break
		}
		offs = append(offs, c.peek().off)
		o, ok := p.barOperand(c, m.text)
		if !ok {
			return false
		}
		args = append(args, o)
		if c.done() {
			break
		}
		if len(args) == max+boolInt(in.BarRed != BarRedNone) {
			return p.endOperands(c, m.text)
		}
		if !p.expectComma(c, m.text, "barrier operand") {
			return false
		}
	}
	if len(args) == 0 {
		p.errorf(c.peek().off, "%s needs a barrier operand", m.text)
		return false
	}
	if in.BarRed != BarRedNone {
		var ok bool
		if args, ok = p.barPredicate(c, in, m, args, offs); !ok {
			return false
		}
	}
	if p.format == FormatNV && in.BarKind == BarArrive && len(args) < 2 {
		p.errorf(c.lastEnd(), "%s needs a thread count: PTX writes %s a, b, and b is required for arrive", m.text, m.text)
		return false
	}
	// PTX ISA 9.7.13.1: a CTA has 16 logical barriers, 0 to 15; the herd
	// format names the logical barrier second (its first operand is
	// Dartagnan's instance), the .test format first.
	idx := 0
	if p.format != FormatNV {
		idx = 1
	}
	if idx < len(args) && args[idx].Kind == OperandImm && args[idx].Imm > maxLogicalBarrier {
		p.errorf(offs[idx], "%s names logical barrier %d: a CTA has barriers 0 to %d", m.text, args[idx].Imm, maxLogicalBarrier)
		return false
	}
	in.BarID = Operand{Kind: OperandImm, Imm: 0, At: lineColOf(in.Pos)}
	if p.format == FormatNV {
		in.Instance, in.BarID = args[0], args[0]
		if len(args) > 1 {
			in.Count = args[1]
		}
		return true
	}
	in.Instance = args[0]
	if len(args) > 1 {
		in.BarID = args[1]
	}
	if len(args) > 2 {
		in.Count = args[2]
	}
	return true
}

// barPredicate finishes the operands of bar.red: the predicate c is the
// last operand, a register, possibly negated with '!'. When the cursor is
// at '!', args are the barrier operands read so far; otherwise the last of
// args (written at offs) is the predicate.
func (p *parser) barPredicate(c *cursor, in *Instr, m mnemonic, args []Operand, offs []int) ([]Operand, bool) {
	if !c.done() && c.peek().is("!") {
		c.next()
		in.PredNeg = true
		pred, ok := p.regOperand(c, m.text, "predicate")
		if !ok {
			return nil, false
		}
		in.Pred = pred
		return args, p.endOperands(c, m.text)
	}
	if len(args) < 2 {
		p.errorf(c.peek().off, "%s needs a barrier and a predicate after its destination: %s d, a{, b}, {!}c", m.text, m.text)
		return nil, false
	}
	last := args[len(args)-1]
	if last.Kind != OperandReg {
		p.errorf(offs[len(offs)-1], "the predicate of %s must be a register (a predicate holding 0 or 1), found %d", m.text, last.Imm)
		return nil, false
	}
	in.Pred = last
	return args[:len(args)-1], true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// barOperand reads a barrier operand: a non-negative integer or a register.
func (p *parser) barOperand(c *cursor, mn string) (Operand, bool) {
	off := c.peek().off
	o, ok := p.immOrReg(c, mn, "barrier operand")
	if ok && o.Kind == OperandImm && o.Imm < 0 {
		p.errorf(off, "barrier operands must not be negative, found %d", o.Imm)
		return o, false
	}
	return o, ok
}

// maxLogicalBarrier is the last of a CTA's 16 logical barriers (PTX ISA
// 9.7.13.1: operand a names "a logical barrier resource" with a value
// "0 through 15").
const maxLogicalBarrier = 15
