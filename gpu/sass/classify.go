package sass

import (
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// The kinds compared. Memory operations keep their kind and order;
// fences and barriers are ordering points ("|"), of which the machine
// code may have more than the PTX (a release or acquire operation
// compiles to fences around it) but not fewer.
const (
	kindLoad    = "ld"
	kindStore   = "st"
	kindRMW     = "rmw"  // atom and red
	kindMBar    = "mbar" // mbarrier operations
	kindCopy    = "cp"   // cp.async
	kindBulk    = "bulk" // the bulk copies
	kindOrdered = "|"    // a fence, a barrier, a wait for copies
	// kindResult is a store of the harness's results, which the optcheck
	// module makes with the evict-first cache hint (st.global.cs, STG.E.EF)
	// that no test instruction uses, so that the check can tell them
	// wherever the compiler put them.
	kindResult = "res"
)

// machineKind classifies one instruction of machine code, "" for those
// that neither access memory nor order it (and for instructions
// predicated on !PT, which never run).
func machineKind(ins string) string {
	f := strings.Fields(ins)
	if len(f) == 0 {
		return ""
	}
	op := f[0]
	if strings.HasPrefix(op, "@") {
		if op == "@!PT" || len(f) < 2 {
			return ""
		}
		op = f[1]
	}
	base, _, _ := strings.Cut(op, ".")
	switch {
	case base == "STG" && strings.Contains(op+".", ".EF."):
		return kindResult
	case op == "CCTL.IVALL" || op == "SYNCS.CCTL.IVALL":
		// The invalidation of the L1 cache that an acquire (ld.acquire,
		// fence.acquire, atom.acquire) compiles to on sm_70 and later:
		// later loads miss the lines cached before it.
		return kindOrdered
	}
	switch base {
	case "LD", "LDG", "LDS", "LDSM":
		return kindLoad
	case "ST", "STG", "STS":
		return kindStore
	case "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "REDS":
		return kindRMW
	case "SYNCS", "ARRIVES":
		return kindMBar
	case "LDGSTS":
		return kindCopy
	case "UBLKCP", "UBLKRED", "UTMALDG", "UTMASTG":
		return kindBulk
	case "MEMBAR", "FENCE", "BAR", "UCGABAR_ARV", "UCGABAR_WAIT", "DEPBAR", "ERRBAR", "CGAERRBAR":
		return kindOrdered
	}
	return ""
}

// step is one memory operation or ordering point of a thread, in the PTX
// or in the machine code.
type step struct {
	kind string
	// acquire marks a PTX operation with acquire semantics (ld.acquire,
	// an acquire or acq_rel atom, an acquire mbarrier wait): the thread's
	// later accesses must not be performed before it.
	acquire bool
	// at is the index of a machine step's instruction in the code.
	at int
}

// isAcquire reports whether a PTX instruction is an acquire operation
// (8.8's acquire pattern 1) whose order with later accesses the machine
// code must keep.
func isAcquire(in *litmus.Instr) bool {
	switch in.Op {
	case litmus.OpLoad:
		return in.Sem == litmus.SemAcquire
	case litmus.OpAtom:
		return in.Sem == litmus.SemAcquire || in.Sem == litmus.SemAcqRel
	case litmus.OpMBarrier:
		return in.MBarOp.IsWait() && in.Sem == litmus.SemAcquire
	}
	return false
}

// ptxSteps lists the steps of a thread's instructions in program order,
// and whether the thread branches (its code order may then differ).
func ptxSteps(th *litmus.Thread) (steps []step, branches bool) {
	for k := range th.Instrs {
		in := th.Instrs[k]
		var kind string
		switch in.Op {
		case litmus.OpLoad:
			kind = kindLoad
		case litmus.OpStore:
			kind = kindStore
		case litmus.OpAtom, litmus.OpRed:
			kind = kindRMW
		case litmus.OpMBarrier:
			kind = kindMBar
		case litmus.OpCopyArrive:
			kind = kindMBar
			if !in.NoInc {
				// Without .noinc the pending count is raised first: an
				// mbarrier operation of its own in the machine code.
				steps = append(steps, step{kind: kindMBar})
			}
		case litmus.OpCopy:
			kind = kindBulk
			if in.Copy == litmus.CopyAsync {
				kind = kindCopy
			}
		case litmus.OpFence, litmus.OpProxyFence, litmus.OpMBarInitFence, litmus.OpBarrier, litmus.OpClusterBarrier:
			kind = kindOrdered
		case litmus.OpAsyncGroup:
			// A commit orders nothing, nor does a wait_group.read for
			// later accesses (it waits only for the sources to be read).
			if in.GroupOp != litmus.GroupCommit && !in.ReadOnly {
				kind = kindOrdered
			}
		case litmus.OpBranch, litmus.OpGoto:
			branches = true
		}
		if in.Guard.Kind != litmus.OperandNone {
			branches = true
		}
		if kind != "" {
			steps = append(steps, step{kind: kind, acquire: isAcquire(in)})
		}
	}
	return collapse(steps), branches
}

// machineSteps lists the steps of a function's machine code, leaving out
// the stores of the results.
func machineSteps(code []Instr) []step {
	var steps []step
	for i, ins := range code {
		if k := machineKind(ins.Text); k != "" && k != kindResult {
			steps = append(steps, step{kind: k, at: i})
		}
	}
	return collapse(steps)
}

// collapse merges consecutive ordering points into one, and drops them at
// the start and at the end: the optcheck kernel ends the thread's code
// with a fence, and a fence after a thread's last access orders nothing
// within it.
func collapse(steps []step) []step {
	var out []step
	for _, s := range steps {
		if s.kind == kindOrdered && (len(out) == 0 || out[len(out)-1].kind == kindOrdered) {
			continue
		}
		out = append(out, s)
	}
	if n := len(out); n > 0 && out[n-1].kind == kindOrdered {
		out = out[:n-1]
	}
	return out
}

// kinds lists the kinds of steps.
func kinds(steps []step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.kind
	}
	return out
}
