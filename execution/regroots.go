package execution

import "github.com/ptxmm/ptxmm/litmus"

// registerRoots returns the roots of every address register reg of thread
// th may hold, and false when that is not known without running the
// thread. It is known when every instruction of th that writes reg is a
// mapa or an untyped mov whose source is a named address, or a register
// known in the same way, and the init block sets reg to a named address
// or to no address at all (a number used as an address is an error, so it
// reaches nothing). Every other write (a load, arithmetic, a typed mov)
// may make any address. seen holds the registers being resolved, so that
// a cycle of movs adds nothing of its own.
func registerRoots(t *litmus.Test, th *litmus.Thread, l *Layout, reg string, seen map[string]bool) (map[int]bool, bool) {
	roots := map[int]bool{}
	if seen[reg] {
		return roots, true
	}
	seen[reg] = true
	named := func(name string) bool {
		a, ok := l.Addr(name)
		if ok {
			roots[l.Addrs[a].Root] = true
		}
		return ok
	}
	for _, ri := range t.RegInits {
		if ri.Thread == th.Index && ri.Reg == reg && ri.Addr != "" && !named(ri.Addr) {
			return nil, false
		}
	}
	for _, in := range th.Instrs {
		writes := false
		for _, w := range in.WrittenRegs() {
			writes = writes || w == reg
		}
		if !writes {
			continue
		}
		if in.Op != litmus.OpMapa && (in.Op != litmus.OpMov || in.Type.Name != "") {
			return nil, false
		}
		switch in.A.Kind {
		case litmus.OperandAddr:
			if !named(in.A.Addr) {
				return nil, false
			}
		case litmus.OperandReg:
			more, ok := registerRoots(t, th, l, in.A.Reg, seen)
			if !ok {
				return nil, false
			}
			for r := range more {
				roots[r] = true
			}
		default:
			if in.Op == litmus.OpMapa {
				return nil, false
			}
			// A mov of a number: no address.
		}
	}
	return roots, true
}
