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
	case "MEMBAR", "FENCE", "BAR", "UCGABAR_ARV", "UCGABAR_WAIT", "DEPBAR":
		return kindOrdered
	}
	return ""
}

// ptxKinds lists the kinds of a thread's instructions in program order,
// and whether the thread branches (its code order may then differ).
func ptxKinds(th *litmus.Thread) (kinds []string, branches bool) {
	for _, in := range th.Instrs {
		var k string
		switch in.Op {
		case litmus.OpLoad:
			k = kindLoad
		case litmus.OpStore:
			k = kindStore
		case litmus.OpAtom, litmus.OpRed:
			k = kindRMW
		case litmus.OpMBarrier:
			k = kindMBar
		case litmus.OpCopyArrive:
			k = kindMBar
			if !in.NoInc {
				// Without .noinc the pending count is raised first: an
				// mbarrier operation of its own in the machine code.
				kinds = append(kinds, kindMBar)
			}
		case litmus.OpCopy:
			k = kindBulk
			if in.Copy == litmus.CopyAsync {
				k = kindCopy
			}
		case litmus.OpFence, litmus.OpProxyFence, litmus.OpMBarInitFence, litmus.OpBarrier, litmus.OpClusterBarrier:
			k = kindOrdered
		case litmus.OpAsyncGroup:
			// A commit orders nothing, nor does a wait_group.read for
			// later accesses (it waits only for the sources to be read).
			if in.GroupOp != litmus.GroupCommit && !in.ReadOnly {
				k = kindOrdered
			}
		case litmus.OpBranch, litmus.OpGoto:
			branches = true
		}
		if in.Guard.Kind != litmus.OperandNone {
			branches = true
		}
		if k != "" {
			kinds = append(kinds, k)
		}
	}
	return collapse(kinds), branches
}

// machineKinds lists the kinds of a function's machine code.
func machineKinds(code []string) []string {
	var kinds []string
	for _, ins := range code {
		if k := machineKind(ins); k != "" {
			kinds = append(kinds, k)
		}
	}
	return collapse(kinds)
}

// collapse merges consecutive ordering points into one, and drops them at
// the start.
func collapse(kinds []string) []string {
	var out []string
	for _, k := range kinds {
		if k == kindOrdered && (len(out) == 0 || out[len(out)-1] == kindOrdered) {
			continue
		}
		out = append(out, k)
	}
	return out
}
