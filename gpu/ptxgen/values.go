package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// val64 is a 64-bit source: an immediate or the test register.
func (rg *roleGen) val64(op litmus.Operand, in *litmus.Instr) (string, error) {
	switch op.Kind {
	case litmus.OperandImm:
		return fmt.Sprint(op.Imm), nil
	case litmus.OperandReg:
		if reg, ok := rg.regs[op.Reg]; ok {
			return reg, nil
		}
		if _, isAddr := rg.r.addrs[op.Reg]; isAddr {
			return "", fmt.Errorf("%s: %q uses register %s, which holds an address, as a number: ptxmm run cannot put addresses in memory or registers' final values", in.Pos, in.Text, op.Reg)
		}
		return "", fmt.Errorf("%s: %q: unknown register %s", in.Pos, in.Text, op.Reg)
	case litmus.OperandAddr:
		return "", fmt.Errorf("%s: %q uses the address of %s as a value: ptxmm run cannot put addresses in memory or registers' final values", in.Pos, in.Text, op.Addr)
	}
	return "", fmt.Errorf("%s: %q: missing operand", in.Pos, in.Text)
}

// reg64 is val64 in a register.
func (rg *roleGen) reg64(op litmus.Operand, in *litmus.Instr) (string, error) {
	v, err := rg.val64(op, in)
	if err != nil || op.Kind != litmus.OperandImm {
		return v, err
	}
	r := rg.e.rd64()
	rg.e.ins("mov.u64 %s, %s", r, v)
	return r, nil
}

// val32 is a 32-bit source (counts, transaction bytes, phases): an
// immediate, or the low half of the test register.
func (rg *roleGen) val32(op litmus.Operand, in *litmus.Instr) (string, error) {
	if op.Kind == litmus.OperandImm {
		return fmt.Sprint(uint32(op.Imm)), nil
	}
	v, err := rg.val64(op, in)
	if err != nil {
		return "", err
	}
	r := rg.e.r32()
	rg.e.ins("cvt.u32.u64 %s, %s", r, v)
	return r, nil
}

// narrow is a source cut to bits (16, 32 or 64) in a register of that
// width.
func (rg *roleGen) narrow(op litmus.Operand, bits int, in *litmus.Instr) (string, error) {
	v, err := rg.val64(op, in)
	if err != nil {
		return "", err
	}
	e := rg.e
	switch bits {
	case 64:
		if op.Kind == litmus.OperandImm {
			r := e.rd64()
			e.ins("mov.u64 %s, %s", r, v)
			return r, nil
		}
		return v, nil
	case 32:
		r := e.r32()
		if op.Kind == litmus.OperandImm {
			e.ins("mov.u32 %s, %d", r, uint32(op.Imm))
		} else {
			e.ins("cvt.u32.u64 %s, %s", r, v)
		}
		return r, nil
	}
	r := e.h16()
	if op.Kind == litmus.OperandImm {
		e.ins("mov.u16 %s, %d", r, uint16(op.Imm))
	} else {
		e.ins("cvt.u16.u64 %s, %s", r, v)
	}
	return r, nil
}

// widen sets the 64-bit test register dst from a narrow register,
// extended as signed says.
func (rg *roleGen) widen(dst, src string, bits int, signed bool) {
	if bits == 64 {
		rg.e.ins("mov.u64 %s, %s", dst, src)
		return
	}
	s := "u"
	if signed {
		s = "s"
	}
	rg.e.ins("cvt.%s64.%s%d %s, %s", s, s, bits, dst, src)
}

// wrap cuts a 64-bit register to a type's bits and extends it back, as
// the register instructions with a type do.
func (rg *roleGen) wrap(reg string, t litmus.DataType) {
	if t.Name == "" || t.Size >= 8 {
		return
	}
	bits := 8 * t.Size
	if t.Signed {
		rg.e.ins("shl.b64 %s, %s, %d", reg, reg, 64-bits)
		rg.e.ins("shr.s64 %s, %s, %d", reg, reg, 64-bits)
		return
	}
	rg.e.ins("and.b64 %s, %s, %d", reg, reg, uint64(1)<<bits-1)
}

// dst is the PTX register of a destination.
func (rg *roleGen) dst(name string, in *litmus.Instr) (string, error) {
	if reg, ok := rg.regs[name]; ok {
		return reg, nil
	}
	return "", fmt.Errorf("%s: %q: unknown register %s", in.Pos, in.Text, name)
}
