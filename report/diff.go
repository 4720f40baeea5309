package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
)

// Diff prints how two models disagree on one test; it prints nothing when
// they agree. nameA and nameB name the models.
func Diff(w io.Writer, d *checker.DiffResult, nameA, nameB string) {
	t := d.Test
	if d.Err != nil {
		fmt.Fprintf(w, "Test %s: error: %v\n\n", t.Name, d.Err)
		return
	}
	if !d.Differs() {
		return
	}
	fmt.Fprintf(w, "Test %s\n", t.Name)
	if t.Condition != nil && d.A.Verdict != d.B.Verdict {
		fmt.Fprintf(w, "  verdict: %s %s, %s %s  (condition %s)\n", nameA, d.A.Verdict, nameB, d.B.Verdict, t.Condition)
	}
	for i := range d.A.Assertions {
		a, b := d.A.Assertions[i], d.B.Assertions[i]
		if a.Holds != b.Holds {
			fmt.Fprintf(w, "  %s %s: %s %s, %s %s\n", a.Kind, a.Name, nameA, holdsWord(a.Holds), nameB, holdsWord(b.Holds))
		}
	}
	for _, diff := range d.OnlyA {
		differenceLines(w, d.A, diff, nameA, nameB)
	}
	for _, diff := range d.OnlyB {
		differenceLines(w, d.B, diff, nameB, nameA)
	}
	fmt.Fprintln(w)
}

// differenceLines prints one outcome allowed by one model only.
func differenceLines(w io.Writer, r *checker.Result, diff checker.Difference, allows, forbids string) {
	state := checker.FormatState(r.Test, r.Layout, r.Observables, diff.State)
	fmt.Fprintf(w, "  outcome %s  allowed by %s, forbidden by %s\n", state, allows, forbids)
	x := diff.Execution
	fmt.Fprintf(w, "    candidate: %s\n", DescribeCandidate(x))
	for i, f := range diff.Failures {
		if i < len(diff.Explanations) && diff.Explanations[i] != nil {
			fmt.Fprintf(w, "    %s rejects it by %s: %s\n", forbids, f.Name, EdgeChain(x, diff.Explanations[i]))
		} else {
			fmt.Fprintf(w, "    %s rejects it: %s\n", forbids, WitnessText(x, f))
		}
	}
}

// DescribeCandidate summarises a candidate by the write each read reads from.
func DescribeCandidate(x *execution.Execution) string {
	var parts []string
	for r, w := range x.RF {
		if w >= 0 {
			parts = append(parts, fmt.Sprintf("%s reads %s", x.Label(r), x.Label(w)))
		}
	}
	if len(parts) == 0 {
		return "no reads"
	}
	return strings.Join(parts, "; ")
}
