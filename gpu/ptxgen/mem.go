package ptxgen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// spaceQual is the state-space qualifier of an access in form f.
func spaceQual(f form) string {
	switch f {
	case formGlobal:
		return ".global"
	case formCTA:
		return ".shared::cta"
	case formCluster:
		return ".shared::cluster"
	}
	return ""
}

// semQual is the memory order and scope of a load or store.
func semQual(in *litmus.Instr) string {
	switch in.Sem {
	case litmus.SemRelaxed, litmus.SemAcquire, litmus.SemRelease:
		return "." + in.Sem.String() + "." + in.Scope.String()
	case litmus.SemVolatile:
		return ".volatile"
	case litmus.SemMMIO:
		return ".mmio.relaxed.sys"
	}
	return ""
}

// elemType is the PTX type of one element of an ld or st: loads of .s
// types sign-extend, all others zero-extend (floating-point values are
// bit patterns in ptxmm).
func elemType(t litmus.DataType) (string, int, bool) {
	if t.Size == 0 {
		t = litmus.DefaultType()
	}
	bits := 8 * t.RegSize()
	if t.Signed && t.Packed == 0 {
		return fmt.Sprintf("s%d", bits), bits, true
	}
	return fmt.Sprintf("u%d", bits), bits, false
}

// access returns the address register and the form of an ld or st.
func (rg *roleGen) access(in *litmus.Instr) (string, form, error) {
	f := formOf(in.SpaceQ)
	if in.Sem == litmus.SemMMIO {
		f = formGlobal // ld.mmio and st.mmio reach global memory only
	}
	a, err := rg.addr(in.Addr, f, in)
	if err != nil {
		return "", 0, err
	}
	if f == formCluster {
		if o, _ := rg.p.memOrigin(rg.r, in.Addr, in); o.cta < 0 || o.cta == rg.r.CTA {
			f = formCTA
		}
	}
	return a, f, nil
}

// operandAt is "[a+off]".
func operandAt(a string, off int64) string {
	if off == 0 {
		return "[" + a + "]"
	}
	return fmt.Sprintf("[%s+%d]", a, off)
}

// load writes ld, scalar or vector, and a .test load filter.
func (rg *roleGen) load(in *litmus.Instr) error {
	e := rg.e
	a, f, err := rg.access(in)
	if err != nil {
		return err
	}
	typ, bits, signed := elemType(in.Type)
	op := "ld" + semQual(in) + spaceQual(f)
	if in.Proxy == litmus.ProxyTexture && isNCLoad(in) {
		op = "ld.global.nc" // weak, global, through the texture cache
	}
	at := operandAt(a, in.Offset)
	if in.Vec == 0 {
		d, err := rg.dst(in.Dst, in)
		if err != nil {
			return err
		}
		e.ins("%s.%s %s, %s", op, typ, d, at)
		if in.Filter != nil {
			rg.filter(d, *in.Filter, bits)
		}
		return nil
	}
	var tmps []string
	for range in.VecDst {
		if bits == 64 {
			tmps = append(tmps, e.rd64())
		} else {
			tmps = append(tmps, e.r32())
		}
	}
	e.ins("%s.v%d.%s {%s}, %s", op, in.Vec, typ, strings.Join(tmps, ", "), at)
	for i, name := range in.VecDst {
		d, err := rg.dst(name, in)
		if err != nil {
			return err
		}
		rg.widen(d, tmps[i], min(max(bits, 32), 64), signed)
	}
	return nil
}

// filter marks the instance when a load did not return v (compared on the
// loaded bits).
func (rg *roleGen) filter(d string, v int64, bits int) {
	e := rg.e
	x, pr := e.rd64(), e.pred()
	mask := ^uint64(0)
	if bits < 64 {
		mask = uint64(1)<<bits - 1
	}
	e.ins("and.b64 %s, %s, %d", x, d, mask)
	e.ins("setp.ne.u64 %s, %s, %d", pr, x, uint64(v)&mask)
	e.ins("@%s or.b64 %%k_st, %%k_st, 4", pr)
}

// store writes st, scalar or vector.
func (rg *roleGen) store(in *litmus.Instr) error {
	e := rg.e
	a, f, err := rg.access(in)
	if err != nil {
		return err
	}
	typ, bits, _ := elemType(in.Type)
	typ = "u" + typ[1:]
	op := "st" + semQual(in) + spaceQual(f)
	at := operandAt(a, in.Offset)
	if in.Vec == 0 {
		v, err := rg.reg64(in.Src, in)
		if err != nil {
			return err
		}
		e.ins("%s.%s %s, %s", op, typ, at, v)
		return nil
	}
	var srcs []string
	for _, op := range in.VecSrc {
		s, err := rg.narrow(op, min(max(bits, 16), 64), in)
		if err != nil {
			return err
		}
		srcs = append(srcs, s)
	}
	e.ins("%s.v%d.%s %s, {%s}", op, in.Vec, typ, at, strings.Join(srcs, ", "))
	return nil
}

// atomType is the PTX type of atom or red operation op on type t.
func atomType(op string, t litmus.DataType) (string, int) {
	if t.Size == 0 {
		t = litmus.DefaultType()
	}
	bits := 8 * t.Size
	switch op {
	case "add", "sub":
		return fmt.Sprintf("u%d", bits), bits
	case "min", "max":
		if t.Signed {
			return fmt.Sprintf("s%d", bits), bits
		}
		return fmt.Sprintf("u%d", bits), bits
	case "inc", "dec":
		return "u32", 32
	}
	return fmt.Sprintf("b%d", bits), bits
}

// atomic writes atom and red. atom.sub (a herd spelling) is an add of
// the negated operand; inc and dec without a limit are adds of 1 and -1.
func (rg *roleGen) atomic(in *litmus.Instr) error {
	e := rg.e
	a, f, err := rg.access(in)
	if err != nil {
		return err
	}
	op := in.AtomOp
	src := in.Src
	switch {
	case op == "sub" && src.Kind == litmus.OperandImm:
		op, src.Imm = "add", -src.Imm
	case op == "sub":
		v, err := rg.val64(src, in)
		if err != nil {
			return err
		}
		n := e.rd64()
		e.ins("neg.s64 %s, %s", n, v)
		rg.regs["$neg"] = n
		src = litmus.Operand{Kind: litmus.OperandReg, Reg: "$neg"}
		op = "add"
	case (op == "inc" || op == "dec") && src.Kind == litmus.OperandNone:
		src = litmus.Operand{Kind: litmus.OperandImm, Imm: 1}
		if op == "dec" {
			src.Imm = -1
		}
		op = "add"
	}
	defer delete(rg.regs, "$neg")
	typ, bits := atomType(op, in.Type)
	if (in.AtomOp == "inc" || in.AtomOp == "dec") && op == "add" {
		typ, bits = atomType("add", in.Type)
	}
	sem := in.Sem
	if sem == litmus.SemWeak {
		sem = litmus.SemRelaxed
	}
	scope := in.Scope
	if scope == litmus.ScopeNone {
		scope = litmus.ScopeGPU
	}
	quals := fmt.Sprintf(".%s.%s%s.%s.%s", sem, scope, spaceQual(f), op, typ)
	at := operandAt(a, in.Offset)
	b, err := rg.narrow(src, bits, in)
	if err != nil {
		return err
	}
	operands := b
	if op == "cas" {
		c, err := rg.narrow(in.Src2, bits, in)
		if err != nil {
			return err
		}
		operands += ", " + c
	}
	if in.Op == litmus.OpRed {
		e.ins("red%s %s, %s", quals, at, operands)
		return nil
	}
	var d string
	switch bits {
	case 64:
		d = e.rd64()
	case 32:
		d = e.r32()
	default:
		d = e.h16()
	}
	e.ins("atom%s %s, %s, %s", quals, d, at, operands)
	dst, err := rg.dst(in.Dst, in)
	if err != nil {
		return err
	}
	t := in.Type
	if t.Size == 0 {
		t = litmus.DefaultType()
	}
	rg.widen(dst, d, bits, t.Signed)
	return nil
}
