package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// richLines prints what ptxmm knows beyond herd7's log, after the Hash
// line: herd's log tools skip every line there up to the next "Test" line,
// and none of these starts with "Test".
//
//   - each assert/permit/check of a .test file and its outcome;
//   - the witness of each raised .undefined test and, with -explain, of
//     every raised flag, each outcome some candidate reaches but the
//     model forbids, with the checks that reject it, and each allowed
//     outcome the condition asks about, with where its reads read from
//     and what does not order the writes they miss (AllowedText);
//   - Sanity, Empty, Unroll, Awaits, Speedcheck, Deadlock and ThinAir
//     notes.
func richLines(w io.Writer, r *checker.Result, name string, order []int) {
	t := r.Test
	for i, a := range r.Assertions {
		fmt.Fprintln(w, assertionLine(t, name, i, a, r.Consistent))
	}
	// Undefined behaviour is named with its witness (for a race, the two
	// operations) even without -explain: the verdict rests on it.
	for _, f := range r.Flags {
		if r.Explained || f.Undefined {
			fmt.Fprintf(w, "Flag %s raised by: %s\n", f.Name, WitnessText(f.Execution, f.Witness))
		}
	}
	for _, f := range r.Forbidden {
		fmt.Fprintf(w, "Forbidden %s\n", herdStateLine(r, order, f.State))
		for _, l := range ForbiddenText(f) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	for _, a := range r.Allowed {
		fmt.Fprintf(w, "Allowed %s\n", herdStateLine(r, order, a.State))
		for _, l := range AllowedText(a) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if !r.Sanity {
		fmt.Fprintf(w, "Sanity %s failed: no candidate execution meets the \"== v\" restrictions of its loads, whatever the model\n", name)
	} else if r.Empty != nil {
		fmt.Fprintf(w, "Empty %s: %s\n", name, r.Empty.Text)
	}
	if r.Cut > 0 {
		fmt.Fprintf(w, "Unroll %s: %d thread run(s) cut at the unrolling bound (raise it with -unroll)\n", name, r.Cut)
	}
	if r.Awaits != "" {
		fmt.Fprintf(w, "Awaits %s: %s\n", name, r.Awaits)
	}
	switch {
	case r.Stopped:
		fmt.Fprintf(w, "Speedcheck %s: stopped at the first execution deciding the condition; the states and counts are partial\n", name)
	case r.OnlyDeciding:
		fmt.Fprintf(w, "Speedcheck %s: only the executions that may decide the condition were checked; the states and counts are theirs\n", name)
	}
	if r.Hangs > 0 {
		fmt.Fprintln(w, deadlockLine(name, r))
	}
	if r.Termination != nil {
		fmt.Fprintln(w, terminationLine(name, r.Termination))
	}
	if r.ThinAir > 0 {
		fmt.Fprintf(w, "ThinAir %s: the model allows %d execution(s) whose values form a cycle of reads-from and data dependencies; their values are not determined, so they have no final state\n", name, r.ThinAir)
	}
}

// ForbiddenText explains a forbidden outcome: each check that rejects it,
// with its witness as a chain of edges where it could be expanded.
func ForbiddenText(f checker.Forbidden) []string {
	var out []string
	for i, c := range f.Failures {
		if i < len(f.Explanations) && f.Explanations[i] != nil {
			out = append(out, fmt.Sprintf("%s: %s", c.Name, EdgeChain(f.Execution, f.Explanations[i])))
		} else {
			out = append(out, WitnessText(f.Execution, c))
		}
	}
	return out
}

// assertionLine prints one assert/permit/check outcome.
func assertionLine(t *litmus.Test, name string, i int, a checker.AssertionResult, consistent int) string {
	expr := litmus.ExprString(t, t.Assertions[i].Expr)
	if a.Kind == litmus.AssertCheck {
		how := "never"
		switch {
		case consistent == 0:
			how = "vacuously: there is no consistent execution"
		case a.Holds:
			how = "always"
		case a.Sometimes:
			how = "sometimes"
		}
		return fmt.Sprintf("Check %s %s: %s holds %s", name, a.Name, expr, how)
	}
	verdict := "holds"
	if !a.Holds {
		verdict = "fails"
	}
	return fmt.Sprintf("%s %s %s: %s %s", capitalize(a.Kind.String()), name, a.Name, expr, verdict)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// livelock reports whether some thread of the test can loop forever under
// a fair scheduler in a loop that writes memory.
func livelock(r *checker.Result) bool {
	return r.Termination != nil && r.Termination.Spins
}

// terminationLine says whether some thread can run forever under a fair
// scheduler in a test whose loops write memory (docs/litmus.md).
func terminationLine(name string, t *execution.Termination) string {
	switch {
	case !t.Decided:
		return fmt.Sprintf("Termination %s: not decided for its loops that are not awaits: %s", name, t.Why)
	case t.Spins:
		return fmt.Sprintf("Livelock %s: under a fair scheduler some thread can loop forever, every unfinished thread taking steps on a reachable cycle of the test's interleavings (%d states explored), through %s",
			name, t.States, strings.Join(t.Where, " and "))
	}
	if t.Limits > 0 {
		return fmt.Sprintf("Termination %s: every run finishes under a fair scheduler (its loops are not awaits; all %d states of its interleavings explored, and all %d limits of its executions across locations ruled out)", name, t.States, t.Limits)
	}
	return fmt.Sprintf("Termination %s: every run finishes under a fair scheduler (its loops are not awaits; all %d states of its interleavings explored)", name, t.States)
}

// deadlockLine says how many consistent executions never finish, where the
// threads of the first one wait, and how many have no final state.
func deadlockLine(name string, r *checker.Result) string {
	wait := "waits"
	if len(r.Stuck) > 1 {
		wait = "wait"
	}
	line := fmt.Sprintf("Deadlock %s: %d consistent execution(s) never finish (in the first found, %s %s forever)",
		name, r.Hangs, strings.Join(r.Stuck, " and "), wait)
	switch r.Unjudged {
	case 0:
		return line + "; in each, the waiting threads have nothing left to execute, so it is judged by its final state"
	case r.Hangs:
		return line + "; none has a final state (a waiting thread has instructions left to execute)"
	}
	return fmt.Sprintf("%s; %d of them have no final state (a waiting thread has instructions left to execute)", line, r.Unjudged)
}
