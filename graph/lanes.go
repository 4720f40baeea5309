package graph

import "github.com/ptxmm/ptxmm/execution"

// threadLanes splits a thread's events into the two lanes a picture draws
// side by side: the events in program order, one per row, and the
// asynchronous operations (8.9.1.1) and the tasks a host thread's CUDA
// calls enqueue, which are in no program order, beside them. An
// asynchronous operation starts at the row of its issue (or call) and
// later ones go lower, so the lane reads in issue order.
type threadLanes struct {
	sync, async []int       // global event indices, in order
	row         map[int]int // each event's row within the thread
	rows        int         // the number of rows the thread needs
}

func lanesOf(x *execution.Execution, t int) threadLanes { return keptLanesOf(x, t, nil) }

// keptLanesOf is lanesOf over the events keep holds (all when keep is
// nil): a picture focused on some events gives them consecutive rows.
func keptLanesOf(x *execution.Execution, t int, keep map[int]bool) threadLanes {
	l := threadLanes{row: map[int]int{}}
	start := x.ThreadStart[t]
	issueRow := 0
	nextAsync := 0
	for i := range x.Runs[t].Events {
		e := start + i
		if keep != nil && !keep[e] {
			continue
		}
		ev := &x.Events[e]
		if !ev.Async {
			l.row[e] = len(l.sync)
			if ev.Kind == execution.KindIssue || ev.Kind == execution.KindAPI {
				issueRow = len(l.sync)
			}
			l.sync = append(l.sync, e)
			continue
		}
		r := max(issueRow, nextAsync)
		l.row[e] = r
		nextAsync = r + 1
		l.async = append(l.async, e)
	}
	l.rows = max(len(l.sync), nextAsync)
	return l
}

// stuckNote says how a thread ends when it never finishes, or "".
func stuckNote(x *execution.Execution, t int) string {
	r := x.Runs[t]
	switch {
	case r.Status == execution.Spinning:
		return "waits forever for an mbarrier phase"
	case x.Blocked(t) && r.Host != nil:
		return "waits forever at " + r.Events[len(r.Events)-1].Instr.Text
	case x.Blocked(t):
		return "blocked at a barrier"
	case r.NotStarted:
		return "never starts: its kernel never starts"
	}
	return ""
}
