package fill

import (
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// sameTest decides whether two events of x are related by a "same ..."
// relation.
type sameTest func(x *execution.Execution, a, b *execution.Event) bool

// sameFunc returns the definition of a "same ..." relation over a pair of
// events: what same.go's classes are checked against
// (TestSameFillerMatchesPairs).
func sameFunc(name string) sameTest {
	isMem := func(e *execution.Event) bool {
		return e.Kind == execution.KindRead || e.Kind == execution.KindWrite
	}
	bothThreads := func(a, b *execution.Event) bool { return a.Thread >= 0 && b.Thread >= 0 }
	// Host threads are in no CTA, cluster or GPU.
	bothDevice := func(x *execution.Execution, a, b *execution.Event) bool {
		threads := x.Test.Threads
		return bothThreads(a, b) && !threads[a.Thread].Host && !threads[b.Thread].Host
	}
	switch name {
	case "loc":
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			return isMem(a) && isMem(b) && execution.Overlap(a, b)
		}
	case "vaddr":
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			return isMem(a) && isMem(b) && execution.Overlap(a, b) && a.Addr == b.Addr
		}
	case "gaddr":
		return func(x *execution.Execution, a, b *execution.Event) bool {
			l := x.Layout
			return isMem(a) && isMem(b) && execution.Overlap(a, b) && l.Addrs[a.Addr].Generic == l.Addrs[b.Addr].Generic
		}
	case "same_bytes":
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			return isMem(a) && isMem(b) && a.Loc == b.Loc && a.OpOff == b.OpOff && a.OpSize == b.OpSize
		}
	case "sthd":
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			return bothThreads(a, b) && a.Thread == b.Thread
		}
	case "same_instr":
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			if !bothThreads(a, b) || a.Thread != b.Thread || a.Step != b.Step {
				return false
			}
			// A multicast load: each destination's events, numbered by
			// Elem from 1, with the issue and the read (Elem 0).
			multicast := a.Instr.CtaMask.Kind != litmus.OperandNone
			return !multicast || a.Elem == 0 || b.Elem == 0 || a.Elem == b.Elem
		}
	case "same_cta_group", "same_shape":
		shape := name == "same_shape"
		return func(_ *execution.Execution, a, b *execution.Event) bool {
			if !bothThreads(a, b) || a.Instr.Op != litmus.OpTcgen05 || b.Instr.Op != litmus.OpTcgen05 {
				return false
			}
			if shape {
				return a.Instr.Shape == b.Instr.Shape
			}
			return a.Instr.CtaGroup == b.Instr.CtaGroup
		}
	case "scta":
		return func(x *execution.Execution, a, b *execution.Event) bool {
			if !bothDevice(x, a, b) {
				return false
			}
			ta, tb := x.Test.Threads[a.Thread], x.Test.Threads[b.Thread]
			return ta.GPU == tb.GPU && ta.Launch == tb.Launch && ta.CTA == tb.CTA
		}
	case "sclu":
		// CTA and cluster numbers are per kernel launch (Table 21, 8.3).
		return func(x *execution.Execution, a, b *execution.Event) bool {
			if !bothDevice(x, a, b) {
				return false
			}
			ta, tb := x.Test.Threads[a.Thread], x.Test.Threads[b.Thread]
			return ta.GPU == tb.GPU && ta.Launch == tb.Launch && ta.Cluster == tb.Cluster
		}
	case "sgpu":
		return func(x *execution.Execution, a, b *execution.Event) bool {
			return bothDevice(x, a, b) && x.Test.Threads[a.Thread].GPU == x.Test.Threads[b.Thread].GPU
		}
	}
	return func(*execution.Execution, *execution.Event, *execution.Event) bool { return false }
}
