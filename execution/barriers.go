package execution

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// Barrier semantics (docs/model.md, "Barriers"):
//
//   - Arrivals at the same barrier are those of threads of one CTA with the
//     same instance and the same logical barrier id (bar.cta is CTA-scoped).
//   - Without a thread count, the barrier waits for every thread of the CTA
//     whose code has a barrier of that instance whose id may equal the
//     arrivals' id; the k-th arrivals of those threads complete together.
//     A thread that finished its code without arriving k+1 times has
//     exited and is not waited for (barrier{.cta}.sync waits for the
//     "non-exited threads", PTX ISA 9.7.13.1); one that never arrives
//     because it waits forever elsewhere keeps the barrier from completing.
//     A group that did not wait for an exited thread completes after that
//     thread's exit, so after every barrier the thread passed.
//   - With a count N, the arrivals complete in groups of exactly N of
//     different threads; which arrivals form a group is chosen at run time;
//     arrivals left over, of fewer than N threads, never complete.
//   - A bar.sync arrival whose barrier never completes blocks its thread
//     forever; a bar.arrive never blocks.
//   - bar.warp.sync (PTX ISA 9.7.13.2) is a barrier of its own per warp
//     and member mask, without a count: the k-th arrivals of the threads
//     of the warp at the mask's lanes complete together, a thread that
//     exited is not waited for, and a lane no thread of the test holds is
//     not waited for either (a thread outside the mask cannot execute it:
//     the parser rejects that); it synchronizes as bar.sync does
//     (docs/model.md, "bar.warp.sync").
//   - Groups complete in an order: a thread that waited at one barrier
//     arrives at the next only after the first completed, so a choice in
//     which two groups wait for each other is not an execution (deadlock).

// barrierArrival is one barrier event of a candidate.
type barrierArrival struct {
	ev      int // global event index
	thread  int
	cta     int
	warp    int // the warp of a bar.warp.sync (whose inst is its mask), -1 for a CTA barrier
	inst    int64
	id      int64
	count   int64
	sync    bool
	blocked bool // the thread's run ends blocked at this arrival
	gen     int  // how many earlier arrivals of this thread share the key
}

type barrierKey struct {
	cta      int
	warp     int // -1 for a CTA barrier; for bar.warp.sync, its warp (inst is the member mask)
	inst, id int64
}

// barrierGroupings lists every valid way the barrier arrivals of a
// combination of runs complete. Each grouping is a list of groups of global
// event indices. It returns nil when no grouping is consistent with the
// runs (their blocked/passed statuses), and [][][]int{nil} when there are
// no barriers.
func barrierGroupings(t *litmus.Test, arrivals []barrierArrival, x *Execution) ([][][]int, error) {
	if len(arrivals) == 0 {
		if !groupingConsistent(nil, nil, nil, x) {
			return nil, nil
		}
		return [][][]int{nil}, nil
	}
	byKey := map[barrierKey][]barrierArrival{}
	var keys []barrierKey
	for _, a := range arrivals {
		k := barrierKey{a.cta, a.warp, a.inst, a.id}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], a)
	}
	// Options per barrier: each option is a list of groups. exited maps a
	// group (by its first arrival) to the exited threads it did not wait
	// for.
	var options [][][][]int
	exited := map[int][]int{}
	for _, k := range keys {
		as := byKey[k]
		count := as[0].count
		for _, a := range as[1:] {
			if (a.count < 0) != (count < 0) || (count >= 0 && a.count != count) {
				return nil, fmt.Errorf("barrier instance %d, id %d in CTA %d is used with different thread counts", k.inst, k.id, k.cta)
			}
		}
		var opts [][][]int
		if count < 0 {
			opts = groupsWithoutCount(t, k, as, arrivals, x, exited)
		} else {
			opts = groupsWithCount(as, int(count))
		}
		if len(opts) == 0 {
			return nil, nil
		}
		options = append(options, opts)
	}
	var out [][][]int
	choice := make([]int, len(options))
	for {
		var groups [][]int
		for i, o := range options {
			groups = append(groups, o[choice[i]]...)
		}
		if groupingConsistent(groups, exited, arrivals, x) {
			out = append(out, groups)
		}
		i := 0
		for ; i < len(options); i++ {
			choice[i]++
			if choice[i] < len(options[i]) {
				break
			}
			choice[i] = 0
		}
		if i == len(options) {
			return out, nil
		}
	}
}

// groupsWithoutCount: the k-th arrivals of every expected thread complete
// together, provided every expected thread arrives or has exited (its run
// finished without a k-th arrival); exited records, for each group that
// completes, the exited threads it did not wait for.
func groupsWithoutCount(t *litmus.Test, k barrierKey, as []barrierArrival, all []barrierArrival, x *Execution, exited map[int][]int) [][][]int {
	byGen := map[int][]barrierArrival{}
	maxGen := 0
	for _, a := range as {
		byGen[a.gen] = append(byGen[a.gen], a)
		if a.gen > maxGen {
			maxGen = a.gen
		}
	}
	var groups [][]int
	for g := 0; g <= maxGen; g++ {
		members := byGen[g]
		arrived := map[int]bool{}
		for _, a := range members {
			arrived[a.thread] = true
		}
		complete := true
		var gone []int
		for _, th := range t.Threads {
			if CTAKey(th) != k.cta || arrived[th.Index] || !mayUseBarrier(th, k) {
				continue
			}
			// A thread that arrived at this instance with another id in this
			// generation is waiting elsewhere, not here.
			elsewhere := false
			for _, o := range all {
				if o.thread == th.Index && o.cta == k.cta && o.warp == k.warp && o.inst == k.inst && o.id != k.id && o.gen == g {
					elsewhere = true
				}
			}
			switch {
			case elsewhere:
			case x.Runs[th.Index].Status == Finished:
				// It exited without arriving: not waited for.
				gone = append(gone, th.Index)
			default:
				complete = false
			}
		}
		if complete {
			var grp []int
			for _, a := range members {
				grp = append(grp, a.ev)
			}
			groups = append(groups, grp)
			if len(gone) > 0 {
				exited[grp[0]] = gone
			}
		}
	}
	// Validity of blocked/passed statuses is checked by groupingConsistent.
	return [][][]int{groups}
}

// mayUseBarrier reports whether a thread's code has a barrier instruction
// that may arrive at the barrier k. For a bar.warp.sync, whose instance is
// its member mask, it is whether the thread is in the warp at a lane the
// mask names, whatever its code: the barrier waits for that lane until its
// thread arrives or exits.
func mayUseBarrier(th *litmus.Thread, k barrierKey) bool {
	if k.warp >= 0 {
		return th.LaneNamed && th.Warp == k.warp && th.Lane < 64 && k.inst&(1<<uint(th.Lane)) != 0
	}
	for _, in := range th.Instrs {
		if in.Op != litmus.OpBarrier || in.BarWarp {
			continue
		}
		if in.Instance.Kind == litmus.OperandImm && in.Instance.Imm != k.inst {
			continue
		}
		if in.BarID.Kind == litmus.OperandImm && in.BarID.Imm != k.id {
			continue
		}
		return true
	}
	return false
}

// groupsWithCount lists every partition of the arrivals into groups of
// exactly n (no thread twice in a group), leaving unassigned arrivals of
// fewer than n threads: those could not form one more group.
//
// (It used to ask for exactly len(as)/n groups. When that many groups
// cannot be formed without a thread twice in one, e.g. a thread arriving
// twice at a barrier of 2 that nobody else joins, no partition was valid
// and the test lost every execution, even with bar.arrive only.)
func groupsWithCount(as []barrierArrival, n int) [][][]int {
	var out [][][]int
	used := make([]bool, len(as))
	var groups [][]int
	// leftover counts the unassigned arrivals per thread; leftThreads is
	// the number of threads with any.
	leftover := map[int]int{}
	leftThreads := 0
	var rec func(start int)
	rec = func(start int) {
		if leftThreads >= n {
			return // the leftovers could form another group
		}
		first := -1
		for i := start; i < len(as); i++ {
			if !used[i] {
				first = i
				break
			}
		}
		if first < 0 {
			out = append(out, append([][]int(nil), groups...))
			return
		}
		// Either the first free arrival starts a group...
		used[first] = true
		var pick func(from int, grp []int)
		pick = func(from int, grp []int) {
			if len(grp) == n {
				groups = append(groups, append([]int(nil), grp...))
				rec(first + 1)
				groups = groups[:len(groups)-1]
				return
			}
			for j := from; j < len(as); j++ {
				if used[j] || sameThreadIn(as, grp, as[j]) {
					continue
				}
				used[j] = true
				pick(j+1, append(grp, as[j].ev))
				used[j] = false
			}
		}
		pick(first+1, []int{as[first].ev})
		// ...or it is left over.
		th := as[first].thread
		if leftover[th] == 0 {
			leftThreads++
		}
		leftover[th]++
		rec(first + 1)
		leftover[th]--
		if leftover[th] == 0 {
			leftThreads--
		}
		used[first] = false
	}
	rec(0)
	return out
}

func sameThreadIn(as []barrierArrival, grp []int, a barrierArrival) bool {
	for _, ev := range grp {
		for _, b := range as {
			if b.ev == ev && b.thread == a.thread {
				return true
			}
		}
	}
	return false
}

// groupingConsistent checks that exactly the passed bar.sync arrivals are in
// completed groups, and that the groups and the completed cluster-barrier
// phases of x can complete in some order: one must complete before another
// when a thread waits for the first and then arrives at the second, or
// waits for the first and then exits, where the second did not wait for it
// because it had exited (exited, keyed by a group's first arrival, and the
// phases' exited threads).
func groupingConsistent(groups [][]int, exited map[int][]int, arrivals []barrierArrival, x *Execution) bool {
	groupOf := map[int]int{}
	for gi, g := range groups {
		for _, ev := range g {
			groupOf[ev] = gi
		}
	}
	for _, a := range arrivals {
		_, inGroup := groupOf[a.ev]
		if a.sync && inGroup == a.blocked {
			return false
		}
	}
	if len(groups)+len(x.ClusterPhases) < 2 {
		return true
	}
	// Nodes: the barrier groups, then the cluster phases. member[ev] is the
	// node an arrival joins; passes[ev] the node a passed wait waited for.
	member, passes := map[int]int{}, map[int]int{}
	for _, a := range arrivals {
		if g, ok := groupOf[a.ev]; ok {
			member[a.ev] = g
			if a.sync {
				passes[a.ev] = g
			}
		}
	}
	for pi, ph := range x.ClusterPhases {
		for _, ev := range ph.Arrives {
			member[ev] = len(groups) + pi
		}
		for _, ev := range ph.Waits {
			passes[ev] = len(groups) + pi
		}
	}
	succ := make([][]int, len(groups)+len(x.ClusterPhases))
	passedBy := make([][]int, len(x.Runs)) // the nodes each thread passed
	for t, r := range x.Runs {
		base := x.ThreadStart[t]
		var passed []int
		for i := range r.Events {
			ev := base + i
			if to, ok := member[ev]; ok {
				for _, from := range passed {
					if from != to {
						succ[from] = append(succ[from], to)
					}
				}
			}
			if n, ok := passes[ev]; ok {
				passed = append(passed, n)
			}
		}
		passedBy[t] = passed
	}
	// A node that did not wait for an exited thread completes after the
	// thread exits, so after every node the thread passed.
	afterExits := func(to int, threads []int) {
		for _, t := range threads {
			for _, from := range passedBy[t] {
				if from != to {
					succ[from] = append(succ[from], to)
				}
			}
		}
	}
	for gi, g := range groups {
		afterExits(gi, exited[g[0]])
	}
	for pi, ph := range x.ClusterPhases {
		afterExits(len(groups)+pi, ph.exited)
	}
	return acyclicInts(succ)
}

// acyclicInts tests a small graph for cycles by repeated removal of sources.
func acyclicInts(succ [][]int) bool {
	indeg := make([]int, len(succ))
	for _, ss := range succ {
		for _, s := range ss {
			indeg[s]++
		}
	}
	var queue []int
	for v, d := range indeg {
		if d == 0 {
			queue = append(queue, v)
		}
	}
	seen := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		seen++
		for _, s := range succ[v] {
			indeg[s]--
			if indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	return seen == len(succ)
}
