package gen

import (
	"errors"
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// errPlacedBySync is why a cycle with synchronized edges is not built
// under a placement given by hand: its edges place its threads.
var errPlacedBySync = errors.New("a cycle with BarSync, BarCluster, Mbar or Tma edges places its threads itself (threads that meet at a CTA barrier, an mbarrier or a bulk copy share a CTA, those that meet at a cluster barrier share a cluster): only the default placement (gpu) applies")

// errPlacedByCopy is errPlacedBySync for a cycle whose bulk copies
// (Bulk, Bulk.read, Tma) place its threads.
var errPlacedByCopy = errors.New("a cycle with Bulk, Bulk.read or Tma events places its threads itself (threads that access a bulk copy's shared location share a CTA): only the default placement (gpu) applies")

// syncPlan is where the threads of a cycle run and what each thread
// executes around its events for the cycle's synchronized edges.
type syncPlan struct {
	places []program.Place
	// start are the operations before a thread's first event (barriers,
	// the wait of an mbarrier); end those after its last (an arrive,
	// barriers).
	start, end [][]program.Op
	// before are the operations just before an event (the arrive that
	// arms a bulk load's mbarrier).
	before map[int][]program.Op
	// bulk is the bulk copy that performs an event (a Tma edge's source,
	// an event annotated Tma or Bulk).
	bulk map[int]program.Op
	// finals are the final values the condition pins beyond the cycle's
	// locations: the destinations of bulk stores.
	finals []program.Pin
}

// planSync places the threads of a laid-out cycle and, for its
// synchronized edges, adds the mbarriers and bulk copy sources they need
// to t (whose first addresses are the cycle's locations). Without
// synchronized edges it places the threads as p says.
func planSync(l *layout, p Placement, t *program.Test) (*syncPlan, error) {
	nth := len(l.threads)
	plan := &syncPlan{
		start: make([][]program.Op, nth), end: make([][]program.Op, nth),
		before: map[int][]program.Op{}, bulk: map[int]program.Op{},
	}
	if !l.c.hasSync() && !l.c.hasCopy() {
		places, err := p.place(nth)
		plan.places = places
		return plan, err
	}
	if p.kind != "" && p.kind != "gpu" {
		if !l.c.hasSync() {
			return nil, errPlacedByCopy
		}
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
	// Shared memory has a copy per CTA: every thread that accesses a bulk
	// copy's shared location runs in the CTA of the copy, and so does
	// every thread when the condition pins that location's final value
	// (which copy's would it be otherwise?).
	shareCTA := func(th, w int) {
		_, final := l.final[l.loc[w]]
		for u := 0; u < nth; u++ {
			for _, ev := range l.threads[u] {
				if final || l.loc[ev] == l.loc[w] {
					cta.join(th, u)
				}
			}
		}
	}
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || e.Sync.Kind != Tma {
			continue
		}
		w := last(th)
		for _, a := range c.Notes[w] {
			if a.Copy != NoCopy {
				return nil, fmt.Errorf("%s on the write of %s: that write is already a bulk copy's", a.Text, e)
			}
		}
		if len(c.Notes[w]) > 0 {
			return nil, fmt.Errorf("the write of %s is a bulk copy's: it takes no annotation", e)
		}
		if in := c.Edges[(w+n-1)%n]; in.Kind == Rmw || in.Kind == Dp {
			return nil, fmt.Errorf("the write of %s is a bulk copy's: it cannot follow %s", e, in)
		}
		shareCTA(th, w)
	}
	copies, err := copyEvents(c)
	if err != nil {
		return nil, err
	}
	for _, ev := range copies {
		shareCTA(l.thread[ev.event], ev.event)
	}
	cluster := newUnion(nth)
	clustered := make([]bool, nth)
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || (e.Sync.Kind != BarCluster && !e.Sync.Remote) {
			continue
		}
		if cta.find(th) == cta.find(next(th)) {
			what := "a cluster barrier edge"
			if e.Sync.Remote {
				what = "a remote arrive"
			}
			return nil, fmt.Errorf("%s joins two threads that other edges put in one CTA; %s runs between CTAs", e, what)
		}
		cluster.join(cta.find(th), cta.find(next(th)))
	}
	for th := 0; th < nth; th++ {
		root := cluster.find(cta.find(th))
		if e := out(th); e.Kind == Synced && (e.Sync.Kind == BarCluster || e.Sync.Kind == Tma || e.Sync.Remote) {
			clustered[root] = true
		}
	}
	for _, ev := range copies {
		if ev.copy == TmaWrite {
			clustered[cluster.find(cta.find(l.thread[ev.event]))] = true
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
	waiter := map[int]int{}
	for th := 0; th < nth; th++ {
		e := out(th)
		if e.Kind != Synced || (e.Sync.Kind != Mbar && e.Sync.Kind != Tma) {
			continue
		}
		mb := t.AddAddr(program.Addr{Name: fmt.Sprintf("mb%d", mbars), Space: program.Mbarrier, Count: 1})
		mbars++
		wait := program.Op{Kind: program.MbarWait, Addr: mb, Sem: e.Sync.Wait, Guard: !e.Sync.Loop, Loop: e.Sync.Loop}
		if e.Sync.Remote {
			wait.Scope = program.Cluster
			waiter[mb] = next(th)
		}
		plan.start[next(th)] = append(plan.start[next(th)], wait)
		if e.Sync.Kind == Mbar {
			arrive := program.Op{Kind: program.MbarArrive, Addr: mb, Sem: e.Sync.Arrive}
			if e.Sync.Remote {
				arrive.Remote, arrive.Scope = true, program.Cluster
				if e.Sync.ArriveCTA {
					arrive.Scope = program.CTA
				}
			}
			plan.end[th] = append([]program.Op{arrive}, plan.end[th]...)
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
		plan.before[w] = append(plan.before[w], arrive)
		plan.bulk[w] = program.Op{Kind: program.BulkLoad, Addr: loc, Src: src, Bar: mb, Value: l.value[w]}
	}
	dsts := map[int]int{}
	for _, ev := range copies {
		w := ev.event
		loc := l.loc[w]
		t.Addrs[loc].Space = program.Shared
		if ev.copy != TmaWrite {
			name := t.Addrs[loc].Name + "_dst"
			if k := dsts[loc]; k > 0 {
				name += fmt.Sprint(k)
			}
			dsts[loc]++
			// The destination starts at a value no write of the cycle
			// writes, so that its final value is the one the copy read.
			dst := t.AddAddr(program.Addr{Name: name, Init: -1})
			plan.bulk[w] = program.Op{Kind: program.BulkStore, Addr: loc, Dst: dst, WaitRead: ev.copy == BulkStoreWaitRead}
			plan.finals = append(plan.finals, program.Pin{Thread: -1, Addr: dst, Value: l.value[w]})
			continue
		}
		mb := t.AddAddr(program.Addr{Name: fmt.Sprintf("mb%d", mbars), Space: program.Mbarrier, Count: 1})
		mbars++
		name := t.Addrs[loc].Name + "_src"
		if k := srcs[loc]; k > 0 {
			name += fmt.Sprint(k)
		}
		srcs[loc]++
		src := t.AddAddr(program.Addr{Name: name, Init: l.value[w]})
		plan.before[w] = append(plan.before[w], program.Op{Kind: program.MbarArrive, Addr: mb, Sem: program.Release, ExpectTx: 16})
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
	// A remote arrive names the CTA of the mbarrier's waiter.
	for th := range plan.end {
		for k, op := range plan.end[th] {
			if op.Kind == program.MbarArrive && op.Remote {
				plan.end[th][k].CTA = plan.places[waiter[op.Addr]].CTA
			}
		}
	}
	return plan, nil
}

// copyEvent is an event a bulk copy performs by annotation (Bulk,
// Bulk.read, Tma).
type copyEvent struct {
	event int
	copy  Copy
}

// copyEvents lists the events annotated as a bulk copy's, in cycle
// order, and rejects an annotation the event cannot take.
func copyEvents(c *Cycle) ([]copyEvent, error) {
	n := len(c.Edges)
	var out []copyEvent
	for e := range c.Edges {
		cp, text := NoCopy, ""
		for _, a := range c.Notes[e] {
			if a.Copy == NoCopy {
				continue
			}
			if cp != NoCopy {
				return nil, fmt.Errorf("%s and %s on one event: an access is performed by one bulk copy", text, a.Text)
			}
			cp, text = a.Copy, a.Text
		}
		if cp == NoCopy {
			continue
		}
		if len(c.Notes[e]) > 1 {
			return nil, fmt.Errorf("%s takes no other annotation on its event: a bulk copy's access is weak, generic-addressed and of the async proxy", text)
		}
		dir, in, outEdge := c.Edges[e].Src, c.Edges[(e+n-1)%n], c.Edges[e]
		switch {
		case cp == TmaWrite && dir != W:
			return nil, fmt.Errorf("%s on a read: a bulk load (TMA) writes shared memory (use Bulk for a bulk store's read)", text)
		case cp != TmaWrite && dir != R:
			return nil, fmt.Errorf("%s on a write: a bulk store reads shared memory (use Tma for a bulk load's write)", text)
		case outEdge.Kind == Rmw || in.Kind == Rmw:
			return nil, fmt.Errorf("%s on a read-modify-write's access: a bulk copy is no atom", text)
		case in.Kind == Dp:
			return nil, fmt.Errorf("%s after %s: a bulk copy takes no dependency", text, in)
		case outEdge.Kind == Dp:
			return nil, fmt.Errorf("%s before %s: a bulk store's read has no register to depend on", text, outEdge)
		}
		out = append(out, copyEvent{event: e, copy: cp})
	}
	return out, nil
}

// hasCopy reports whether an event of the cycle is annotated as a bulk
// copy's.
func (c *Cycle) hasCopy() bool {
	for _, as := range c.Notes {
		for _, a := range as {
			if a.Copy != NoCopy {
				return true
			}
		}
	}
	return false
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
