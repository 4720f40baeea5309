package execution

import "github.com/ptxmm/ptxmm/litmus"

// Cluster barrier semantics (PTX ISA, barrier.cluster; docs/model.md,
// "Cluster barriers"):
//
//   - Every thread of a cluster takes part: barrier.cluster.wait waits for
//     all non-exited threads of the cluster to arrive. The k-th arrivals of
//     the threads form phase k; a thread that finished its code without
//     arriving k+1 times has exited and is not waited for, while one that
//     waits forever elsewhere is.
//   - A wait waits for the phase of the thread's last arrive before it (a
//     wait with no arrive before it waits for a phase it never joins).
//   - barrier.cluster.arrive never waits.

// ClusterPhase is one completed phase of a cluster's barrier.
type ClusterPhase struct {
	Arrives []int // the barrier.cluster.arrive events of the phase
	Waits   []int // the barrier.cluster.wait events that returned with it
	// exited lists the threads of the cluster the phase did not wait for:
	// they finished without arriving that often. The phase completes after
	// they exit (groupingConsistent).
	exited []int
}

// clusterPhases computes the completed phases of the cluster barriers of a
// candidate, and reports whether the threads' runs agree with them: a run
// passes a wait exactly when the wait's phase completes.
func clusterPhases(t *litmus.Test, x *Execution) ([]ClusterPhase, bool) {
	// Every candidate asks: most tests have no cluster barrier, and learn
	// so before any map is made.
	if !hasClusterBarrier(x) {
		return nil, true
	}
	type clusterKey struct{ gpu, launch, cluster int }
	arrives := map[int][]int{} // thread -> its arrive events
	members := map[clusterKey][]int{}
	var keys []clusterKey
	for ti, th := range t.Threads {
		k := clusterKey{th.GPU, th.Launch, th.Cluster}
		if _, ok := members[k]; !ok {
			keys = append(keys, k)
		}
		members[k] = append(members[k], ti)
		base := x.ThreadStart[ti]
		for i := range x.Runs[ti].Events {
			if ev := &x.Events[base+i]; isClusterBarrier(ev) && !ev.BarSync {
				arrives[ti] = append(arrives[ti], base+i)
			}
		}
	}
	var phases []ClusterPhase
	for _, k := range keys {
		threads := members[k]
		// complete(p) holds when every thread of the cluster arrived p+1
		// times or exited before that.
		complete := func(p int) bool {
			for _, ti := range threads {
				if len(arrives[ti]) <= p && x.Runs[ti].Status != Finished {
					return false
				}
			}
			return true
		}
		first := len(phases)
		for p := 0; ; p++ {
			var ph ClusterPhase
			for _, ti := range threads {
				if p < len(arrives[ti]) {
					ph.Arrives = append(ph.Arrives, arrives[ti][p])
				} else {
					ph.exited = append(ph.exited, ti)
				}
			}
			if len(ph.Arrives) == 0 || !complete(p) {
				break
			}
			phases = append(phases, ph)
		}
		for _, ti := range threads {
			run := x.Runs[ti]
			base := x.ThreadStart[ti]
			seen := 0
			for i := range run.Events {
				ev := &x.Events[base+i]
				if ev.Kind != KindBarrier || ev.Instr.Op != litmus.OpClusterBarrier {
					continue
				}
				if !ev.BarSync {
					seen++
					continue
				}
				p := seen - 1
				passed := !(run.Status == Blocked && i == len(run.Events)-1)
				done := p >= 0 && first+p < len(phases)
				if passed != done {
					return nil, false
				}
				if done {
					phases[first+p].Waits = append(phases[first+p].Waits, base+i)
				}
			}
		}
	}
	return phases, true
}

// Stuck lists the threads of the execution that never finish, because
// they wait forever at a barrier (bar.sync, barrier.cluster.wait) or in an
// await whose polls never succeed (docs/model.md, "Hangs"): each as the
// thread and the instruction it waits at (an await's last poll).
func (x *Execution) Stuck() []string {
	var out []string
	for t, r := range x.Runs {
		var at *litmus.Instr
		switch {
		case r.Status == Spinning && len(r.Polls) > 0:
			at = r.Events[r.Polls[len(r.Polls)-1]].Instr
		case r.Status == Spinning:
			at = r.WaitAt
		case r.Status == Blocked && len(r.Events) > 0:
			at = r.Events[len(r.Events)-1].Instr
		default:
			continue
		}
		out = append(out, x.Test.Threads[t].Name+": "+at.Text)
	}
	return out
}

// isClusterBarrier reports whether ev is a barrier.cluster arrive or wait.
func isClusterBarrier(ev *Event) bool {
	return ev.Kind == KindBarrier && ev.Instr.Op == litmus.OpClusterBarrier
}

// hasClusterBarrier reports whether some event of x is a barrier.cluster.
func hasClusterBarrier(x *Execution) bool {
	for i := range x.Events {
		if isClusterBarrier(&x.Events[i]) {
			return true
		}
	}
	return false
}
