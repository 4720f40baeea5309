package litmus

import (
	"fmt"
	"strings"
)

// This file checks, once names are resolved, that the memory operands of
// the instructions whose state spaces PTX fixes (mbarriers, asynchronous
// copies, wgmma, mapa) name addresses of the right state space. Operands
// held in registers are checked when the execution computes them.

// spaceNeed is the state space an operand must be in.
type spaceNeed int

const (
	needMBarrier  spaceNeed = iota // an mbarrier object (shared memory)
	needShared                     // a shared-memory location, not an mbarrier
	needSharedAny                  // any shared-memory address, mbarriers included
	needGlobal
	needTensor         // tensor memory
	needSharedOrTensor // tcgen05.mma's a: shared or tensor memory
	needNotTensor      // any memory but tensor memory
	needMultimem       // a multimem address
)

// operandNeed is one operand of an instruction with the space it needs.
type operandNeed struct {
	op   *Operand
	need spaceNeed
	what string
}

// operandNeeds lists the operands of in whose state space PTX fixes.
func operandNeeds(in *Instr) []operandNeed {
	switch in.Op {
	case OpMBarrier, OpCopyArrive:
		return []operandNeed{{&in.Addr, needMBarrier, "mbarrier"}}
	case OpCopy:
		out := []operandNeed{}
		switch in.Copy {
		case CopyAsync, CopyBulkLoad:
			out = append(out, operandNeed{&in.Addr, needShared, "destination"}, operandNeed{&in.Mem2, needGlobal, "source"})
		default:
			out = append(out, operandNeed{&in.Addr, needGlobal, "destination"}, operandNeed{&in.Mem2, needShared, "source"})
		}
		if in.Copy == CopyBulkLoad {
			out = append(out, operandNeed{&in.MBar, needMBarrier, "mbarrier"})
		}
		return out
	case OpWgmma:
		return []operandNeed{{&in.Addr, needShared, "A operand"}, {&in.Mem2, needShared, "B operand"}}
	case OpStAsync:
		if in.Sem == SemRelease {
			return []operandNeed{{&in.Addr, needGlobal, "destination"}}
		}
		return []operandNeed{{&in.Addr, needShared, "destination"}, {&in.MBar, needMBarrier, "mbarrier"}}
	case OpMapa:
		return []operandNeed{{&in.A, needSharedAny, "shared address"}}
	case OpLoad, OpStore, OpAtom, OpRed:
		if in.Multimem {
			return []operandNeed{{&in.Addr, needMultimem, "address"}}
		}
		return []operandNeed{{&in.Addr, needNotTensor, "address"}}
	case OpTcgen05:
		switch in.Tc {
		case TcMma:
			return []operandNeed{{&in.Addr, needTensor, "accumulator d"}, {&in.Mem2, needSharedOrTensor, "a operand"}, {&in.Mem3, needShared, "b operand"}}
		case TcCp:
			return []operandNeed{{&in.Addr, needTensor, "destination"}, {&in.Mem2, needShared, "source"}}
		case TcShift, TcLd, TcSt:
			return []operandNeed{{&in.Addr, needTensor, "tensor memory operand"}}
		case TcCommit:
			return []operandNeed{{&in.Addr, needMBarrier, "mbarrier"}}
		case TcAlloc:
			return []operandNeed{{&in.Addr, needShared, "destination"}}
		}
	}
	return nil
}

// checkOperandSpaces reports operands naming an address of the wrong state
// space, mbarrier operands naming undeclared addresses, and counts written
// as the name of an address (as in PTX's "mbarrier.arrive state, [b]",
// whose state result ptxmm does not model).
func (p *parser) checkOperandSpaces(t *Test, implicit map[string]bool) {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Op == OpMBarrier {
				for _, o := range []Operand{in.Src, in.Src2} {
					if o.Kind == OperandReg && t.AddressByName(o.Reg) != nil && !implicit[o.Reg] {
						p.errs.Add(p.opPos(o.At), "%s is an address, not a count, in %q: write the mbarrier operand first (mbarrier.%s b {, N}); PTX's state result is not modelled, so only the sink _ may come before it", o.Reg, in.Text, in.MBarOp)
					}
				}
			}
			for _, on := range operandNeeds(in) {
				if on.op.Kind != OperandAddr {
					continue
				}
				a := t.AddressByName(on.op.Addr)
				if a == nil {
					continue // reported by resolution
				}
				root := a
				for i := 0; root.AliasOf != "" && i < len(t.Addresses); i++ {
					if next := t.AddressByName(root.AliasOf); next != nil {
						root = next
					}
				}
				p.checkSpace(in, on, a, root, implicit[a.Name])
			}
		}
	}
}

// checkSpace checks one operand against the space it needs.
func (p *parser) checkSpace(in *Instr, on operandNeed, a, root *Address, implicit bool) {
	mn := in.Text
	switch on.need {
	case needMBarrier:
		if implicit {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is not declared: declare it in the init block, e.g. %s @ mbarrier 1 (.test: .mbarrier %s 1;)", on.what, a.Name, mn, a.Name, a.Name)
			return
		}
		if root.Space != SpaceShared {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is in %s memory: mbarrier objects live in shared memory (declare %s @ mbarrier N)", on.what, a.Name, mn, root.Space, a.Name)
		}
	case needShared:
		if root.Space != SpaceShared || root.MBarrier > 0 {
			what := "in " + root.Space.String() + " memory"
			if root.Space == SpaceTensor {
				what = "in tensor memory"
			}
			if root.MBarrier > 0 {
				what = "an mbarrier object"
			}
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is %s: it must be a shared-memory location (declare %s @ shared = 0)", on.what, a.Name, mn, what, a.Name)
		}
	case needSharedAny:
		if root.Space != SpaceShared {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is in %s memory: mapa maps shared-memory addresses", on.what, a.Name, mn, root.Space)
		}
	case needTensor:
		if root.Space != SpaceTensor {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is in %s memory: it must be tensor memory (declare %s @ tmem = 0)", on.what, a.Name, mn, root.Space, a.Name)
		}
	case needSharedOrTensor:
		if root.Space == SpaceGlobal || root.MBarrier > 0 {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q must be in shared or tensor memory", on.what, a.Name, mn)
		}
	case needNotTensor:
		if root.Space == SpaceTensor {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is in tensor memory, which only tcgen05 instructions reach (tcgen05.ld, tcgen05.st, ...)", on.what, a.Name, mn)
			return
		}
		if a.Kind == ProxyConstant && in.Op != OpLoad {
			// st page: "Stores to const memory are illegal"; atom and red
			// "may be used only with .global and .shared spaces".
			p.errs.Add(p.opPos(on.op.At), "%s is a constant reference, and %q writes: stores to constant memory are illegal in PTX (only loads read it); write through %s instead", a.Name, mn, root.Name)
			return
		}
		p.checkSpaceQual(in, on, a, root)
	case needMultimem:
		if len(a.Multimem) == 0 {
			p.errs.Add(p.opPos(on.op.At), "%s is not a multimem address, but %q operates on all the locations of one: declare one (NAME @ multimem %s, ...; in .test files .multimem NAME %s, ...;) and name it", a.Name, mn, a.Name, a.Name)
		}
	case needGlobal:
		if root.Space != SpaceGlobal {
			p.errs.Add(p.opPos(on.op.At), "the %s %s of %q is in %s memory: it must be a global-memory location", on.what, a.Name, mn, root.Space)
		}
	}
}

// checkSpaceQual checks the state space an ld, st, atom or red names
// against its location's (8.3, docs/model.md "State spaces"): .global
// reaches only global memory, .shared, .shared::cta and .shared::cluster
// only shared memory. Without a state space the access uses generic
// addressing and reaches either.
func (p *parser) checkSpaceQual(in *Instr, on operandNeed, a, root *Address) {
	want := SpaceShared
	switch in.SpaceQ {
	case SpaceQNone:
		return
	case SpaceQGlobal:
		want = SpaceGlobal
	}
	if root.Space == want {
		return
	}
	name := a.Name
	if root.Name != a.Name {
		name = fmt.Sprintf("%s (an alias of %s)", a.Name, root.Name)
	}
	fix := "write .shared"
	if want == SpaceShared {
		fix = fmt.Sprintf("declare %s @ shared = 0 (.test: .shared %s;)", root.Name, root.Name)
	}
	op := strings.SplitN(in.Text, " ", 2)[0]
	p.errs.Add(p.opPos(on.op.At), "%s reaches %s memory, but %s is in %s memory: %s, or leave the state space out (generic addressing reaches either)", op, want, name, root.Space, fix)
}
