package gen

import (
	"errors"
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// errPlacedBySync is why a cycle with synchronized edges is not built
// under a placement given by hand: its edges place its threads.
var errPlacedBySync = errors.New("a cycle with BarSync, BarCluster, Mbar or Tma edges places its threads itself (threads that meet at a CTA barrier, an mbarrier or a bulk copy share a CTA, those that meet at a cluster barrier share a cluster): only the default placement (gpu) applies")

// syncPlan is where the threads of a cycle run and what each thread
// executes around its events for the cycle's synchronized edges.
type syncPlan struct {
	places []program.Place
	// start are the operations before a thread's first event (barriers,
	// the wait of an mbarrier); end those after its last (an arrive,
	// barriers); beforeLast those just before its last event (the arrive
	// that arms a bulk copy's mbarrier).
	start, end, beforeLast [][]program.Op
	// bulk is the bulk copy that performs an event (a Tma edge's source).
	bulk map[int]program.Op
}

// planSync places the threads of a laid-out cycle and, for its
// synchronized edges, adds the mbarriers and bulk copy sources they need
// to t (whose first addresses are the cycle's locations). Without
// synchronized edges it places the threads as p says.
func planSync(l *layout, p Placement, t *program.Test) (*syncPlan, error) {
	nth := len(l.threads)
	plan := &syncPlan{
		start: make([][]program.Op, nth), end: make([][]program.Op, nth), beforeLast: make([][]program.Op, nth),
		bulk: map[int]program.Op{},
	}
	if !l.c.hasSync() {
		places, err := p.place(nth)
		plan.places = places
		return plan, err
	}
	if p.kind != "" && p.kind != "gpu" {
		return nil, errPlacedBySync
	}
	c := l.c
	n := len(c.Edges)
	last := func(th int) int { return l.threads[th][len(l.threads[th])-1] }
	out := func(th int) Edge { return c.Edges[last(th)] }
	next := func(th int) int { return (th + 1) % nth }

	cta := newUnion(nth)
	for th := 0; th < nth; th++ {
		if e := out(th); e.Kind == Synced && e.Sync.ctaSync() {
			cta.join(th, next(th))
		}
	}
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || e.Sync.Kind != Tma {
			continue
		}
		w := last(th)
		if len(c.Notes[w]) > 0 {
			return nil, fmt.Errorf("the write of %s is a bulk copy's: it takes no annotation", e)
		}
		if in := c.Edges[(w+n-1)%n]; in.Kind == Rmw || in.Kind == Dp {
			return nil, fmt.Errorf("the write of %s is a bulk copy's: it cannot follow %s", e, in)
		}
		// Shared memory has a copy per CTA: every thread that accesses
		// the copy's destination runs in the CTA of the copy, and so does
		// every thread when the condition pins the destination's final
		// value (which copy's would it be otherwise?).
		_, final := l.final[l.loc[w]]
		for u := 0; u < nth; u++ {
			for _, ev := range l.threads[u] {
				if final || l.loc[ev] == l.loc[w] {
					cta.join(th, u)
				}
			}
		}
	}
	cluster := newUnion(nth)
	clustered := make([]bool, nth)
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || e.Sync.Kind != BarCluster {
			continue
		}
		if cta.find(th) == cta.find(next(th)) {
			return nil, fmt.Errorf("%s joins two threads that other edges put in one CTA; a cluster barrier edge runs between CTAs", e)
		}
		cluster.join(cta.find(th), cta.find(next(th)))
	}
	for th := 0; th < nth; th++ {
		root := cluster.find(cta.find(th))
		if e := out(th); e.Kind == Synced && (e.Sync.Kind == BarCluster || e.Sync.Kind == Tma) {
			clustered[root] = true
		}
	}

	// Barriers: each run of barrier edges of one kind gets phases 1..m;
	// the i-th thread of the run executes i barriers before its events
	// and m-i after, and the other threads of its CTA (its cluster) all
	// m after theirs, so that the k-th barrier of every thread is the one
	// the k-th edge of the run crosses.
	for _, kind := range []SyncKind{BarSync, BarCluster} {
		group := func(th int) int {
			if kind == BarSync {
				return cta.find(th)
			}
			return cluster.find(cta.find(th))
		}
		is := func(th int) bool { e := out(th); return e.Kind == Synced && e.Sync.Kind == kind }
		all := true
		for th := 0; th < nth; th++ {
			all = all && is(th)
		}
		if all {
			return nil, fmt.Errorf("every thread meets the next at a barrier: no placement of the barriers lets each edge cross one (the first thread's barrier would have to come both before and after the last's)")
		}
		runOf := map[int][]int{}
		for th := 0; th < nth; th++ {
			if !is(th) || is((th+nth-1)%nth) {
				continue
			}
			run := []int{th}
			for u := th; is(u); u = next(u) {
				run = append(run, next(u))
			}
			g := group(th)
			if _, dup := runOf[g]; dup {
				return nil, fmt.Errorf("two separate runs of %s edges in one %s: not supported (their barriers would meet each other)", syncNames[kindName(kind)].name, map[SyncKind]string{BarSync: "CTA", BarCluster: "cluster"}[kind])
			}
			runOf[g] = run
		}
		for g, run := range runOf {
			m := len(run) - 1
			pos := map[int]int{}
			for i, th := range run {
				pos[th] = i
			}
			for th := 0; th < nth; th++ {
				if group(th) != g {
					continue
				}
				before, after := 0, m
				if i, in := pos[th]; in {
					before, after = i, m-i
				}
				for k := 0; k < before; k++ {
					plan.start[th] = append(plan.start[th], barrierOp(kind, program.Release))
				}
				for k := 0; k < after; k++ {
					sem := program.Release
					if i, in := pos[th]; in && k == 0 && i < m {
						sem = out(th).Sync.Arrive
					}
					plan.end[th] = append(plan.end[th], barrierOp(kind, sem))
				}
			}
		}
	}

	// mbarriers, one per edge, and the sources of the bulk copies.
	mbars := 0
	srcs := map[int]int{}
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || (e.Sync.Kind != Mbar && e.Sync.Kind != Tma) {
			continue
		}
		mb := t.AddAddr(program.Addr{Name: fmt.Sprintf("mb%d", mbars), Space: program.Mbarrier, Count: 1})
		mbars++
		wait := program.Op{Kind: program.MbarWait, Addr: mb, Sem: e.Sync.Wait, Guard: true}
		plan.start[next(th)] = append(plan.start[next(th)], wait)
		if e.Sync.Kind == Mbar {
			plan.end[th] = append([]program.Op{{Kind: program.MbarArrive, Addr: mb, Sem: e.Sync.Arrive}}, plan.end[th]...)
			continue
		}
		w := last(th)
		loc := l.loc[w]
		t.Addrs[loc].Space = program.Shared
		name := t.Addrs[loc].Name + "_src"
		if k := srcs[loc]; k > 0 {
			name += fmt.Sprint(k)
		}
		srcs[loc]++
		src := t.AddAddr(program.Addr{Name: name, Init: l.value[w]})
		arrive := program.Op{Kind: program.MbarArrive, Addr: mb, Sem: e.Sync.Arrive, ExpectTx: 16}
		if e.Sync.NoExpect {
			arrive.ExpectTx = 0
		}
		plan.beforeLast[th] = append(plan.beforeLast[th], arrive)
		plan.bulk[w] = program.Op{Kind: program.BulkLoad, Addr: loc, Src: src, Bar: mb, Value: l.value[w]}
	}

	// Places: CTAs numbered in order of their first thread, on one GPU;
	// the CTAs of a cluster barrier or of a bulk copy in a cluster.
	ctaNum, clusterNum := map[int]int{}, map[int]int{}
	plan.places = make([]program.Place, nth)
	for th := 0; th < nth; th++ {
		root := cta.find(th)
		if _, ok := ctaNum[root]; !ok {
			ctaNum[root] = len(ctaNum)
		}
		pl := program.Place{CTA: ctaNum[root], Cluster: -1}
		if cr := cluster.find(root); clustered[cr] {
			if _, ok := clusterNum[cr]; !ok {
				clusterNum[cr] = len(clusterNum)
			}
			pl.Cluster = clusterNum[cr]
		}
		plan.places[th] = pl
	}
	return plan, nil
}

// kindName is the index in syncNames of a barrier kind's plain name.
func kindName(k SyncKind) int {
	for i, n := range syncNames {
		if n.sync.Kind == k && n.sync.Arrive != program.Relaxed {
			return i
		}
	}
	return 0
}

// barrierOp is one barrier of a kind: bar.sync 0, or barrier.cluster's
// arrive (release or relaxed) and wait.
func barrierOp(k SyncKind, arrive program.Sem) program.Op {
	if k == BarSync {
		return program.Op{Kind: program.Barrier}
	}
	return program.Op{Kind: program.ClusterBarrier, Sem: arrive}
}

// union is a union-find over threads.
type union []int

func newUnion(n int) union {
	u := make(union, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u union) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// join merges two sets, keeping the smaller root so that a set's root is
// its first thread.
func (u union) join(a, b int) {
	a, b = u.find(a), u.find(b)
	if a > b {
		a, b = b, a
	}
	u[b] = a
}
