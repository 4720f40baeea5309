package checker

import (
	"context"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Candidate is one candidate execution (with one choice of final writes for
// the observed locations) and the model's verdict on it.
type Candidate struct {
	Execution *execution.Execution
	Finals    []int
	State     State
	// Consistent is the model's verdict: every check holds. A consistent
	// candidate may still have no final state (see NoFinalState).
	Consistent bool
	// Failures are the checks that reject an inconsistent candidate, each
	// with the first witness the order search found.
	Failures []rules.CheckResult
}

// Candidates checks a test and also returns its candidates, keeping at most
// limit of them (0: all) in enumeration order. The candidates kept count
// against opts.MaxMemory: past it, the check stops with a *rules.MemoryError
// naming -max-memory.
func (m *Model) Candidates(t *litmus.Test, opts Options, limit int) ([]Candidate, *Result) {
	return m.CandidatesContext(context.Background(), t, opts, limit)
}

// CandidatesContext is Candidates under a context, as CheckContext.
func (m *Model) CandidatesContext(ctx context.Context, t *litmus.Test, opts Options, limit int) ([]Candidate, *Result) {
	var out []Candidate
	var sess *session
	var kept keptCandidates
	observe := func(x *execution.Execution, st State, vs []verdict) {
		if limit > 0 && len(out) >= limit {
			return
		}
		c := Candidate{Execution: x.Clone(), Finals: append([]int(nil), sess.finalBuf...), State: st,
			Consistent: vs[0].consistent, Failures: vs[0].failures}
		if kept.add(sess, c) {
			out = append(out, c)
		}
	}
	rs := checkAllContext(ctx, []*Model{m}, t, opts, observe, func(s *session) { sess = s })
	kept.release(opts.Budget)
	return out, rs[0]
}

// NoFinalState says why the candidate has no final state, or "" when it
// has one: its values form a thin-air cycle (they are not determined), or a
// thread waits forever with instructions left to execute (docs/model.md,
// "Hangs"). Such a candidate, even when consistent, is not among a
// result's states.
func (c Candidate) NoFinalState() string {
	return noFinalState(c.Execution)
}

func noFinalState(x *execution.Execution) string {
	switch {
	case x.Undetermined:
		return "its values form a cycle of reads-from and dependencies (thin air), so they are not determined"
	case !x.Settled():
		return "a thread waits forever with instructions left to execute"
	}
	return ""
}
