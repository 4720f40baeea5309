package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// SyncKind is the synchronization of a Synced edge.
type SyncKind int

const (
	// BarSync: both threads execute bar.sync 0, the source's event before
	// it, the target's after it; the two threads share a CTA.
	BarSync SyncKind = iota
	// BarCluster: both threads execute barrier.cluster.arrive and
	// barrier.cluster.wait; the two threads run in two CTAs of one
	// cluster.
	BarCluster
	// Mbar: the source's thread arrives on an mbarrier after its event;
	// the target's thread waits on it (mbarrier.test_wait, which the
	// condition asks to see the phase complete) before its event; the
	// two threads share a CTA.
	Mbar
	// Tma: the source event is the write of a bulk copy (cp.async.bulk,
	// a TMA load) into shared memory, completing on an mbarrier the
	// source's thread armed with mbarrier.arrive.expect_tx; the target's
	// thread waits on it before its event.
	Tma
)

// Sync says how a Synced edge synchronizes its threads.
type Sync struct {
	Kind SyncKind
	// Arrive is the memory order of the source's arrive: Release, or
	// Relaxed (BarCluster.rlx, Mbar.rlx.W). Wait is that of the target's
	// mbarrier wait: Acquire, or Relaxed (Mbar.A.rlx).
	Arrive, Wait program.Sem
	// NoExpect: the source's thread arrives with a plain
	// mbarrier.arrive, announcing no transaction bytes (Tma.noexpect).
	NoExpect bool
	// Loop: the target's thread waits with a try_wait loop that polls
	// until the phase completes (Mbar.loop, Tma.loop), not with one
	// test_wait the condition asks to succeed.
	Loop bool
	// Remote: the source's thread runs in another CTA of the target's
	// cluster and arrives on the target CTA's mbarrier through the
	// address mapa computes (Mbar.remote). The wait is .acquire.cluster;
	// the arrive is .release.cluster, or .release.cta when ArriveCTA
	// (Mbar.remote.cta: a scope that leaves the waiter out).
	Remote, ArriveCTA bool
}

// syncNames are the synchronized edges' names without their ending
// (s|d)XY, longest first so that a prefix never hides a longer name.
var syncNames = syncNameList()

// syncNameList lists the synchronized edges: the barriers, the mbarrier
// edges with their orders, scopes and waits, and the bulk copies.
func syncNameList() []struct {
	name string
	sync Sync
} {
	type named = struct {
		name string
		sync Sync
	}
	base := []named{
		{"BarCluster.rlx", Sync{Kind: BarCluster, Arrive: program.Relaxed}},
		{"BarCluster", Sync{Kind: BarCluster, Arrive: program.Release}},
		{"BarSync", Sync{Kind: BarSync}},
		{"Mbar.rel.acq", Sync{Kind: Mbar, Arrive: program.Release, Wait: program.Acquire}},
		{"Mbar.rel.rlx", Sync{Kind: Mbar, Arrive: program.Release, Wait: program.Relaxed}},
		{"Mbar.rlx.acq", Sync{Kind: Mbar, Arrive: program.Relaxed, Wait: program.Acquire}},
		{"Mbar.rlx.rlx", Sync{Kind: Mbar, Arrive: program.Relaxed, Wait: program.Relaxed}},
		{"Mbar", Sync{Kind: Mbar, Arrive: program.Release, Wait: program.Acquire}},
		{"Mbar.remote", Sync{Kind: Mbar, Arrive: program.Release, Wait: program.Acquire, Remote: true}},
		{"Mbar.remote.cta", Sync{Kind: Mbar, Arrive: program.Release, Wait: program.Acquire, Remote: true, ArriveCTA: true}},
		{"Tma.noexpect", Sync{Kind: Tma, Arrive: program.Release, Wait: program.Acquire, NoExpect: true}},
		{"Tma", Sync{Kind: Tma, Arrive: program.Release, Wait: program.Acquire}},
	}
	var all []named
	for _, n := range base {
		if n.sync.Kind == Mbar || n.sync.Kind == Tma {
			loop := n
			loop.name += ".loop"
			loop.sync.Loop = true
			all = append(all, loop)
		}
		all = append(all, n)
	}
	sort.SliceStable(all, func(i, j int) bool { return len(all[i].name) > len(all[j].name) })
	return all
}

// syncExamples is what a malformed synchronized edge's error suggests.
const syncExamples = "BarSyncdWR, BarClustersWR, BarCluster.rlxsWR, MbarsWR, Mbar.rlx.acqsWR, Mbar.rel.rlxdWR, Mbar.loopdWR, Mbar.remotedWR, Mbar.remote.ctadWR, TmasWR, Tma.loopsWR, Tma.noexpectsWR"

// parseSync reads a synchronized edge:
//
//	BarSync(s|d)XY           bar.sync 0 between two threads of a CTA
//	BarCluster(s|d)XY        barrier.cluster.arrive and .wait between
//	                         threads of two CTAs of a cluster; .rlx: the
//	                         source's arrive is .relaxed
//	Mbar(s|d)XY              mbarrier.arrive after the source, a
//	                         mbarrier.test_wait that sees the phase
//	                         complete before the target; Mbar.A.W with
//	                         A rel or rlx (the arrive) and W acq or rlx
//	                         (the wait); Mbar is Mbar.rel.acq
//	Mbar.remote(s|d)XY       the source's thread, in another CTA of the
//	                         target's cluster, arrives through mapa
//	                         (.release.cluster; the wait .acquire.cluster);
//	                         Mbar.remote.cta: the arrive is .release.cta
//	Tma(s|d)WY               the source is a bulk copy's write into shared
//	                         memory, completing on an mbarrier armed by
//	                         mbarrier.arrive.expect_tx (.noexpect: a plain
//	                         arrive), which the target's thread waits on
//	EDGE.loop(s|d)XY         Mbar and Tma edges (all their variants) with
//	                         a try_wait loop as the target's wait
//
// ok is false when s names no synchronized edge.
func parseSync(s string) (e Edge, ok bool, err error) {
	for _, n := range syncNames {
		rest, found := strings.CutPrefix(s, n.name)
		if !found {
			continue
		}
		bad := func(why string) (Edge, bool, error) {
			return Edge{}, true, fmt.Errorf("%q is not an edge: %s (synchronized edges: %s)", s, why, syncExamples)
		}
		if len(rest) != 3 {
			if strings.HasPrefix(rest, ".") {
				return bad(fmt.Sprintf("unknown variant %q of %s", n.name+rest[:len(rest)-min(3, len(rest))], strings.SplitN(n.name, ".", 2)[0]))
			}
			return bad("expected s or d and two directions after " + n.name + ", as in " + n.name + "dWR")
		}
		same, okSD := sameDiff(rest[0])
		if !okSD {
			return bad(fmt.Sprintf("expected s (same location) or d (different locations) after %s, found %q", n.name, rest[:1]))
		}
		src, dst, okD := dirs(rest[1:])
		if !okD {
			return bad(fmt.Sprintf("expected two directions, R or W, at the end, found %q", rest[1:]))
		}
		if n.sync.Kind == Tma && src != W {
			return bad("the source of a Tma edge is the bulk copy's write: TmasWR, TmadWW")
		}
		return Edge{Kind: Synced, Src: src, Dst: dst, Same: same, Ext: true, Sync: n.sync, Text: s}, true, nil
	}
	return Edge{}, false, nil
}

// ctaSync reports whether a synchronized edge needs its two threads in
// one CTA (all but the cluster barrier and the remote arrive).
func (s Sync) ctaSync() bool { return s.Kind != BarCluster && !s.Remote }

// hasSync reports whether the cycle has a synchronized edge.
func (c *Cycle) hasSync() bool {
	for _, e := range c.Edges {
		if e.Kind == Synced {
			return true
		}
	}
	return false
}
