package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// instr writes instruction k of the role: its guard, then the
// instruction itself.
func (rg *roleGen) instr(k int, in *litmus.Instr) error {
	e := rg.e
	if in.Op == litmus.OpLabel {
		e.mark(rg.label(in.Label))
		return nil
	}
	e.comment("%s", in.Text)
	guard := ""
	if in.Guard.Kind == litmus.OperandReg {
		g, err := rg.val64(in.Guard, in)
		if err != nil {
			return err
		}
		guard = e.pred()
		cmp := "ne"
		if in.GuardNeg {
			cmp = "eq"
		}
		e.ins("setp.%s.s64 %s, %s, 0", cmp, guard, g)
	}
	if in.Op == litmus.OpBranch || in.Op == litmus.OpGoto {
		return rg.branch(k, in, guard)
	}
	skip := ""
	if guard != "" {
		skip = e.newLabel("SKIP")
		e.ins("@!%s bra %s", guard, skip)
	}
	if err := rg.body(in); err != nil {
		return err
	}
	if skip != "" {
		e.mark(skip)
	}
	return nil
}

// body writes an instruction without its guard.
func (rg *roleGen) body(in *litmus.Instr) error {
	switch in.Op {
	case litmus.OpLoad:
		return rg.load(in)
	case litmus.OpStore:
		return rg.store(in)
	case litmus.OpAtom, litmus.OpRed:
		return rg.atomic(in)
	case litmus.OpFence, litmus.OpProxyFence, litmus.OpMBarInitFence:
		return rg.fence(in)
	case litmus.OpBarrier:
		return rg.barrier(in)
	case litmus.OpClusterBarrier:
		return rg.clusterBarrier(in)
	case litmus.OpMBarrier:
		return rg.mbarrier(in)
	case litmus.OpCopy:
		return rg.copy(in)
	case litmus.OpAsyncGroup:
		return rg.group(in)
	case litmus.OpCopyArrive:
		return rg.copyArrive(in)
	case litmus.OpStAsync:
		return rg.stAsync(in)
	case litmus.OpMov:
		return rg.mov(in)
	case litmus.OpArith:
		return rg.arith(in)
	case litmus.OpSetp:
		return rg.setp(in)
	case litmus.OpMapa:
		return nil // the address is computed where it is used
	}
	return fmt.Errorf("%s: %q cannot run on the GPU", in.Pos, in.Text)
}

// label is the PTX label of a test label of the role.
func (rg *roleGen) label(name string) string {
	return fmt.Sprintf("$R%d_%s", rg.r.Index, sanitize(name))
}

// branch writes beq, bne, goto and bra. A backward branch spends one of
// the thread's loop iterations: when none is left it is not taken, the
// status records that the bound was hit, and the thread goes on, so a
// loop that would never end cannot hang the GPU.
func (rg *roleGen) branch(k int, in *litmus.Instr, guard string) error {
	e := rg.e
	at, ok := rg.labels[in.Label]
	if !ok {
		return fmt.Errorf("%s: %q: unknown label %s", in.Pos, in.Text, in.Label)
	}
	cond := guard
	if in.Op == litmus.OpBranch {
		a, err := rg.reg64(in.A, in)
		if err != nil {
			return err
		}
		b, err := rg.val64(in.B, in)
		if err != nil {
			return err
		}
		c := e.pred()
		if guard != "" {
			e.ins("setp.%s.and.s64 %s, %s, %s, %s", in.Cmp, c, a, b, guard)
		} else {
			e.ins("setp.%s.s64 %s, %s, %s", in.Cmp, c, a, b)
		}
		cond = c
	}
	target := rg.label(in.Label)
	if at > k {
		if cond == "" {
			e.ins("bra %s", target)
		} else {
			e.ins("@%s bra %s", cond, target)
		}
		return nil
	}
	notTaken := e.newLabel("STAY")
	if cond != "" {
		e.ins("@!%s bra %s", cond, notTaken)
	}
	bound := e.pred()
	e.ins("sub.s64 %%k_bnd, %%k_bnd, 1")
	e.ins("setp.gt.s64 %s, %%k_bnd, 0", bound)
	e.ins("@%s bra %s", bound, target)
	e.ins("or.b64 %%k_st, %%k_st, 2")
	e.mark(notTaken)
	return nil
}
