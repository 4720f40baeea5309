package report

import (
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// This file exports the herd-log pieces other logs built on herd's
// layout share (ptxmm run's litmus7 log): states printed and ordered as
// herd prints them, the test's kind, its threads line and its condition.

// SortStates sorts states of r's observables as herd7 sorts them.
func SortStates(r *checker.Result, states []checker.State) []checker.State {
	sorted := &checker.Result{Test: r.Test, Layout: r.Layout, Observables: r.Observables, States: states}
	return herdStates(sorted, herdOrder(r.Test, r.Observables))
}

// StateLine prints a state of r's observables as herd logs do:
// "0:r0=1; 1:r1=0; x=2;".
func StateLine(r *checker.Result, s checker.State) string {
	return herdStateLine(r, herdOrder(r.Test, r.Observables), s)
}

// TestKind is herd7's kind of a test: Allowed, Forbidden or Required, ""
// for a .test file with several commands.
func TestKind(t *litmus.Test) string { return testKind(t) }

// ThreadsComment is the "# threads 0=NAME ..." line of tests whose
// threads herd's numbers do not name plainly, "" for the others.
func ThreadsComment(t *litmus.Test) string { return threadsComment(t) }

// ConditionText prints a proposition as herd7 prints conditions.
func ConditionText(t *litmus.Test, e litmus.Expr) string { return herdCondition(t, e) }
