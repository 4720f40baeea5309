package litmus

import "slices"

// setp (PTX ISA 9.7.6.2) makes predicates, such as the c operand of
// bar.red: "setp.CmpOp.type p, a, b" sets register p to 1 when a CmpOp b
// holds and to 0 otherwise. Predicates are ordinary registers in litmus
// tests (docs/litmus.md, "Predicates").

// setpCmps are the integer comparisons; lo, ls, hi and hs are the
// unsigned spellings of lt, le, gt and ge.
var setpCmps = []string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}

// setpTypes are the integer types setp takes.
var setpTypes = []string{"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"}

// parseSetp parses "setp.CMP.TYPE p, a, b"; in.Cmp holds "CMP.TYPE".
func (p *parser) parseSetp(c *cursor, in *Instr, m mnemonic) bool {
	if len(m.qs) == 0 || !slices.Contains(setpCmps, m.qs[0].name) {
		at, found := m.off, "none"
		if len(m.qs) > 0 {
			at, found = m.qs[0].off, "."+m.qs[0].name
		}
		p.errorf(at, "setp needs an integer comparison first: .eq, .ne, .lt, .le, .gt, .ge, .lo, .ls, .hi or .hs, found %s", found)
		return false
	}
	cmp := m.qs[0]
	if len(m.qs) < 2 {
		p.errorf(m.off, "setp.%s needs a type: .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32 or .s64", cmp.name)
		return false
	}
	typ := m.qs[1]
	switch {
	case typ.name == "and" || typ.name == "or" || typ.name == "xor" || typ.name == "ftz":
		p.errorf(typ.off, "setp.%s.%s is not supported: ptxmm's setp is setp.CMP.TYPE p, a, b (combine predicates with and, or and xor)", cmp.name, typ.name)
		return false
	case !slices.Contains(setpTypes, typ.name):
		p.errorf(typ.off, "setp cannot compare .%s: expected an integer type (.b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32 or .s64)", typ.name)
		return false
	case typ.name[0] == 'b' && cmp.name != "eq" && cmp.name != "ne":
		p.errorf(cmp.off, "setp.%s.%s: the bit-size types compare only with .eq and .ne; use .u%s or .s%s", cmp.name, typ.name, typ.name[1:], typ.name[1:])
		return false
	case typ.name[0] == 's' && slices.Contains([]string{"lo", "ls", "hi", "hs"}, cmp.name):
		p.errorf(cmp.off, "setp.%s.%s: .lo, .ls, .hi and .hs are unsigned comparisons; use .u%s", cmp.name, typ.name, typ.name[1:])
		return false
	}
	if len(m.qs) > 2 {
		p.errorf(m.qs[2].off, "unexpected qualifier .%s after setp.%s.%s", m.qs[2].name, cmp.name, typ.name)
		return false
	}
	in.Op, in.Cmp = OpSetp, cmp.name+"."+typ.name
	if !p.destination(c, in, m.op) {
		return false
	}
	if !p.operandPair(c, in, m.op) {
		return false
	}
	return p.endOperands(c, m.op)
}
