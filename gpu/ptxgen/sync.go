package ptxgen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// fence writes memory fences, membar, fence.proxy.async and
// fence.mbarrier_init.
func (rg *roleGen) fence(in *litmus.Instr) error {
	e := rg.e
	switch in.Op {
	case litmus.OpMBarInitFence:
		e.ins("fence.mbarrier_init.release.cluster")
	case litmus.OpProxyFence:
		if in.Sem == litmus.SemRelease || in.Sem == litmus.SemAcquire {
			// fence.proxy.async::generic.{release,acquire}.sync_restrict::... (PTX ISA 8.6).
			e.ins("fence.proxy.async::generic.%s.sync_restrict::shared::%s.%s", in.Sem, map[litmus.SpaceQual]string{litmus.SpaceQShared: "cta", litmus.SpaceQCluster: "cluster"}[in.SpaceQ], in.Scope)
			return nil
		}
		e.ins("fence.proxy.async%s", map[litmus.SpaceQual]string{litmus.SpaceQGlobal: ".global", litmus.SpaceQShared: ".shared::cta", litmus.SpaceQCluster: ".shared::cluster"}[in.SpaceQ])
	default:
		if strings.HasPrefix(in.Text, "membar") {
			e.ins("membar.%s", map[litmus.Scope]string{litmus.ScopeCTA: "cta", litmus.ScopeGPU: "gl", litmus.ScopeSys: "sys"}[in.Scope])
			return nil
		}
		if in.SpaceQ != litmus.SpaceQNone {
			// fence.release.sync_restrict::shared::cta.cluster or
			// fence.acquire.sync_restrict::shared::cluster.cluster (PTX ISA 8.6).
			e.ins("fence.%s.sync_restrict::shared::%s.%s", in.Sem, map[litmus.SpaceQual]string{litmus.SpaceQShared: "cta", litmus.SpaceQCluster: "cluster"}[in.SpaceQ], in.Scope)
			return nil
		}
		e.ins("fence.%s.%s", in.Sem, in.Scope)
	}
	return nil
}

// barrier writes bar/barrier .sync and .arrive. Every instance in the
// CTA meets at the same PTX barrier, which counts the test's threads that
// use it times the instances of the CTA (32 per group). barrier.sync is
// used without .aligned: the lanes of a warp are different instances,
// which may diverge.
func (rg *roleGen) barrier(in *litmus.Instr) error {
	e := rg.e
	id, users := rg.p.barrier(rg.r, in)
	cnt := e.r32()
	e.ins("mul.lo.u32 %s, %%k_g32, %d", cnt, users)
	kind := "sync"
	if in.BarKind == litmus.BarArrive {
		kind = "arrive"
	}
	e.ins("barrier.%s %d, %s", kind, id, cnt)
	return nil
}

// clusterBarrier writes barrier.cluster.arrive and .wait, without
// .aligned for the same reason.
func (rg *roleGen) clusterBarrier(in *litmus.Instr) error {
	if in.BarKind == litmus.BarArrive {
		rg.e.ins("barrier.cluster.arrive.%s", in.Sem)
		return nil
	}
	rg.e.ins("barrier.cluster.wait.acquire")
	return nil
}

// mbarrier writes the mbarrier instructions. A test_wait or try_wait
// without .parity names a phase number, which PTX's waits do not take:
// it runs as the .parity form with the number's parity, which agrees with
// the model while the mbarrier is at most one phase past it.
func (rg *roleGen) mbarrier(in *litmus.Instr) error {
	e := rg.e
	f := formCTA
	if in.SpaceQ == litmus.SpaceQCluster {
		f = formCluster
	}
	a, err := rg.addr(in.Addr, f, in)
	if err != nil {
		return err
	}
	if f == formCluster {
		if o, _ := rg.p.memOrigin(rg.r, in.Addr, in); o.cta < 0 || o.cta == rg.r.CTA {
			f = formCTA
		}
	}
	space := spaceQual(f)
	at := "[" + a + "]"
	scope := in.Scope
	if scope == litmus.ScopeNone {
		scope = litmus.ScopeCTA
	}
	switch in.MBarOp {
	case litmus.MBarInit:
		n, err := rg.val32(in.Src, in)
		if err != nil {
			return err
		}
		e.ins("mbarrier.init.shared::cta.b64 %s, %s", at, n)
	case litmus.MBarInval:
		e.ins("mbarrier.inval.shared::cta.b64 %s", at)
	case litmus.MBarArrive, litmus.MBarArriveDrop:
		state := "%k_mstate"
		if f == formCluster {
			state = "_"
		}
		op := fmt.Sprintf("mbarrier.%s.%s.%s%s.b64", in.MBarOp, in.Sem, scope, space)
		arg := ""
		if strings.Contains(in.Text, "expect_tx") {
			op = fmt.Sprintf("mbarrier.arrive.expect_tx.%s.%s%s.b64", in.Sem, scope, space)
			if in.MBarOp == litmus.MBarArriveDrop {
				// The instruction page lists the state space first
				// for arrive_drop.expect_tx.
				op = fmt.Sprintf("mbarrier.arrive_drop.expect_tx%s.%s.%s.b64", space, in.Sem, scope)
			}
			tx, err := rg.val32(in.Src2, in)
			if err != nil {
				return err
			}
			arg = ", " + tx
		} else if in.Src.Kind != litmus.OperandImm || in.Src.Imm != 1 {
			n, err := rg.val32(in.Src, in)
			if err != nil {
				return err
			}
			arg = ", " + n
		}
		e.ins("%s %s, %s%s", op, state, at, arg)
	case litmus.MBarExpectTx, litmus.MBarCompleteTx:
		// The parser keeps the transaction count in Src2 (Src is the
		// arrival count, which these two do not take).
		tx, err := rg.val32(in.Src2, in)
		if err != nil {
			return err
		}
		e.ins("mbarrier.%s.relaxed.%s%s.b64 %s, %s", in.MBarOp, scope, space, at, tx)
	case litmus.MBarTestWait, litmus.MBarTryWait:
		par, err := rg.val32(in.Src, in)
		if err != nil {
			return err
		}
		if !in.Parity {
			if in.Src.Kind == litmus.OperandImm {
				par = fmt.Sprint(in.Src.Imm & 1)
			} else {
				e.ins("and.b32 %s, %s, 1", par, par)
			}
		}
		pr := e.pred()
		e.ins("mbarrier.%s.parity.%s.%s.shared::cta.b64 %s, %s, %s", in.MBarOp, in.Sem, scope, pr, at, par)
		d, err := rg.dst(in.Dst, in)
		if err != nil {
			return err
		}
		e.ins("selp.u64 %s, 1, 0, %s", d, pr)
	}
	return nil
}
