package checker

import "github.com/ptxmm/ptxmm/litmus"

// decides reports whether a consistent execution with this final state
// settles the test, for Options.StopAtWitness: herd7's -speedcheck fast
// stops at the first state satisfying the condition of exists and ~exists,
// and at the first contradicting that of forall. A .test file with one
// assert or permit stops likewise; with several commands nothing stops
// early.
func decides(t *litmus.Test, obs []Observable, st State) bool {
	if c := t.Condition; c != nil {
		holds := evalExpr(c.Expr, obs, st)
		if c.Kind == litmus.CondForall {
			return !holds
		}
		return holds
	}
	if len(t.Assertions) != 1 {
		return false
	}
	a := t.Assertions[0]
	holds := evalExpr(a.Expr, obs, st)
	switch a.Kind {
	case litmus.AssertAlways:
		return !holds
	case litmus.AssertSometimes:
		return holds
	}
	return false
}
