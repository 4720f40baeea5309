package checker

import (
	"context"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Difference is an outcome one model allows and the other forbids, with a
// candidate execution reaching it that the first model finds consistent and
// the checks the second model rejects it with.
type Difference struct {
	State     State
	Execution *execution.Execution
	Finals    []int
	Failures  []rules.CheckResult
	// Explanations[i] is Failures[i]'s witness as a chain of edges.
	Explanations [][]rules.Edge
}

// DiffResult compares two models on one test.
type DiffResult struct {
	Test *litmus.Test
	A, B *Result
	// OnlyA are outcomes A allows and B forbids; OnlyB the other way round.
	OnlyA, OnlyB []Difference
	Err          error
}

// VerdictsDiffer reports whether the test's verdict (herd condition or any
// assertion) differs between the models.
func (d *DiffResult) VerdictsDiffer() bool {
	if d.A.Verdict != d.B.Verdict {
		return true
	}
	for i := range d.A.Assertions {
		if i < len(d.B.Assertions) && d.A.Assertions[i].Holds != d.B.Assertions[i].Holds {
			return true
		}
	}
	return false
}

// Differs reports whether the models disagree on the verdict or on any
// outcome.
func (d *DiffResult) Differs() bool {
	return d.VerdictsDiffer() || len(d.OnlyA) > 0 || len(d.OnlyB) > 0
}

// Diff checks one test against two models in one pass over its candidates
// and reports the outcomes on which they disagree.
func Diff(a, b *Model, t *litmus.Test, opts Options) *DiffResult {
	return DiffContext(context.Background(), a, b, t, opts)
}

// DiffContext is Diff under a context, as CheckContext.
func DiffContext(ctx context.Context, a, b *Model, t *litmus.Test, opts Options) *DiffResult {
	onlyA := map[string]Difference{}
	onlyB := map[string]Difference{}
	var sess *session
	observe := func(x *execution.Execution, st State, vs []verdict) {
		record := func(m map[string]Difference, other verdict) {
			k := st.key()
			if _, ok := m[k]; ok {
				return
			}
			m[k] = Difference{State: st, Execution: x.Clone(), Finals: append([]int(nil), sess.finalBuf...), Failures: other.failures}
		}
		switch {
		case vs[0].consistent && !vs[1].consistent && !x.Undetermined:
			record(onlyA, vs[1])
		case vs[1].consistent && !vs[0].consistent && !x.Undetermined:
			record(onlyB, vs[0])
		}
	}
	rs := checkAllContext(ctx, []*Model{a, b}, t, opts, observe, func(s *session) { sess = s })
	d := &DiffResult{Test: t, A: rs[0], B: rs[1], Err: rs[0].Err}
	if d.Err != nil {
		return d
	}
	inB := map[string]bool{}
	for _, s := range d.B.States {
		inB[s.key()] = true
	}
	inA := map[string]bool{}
	for _, s := range d.A.States {
		inA[s.key()] = true
	}
	for _, s := range d.A.States {
		if !inB[s.key()] {
			diff := onlyA[s.key()]
			diff.Explanations = explainAll(b, diff.Execution, diff.Failures)
			d.OnlyA = append(d.OnlyA, diff)
		}
	}
	for _, s := range d.B.States {
		if !inA[s.key()] {
			diff := onlyB[s.key()]
			diff.Explanations = explainAll(a, diff.Execution, diff.Failures)
			d.OnlyB = append(d.OnlyB, diff)
		}
	}
	return d
}
