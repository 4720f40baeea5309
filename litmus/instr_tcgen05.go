package litmus

import (
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
)

// This file parses the tcgen05 instructions (PTX ISA 9.7.16; the accepted
// forms are in docs/litmus.md). PTX's shape, .sync.aligned, .num, packing
// and type qualifiers are accepted and do not change the meaning;
// .cta_group::N (1 by default) and the shapes and kinds that pipelining
// compares are kept.

// tcgen05Forms lists the supported tcgen05 instructions for diagnostics.
const tcgen05Forms = "tcgen05.mma, tcgen05.cp, tcgen05.shift, tcgen05.ld, tcgen05.st, tcgen05.commit, tcgen05.wait::ld, " +
	"tcgen05.wait::st, tcgen05.fence::before_thread_sync, tcgen05.fence::after_thread_sync, tcgen05.alloc, " +
	"tcgen05.dealloc or tcgen05.relinquish_alloc_permit"

// tcShapes matches the shape, .num and packing qualifiers of tcgen05.ld,
// tcgen05.st and tcgen05.cp (16x64b, 32x32b, 16x32bx2, x4, 128x256b,
// 4x256b, unpack::16b, warpx2::02_13, ...).
var tcShapes = lazyregexp.New(`^(\d+x\d+b(x2)?|x\d+|pack::16b|unpack::16b|warpx2::(02_13|01_23)|warpx4|b8x16|b6x16_p32|b4x16_p64)$`)

// parseTcgen05 parses a tcgen05 instruction.
func (p *parser) parseTcgen05(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) == 0 {
		p.errorf(m.off, "tcgen05 needs an operation: expected %s", tcgen05Forms)
		return false
	}
	opQ := m.qs[0]
	ops := map[string]TcOp{"mma": TcMma, "cp": TcCp, "shift": TcShift, "ld": TcLd, "st": TcSt, "commit": TcCommit,
		"wait::ld": TcWaitLd, "wait::st": TcWaitSt, "fence::before_thread_sync": TcFenceBefore,
		"fence::after_thread_sync": TcFenceAfter, "alloc": TcAlloc, "dealloc": TcDealloc,
		"relinquish_alloc_permit": TcRelinquish}
	op, ok := ops[opQ.name]
	if !ok {
		p.errorf(opQ.off, "tcgen05.%s is not supported: expected %s", opQ.name, tcgen05Forms)
		return false
	}
	in.Op, in.Tc, in.CtaGroup = OpTcgen05, op, 1
	mn := "tcgen05." + opQ.name
	if !p.tcQualifiers(in, m.qs[1:], mn, m.off) {
		return false
	}
	var okOps bool
	switch op {
	case TcMma:
		okOps = p.tcMmaOperands(c, in, thread, mn)
	case TcCp:
		okOps = p.tcTwoMem(c, in, thread, mn)
	case TcShift:
		_, okOps = p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1)
	case TcLd:
		if !p.destination(c, in, mn) {
			return false
		}
		_, okOps = p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1)
	case TcSt:
		if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok || !p.expectComma(c, mn, "tensor memory address") {
			return false
		}
		okOps = p.valueOperand(c, in, &in.Src, thread, mn, "value")
	case TcCommit:
		okOps = p.mbarOperand(c, in, thread, mn)
	case TcAlloc:
		// [dst], nCols: alloc writes the allocated tensor-memory address
		// to the shared-memory location dst (docs/model.md, "tcgen05");
		// the column count is kept and has no other effect.
		if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok || !p.expectComma(c, mn, "shared-memory destination") {
			return false
		}
		okOps = p.valueOperand(c, in, &in.Src, thread, mn, "column count")
	case TcDealloc:
		// The operands (a tensor-memory address and a column count) are
		// accepted and have no effect: litmus tests name tensor memory
		// directly (docs/model.md).
		okOps = p.skipOperands(c, mn)
	default:
		okOps = true
	}
	if !okOps {
		return false
	}
	return p.endOperands(c, mn)
}

// tcQualifiers reads the qualifiers after a tcgen05 operation.
func (p *parser) tcQualifiers(in *Instr, qs []qual, mn string, off int) bool {
	var shape []string
	for _, x := range qs {
		switch {
		case x.name == "sync" || x.name == "aligned" || isTypeQual(x.name):
		case strings.HasPrefix(x.name, "cta_group::"):
			n, err := strconv.Atoi(strings.TrimPrefix(x.name, "cta_group::"))
			if err != nil || (n != 1 && n != 2) {
				p.errorf(x.off, "%s: .%s is not a CTA group: expected .cta_group::1 or .cta_group::2", mn, x.name)
				return false
			}
			in.CtaGroup = n
		case in.Tc == TcMma && (strings.HasPrefix(x.name, "kind::") || x.name == "ws" || x.name == "sp" ||
			strings.HasPrefix(x.name, "block_scale") || strings.HasPrefix(x.name, "collector::") || x.name == "ashift" ||
			strings.HasPrefix(x.name, "scale_vec::")):
			shape = append(shape, x.name)
		case (in.Tc == TcLd || in.Tc == TcSt || in.Tc == TcCp) && tcShapes().MatchString(x.name):
			shape = append(shape, x.name)
		case in.Tc == TcCp && (x.name == "multicast::warpx2::02_13" || x.name == "multicast::warpx2::01_23" || x.name == "multicast::warpx4"):
		case in.Tc == TcShift && x.name == "down":
		case in.Tc == TcCommit && (x.name == "mbarrier::arrive::one" || x.name == "multicast::cluster"):
		case in.Tc == TcCommit && (x.name == "shared::cluster" || x.name == "shared::cta" || x.name == "shared"):
			in.SpaceQ, _ = spaceQualOf(x.name)
		case in.Tc == TcAlloc && (x.name == "shared::cta" || x.name == "shared"):
		default:
			p.errorf(x.off, "unknown qualifier .%s on %s: expected .cta_group::1 or ::2, .sync.aligned, a type, or the shape, kind and packing qualifiers PTX gives %s", x.name, mn, mn)
			return false
		}
	}
	if in.Tc == TcShift {
		found := false
		for _, x := range qs {
			found = found || x.name == "down"
		}
		if !found {
			p.errorf(off, "tcgen05.shift needs .down: write tcgen05.shift.down t")
			return false
		}
	}
	if in.Tc == TcCommit {
		found := false
		for _, x := range qs {
			found = found || x.name == "mbarrier::arrive::one"
		}
		if !found {
			p.errorf(off, "tcgen05.commit needs its completion mechanism: write tcgen05.commit.mbarrier::arrive::one b")
			return false
		}
	}
	in.Shape = strings.Join(shape, ".")
	return true
}

// tcMmaOperands reads "d, a, b {, ACC}" into Addr, Mem2 and Mem3: ACC
// (enable-input-d) is 0 or 1.
func (p *parser) tcMmaOperands(c *cursor, in *Instr, thread int, mn string) bool {
	if !p.tcTwoMem(c, in, thread, mn) {
		return false
	}
	if !p.expectComma(c, mn, "a operand") {
		return false
	}
	if _, ok := p.memOperandTo(c, in, &in.Mem3, thread, mn, false, -1); !ok {
		return false
	}
	if c.done() {
		return true
	}
	if !p.expectComma(c, mn, "b operand") {
		return false
	}
	off := c.peek().off
	v, _, ok := p.intLit(c)
	if !ok {
		return false
	}
	if v != 0 && v != 1 {
		p.errorf(off, "the enable-input-d operand of tcgen05.mma is 0 (d := a + b) or 1 (d := d + a + b), found %d", v)
		return false
	}
	in.Acc = v == 1
	return true
}

// tcTwoMem reads "X, Y", two memory operands, into Addr and Mem2.
func (p *parser) tcTwoMem(c *cursor, in *Instr, thread int, mn string) bool {
	if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "first operand") {
		return false
	}
	_, ok := p.memOperandTo(c, in, &in.Mem2, thread, mn, false, -1)
	return ok
}

// skipOperands accepts the operands of tcgen05.dealloc: bracketed
// addresses, names, registers and integers separated by commas.
func (p *parser) skipOperands(c *cursor, mn string) bool {
	for !c.done() {
		t := c.next()
		if t.kind == tokIdent || t.kind == tokInt || t.is("[") || t.is("]") || t.is(",") {
			continue
		}
		p.errorf(t.off, "unexpected %s in the operands of %s", t.describe(), mn)
		return false
	}
	return true
}
