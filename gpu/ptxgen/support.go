package ptxgen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// Support reports what of test t the device cannot run, or the harness
// cannot replicate across instances, each problem at its place in the
// test; nil when the test can run.
func Support(t *litmus.Test, dev gpu.Device) error {
	var errs source.List
	gpus := map[int]bool{}
	for _, a := range t.Addresses {
		switch {
		case a.AliasOf != "" && a.Kind == litmus.ProxyGeneric:
			errs.Add(a.Pos, "%s is a second virtual address of %s, which needs the driver's virtual memory mapping: ptxmm run does not map memory twice", a.Name, a.AliasOf)
		case a.AliasOf != "":
			errs.Add(a.Pos, "%s is a %s reference, which needs a CUDA %s object: ptxmm run does not create them", a.Name, a.Kind, a.Kind)
		case len(a.Multimem) > 0:
			errs.Add(a.Pos, "%s is a multimem address, which needs a multicast object bound to several GPUs (cuMulticastCreate): ptxmm run does not create them", a.Name)
		case a.Space == litmus.SpaceTensor:
			errs.Add(a.Pos, "%s is in tensor memory (tcgen05), which sm_100a and later have; the device is %s", a.Name, dev.Arch())
		}
	}
	for _, th := range t.Threads {
		if th.Host {
			errs.Add(th.Pos, "%s is a host thread: ptxmm run does not run host threads and CUDA API calls yet, only tests whose threads are all on the GPU", th.Name)
			continue
		}
		gpus[th.GPU] = true
		for _, in := range th.Instrs {
			if msg := unsupported(in, dev); msg != "" {
				errs.Add(in.Pos, "%q: %s", in.Text, msg)
			}
		}
	}
	if len(gpus) > 1 {
		errs.Add(t.Pos, "the test places threads on %d GPUs: ptxmm run uses one", len(gpus))
	}
	if needs86(t) && dev.Driver < 12080 {
		errs.Add(t.Pos, "the test uses PTX ISA 8.6 (relaxed mbarrier operations, or fence.acquire or fence.release), which needs a CUDA 12.8 driver or later; the driver supports CUDA %s", dev.DriverVersion())
	}
	errs.Sort()
	return errs.Err()
}

// unsupported says why an instruction cannot run, "" when it can.
func unsupported(in *litmus.Instr, dev gpu.Device) string {
	sm := dev.Major*10 + dev.Minor
	switch {
	case in.Op == litmus.OpTcgen05:
		return fmt.Sprintf("tcgen05 instructions need sm_100a or later (tensor memory); the device is %s", dev.Arch())
	case in.Multimem:
		return "multimem instructions need a multicast object bound to several GPUs (cuMulticastCreate), which ptxmm run does not create"
	case in.Op == litmus.OpWgmma || in.Op == litmus.OpWgmmaFence || in.Op == litmus.OpAsyncGroup && in.Family == litmus.GroupWgmma:
		return "ptxmm models wgmma.mma_async as D := D + A + B, which the tensor cores do not compute (they multiply matrices), so wgmma tests are not run"
	case in.Op == litmus.OpAPI:
		return "CUDA API calls are made by host threads, which ptxmm run does not run yet"
	case in.Op == litmus.OpLoad && in.Proxy == litmus.ProxyTexture && isNCLoad(in):
		return ""
	case (in.Op == litmus.OpLoad || in.Op == litmus.OpStore) && in.Proxy != litmus.ProxyGeneric:
		return fmt.Sprintf("accesses through the %s proxy need a CUDA %s object, which ptxmm run does not create", in.Proxy, in.Proxy)
	case in.Op == litmus.OpProxyFence && in.Alias:
		return "fence.proxy.alias orders accesses through two virtual addresses of one location, which ptxmm run does not map"
	case in.Op == litmus.OpProxyFence && in.Proxy != litmus.ProxyAsync:
		return fmt.Sprintf("fence.proxy.%s orders the %s proxy, whose accesses need a CUDA %s object, which ptxmm run does not create", in.Proxy, in.Proxy, in.Proxy)
	case in.Op == litmus.OpBarrier && in.BarWarp:
		return "bar.warp.sync needs the test's threads to be lanes of one warp, and ptxmm run gives each thread a warp of its own"
	case in.Op == litmus.OpBarrier && in.BarRed != litmus.BarRedNone:
		return "bar.red reduces over every thread that arrives at the barrier, and ptxmm run puts many instances of the test in one CTA, whose threads would count too"
	case in.Op == litmus.OpAtom && (in.AtomOp == "inc" || in.AtomOp == "dec") && in.Src.Kind != litmus.OperandNone && in.Type.Size == 8:
		return fmt.Sprintf("PTX has no 64-bit atom.%s with a limit", in.AtomOp)
	case in.Op == litmus.OpRed && (in.AtomOp == "inc" || in.AtomOp == "dec") && in.Src.Kind != litmus.OperandNone && in.Type.Size == 8:
		return fmt.Sprintf("PTX has no 64-bit red.%s with a limit", in.AtomOp)
	case in.Op == litmus.OpMBarrier && in.MBarOp.IsWait() && !in.Parity && (in.Src.Kind == litmus.OperandReg || in.Src.Kind == litmus.OperandImm && in.Src.Imm != 0):
		return "a wait for a phase number runs as the .parity form of the number's parity, which agrees with the model only while the mbarrier is in that phase or the next: from an earlier phase, the parity reads the phase before as complete (docs/hardware.md, the fourth run); ptxmm run runs phase-number waits only for phase 0 (write .parity for the others)"
	case in.Op == litmus.OpMBarrier && in.NoComplete:
		return "ptxmm run does not generate .noComplete: an execution in which the arrive completes the phase is undefined, which a run cannot detect"
	case in.Op == litmus.OpStAsync && in.Sem == litmus.SemRelease:
		return "ptxmm run does not generate the .release forms of st.async and red.async (PTX ISA 8.7, sm_100 and later), which it has not been checked against on a device"
	case in.Op == litmus.OpStAsync && in.MBar.Kind == litmus.OperandNone:
		return "ptxmm run generates st.async and red.async only with an mbarrier's complete-tx (.mbarrier::complete_tx::bytes)"
	case in.Op == litmus.OpCopy && in.Tensor != nil:
		return "a tensor copy needs a tensor map, which the host makes (cuTensorMapEncodeTiled) and passes to the kernel as a parameter: ptxmm run does not make tensor maps"
	case in.Op == litmus.OpCopy && in.CtaMask.Kind != litmus.OperandNone:
		return "ptxmm run does not generate .multicast::cluster loads (advised for sm_90a, whose kernels ptxmm run does not build), which it has not been checked against on a device"
	case in.Op == litmus.OpCopy:
		return copyProblem(in, sm)
	}
	if need := smNeeded(in); need > sm {
		return fmt.Sprintf("needs sm_%d or later; the device is %s", need, dev.Arch())
	}
	return ""
}

// copyProblem checks the sizes PTX allows a copy.
func copyProblem(in *litmus.Instr, sm int) string {
	need := smNeeded(in)
	if need > sm {
		return fmt.Sprintf("needs sm_%d or later; the device is sm_%d", need, sm)
	}
	if in.Size.Kind == litmus.OperandReg {
		return "ptxmm run needs the size of a copy as a number, not a register"
	}
	size := in.Size.Imm
	switch {
	case in.Copy == litmus.CopyAsync && strings.Contains(in.Text, ".cg") && in.Size.Kind == litmus.OperandImm && size != 16:
		return fmt.Sprintf("cp.async.cg copies 16 bytes, not %d", size)
	case in.Copy == litmus.CopyAsync && in.Size.Kind == litmus.OperandImm && size != 4 && size != 8 && size != 16:
		return fmt.Sprintf("cp.async copies 4, 8 or 16 bytes, not %d", size)
	case in.Copy != litmus.CopyAsync && size%16 != 0:
		return fmt.Sprintf("bulk copies move a multiple of 16 bytes, not %d", size)
	}
	return ""
}

// smNeeded is the architecture an instruction needs: sm_90 for clusters,
// the async proxy and mbarrier transactions, sm_80 for cp.async and
// mbarriers, sm_70 for the memory model's strong operations.
func smNeeded(in *litmus.Instr) int {
	switch in.Op {
	case litmus.OpClusterBarrier, litmus.OpMapa, litmus.OpMBarInitFence, litmus.OpStAsync:
		return 90
	case litmus.OpCopy:
		if in.Copy.Bulk() {
			return 90
		}
		return 80
	case litmus.OpAsyncGroup:
		if in.Family == litmus.GroupBulk {
			return 90
		}
		return 80
	case litmus.OpCopyArrive:
		return 80
	case litmus.OpProxyFence:
		return 90
	case litmus.OpMBarrier:
		if in.MBarOp == litmus.MBarExpectTx || in.MBarOp == litmus.MBarCompleteTx || in.Scope == litmus.ScopeCluster ||
			in.SpaceQ == litmus.SpaceQCluster || in.MBarOp == litmus.MBarTryWait || in.Src2.Kind == litmus.OperandReg ||
			in.Src2.Kind == litmus.OperandImm && in.Src2.Imm != 0 {
			return 90
		}
		return 80
	}
	if in.SpaceQ == litmus.SpaceQCluster || in.Scope == litmus.ScopeCluster {
		return 90
	}
	return 70
}

// needs86 reports whether the test uses what PTX ISA 8.6 added: relaxed
// mbarrier arrives, arrive_drops and waits, fence.acquire and
// fence.release.
func needs86(t *litmus.Test) bool {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			switch {
			case in.Op == litmus.OpMBarrier && in.Sem == litmus.SemRelaxed && (in.MBarOp == litmus.MBarArrive || in.MBarOp == litmus.MBarArriveDrop || in.MBarOp.IsWait()):
				return true
			case (in.Op == litmus.OpFence || in.Op == litmus.OpProxyFence) && (in.Sem == litmus.SemAcquire || in.Sem == litmus.SemRelease):
				return true
			}
		}
	}
	return false
}

// versionFor is the PTX ISA version the module of t declares.
func versionFor(t *litmus.Test) string {
	if needs86(t) {
		return "8.6"
	}
	return "8.4"
}

// usesAsyncProxy reports whether t reads or writes memory through the
// async proxy.
func usesAsyncProxy(t *litmus.Test) bool {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Op == litmus.OpCopy && in.Copy.Bulk() {
				return true
			}
		}
	}
	return false
}

// isNCLoad reports whether a texture-proxy load is ld.global.nc, which
// ptxmm run writes as it is, rather than a texture fetch, which needs a
// CUDA texture object.
func isNCLoad(in *litmus.Instr) bool {
	return strings.HasPrefix(in.Text, "ld")
}
