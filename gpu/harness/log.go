package harness

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// Log prints an outcome as litmus7 prints a test's log, which herd's log
// tools (mcompare7, msum7, ...) read:
//
//	Test MP Allowed
//	Histogram (3 states)
//	421337:>1:r0=0; 1:r1=0;
//	12    *>1:r0=1; 1:r1=0;
//	...
//	Ok
//
//	Witnesses
//	Positive: 12, Negative: 844788
//	Condition exists (1:r0=1 /\ 1:r1=0) is validated
//	Hash=...
//	Observation MP Sometimes 12 844788
//	Time MP 1.53
//
// ptxmm's own lines follow (the log tools skip them): each state with the
// model's verdict and its rate, alarms with the model's witness, the
// states the model allows that were not seen, the instances left out,
// the compiler check, the GPU and the parameters.
func Log(w io.Writer, o *Outcome) {
	name := report.LogName(o.Test)
	switch {
	case o.Refused != nil:
		fmt.Fprintf(w, "Refused %s: %s\n\n", name, indentLines(o.Refused.Error()))
		return
	case o.Err != nil:
		fmt.Fprintf(w, "Error %s: %s\n\n", name, indentLines(o.Err.Error()))
		return
	}
	t := o.Test
	if kind := report.TestKind(t); kind != "" {
		fmt.Fprintf(w, "Test %s %s\n", name, kind)
	} else {
		fmt.Fprintf(w, "Test %s\n", name)
	}
	if line := report.ThreadsComment(t); line != "" {
		fmt.Fprintln(w, line)
	}
	sorted := o.sortedStates()
	fmt.Fprintf(w, "Histogram (%d states)\n", len(sorted))
	for _, s := range sorted {
		mark := ":"
		if s.Satisfies {
			mark = "*"
		}
		fmt.Fprintf(w, "%-6d%s>%s\n", s.Count, mark, report.StateLine(o.printing, s.State))
	}
	kind, prop, hasCond := report.Condition(t)
	pos, neg := o.counts()
	fmt.Fprintln(w, o.validation())
	fmt.Fprintln(w)
	if hasCond {
		fmt.Fprintln(w, "Witnesses")
		if kind == litmus.CondNotExists {
			fmt.Fprintf(w, "Positive: %d, Negative: %d\n", neg, pos)
		} else {
			fmt.Fprintf(w, "Positive: %d, Negative: %d\n", pos, neg)
		}
		is := "is validated"
		if o.validation() != "Ok" {
			is = "is NOT validated"
		}
		fmt.Fprintf(w, "Condition %s (%s) %s\n", kind, report.ConditionText(t, prop), is)
	}
	fmt.Fprintf(w, "Hash=%s\n", litmus.Hash(t))
	if hasCond {
		fmt.Fprintf(w, "Observation %s %s %d %d\n", name, observation(pos, neg), pos, neg)
	}
	fmt.Fprintf(w, "Time %s %.2f\n", name, o.Elapsed.Seconds())
	o.ptxmmLines(w, name, sorted)
	fmt.Fprintln(w)
}

// indentLines indents the lines after the first of a message.
func indentLines(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

// sortedStates are the observed states in herd's order.
func (o *Outcome) sortedStates() []*Observed {
	var states []checker.State
	byKey := map[string]*Observed{}
	for _, s := range o.States {
		states = append(states, s.State)
		byKey[stateKey(s.State, nil)] = s
	}
	var out []*Observed
	for _, st := range report.SortStates(o.printing, states) {
		out = append(out, byKey[stateKey(st, nil)])
	}
	return out
}

// counts are the instances whose state satisfies the herd condition and
// those whose state does not.
func (o *Outcome) counts() (pos, neg int) {
	for _, s := range o.States {
		if s.Satisfies {
			pos += s.Count
		} else {
			neg += s.Count
		}
	}
	return pos, neg
}

// validation is litmus7's Ok or No: whether the observations make the
// condition true (exists: some instance satisfies it; ~exists: none;
// forall: all). A .test file with several commands is Ok when every
// assert and permit holds of the observations.
func (o *Outcome) validation() string {
	kind, _, hasCond := report.Condition(o.Test)
	pos, neg := o.counts()
	ok := true
	switch {
	case !hasCond:
		for _, a := range o.assertions() {
			if a.kind != litmus.AssertCheck && !a.holds {
				ok = false
			}
		}
	case kind == litmus.CondExists:
		ok = pos > 0
	case kind == litmus.CondNotExists:
		ok = pos == 0
	default:
		ok = neg == 0
	}
	if ok {
		return "Ok"
	}
	return "No"
}

func observation(pos, neg int) string {
	switch {
	case pos == 0:
		return "Never"
	case neg == 0:
		return "Always"
	}
	return "Sometimes"
}

// assertion is a .test command judged on the observations.
type assertion struct {
	name, expr string
	kind       litmus.AssertKind
	holds      bool
	pos, neg   int
}

// assertions judges each command of a .test file on the observed states:
// an assert holds when every instance satisfies it, a permit when some
// does.
func (o *Outcome) assertions() []assertion {
	var out []assertion
	for _, a := range o.Test.Assertions {
		as := assertion{name: a.Name, expr: litmus.ExprString(o.Test, a.Expr), kind: a.Kind}
		for _, s := range o.States {
			if checker.Satisfies(a.Expr, o.printing.Observables, s.State) {
				as.pos += s.Count
			} else {
				as.neg += s.Count
			}
		}
		switch a.Kind {
		case litmus.AssertSometimes:
			as.holds = as.pos > 0
		default:
			as.holds = as.neg == 0
		}
		out = append(out, as)
	}
	return out
}

// rate is the occurrences per second of the run.
func (o *Outcome) rate(n int) float64 {
	if s := o.Elapsed.Seconds(); s > 0 {
		return float64(n) / s
	}
	return 0
}

// ptxmmLines prints what litmus7 logs do not have.
func (o *Outcome) ptxmmLines(w io.Writer, name string, sorted []*Observed) {
	for _, a := range o.assertions() {
		verdict := "holds"
		if a.kind == litmus.AssertCheck {
			verdict = fmt.Sprintf("holds in %d of %d instances", a.pos, a.pos+a.neg)
		} else if !a.holds {
			verdict = "fails"
		}
		fmt.Fprintf(w, "%s %s %s: %s %s on the GPU\n", strings.ToUpper(a.kind.String()[:1])+a.kind.String()[1:], name, a.name, a.expr, verdict)
	}
	if o.ModelErr != nil {
		fmt.Fprintf(w, "Model %s: no verdict to compare with: %s\n", name, indentLines(o.ModelErr.Error()))
	}
	for _, s := range sorted {
		fmt.Fprintf(w, "State %s %s %s, %d times, %.1f/s\n", name, report.StateLine(o.printing, s.State), s.Verdict, s.Count, o.rate(s.Count))
	}
	for _, s := range sorted {
		switch s.Verdict {
		case Forbidden:
			fmt.Fprintf(w, "Alarm %s %s observed %d times, but the model forbids it:\n", name, report.StateLine(o.printing, s.State), s.Count)
			f := s.Why
			for i, c := range f.Failures {
				if i < len(f.Explanations) && f.Explanations[i] != nil {
					fmt.Fprintf(w, "  %s: %s\n", c.Name, report.EdgeChain(f.Execution, f.Explanations[i]))
				} else {
					fmt.Fprintf(w, "  %s\n", report.WitnessText(f.Execution, c))
				}
			}
		case Unreached:
			fmt.Fprintf(w, "Alarm %s %s observed %d times, but no candidate execution of the model reaches it\n", name, report.StateLine(o.printing, s.State), s.Count)
		}
	}
	if o.Model != nil && o.Model.Undefined() {
		fmt.Fprintf(w, "Undefined %s: the model says the program's behaviour is undefined, so no state is an alarm\n", name)
	}
	if o.Model != nil && o.Model.Loop {
		fmt.Fprintf(w, "Unroll %s: the model's unrolling bound cut thread runs; a state it did not reach is not an alarm (raise -unroll)\n", name)
	}
	for _, st := range o.Unseen {
		fmt.Fprintf(w, "Unseen %s %s allowed by the model, not observed in %d instances\n", name, report.StateLine(o.printing, st), o.Counted())
	}
	if o.Bounded > 0 {
		fmt.Fprintf(w, "Bound %s: %d of %d instances hit the loop bound (-spin-bound %d) and are not counted\n", name, o.Bounded, o.Instances, o.Params.SpinBound)
	}
	if o.Filtered > 0 {
		fmt.Fprintf(w, "Filtered %s: %d of %d instances failed a load filter (== v) and are not counted\n", name, o.Filtered, o.Instances)
	}
	if c := o.Compiler; c != nil {
		for _, th := range c.Threads {
			if th.Changed != "" {
				fmt.Fprintf(w, "Compiler %s %s: %s (%s); the GPU did not run the test as written\n", name, th.Name, th.Changed, c.Tool)
			}
		}
		if !c.Changed() {
			fmt.Fprintf(w, "Compiler %s: every thread kept its memory operations and fences (%s)\n", name, c.Tool)
		}
	}
	for _, n := range o.Notes {
		fmt.Fprintf(w, "Note %s: %s\n", name, n)
	}
	d := o.Device
	fmt.Fprintf(w, "GPU %s: %s, %s, %d SMs, CUDA %s driver\n", name, d.Name, d.Arch(), d.SMs, d.DriverVersion())
	fmt.Fprintf(w, "Instances %s: %d in %d launches (%.0f/s)\n", name, o.Instances, o.Launches, o.rate(o.Instances))
	fmt.Fprintf(w, "Parameters %s: %s\n", name, o.Params)
}
