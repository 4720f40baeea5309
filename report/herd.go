package report

import (
	"fmt"
	"io"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// LogOptions configure the herd log.
type LogOptions struct {
	// Candidates prints "Candidates NAME n" (herd7's -candidates).
	Candidates bool
}

// Herd prints one result as herd7's log, which herd's log tools (mcompare7,
// msum7, ...) read:
//
//	Test MP Allowed
//	States 3
//	1:r0=0; 1:r1=0;
//	...
//	No
//	Witnesses
//	Positive: 0 Negative: 3
//	Condition exists (1:r0=1 /\ 1:r1=0)
//	Observation MP Never 0 3
//	Time MP 0.01
//	Hash=...
//
// ptxmm's own lines (the assertions of a .test file, forbidden outcomes with
// -explain, Deadlock, ThinAir, Unroll, Sanity) follow the Hash line, where the
// log tools skip them.
func Herd(w io.Writer, r *checker.Result) { HerdLog(w, r, LogOptions{}) }

// Condition is the herd condition a test is judged by in herd logs: the
// test's, or for a .test file with a single assert (forall) or permit
// (exists), that command's. ok reports whether there is one.
func Condition(t *litmus.Test) (kind litmus.CondKind, e litmus.Expr, ok bool) {
	if c := t.Condition; c != nil {
		return c.Kind, c.Expr, true
	}
	if len(t.Assertions) == 1 {
		switch a := t.Assertions[0]; a.Kind {
		case litmus.AssertAlways:
			return litmus.CondForall, a.Expr, true
		case litmus.AssertSometimes:
			return litmus.CondExists, a.Expr, true
		}
	}
	return 0, nil, false
}

// testKind is herd7's kind of a test: Allowed for exists, Forbidden for
// ~exists, Required for forall; a .test file with several commands has
// none.
func testKind(t *litmus.Test) string {
	kind, _, ok := Condition(t)
	if !ok {
		return ""
	}
	return map[litmus.CondKind]string{litmus.CondExists: "Allowed", litmus.CondNotExists: "Forbidden", litmus.CondForall: "Required"}[kind]
}

// counts returns the numbers of consistent executions satisfying and not
// satisfying the proposition of the herd condition.
func counts(r *checker.Result) (pos, neg int) {
	if r.Test.Condition != nil {
		return r.Positive, r.Negative
	}
	a := r.Assertions[0]
	return a.Positive, a.Negative
}

// validation is the Ok/No/Undef line, with "Loop " when the unrolling
// bound cut a thread's run (or left a thread no run at all). For a .test file, Ok means every assert and
// permit holds.
func validation(r *checker.Result) string {
	v := verdictOf(r)
	if r.Loop {
		v = "Loop " + v
	}
	return v
}

// verdictOf is a result's Ok, No or Undef: the verdict of its herd
// condition, or for a .test file Ok when every assert and permit holds.
func verdictOf(r *checker.Result) string {
	v := r.Verdict
	if r.Test.Condition == nil {
		v = "Ok"
		for _, a := range r.Assertions {
			if a.Kind != litmus.AssertCheck && !a.Holds {
				v = "No"
			}
		}
		if r.Undefined() {
			v = "Undef"
		}
	}
	return v
}

// HerdLog prints one result as herd7's log (see Herd) with options.
func HerdLog(w io.Writer, r *checker.Result, o LogOptions) {
	t := r.Test
	name := LogName(t)
	if r.Err != nil {
		// Not a Test block: herd's tools stop at a kind they do not know.
		fmt.Fprintf(w, "Error %s: %v\n\n", name, r.Err)
		return
	}
	if kind := testKind(t); kind != "" {
		fmt.Fprintf(w, "Test %s %s\n", name, kind)
	} else {
		fmt.Fprintf(w, "Test %s\n", name)
	}
	if line := threadsComment(t); line != "" {
		fmt.Fprintln(w, line)
	}
	order := herdOrder(t, r.Observables)
	fmt.Fprintf(w, "States %d\n", len(r.States))
	states := newHerdStatePrinter(r, order)
	for _, s := range herdStates(r, order) {
		w.Write(append(states.line(s), '\n'))
	}
	fmt.Fprintln(w, validation(r))
	kind, prop, hasCond := Condition(t)
	if hasCond {
		pos, neg := counts(r)
		fmt.Fprintln(w, "Witnesses")
		// herd7 counts the executions that make a ~exists test true.
		if kind == litmus.CondNotExists {
			fmt.Fprintf(w, "Positive: %d Negative: %d\n", neg, pos)
		} else {
			fmt.Fprintf(w, "Positive: %d Negative: %d\n", pos, neg)
		}
	}
	// "Flag deadlock" when some consistent execution never finishes: a
	// thread waits forever, or loops forever under a fair scheduler.
	if r.Hangs > 0 || livelock(r) {
		fmt.Fprintln(w, "Flag deadlock")
	}
	for _, f := range r.Flags {
		fmt.Fprintf(w, "Flag %s\n", f.Name)
	}
	if hasCond {
		pos, neg := counts(r)
		fmt.Fprintf(w, "Condition %s (%s)\n", kind, herdCondition(t, prop))
		fmt.Fprintf(w, "Observation %s %s %d %d\n", name, observation(pos, neg), pos, neg)
	}
	fmt.Fprintf(w, "Time %s %.2f\n", name, r.Elapsed.Seconds())
	if o.Candidates {
		fmt.Fprintf(w, "Candidates %s %d\n", name, r.Candidates)
	}
	fmt.Fprintf(w, "Hash=%s\n", litmus.Hash(t))
	richLines(w, r, name, order)
	fmt.Fprintln(w)
}

// observation follows herd7: Never when no execution satisfies the
// proposition, Always when none fails it, whatever the kind of condition
// and -speedcheck (which may leave counts partial: herd7 reads them as
// they are).
func observation(pos, neg int) string {
	switch {
	case pos == 0:
		return "Never"
	case neg == 0:
		return "Always"
	}
	return "Sometimes"
}
