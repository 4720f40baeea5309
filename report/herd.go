package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

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
	switch kind {
	case litmus.CondExists:
		return "Allowed"
	case litmus.CondNotExists:
		return "Forbidden"
	case litmus.CondForall:
		return "Required"
	}
	return ""
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

// HerdLog prints one result as herd7's log (see Herd) with options. The
// lines up to Hash are built in one buffer with strconv and written at
// once: over a suite of small tests, fmt was most of the log's cost.
func HerdLog(w io.Writer, r *checker.Result, o LogOptions) {
	t := r.Test
	name := LogName(t)
	if r.Err != nil {
		// Not a Test block: herd's tools stop at a kind they do not know.
		fmt.Fprintf(w, "Error %s: %v\n\n", name, r.Err)
		return
	}
	var b []byte
	if buf, ok := w.(*bytes.Buffer); ok {
		// Appended to in place: a buffer kept from test to test (the
		// stream's) has the room already.
		b = buf.AvailableBuffer()
	}
	if cap(b) < 512 {
		b = make([]byte, 0, 512)
	}
	b = append(b, "Test "...)
	b = append(b, name...)
	if kind := testKind(t); kind != "" {
		b = append(b, ' ')
		b = append(b, kind...)
	}
	b = append(b, '\n')
	if line := threadsComment(t); line != "" {
		b = append(b, line...)
		b = append(b, '\n')
	}
	order := herdOrder(t, r.Observables)
	b = append(b, "States "...)
	b = strconv.AppendInt(b, int64(len(r.States)), 10)
	b = append(b, '\n')
	states := newHerdStatePrinter(r, order)
	for _, s := range herdStates(r, order) {
		b = append(b, states.line(s)...)
		b = append(b, '\n')
	}
	b = append(b, validation(r)...)
	b = append(b, '\n')
	kind, prop, hasCond := Condition(t)
	if hasCond {
		pos, neg := counts(r)
		// herd7 counts the executions that make a ~exists test true.
		if kind == litmus.CondNotExists {
			pos, neg = neg, pos
		}
		b = append(b, "Witnesses\nPositive: "...)
		b = strconv.AppendInt(b, int64(pos), 10)
		b = append(b, " Negative: "...)
		b = strconv.AppendInt(b, int64(neg), 10)
		b = append(b, '\n')
	}
	// "Flag deadlock" when some consistent execution never finishes: a
	// thread waits forever, or loops forever under a fair scheduler.
	if r.Hangs > 0 || livelock(r) {
		b = append(b, "Flag deadlock\n"...)
	}
	for _, f := range r.Flags {
		b = append(b, "Flag "...)
		b = append(b, f.Name...)
		b = append(b, '\n')
	}
	if hasCond {
		pos, neg := counts(r)
		b = append(b, "Condition "...)
		b = append(b, kind.String()...)
		b = append(b, " ("...)
		b = appendHerdCondition(b, t, prop)
		b = append(b, ")\nObservation "...)
		b = append(b, name...)
		b = append(b, ' ')
		b = append(b, observation(pos, neg)...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(pos), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(neg), 10)
		b = append(b, '\n')
	}
	b = append(b, "Time "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, r.Elapsed.Seconds(), 'f', 2, 64)
	b = append(b, '\n')
	if o.Candidates {
		b = append(b, "Candidates "...)
		b = append(b, name...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(r.Candidates), 10)
		b = append(b, '\n')
	}
	b = append(b, "Hash="...)
	b = append(b, litmus.Hash(t)...)
	b = append(b, '\n')
	w.Write(b)
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
