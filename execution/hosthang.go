package execution

import (
	"slices"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file decides what happens to host threads and kernels when a device
// thread of a kernel waits forever (docs/model.md, section 23, "Hangs with
// host threads"). Such a kernel never completes (8.9.4 API item 3: the end of
// all its threads synchronizes with its end), so the tasks behind it never
// start: the next tasks of its stream (item 1), the waits on an event
// recorded after it (item 2), the graph nodes depending on it (item 4).
// A kernel that never starts never starts its threads. A host thread's
// synchronizing call that waits for a task that never completes never
// returns (item 6): the host thread waits there forever, and what follows
// it never happens. A query cannot return cudaSuccess for such a task
// (item 7).
//
// The enumerator gives host threads a Blocked run at each synchronizing
// call and the threads of kernels a NotStarted run, when some device thread
// may wait forever, and keeps a combination of runs only when those runs
// are the ones its hangs imply (hostProgress).

// addHostHangRuns completes the runs of a test with host threads. When some
// device thread has a run that never finishes, every device thread of a
// kernel gets a run in which its kernel never starts (notStarted[t], built
// by the thread's explorer), and the Blocked runs of host threads are kept;
// otherwise every task completes, a synchronizing call always returns, and
// the Blocked host runs are dropped.
func (a *Analysis) addHostHangRuns(notStarted []*Run) {
	host, hang := false, false
	for t, th := range a.Test.Threads {
		if th.Host {
			host = true
			continue
		}
		for _, r := range a.Runs[t] {
			hang = hang || r.Status != Finished
		}
	}
	if !host {
		return
	}
	if !hang {
		// Every task completes: a synchronizing call returns, and a
		// query polled for ever eventually succeeds (item 7), so a host
		// await that polls one does not spin for ever.
		for t, th := range a.Test.Threads {
			if th.Host {
				a.Runs[t] = slices.DeleteFunc(a.Runs[t], func(r *Run) bool { return r.Status == Blocked || pollsQuery(r) })
			}
		}
		return
	}
	a.kernels = map[string][]int{}
	for t, th := range a.Test.Threads {
		if !th.Host && th.Kernel != "" && notStarted[t] != nil {
			a.kernels[th.Kernel] = append(a.kernels[th.Kernel], t)
			a.Runs[t] = append(a.Runs[t], notStarted[t])
		}
	}
}

// pollsQuery reports whether r spins polling a CUDA query.
func pollsQuery(r *Run) bool {
	if r.Status != Spinning {
		return false
	}
	for _, p := range r.Polls {
		if r.Events[p].Kind == KindAPI {
			return true
		}
	}
	return false
}

// notStartedRun is the run of a device thread whose kernel never starts:
// no events, the initial registers.
func (e *explorer) notStartedRun() (*Run, error) {
	s, err := e.initial()
	if err != nil {
		return nil, err
	}
	r := e.run(s, Finished)
	r.NotStarted = true
	return r, nil
}

// hostProgress checks the combination of runs x.Runs against what its hangs
// imply, and marks in x.idle the task events that never happen. It
// reports false when the combination is impossible: the threads of a
// kernel disagree about whether it starts, or a kernel's threads run
// although it never starts (or the other way round), a host thread waits
// forever at a call that would return or returns from one that waits
// forever, or a query returns cudaSuccess for a task that never completes.
func (a *Analysis) hostProgress(x *Execution) bool {
	x.idle = resizeBool(x.idle, len(x.Events))
	started := map[string]bool{} // kernel -> its threads run
	done := map[string]bool{}    // kernel -> its threads all finish
	for k, threads := range a.kernels {
		some, all := false, true
		for _, t := range threads {
			r := x.Runs[t]
			some = some || !r.NotStarted
			all = all && !r.NotStarted && r.Status == Finished
		}
		for _, t := range threads {
			if x.Runs[t].NotStarted == some {
				return false
			}
		}
		started[k], done[k] = some, all
	}
	launched := map[string]bool{} // kernel -> its task starts
	stuck := map[int]int{}        // host thread -> its first call waiting for a task that never completes, or -1
	hung := map[int][]int{}       // device -> the host threads with a task on it that never completes
	for t, r := range x.Runs {
		if r.Host == nil {
			continue
		}
		first, ok := hostRunProgress(x, t, done, launched, hung)
		if !ok {
			return false
		}
		stuck[t] = first
	}
	for t, first := range stuck {
		r := x.Runs[t]
		if r.Status != Blocked {
			if first >= 0 {
				return false // returns from a call that waits forever
			}
			continue
		}
		last := len(r.Events) - 1
		if first == last || first < 0 && waitsForOtherHost(r, t, hung) {
			continue
		}
		return false // waits forever at a call that returns
	}
	for k, s := range started {
		if s != launched[k] {
			return false
		}
	}
	return true
}

// waitsForOtherHost reports whether the Blocked run r of host thread t
// ends at a cudaDeviceSynchronize while another host thread has a task on
// that device that never completes (hung). Nothing follows the call in
// base causality order, so that task may have been enqueued before it,
// and the call then waits for it forever (8.9.4 API item 6). Whether a
// call that returns waits for such a task is the model's business
// (spec.dl, the check device_synchronize).
func waitsForOtherHost(r *Run, t int, hung map[int][]int) bool {
	c := &r.Events[len(r.Events)-1]
	if c.Kind != KindAPI || c.Instr.API.Fn != litmus.APIDeviceSynchronize {
		return false
	}
	for _, u := range hung[c.Host.Device] {
		if u != t {
			return true
		}
	}
	return false
}

// hostRunProgress follows the tasks of host thread t's run in the order
// they were enqueued (every ordering fact points forward in it), deciding
// which start and which complete, and adds t to hung[d] when a task on
// device d never completes; see hostProgress. It returns the first call
// of the run that waits for a task that never completes (-1 if none), and
// false when a query returns cudaSuccess for such a task.
func hostRunProgress(x *Execution, t int, done, launched map[string]bool, hung map[int][]int) (int, bool) {
	r := x.Runs[t]
	h := r.Host
	preds := map[int][]int{}
	for _, pairs := range [][][2]int{h.StreamNext, h.EventWait, h.BarrierWait, h.GraphDep} {
		for _, p := range pairs {
			preds[p[1]] = append(preds[p[1]], p[0])
		}
	}
	happened := make([]bool, len(r.Events))
	startOf := map[int]int{}      // task ID -> its start event
	graphStart := map[int]int{}   // graph launch -> its start event
	nodeMissing := map[int]bool{} // graph launch -> some node never completes
	for i := range r.Events {
		ev := &r.Events[i]
		info := ev.Host
		if ev.Kind != KindTask || info == nil || info.Call {
			continue
		}
		ok := true
		switch ev.Role {
		case RoleTaskStart, RoleTask:
			for _, p := range preds[i] {
				ok = ok && happened[p]
			}
			if info.IsNode() && info.Source {
				ok = ok && happened[graphStart[info.Graph]]
			}
			if ev.Role == RoleTaskStart {
				startOf[info.ID] = i
				if info.Task == TaskGraph {
					graphStart[info.Graph] = i
				}
				if info.Task == TaskKernel && ok {
					launched[info.Name] = true
				}
			}
		case RoleTaskEnd:
			ok = happened[startOf[info.ID]]
			switch info.Task {
			case TaskKernel:
				ok = ok && done[info.Name]
			case TaskGraph:
				ok = ok && !nodeMissing[info.Graph]
			}
		}
		happened[i] = ok
		x.idle[x.ThreadStart[t]+i] = !ok
		if !ok && info.IsNode() && ev.Role != RoleTaskStart {
			nodeMissing[info.Graph] = true
		}
		if !ok && ev.Role != RoleTaskStart && !slices.Contains(hung[info.Device], t) {
			hung[info.Device] = append(hung[info.Device], t)
		}
	}
	// A query a spinning run polls for ever fails for ever only when its
	// task never completes: otherwise it eventually succeeds (item 7).
	polled := map[int]bool{}
	if r.Status == Spinning {
		for _, p := range r.Polls {
			polled[p] = true
		}
	}
	stuck := -1
	for _, p := range h.APIWait {
		if happened[p[0]] {
			if polled[p[1]] {
				return -1, false
			}
			continue
		}
		c := &r.Events[p[1]]
		if c.Instr.API.Fn.Queries() {
			if c.Host.Success {
				return -1, false
			}
			continue
		}
		if stuck < 0 || p[1] < stuck {
			stuck = p[1]
		}
	}
	return stuck, true
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// TaskIdle reports whether event i is the start of a task that never
// starts, or the completion of one that never completes, because a device
// thread waits forever (see hostProgress).
func (x *Execution) TaskIdle(i int) bool { return i < len(x.idle) && x.idle[i] }
