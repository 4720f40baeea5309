package checker

import (
	"context"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// CheckKeep checks a test and keeps the candidates that keep accepts, at
// most max of them (0: no bound), in enumeration order: pictures of
// selected executions (herd7's -show) without holding every candidate in
// memory. keep sees each candidate, with the observables its state is
// over, before it is copied.
func (m *Model) CheckKeep(t *litmus.Test, opts Options, keep func(c Candidate, obs []Observable) bool, max int) ([]Candidate, *Result) {
	return m.CheckKeepContext(context.Background(), t, opts, keep, max)
}

// CheckKeepContext is CheckKeep under a context: cancelling ctx stops the
// check, as CheckContext.
func (m *Model) CheckKeepContext(ctx context.Context, t *litmus.Test, opts Options, keep func(c Candidate, obs []Observable) bool, max int) ([]Candidate, *Result) {
	var out []Candidate
	var sess *session
	var kept keptCandidates
	observe := func(x *execution.Execution, st State, vs []verdict) {
		if max > 0 && len(out) >= max {
			return
		}
		c := Candidate{Execution: x, Finals: sess.finalBuf, State: st,
			Consistent: vs[0].consistent && !x.Undetermined, Failures: vs[0].failures}
		if !keep(c, sess.obs) {
			return
		}
		c.Execution, c.Finals = x.Clone(), append([]int(nil), sess.finalBuf...)
		if kept.add(sess, c) {
			out = append(out, c)
		}
	}
	rs := checkAllContext(ctx, []*Model{m}, t, opts, observe, func(s *session) { sess = s })
	kept.release(opts.Budget)
	return out, rs[0]
}
