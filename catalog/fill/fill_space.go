package fill

import (
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// This file fills what depends on state spaces and multimem addresses
// (docs/model.md, "State spaces" and "Multimem addresses").

// multimemSiblings reports two events of one multimem instruction instance
// on different locations: the instruction's operations on its locations
// are in no program order among themselves (as the elements of a vector
// access, 8.2.4). The read and write of one location's multimem.red keep
// their order.
func multimemSiblings(a, b *execution.Event) bool {
	return a.Instr != nil && a.Instr.Multimem && a.Step == b.Step && a.Instr == b.Instr && a.Loc != b.Loc
}

// fillOutsideSpace adds the memory events of ld, st, atom, red and the
// multimem instructions whose address lies outside the window of the state
// space the instruction names, which PTX leaves undefined. Addresses
// written as names are checked when the test is parsed; these come from
// registers:
//   - .global reaches global memory only;
//   - .shared and .shared::cta reach the executing CTA's shared memory;
//   - .shared::cluster reaches the shared memory of the CTAs of the
//     executing thread's cluster;
//   - generic addressing reaches global memory and the shared memory of
//     the thread's cluster (a mapa address stored to memory and used by a
//     thread of another cluster is outside it).
func fillOutsideSpace(s *relations.Set, x *execution.Execution) {
	type cluster struct{ gpu, launch, n int }
	clusterOf := map[int]cluster{} // CTA key -> its cluster
	for _, th := range x.Test.Threads {
		clusterOf[execution.CTAKey(th)] = cluster{th.GPU, th.Launch, th.Cluster}
	}
	for i := range x.Events {
		ev := &x.Events[i]
		if !ev.IsMemory() || ev.IsInit() {
			continue
		}
		switch ev.Instr.Op {
		case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
		default:
			continue
		}
		loc := x.Layout.Locs[ev.Loc]
		th := x.Test.Threads[ev.Thread]
		shared := loc.Space == litmus.SpaceShared
		inCluster := shared && clusterOf[loc.CTA] == cluster{th.GPU, th.Launch, th.Cluster}
		var outside bool
		switch ev.Instr.SpaceQ {
		case litmus.SpaceQGlobal:
			outside = loc.Space != litmus.SpaceGlobal
		case litmus.SpaceQShared:
			outside = !shared || loc.CTA != execution.CTAKey(th)
		case litmus.SpaceQCluster:
			outside = !inCluster
		default:
			outside = shared && !inCluster
		}
		if outside {
			s.Add(i)
		}
	}
}
