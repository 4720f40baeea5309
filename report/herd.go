package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// Herd prints one result in herd7's layout:
//
//	Test MP Allowed
//	States 3
//	P1:r0=0; P1:r1=0;
//	...
//	Ok
//	Witnesses
//	Positive: 1 Negative: 2
//	Condition exists (P1:r0 == 1 /\ P1:r1 == 0)
//	Observation MP Sometimes 1 2
//	Time MP 0.01
//
// A .test file prints one line per assertion instead of the condition
// lines.
func Herd(w io.Writer, r *checker.Result) {
	t := r.Test
	if r.Err != nil {
		fmt.Fprintf(w, "Test %s Error\n%v\n\n", t.Name, r.Err)
		return
	}
	kind := "Allowed"
	if t.Condition != nil && t.Condition.Kind == litmus.CondForall {
		kind = "Required"
	}
	fmt.Fprintf(w, "Test %s %s\n", t.Name, kind)
	fmt.Fprintf(w, "States %d\n", len(r.States))
	for _, s := range r.States {
		fmt.Fprintln(w, checker.FormatState(t, r.Layout, r.Observables, s))
	}
	if t.Condition != nil {
		fmt.Fprintln(w, validation(r))
		fmt.Fprintln(w, "Witnesses")
		fmt.Fprintf(w, "Positive: %d Negative: %d\n", r.Positive, r.Negative)
		flagLines(w, r)
		fmt.Fprintf(w, "Condition %s %s\n", t.Condition.Kind, litmus.ExprString(t, t.Condition.Expr))
		fmt.Fprintf(w, "Observation %s %s %d %d\n", t.Name, r.Observation(), r.Positive, r.Negative)
	}
	if t.Condition == nil {
		if r.Undefined() {
			fmt.Fprintln(w, "Undef")
		}
		flagLines(w, r)
	}
	for i, a := range r.Assertions {
		fmt.Fprintln(w, assertionLine(t, i, a, r.Consistent))
	}
	for _, f := range r.Forbidden {
		fmt.Fprintf(w, "Forbidden %s\n", checker.FormatState(t, r.Layout, r.Observables, f.State))
		for i, c := range f.Failures {
			if i < len(f.Explanations) && f.Explanations[i] != nil {
				fmt.Fprintf(w, "  %s: %s\n", c.Name, EdgeChain(f.Execution, f.Explanations[i]))
			} else {
				fmt.Fprintf(w, "  %s\n", WitnessText(f.Execution, c))
			}
		}
	}
	if !r.Sanity {
		fmt.Fprintf(w, "Sanity %s failed: no candidate execution meets the \"== v\" restrictions of its loads, whatever the model\n", t.Name)
	} else if r.Empty != nil {
		fmt.Fprintf(w, "Empty %s: %s\n", t.Name, r.Empty.Text)
	}
	if r.Cut > 0 {
		fmt.Fprintf(w, "Unroll %s: %d thread run(s) cut at the unrolling bound (raise it with -unroll)\n", t.Name, r.Cut)
	}
	if r.Blocked > 0 {
		fmt.Fprintf(w, "Blocked %s: %d consistent execution(s) have a thread waiting forever at a barrier (its unwritten registers show as ?)\n", t.Name, r.Blocked)
	}
	if r.Hangs > 0 {
		fmt.Fprintf(w, "Deadlock %s: %d consistent execution(s) never finish, so they have no final state (%s waits forever)\n", t.Name, r.Hangs, strings.Join(r.Stuck, "; "))
	}
	if r.ThinAir > 0 {
		fmt.Fprintf(w, "ThinAir %s: the model allows %d execution(s) whose values form a cycle of reads-from and data dependencies; their values are not determined, so they have no final state\n", t.Name, r.ThinAir)
	}
	fmt.Fprintf(w, "Time %s %.3f\n\n", t.Name, r.Elapsed.Seconds())
}

// flagLines prints one "Flag NAME" line per raised flag, as herd7 does,
// followed, when explanations were asked for, by the witness of the first
// execution that raises it; "Flag deadlock" when some consistent execution
// never finishes.
func flagLines(w io.Writer, r *checker.Result) {
	if r.Hangs > 0 {
		fmt.Fprintln(w, "Flag deadlock")
	}
	for _, f := range r.Flags {
		fmt.Fprintf(w, "Flag %s\n", f.Name)
		if r.Explained {
			fmt.Fprintf(w, "  %s\n", WitnessText(f.Execution, f.Witness))
		}
	}
}

// assertionLine prints one assert/permit/check outcome.
func assertionLine(t *litmus.Test, i int, a checker.AssertionResult, consistent int) string {
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
		return fmt.Sprintf("Check %s %s: %s holds %s", t.Name, a.Name, expr, how)
	}
	verdict := "holds"
	if !a.Holds {
		verdict = "fails"
	}
	return fmt.Sprintf("%s %s %s: %s %s", capitalize(a.Kind.String()), t.Name, a.Name, expr, verdict)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
