package cli

import (
	"runtime"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/limits"
)

// workerCount is the number of tests to check at once: as asked (one per
// CPU when not given), and never more than there are tests, so that a huge
// -j does not start goroutines with nothing to do.
func workerCount(asked, items int) int {
	w := asked
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(min(w, items), 1)
}

// sharedLimits makes the memory limit one budget that the tests checked in
// parallel draw from, so that together they stay under it.
func sharedLimits(o checker.Options) checker.Options {
	if o.Budget == nil {
		o.Budget = limits.NewBudget(o.MaxMemory)
	}
	return o
}
