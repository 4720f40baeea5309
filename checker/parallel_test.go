package checker

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// summary is what a result shows users, for comparing results: the
// states in order, the counts, the flags with their first witness and
// execution, the hangs and the verdict.
func summary(r *Result) string {
	s := fmt.Sprintf("err=%v verdict=%s states=%v cand=%d cons=%d pos=%d neg=%d hangs=%d unjudged=%d stuck=%v thinair=%d stopped=%v sanity=%v empty=%v asserts=%+v\n",
		r.Err, r.Verdict, r.States, r.Candidates, r.Consistent, r.Positive, r.Negative, r.Hangs, r.Unjudged, r.Stuck,
		r.ThinAir, r.Stopped, r.Sanity, r.Empty, r.Assertions)
	for _, f := range r.Flags {
		s += fmt.Sprintf("flag %s undefined=%v executions=%d witness=%v rf=%v\n", f.Name, f.Undefined, f.Executions, f.Witness.Witness, f.Execution.RF)
	}
	return s
}

// TestParallelSearchMatchesOneCore splits the search of tests across cores
// and checks that the merged result is the one of a single core: random
// tests (split from their smallest size on), the scale families, and the
// options that change how a search ends (StopAtWitness, the candidate
// bound).
func TestParallelSearchMatchesOneCore(t *testing.T) {
	m := spec(t)
	type tcase struct {
		name string
		src  string
	}
	var cases []tcase
	shape := families.RandomShape{Threads: 3, Locations: 2, Instrs: 3, CTAs: 2, Barriers: true}
	sized := families.RandomShape{Threads: 2, Locations: 2, Instrs: 3, CTAs: 2, Sizes: true}
	for seed := uint64(0); seed < 150; seed++ {
		cases = append(cases, tcase{fmt.Sprintf("random-%d", seed), families.Random(seed, shape)})
		if seed < 50 {
			cases = append(cases, tcase{fmt.Sprintf("sized-%d", seed), families.Random(seed, sized)})
		}
	}
	cases = append(cases, tcase{"CoWR-4", families.CoWRThreads(4)}, tcase{"IRIW-4", families.IRIW(4)},
		tcase{"MP-8", families.MPPayload(8)}, tcase{"SB-ring-5", families.SBRing(5)})
	split := 0
	for _, c := range cases {
		tc := herd(t, c.src)
		for _, variant := range []string{"plain", "speedcheck", "bound"} {
			opts := DefaultOptions()
			opts.Timeout, opts.MaxCandidates = 0, 3000
			switch variant {
			case "speedcheck":
				opts.StopAtWitness = true
			case "bound":
				opts.MaxCandidates = 40
			}
			one := m.Check(tc, opts)
			opts.Cores = limits.NewCores(3)
			opts.splitMin = 2
			many := m.Check(tc, opts)
			if one.Err != nil || many.Err != nil {
				// A check that stops at an error shows the error only
				// (its counts are of the part searched so far). The
				// bound counts the candidates built, in whatever order
				// the cores build them: both stop at it or neither.
				require.Equal(t, fmt.Sprint(one.Err), fmt.Sprint(many.Err), "%s (%s)", c.name, variant)
				continue
			}
			require.Equal(t, summary(one), summary(many), "%s (%s):\n%s", c.name, variant, c.src)
			if many.Evaluated > 0 {
				split++
			}
		}
	}
	require.Greater(t, split, len(cases), "too few tests were split")
}
