package checker

import (
	"context"
	"time"

	"github.com/ptxmm/ptxmm/litmus"
)

// DiffPair is DiffContext for the two models of a pair made by
// NewDiffPair, evaluating each candidate once for both where it can: the
// test is checked through the merged program (as CheckPair), and where
// the two models reach the same final states and the merged program's
// .undefined tests raise nothing on any candidate consistent with the
// shared axioms (so neither model's verdict is Undef), the models agree
// on every outcome and verdict, and the result says so without outcomes
// or flags. Otherwise (they disagree, a test is raised, the check failed,
// or the models are not paired) the test is checked again as DiffContext
// does, within what is left of the time allowed, and that result, with
// its differences explained, is returned.
func DiffPair(ctx context.Context, p *Pair, t *litmus.Test, opts Options) *DiffResult {
	if p.shared == nil || !p.undefined || opts.Explain {
		return DiffContext(ctx, p.A, p.B, t, opts)
	}
	start := time.Now()
	popts := opts
	popts.OnlyDeciding, popts.StopAtWitness = false, false
	rs, merged := checkPair(ctx, p, t, popts)
	if merged.Err == nil && rs[0].Err == nil && !merged.Undefined() && sameStates(rs[0], rs[1]) {
		for _, r := range rs {
			(&modelRun{res: r}).verdicts(t)
		}
		return &DiffResult{Test: t, A: rs[0], B: rs[1]}
	}
	opts.Spent += time.Since(start)
	return DiffContext(ctx, p.A, p.B, t, opts)
}

// sameStates reports whether two results hold the same final states.
func sameStates(a, b *Result) bool {
	if len(a.States) != len(b.States) {
		return false
	}
	keys := make(map[string]bool, len(a.States))
	for _, s := range a.States {
		keys[s.key()] = true
	}
	for _, s := range b.States {
		if !keys[s.key()] {
			return false
		}
	}
	return true
}
