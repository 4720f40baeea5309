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

// clusterKey identifies a cluster: clusters are numbered per kernel launch
// on a GPU (Table 21, 8.3).
type clusterKey struct{ gpu, launch, n int }

// clusterOfThread returns the cluster of a thread.
func clusterOfThread(th *litmus.Thread) clusterKey {
	return clusterKey{th.GPU, th.Launch, th.Cluster}
}

// clustersOfCTAs maps each CTA of the test (by execution.CTAKey) to its
// cluster.
func clustersOfCTAs(x *execution.Execution) map[int]clusterKey {
	m := map[int]clusterKey{}
	for _, th := range x.Test.Threads {
		m[execution.CTAKey(th)] = clusterOfThread(th)
	}
	return m
}

// fillOutsideSpace adds the memory events of ld, st, atom, red and the
// multimem instructions whose address lies outside the window of the state
// space the instruction names, which PTX leaves undefined, and those of
// the asynchronous instructions whose pages say so: the mbarrier of
// cp.async.mbarrier.arrive, and the destination of cp.async and of a bulk
// copy into .shared::cta, outside the executing CTA's shared memory. Addresses
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
	clusterOf := clustersOfCTAs(x)
	for i := range x.Events {
		ev := &x.Events[i]
		if !ev.IsMemory() || ev.IsInit() {
			continue
		}
		space := ev.Instr.SpaceQ
		switch ev.Instr.Op {
		case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
		case litmus.OpCopyArrive:
			// cp.async.mbarrier.arrive: "If the address specified by addr
			// does not fall within the address window of .shared::cta
			// state space then the behavior is undefined", whatever space
			// the instruction names.
			space = litmus.SpaceQShared
		case litmus.OpCopy:
			// The destination of cp.async (.shared{::cta}) and of a bulk
			// copy into .shared::cta: "the destination address has to be
			// in the shared memory of the executing CTA within the
			// cluster, otherwise the behavior is undefined" (cp.async.bulk
			// page).
			if ev.Kind != execution.KindWrite || ev.Role != execution.RoleCopy || space != litmus.SpaceQShared {
				continue
			}
		default:
			continue
		}
		loc := x.Layout.Locs[ev.Loc]
		th := x.Test.Threads[ev.Thread]
		shared := loc.Space == litmus.SpaceShared
		inCluster := shared && clusterOf[loc.CTA] == clusterOfThread(th)
		var outside bool
		switch space {
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

// fillProxyFenceWindow relates each proxy fence to the memory events whose
// location lies in the window of the state space the fence names, seen
// from the fence's thread (the fence page: a state space restricts the
// fence to the accesses in it): .global reaches global memory, .shared and
// .shared::cta the executing CTA's shared memory only (not the copies of
// the other CTAs of its cluster, which a .shared::cluster address
// reaches), .shared::cluster the shared memory of the CTAs of its
// cluster; a fence that names no space reaches every memory event. The
// implicit proxy fence that follows a bulk copy reaches the kind of memory
// its copy's destination names: every CTA's shared memory for a
// destination in shared memory, global memory for one in global memory.
// A restricted fence (fence.release.sync_restrict::shared::cta.cluster,
// fence.acquire.sync_restrict::shared::cluster.cluster) gets the window of
// the space it restricts its effect to, in the same way.
func fillProxyFenceWindow(r *relations.Rel, x *execution.Execution) {
	clusterOf := clustersOfCTAs(x)
	for i := range x.Events {
		f := &x.Events[i]
		restricted := f.Kind == execution.KindFence && f.Instr.Op == litmus.OpFence && f.Instr.SpaceQ != litmus.SpaceQNone
		if (f.Kind != execution.KindProxyFence && !restricted) || f.Thread < 0 {
			continue
		}
		th := x.Test.Threads[f.Thread]
		for j := range x.Events {
			m := &x.Events[j]
			if !m.IsMemory() {
				continue
			}
			loc := x.Layout.Locs[m.Loc]
			shared := loc.Space == litmus.SpaceShared
			var in bool
			switch q := f.Instr.SpaceQ; {
			case q == litmus.SpaceQGlobal:
				in = loc.Space == litmus.SpaceGlobal
			case f.Role == execution.RoleProxyFence && (q == litmus.SpaceQShared || q == litmus.SpaceQCluster):
				in = shared
			case q == litmus.SpaceQShared:
				in = shared && loc.CTA == execution.CTAKey(th)
			case q == litmus.SpaceQCluster:
				in = shared && clusterOf[loc.CTA] == clusterOfThread(th)
			default:
				in = true
			}
			if in {
				r.Add(i, j)
			}
		}
	}
}
