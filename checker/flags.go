package checker

import (
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// recordFlags counts the flags one consistent execution raises, keeping the
// first witness of each. Result.Flags follows the model's order of tests.
// The flags an execution raises first share one copy of it (executions in
// results are read, never changed): the PTX model raises data_race and
// heterogeneous_race together, and a copy per flag took 0.3 MB of the
// 11 MB the 243-test suite allocates, each byte a fresh page's.
func (r *modelRun) recordFlags(x *execution.Execution, raised []rules.CheckResult) {
	added := false
	var kept *execution.Execution
	for _, f := range raised {
		i := slices.IndexFunc(r.res.Flags, func(g FlagResult) bool { return g.Name == f.Name })
		if i < 0 {
			if kept == nil {
				kept = x.Clone()
			}
			r.res.Flags = append(r.res.Flags, FlagResult{Name: f.Name, Undefined: r.flagMode(f.Name) == datalog.ModeUndefined,
				Witness: f, Execution: kept})
			i = len(r.res.Flags) - 1
			added = true
		}
		r.res.Flags[i].Executions++
	}
	if added {
		// Flags already in order stay so: only a new one is placed.
		r.sortFlags()
	}
}

// sortFlags puts Result.Flags in the model's order of tests.
func (r *modelRun) sortFlags() {
	flags := r.m.Program.Flags()
	order := func(name string) int {
		return slices.IndexFunc(flags, func(c *datalog.Check) bool { return c.Name == name })
	}
	slices.SortStableFunc(r.res.Flags, func(a, b FlagResult) int { return order(a.Name) - order(b.Name) })
}

// flagMode returns the mode of the model's test called name.
func (r *modelRun) flagMode(name string) datalog.CheckMode {
	for _, c := range r.m.Program.Flags() {
		if c.Name == name {
			return c.Mode
		}
	}
	return datalog.ModeFlag
}
