package checker

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/execution"
)

// Kinds of EmptyReason.
const (
	// EmptyLoop: a thread has no run that leaves its loop within the
	// unrolling bound.
	EmptyLoop = "loop"
	// EmptyAddress: a thread has no run because it uses a register
	// loaded from memory as an address and no value the test stores is an
	// address.
	EmptyAddress = "address"
	// EmptyRestrictions: no candidate meets the "== v" restrictions of a
	// .test file's loads (Result.Sanity is false).
	EmptyRestrictions = "restrictions"
	// EmptyConstraints: every thread has runs, but no reads-from choice
	// gives their branches and addresses the values they need.
	EmptyConstraints = "constraints"
	// EmptyForbidden: the model forbids every candidate execution.
	EmptyForbidden = "forbidden"
	// EmptyThinAir: the model allows only executions whose values are
	// not determined (Result.ThinAir).
	EmptyThinAir = "thin-air"
	// EmptyHang: every consistent execution hangs, a thread waiting
	// forever (Result.Hangs), so none has a final state.
	EmptyHang = "hang"
)

// EmptyReason says why a test has no final state: an answer over no
// execution at all ("States 0") holds or fails vacuously, and must not
// pass for a checked one.
type EmptyReason struct {
	Kind string // one of the Empty* constants
	Text string // the reason, for people
}

// explainEmpty sets the Loop flag, and Empty when no consistent execution
// has a final state.
func (r *modelRun) explainEmpty(a *execution.Analysis, stats execution.Stats) {
	res := r.res
	stuck := false // some thread has no run at all because of its loops
	for t := range a.Runs {
		if len(a.Runs[t]) == 0 && a.Spins[t] > 0 {
			stuck = true
		}
	}
	// herd prints "Loop" when its unrolling bound cut an execution. A
	// thread whose every run was left out as a failed spin iteration is
	// one whose runs, unrolled, would all reach the bound.
	res.Loop = a.CutRuns() > 0 || stuck
	if len(res.States) > 0 {
		return
	}
	threads := a.Test.Threads
	for t, runs := range a.Runs {
		if len(runs) > 0 {
			continue
		}
		var why []string
		kind := EmptyLoop
		if a.Cut[t] > 0 || a.Spins[t] > 0 {
			why = append(why, "every path through it is still in a loop at the unrolling bound (-unroll)")
		}
		if a.NoAddr[t] > 0 {
			in := a.NoAddrAt[t]
			why = append(why, fmt.Sprintf("at %s (%q) it uses a register loaded from memory as an address, but no value the test stores is an address", in.Pos, in.Text))
			if len(why) == 1 {
				kind = EmptyAddress
			}
		}
		if len(why) == 0 {
			why = append(why, "no path through it ends")
		}
		res.Empty = &EmptyReason{Kind: kind, Text: fmt.Sprintf("thread %s has no run that finishes: %s", threads[t].Name, strings.Join(why, "; "))}
		return
	}
	if res.OnlyDeciding {
		// The executions that cannot settle the test were left out: no
		// state among the others says nothing of theirs.
		return
	}
	switch {
	case stats.Candidates == 0 && !res.Sanity:
		res.Empty = &EmptyReason{Kind: EmptyRestrictions, Text: "no candidate execution meets the \"== v\" restrictions of the loads"}
	case stats.Candidates == 0:
		res.Empty = &EmptyReason{Kind: EmptyConstraints, Text: "no candidate execution: no choice of the writes each load reads gives the threads' branches and memory addresses the values their runs need"}
	case res.Hangs > 0 && res.Hangs == res.Consistent:
		res.Empty = &EmptyReason{Kind: EmptyHang, Text: fmt.Sprintf("every consistent execution hangs: %s waits forever", strings.Join(res.Stuck, "; "))}
	case res.ThinAir > 0 && res.Consistent == 0:
		res.Empty = &EmptyReason{Kind: EmptyThinAir, Text: fmt.Sprintf("the model allows only the %d execution(s) whose values are not determined", res.ThinAir)}
	case res.Consistent == 0:
		res.Empty = &EmptyReason{Kind: EmptyForbidden, Text: fmt.Sprintf("the model forbids all %d candidate execution(s)", stats.Candidates)}
	}
}
