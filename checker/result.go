package checker

import (
	"time"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Result is what checking one test found.
type Result struct {
	Test   *litmus.Test
	Layout *execution.Layout
	// Observables are the registers and locations the states show.
	Observables []Observable
	// States are the distinct final states of the consistent executions,
	// in the order first found.
	States []State
	// Positive and Negative count the consistent executions that satisfy
	// and do not satisfy the herd condition.
	Positive, Negative int
	// Verdict is "Ok" or "No" for a herd condition, as herd7 prints it, or
	// "Undef" when a consistent execution raises an .undefined test of the
	// model (the program's behaviour is undefined, so the condition is not
	// judged).
	Verdict string
	// Flags lists the .flag and .undefined tests of the model that some
	// consistent execution raises, in the model's order.
	Flags []FlagResult
	// Assertions are the outcomes of a .test file's commands.
	Assertions []AssertionResult
	// Candidates counts the candidate executions (with one per choice of
	// final writes for the observed locations); Consistent the consistent
	// ones. Evaluated counts those the model was run on one by one: the
	// search leaves out, without building them, the completions of partial
	// candidates the model already rejects (search.go), which Candidates
	// counts all the same.
	Candidates, Consistent, Evaluated int
	// Cut counts thread runs abandoned at the unrolling bound.
	Cut int
	// Stopped is set when Options.StopAtWitness found its witness: the
	// states and counts end there (past it, only .undefined tests were
	// looked for), so they are partial.
	Stopped bool
	// OnlyDeciding is set when Options.OnlyDeciding left out the
	// executions that cannot decide the test: the states, counts and
	// flags are those of the others.
	OnlyDeciding bool
	// Sanity is false for a .test file whose "== v" restrictions no
	// candidate execution meets, whatever the model.
	Sanity bool
	// Forbidden lists, when explanations were asked for, each outcome some
	// candidate reaches but the model forbids.
	Forbidden []Forbidden
	// Allowed lists, when explanations were asked for, each outcome that
	// satisfies the test's condition (contradicts it, for forall) with a
	// consistent execution reaching it and where its reads read from
	// (allowed.go).
	Allowed []Allowed
	// Explained is set when explanations were asked for.
	Explained bool
	// Hangs counts consistent executions that never finish: a thread waits
	// forever at a barrier, or in an await (a spin loop on memory, an
	// mbarrier or a CUDA query) that never succeeds. Stuck says where the threads of the first such execution
	// wait ("P1: mbarrier.try_wait r0, b"). Unjudged counts the hangs in
	// which a waiting thread still has instructions to execute: they have
	// no final state and are left out of the states and the condition. The
	// others, whose waiting threads wait at their last instruction, are
	// judged like finished executions.
	Hangs, Unjudged int
	Stuck           []string
	// Termination is, for a test with a loop that is not an await (an
	// exchange or CAS loop, a loop whose runs were cut at the unrolling
	// bound), whether some thread can run forever under a fair scheduler,
	// or why that is not decided; nil for other tests, whose termination
	// Hangs says (docs/model.md, "Loops that write:
	// termination under fair scheduling").
	Termination *execution.Termination
	// ThinAir counts consistent executions whose values are not determined
	// (a cycle of reads-from and data dependencies the model allows).
	ThinAir int
	// Loop is herd's "Loop" flag: the unrolling bound cut thread runs, so
	// the states may miss executions that loop longer (empty.go).
	Loop bool
	// Awaits, when set, says why the test's awaits are not decided as one
	// iteration, or their termination not at all: the model does not
	// meet the conditions (docs/model.md, "Awaits and termination").
	Awaits string
	// Empty says why the test has no final state, nil when it has one.
	Empty   *EmptyReason
	Elapsed time.Duration
	// Err is set when the test could not be checked.
	Err error
}

// FlagResult is a .flag or .undefined test of the model that consistent
// executions raise.
type FlagResult struct {
	Name string
	// Undefined is set for an .undefined test: the program's behaviour is
	// undefined.
	Undefined bool
	// Executions counts the consistent executions that raise it.
	Executions int
	// Witness is the failed test on the first execution found raising it,
	// and Execution that execution (a clone, safe to keep).
	Witness   rules.CheckResult
	Execution *execution.Execution
}

// Undefined reports whether an .undefined test is raised.
func (r *Result) Undefined() bool {
	for _, f := range r.Flags {
		if f.Undefined {
			return true
		}
	}
	return false
}

// AssertionResult is the outcome of one assert/permit/check command.
type AssertionResult struct {
	Name string
	Kind litmus.AssertKind
	// Holds reports whether the command holds: assert, every consistent
	// execution satisfies it; permit, at least one does. For check it
	// reports whether the condition always holds.
	Holds bool
	// Sometimes reports whether at least one consistent execution satisfies
	// the condition (what a check command prints).
	Sometimes bool
	// Positive and Negative count the consistent executions that satisfy
	// and do not satisfy the condition.
	Positive, Negative int
}

// Forbidden is an outcome the model forbids, with the checks that reject
// the first candidate execution found reaching it.
type Forbidden struct {
	State    State
	Failures []rules.CheckResult
	// Explanations[i] is Failures[i]'s witness as a chain of edges (nil
	// when it could not be expanded).
	Explanations [][]rules.Edge
	// Execution is that candidate (a clone, safe to keep).
	Execution *execution.Execution
	// Finals are the final writes chosen for the observed locations.
	Finals []int
}

// Observation summarises the positive and negative counts herd-style.
func (r *Result) Observation() string {
	switch {
	case r.Positive == 0:
		return "Never"
	case r.Negative == 0:
		return "Always"
	default:
		return "Sometimes"
	}
}
