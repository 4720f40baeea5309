package ptxgen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// mov writes mov (and herd's register moves); a mov of an address makes
// an address register, which needs no code.
func (rg *roleGen) mov(in *litmus.Instr) error {
	if _, isAddr := rg.r.addrs[in.Dst]; isAddr {
		return nil
	}
	d, err := rg.dst(in.Dst, in)
	if err != nil {
		return err
	}
	v, err := rg.val64(in.A, in)
	if err != nil {
		return err
	}
	rg.e.ins("mov.u64 %s, %s", d, v)
	rg.wrap(d, in.Type)
	return nil
}

// arith writes add, sub, mul, and, or and xor on 64 bits, then wraps the
// result to the instruction's type.
func (rg *roleGen) arith(in *litmus.Instr) error {
	d, err := rg.dst(in.Dst, in)
	if err != nil {
		return err
	}
	a, err := rg.reg64(in.A, in)
	if err != nil {
		return err
	}
	b, err := rg.val64(in.B, in)
	if err != nil {
		return err
	}
	op := map[string]string{"add": "add.s64", "sub": "sub.s64", "mul": "mul.lo.s64", "and": "and.b64", "or": "or.b64", "xor": "xor.b64"}[in.ArithOp]
	if op == "" {
		return fmt.Errorf("%s: %q: unknown operation %s", in.Pos, in.Text, in.ArithOp)
	}
	rg.e.ins("%s %s, %s, %s", op, d, a, b)
	rg.wrap(d, in.Type)
	return nil
}

// setp compares the operands' low bits, signed for .s types, and sets the
// destination to 1 or 0.
func (rg *roleGen) setp(in *litmus.Instr) error {
	e := rg.e
	cmp, typ, ok := strings.Cut(in.Cmp, ".")
	if !ok {
		return fmt.Errorf("%s: %q: malformed comparison %s", in.Pos, in.Text, in.Cmp)
	}
	bits := 0
	fmt.Sscanf(typ[1:], "%d", &bits)
	signed := typ[0] == 's'
	t := litmus.DataType{Name: typ, Size: bits / 8, Signed: signed}
	var ops [2]string
	for i, op := range []litmus.Operand{in.A, in.B} {
		v, err := rg.val64(op, in)
		if err != nil {
			return err
		}
		r := e.rd64()
		e.ins("mov.u64 %s, %s", r, v)
		rg.wrap(r, t)
		ops[i] = r
	}
	ptxCmp := map[string]string{"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}[cmp]
	kind := "u64"
	if signed {
		kind = "s64"
	}
	pr := e.pred()
	e.ins("setp.%s.%s %s, %s, %s", ptxCmp, kind, pr, ops[0], ops[1])
	d, err := rg.dst(in.Dst, in)
	if err != nil {
		return err
	}
	e.ins("selp.u64 %s, 1, 0, %s", d, pr)
	return nil
}
