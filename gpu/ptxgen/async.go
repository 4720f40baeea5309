package ptxgen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// copySize is the bytes a copy moves: its SIZE, or for a cp.async
// without one the smallest of 4, 8 and 16 that holds the destination.
func (rg *roleGen) copySize(in *litmus.Instr) (int64, error) {
	if in.Size.Kind == litmus.OperandImm {
		return in.Size.Imm, nil
	}
	if in.Copy != litmus.CopyAsync {
		return 0, fmt.Errorf("%s: %q: the copy needs its size as a number", in.Pos, in.Text)
	}
	if strings.Contains(in.Text, ".cg") {
		return 16, nil
	}
	o, err := rg.p.memOrigin(rg.r, in.Addr, in)
	if err != nil {
		return 0, err
	}
	size := rg.p.locOf(o.addr).Size
	for _, n := range []int{4, 8, 16} {
		if size <= n {
			return int64(n), nil
		}
	}
	return 0, fmt.Errorf("%s: %q: cp.async copies at most 16 bytes, and %s has %d", in.Pos, in.Text, rg.p.locOf(o.addr).Name, size)
}

// copy writes cp.async and the bulk copies.
func (rg *roleGen) copy(in *litmus.Instr) error {
	e := rg.e
	size, err := rg.copySize(in)
	if err != nil {
		return err
	}
	switch in.Copy {
	case litmus.CopyAsync:
		dst, err := rg.addr(in.Addr, formCTA, in)
		if err != nil {
			return err
		}
		src, err := rg.addr(in.Mem2, formGlobal, in)
		if err != nil {
			return err
		}
		cache := "ca"
		if strings.Contains(in.Text, ".cg") {
			cache = "cg"
		}
		if in.Src.Kind == litmus.OperandImm {
			e.ins("cp.async.%s.shared.global [%s], [%s], %d, %d", cache, dst, src, size, min(in.Src.Imm, size))
		} else {
			e.ins("cp.async.%s.shared.global [%s], [%s], %d", cache, dst, src, size)
		}
	case litmus.CopyBulkLoad:
		// The destination and the mbarrier are .shared::cluster
		// addresses: another CTA's (through mapa) or the thread's own.
		dst, err := rg.addr(in.Addr, formCluster, in)
		if err != nil {
			return err
		}
		src, err := rg.addr(in.Mem2, formGlobal, in)
		if err != nil {
			return err
		}
		mbar, err := rg.addr(in.MBar, formCluster, in)
		if err != nil {
			return err
		}
		e.ins("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%s], [%s], %d, [%s]", dst, src, size, mbar)
	case litmus.CopyBulkStore, litmus.CopyBulkReduce:
		dst, err := rg.addr(in.Addr, formGlobal, in)
		if err != nil {
			return err
		}
		src, err := rg.addr(in.Mem2, formCTA, in)
		if err != nil {
			return err
		}
		if in.Copy == litmus.CopyBulkStore {
			e.ins("cp.async.bulk.global.shared::cta.bulk_group [%s], [%s], %d", dst, src, size)
			return nil
		}
		o, _ := rg.p.memOrigin(rg.r, in.Addr, in)
		typ := "u32"
		if in.Type.Size == 8 || in.Type.Size == 0 && rg.p.locOf(o.addr).Size == 8 {
			typ = "u64"
		}
		e.ins("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.%s [%s], [%s], %d", typ, dst, src, size)
	}
	return nil
}

// group writes the commits and waits of cp.async and bulk groups.
func (rg *roleGen) group(in *litmus.Instr) error {
	e := rg.e
	prefix := "cp.async"
	if in.Family == litmus.GroupBulk {
		prefix = "cp.async.bulk"
	}
	switch in.GroupOp {
	case litmus.GroupCommit:
		e.ins("%s.commit_group", prefix)
	case litmus.GroupWaitAll:
		e.ins("cp.async.wait_all")
	default:
		read := ""
		if in.ReadOnly {
			read = ".read"
		}
		e.ins("%s.wait_group%s %d", prefix, read, in.Count.Imm)
	}
	return nil
}

// copyArrive writes cp.async.mbarrier.arrive.
func (rg *roleGen) copyArrive(in *litmus.Instr) error {
	a, err := rg.addr(in.Addr, formCTA, in)
	if err != nil {
		return err
	}
	noinc := ""
	if in.NoInc {
		noinc = ".noinc"
	}
	rg.e.ins("cp.async.mbarrier.arrive%s.shared::cta.b64 [%s]", noinc, a)
	return nil
}

// stAsync writes st.async and red.async: a store or reduction into a
// CTA's shared memory of the cluster whose completion performs a
// complete-tx of its size on an mbarrier of that CTA. Both addresses are
// .shared::cluster ones (an own-CTA .shared::cta address is one too).
func (rg *roleGen) stAsync(in *litmus.Instr) error {
	dst, err := rg.addr(in.Addr, formCluster, in)
	if err != nil {
		return err
	}
	mbar, err := rg.addr(in.MBar, formCluster, in)
	if err != nil {
		return err
	}
	const mech = ".shared::cluster.mbarrier::complete_tx::bytes"
	if in.AtomOp == "" {
		bits := 8 * in.Type.Size
		if in.Type.Size == 0 {
			bits = 8 * litmus.DefaultType().Size
		}
		v, err := rg.narrow(in.Src, bits, in)
		if err != nil {
			return err
		}
		rg.e.ins("st.async.weak%s.b%d %s, %s, [%s]", mech, bits, operandAt(dst, in.Offset), v, mbar)
		return nil
	}
	typ, bits := atomType(in.AtomOp, in.Type)
	if in.AtomOp == "add" && in.Type.Signed {
		typ = fmt.Sprintf("s%d", bits)
	}
	v, err := rg.narrow(in.Src, bits, in)
	if err != nil {
		return err
	}
	rg.e.ins("red.async.relaxed.cluster%s.%s.%s %s, %s, [%s]", mech, in.AtomOp, typ, operandAt(dst, in.Offset), v, mbar)
	return nil
}
