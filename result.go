package ptxmm

import (
	"io"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

// Result is the outcome of checking one test, in plain values: what
// `ptxmm check -json` prints of it (WriteJSON writes that line), each
// state, witness and explanation as the text the log shows.
type Result struct {
	// File is the test's file, Instance its row in a .test template (0
	// for a .litmus file) and Name its name.
	File     string
	Instance int
	Name     string
	// Verdict is "Ok" or "No" for a herd condition, as herd7 prints it,
	// or "Undef" when a consistent execution raises an .undefined test of
	// the model; empty for a test without a condition (a .test file's
	// commands are in Assertions).
	Verdict string
	// States are the distinct final states of the consistent executions,
	// in the order first found, as herd7 prints them ("P1:r0=1; x=2;").
	States []string
	// Positive and Negative count the consistent executions that satisfy
	// and do not satisfy the condition.
	Positive, Negative int
	// Candidates counts the candidate executions (one per choice of final
	// writes of the observed locations), Consistent the consistent ones,
	// and Evaluated those the model was run on one by one (the search
	// leaves out, without building them, the completions of partial
	// candidates the model already rejects, which Candidates counts).
	Candidates, Consistent, Evaluated int
	// Sanity is false for a .test file whose "== v" restrictions no
	// candidate execution meets, whatever the model.
	Sanity bool
	// Flags are the model's .flag and .undefined tests that consistent
	// executions raise, in the model's order.
	Flags []RaisedFlag
	// Assertions are the outcomes of a .test file's commands.
	Assertions []Assertion
	// Forbidden and Allowed are the explanations of WithExplain: each
	// outcome some candidate reaches but the model forbids, with the
	// checks that reject it, and each outcome the condition asks about
	// that a consistent execution reaches, with where its reads read from.
	Forbidden, Allowed []Explained
	// Cut counts the thread runs abandoned at the unrolling bound, and
	// Loop is herd7's "Loop" flag: the bound cut runs, so the states may
	// miss executions that loop longer.
	Cut  int
	Loop bool
	// Hangs counts the consistent executions that never finish (a thread
	// waits for ever at a barrier or in an await), and Unjudged those of
	// them with no final state (a waiting thread still has instructions),
	// which the states and the condition leave out. Stuck says where the
	// threads of the first one wait ("P1: mbarrier.try_wait r0, b").
	Hangs, Unjudged int
	Stuck           []string
	// Awaits, when set, says why the test's awaits are not decided as one
	// iteration, or their termination not at all.
	Awaits string
	// Termination is, for a test with a loop that is not an await (one
	// that writes, or that the unrolling bound cut), whether some thread
	// can loop forever under a fair scheduler: "terminates", "livelock",
	// or "not decided: " and why; empty for other tests. Livelock says
	// where each thread that loops forever runs.
	Termination string
	Livelock    []string
	// ThinAir counts the consistent executions whose values are not
	// determined (a cycle of reads-from and data dependencies the model
	// allows).
	ThinAir int
	// Empty, when set, says why the test has no final state.
	Empty *EmptyReason
	// OnlyDeciding is set when WithSpeedcheck left out the executions
	// that cannot decide the test, and Stopped when it stopped at the
	// first that does: the states and counts are those of the executions
	// checked.
	OnlyDeciding, Stopped bool
	// Warnings are the test's parse warnings, each with its position.
	Warnings []string
	Elapsed  time.Duration
	// Err is set when the test could not be checked (a resource limit, a
	// malformed execution, a cancelled context); the states, flags,
	// assertions and explanations are then left out.
	Err error

	res *checker.Result
}

// RaisedFlag is a .flag or .undefined test of the model that consistent
// executions of a test raise.
type RaisedFlag struct {
	Name string
	// Undefined marks an .undefined test: the program's behaviour is
	// undefined.
	Undefined bool
	// Executions counts the consistent executions raising it, and Witness
	// shows the failed test on the first one found, its events labelled
	// by their instructions.
	Executions int
	Witness    string
}

// Assertion is the outcome of one command of a .test file.
type Assertion struct {
	Name string
	// Kind is the command: "assert", "permit" or "check".
	Kind string
	// Holds reports whether it holds: assert, every consistent execution
	// satisfies its condition; permit, at least one does; check, the
	// condition always holds.
	Holds bool
}

// EmptyReason says why a test has no final state.
type EmptyReason struct {
	// Kind is "loop", "address", "restrictions", "constraints",
	// "forbidden", "thin-air" or "hang".
	Kind string
	// Reason is the explanation, for people.
	Reason string
}

// Explained is one explained outcome: its final state and the lines that
// explain it, as the herd log prints them.
type Explained struct {
	State string
	Why   []string
}

// newResult is the view of a checker's result.
func newResult(r *checker.Result) *Result {
	t := r.Test
	out := &Result{File: t.File, Instance: t.Instance, Name: t.Name, Verdict: r.Verdict,
		Positive: r.Positive, Negative: r.Negative, Candidates: r.Candidates, Consistent: r.Consistent,
		Evaluated: r.Evaluated, Sanity: r.Sanity, Cut: r.Cut, Loop: r.Loop, Hangs: r.Hangs, Unjudged: r.Unjudged,
		Stuck: r.Stuck, ThinAir: r.ThinAir, Awaits: r.Awaits, OnlyDeciding: r.OnlyDeciding, Stopped: r.Stopped,
		Elapsed: r.Elapsed, Err: r.Err, res: r}
	for _, w := range t.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	if tm := r.Termination; tm != nil {
		out.Termination, out.Livelock = tm.Verdict(), tm.Where
	}
	if r.Empty != nil {
		out.Empty = &EmptyReason{Kind: r.Empty.Kind, Reason: r.Empty.Text}
	}
	if r.Err != nil {
		return out
	}
	state := func(s checker.State) string { return checker.FormatState(t, r.Layout, r.Observables, s) }
	for _, s := range r.States {
		out.States = append(out.States, state(s))
	}
	for _, f := range r.Flags {
		out.Flags = append(out.Flags, RaisedFlag{Name: f.Name, Undefined: f.Undefined, Executions: f.Executions,
			Witness: report.WitnessText(f.Execution, f.Witness)})
	}
	for _, a := range r.Assertions {
		out.Assertions = append(out.Assertions, Assertion{Name: a.Name, Kind: a.Kind.String(), Holds: a.Holds})
	}
	for _, f := range r.Forbidden {
		out.Forbidden = append(out.Forbidden, Explained{State: state(f.State), Why: report.ForbiddenText(f)})
	}
	for _, a := range r.Allowed {
		out.Allowed = append(out.Allowed, Explained{State: state(a.State), Why: report.AllowedText(a)})
	}
	return out
}

// WriteJSON writes the result as `ptxmm check -json` does: one line of
// JSON.
func (r *Result) WriteJSON(w io.Writer) error { return report.JSON(w, r.res) }
