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
	return max(min(coreCount(asked), items), 1)
}

// coreCount is the number of cores -j asks for: one per CPU when not given.
func coreCount(asked int) int {
	if asked <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return asked
}

// sharedCores gives the checks the -j cores to share: the workers checking
// tests hold one each (parallel), and a test's search takes the others
// (checker, "Searching in parallel"), so that a run of one big test, or
// the last tests of a run, still use every core.
func sharedCores(o checker.Options, asked int) checker.Options {
	if o.Cores == nil {
		o.Cores = limits.NewCores(coreCount(asked))
	}
	return o
}

// sharedLimits makes the memory limit one budget that the tests checked in
// parallel draw from, so that together they stay under it.
func sharedLimits(o checker.Options) checker.Options {
	if o.Budget == nil {
		o.Budget = limits.NewBudget(o.MaxMemory)
	}
	return o
}
