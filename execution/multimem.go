package execution

import "github.com/ptxmm/ptxmm/litmus"

// This file executes multimem.ld_reduce, multimem.st and multimem.red
// (PTX ISA 9.7.9.14; docs/model.md, "Multimem addresses"). The instruction
// performs one memory operation on each location its multimem address
// points to; they carry the instruction's memory order and scope, use the
// multimem address as their virtual address, and are in no program order
// among themselves (catalog: po). A multimem instruction on an address
// that is not a multimem address, which is undefined, operates on that
// address's one location.

// multimem performs a multimem instruction at pl.
func (e *explorer) multimem(s *state, in *litmus.Instr, pl place, ataint []int) error {
	targets := e.layout.Addrs[pl.addr].Multimem
	if len(targets) == 0 {
		targets = []int{pl.addr}
	}
	event := func(k EventKind, target int, sym *Sym) Event {
		ev := newEvent(k, e.th.Index, in)
		ev.Addr, ev.Loc, ev.Sym = pl.addr, e.layout.Loc(target, pl.cta), sym
		e.layout.wholeLocation(&ev)
		return ev
	}
	switch in.Op {
	case litmus.OpLoad:
		// ld_reduce: the reduction of the values read from every location.
		var result *Sym
		for _, target := range targets {
			r := s.addEvent(event(KindRead, target, nil))
			deps(&s.addr, ataint, r)
			read := &Sym{kind: symRead, read: r}
			if result == nil {
				result = read
				continue
			}
			result = &Sym{kind: symAtom, op: in.AtomOp, a: result, b: read, instr: in.Text}
		}
		s.setReg(in.Dst, result)
	case litmus.OpStore:
		v := e.operand(s, in.Src)
		for _, target := range targets {
			w := s.addEvent(event(KindWrite, target, v))
			deps(&s.addr, ataint, w)
			deps(&s.data, v.reads(nil), w)
		}
	default:
		// red: an atomic reduction of every location with the operand.
		v := e.operand(s, in.Src)
		for _, target := range targets {
			r := s.addEvent(event(KindRead, target, nil))
			deps(&s.addr, ataint, r)
			w := s.addEvent(event(KindWrite, target, &Sym{kind: symAtom, op: in.AtomOp, a: &Sym{kind: symRead, read: r}, b: v, instr: in.Text}))
			deps(&s.addr, ataint, w)
			deps(&s.data, append(v.reads(nil), r), w)
			s.rmw = append(s.rmw, [2]int{r, w})
		}
	}
	s.pc++
	return e.explore(s)
}
