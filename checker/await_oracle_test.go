package checker_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/oraclecases"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// awaitOutcome is what the reduction of awaits must keep of a result: the
// verdict, the final states, the flags raised, and whether some execution
// hangs, with and without a final state. The counts differ: the unrolled
// search also counts the executions that fail an await's test before
// passing it.
func awaitOutcome(r *checker.Result) string {
	var states []string
	for _, st := range r.States {
		states = append(states, fmt.Sprint(st))
	}
	slices.Sort(states)
	var flags []string
	for _, f := range r.Flags {
		flags = append(flags, f.Name)
	}
	slices.Sort(flags)
	return fmt.Sprintf("err=%v verdict=%s states=%v flags=%v hang=%v unjudged=%v settled=%v",
		r.Err, r.Verdict, states, flags, r.Hangs > 0, r.Unjudged > 0, r.Hangs > r.Unjudged)
}

// TestAwaitsMatchUnrolling is the oracle of the reduction of awaits: on
// thousands of random tests whose threads spin on loaded values (with a
// second load or a fence in some loops' bodies, and loads of every memory
// order, so that failed iterations take part in synchronization and
// races), deciding each await as one iteration reports the verdict, final
// states, flags and hangs of unrolling its failed iterations up to the
// bound.
func TestAwaitsMatchUnrolling(t *testing.T) {
	m, err := oracleModel()
	require.NoError(t, err)
	shapes := []families.RandomShape{
		{Threads: 2, Locations: 2, Instrs: 3, CTAs: 2, Spins: true},
		{Threads: 3, Locations: 2, Instrs: 2, CTAs: 1, Spins: true, Barriers: true},
		{Threads: 2, Locations: 1, Instrs: 3, CTAs: 1, Spins: true},
	}
	n := oracleCases(t)
	hangs, spins, skipped := 0, 0, 0
	oraclecases.EachRandom(t, 7_000_000, n, shapes, func(c oraclecases.Random) {
		// The few unrolled searches over the bounds (awaits with barriers
		// in their bodies, which are no awaits and are unrolled too,
		// multiply runs) are left out.
		opts := checker.DefaultOptions()
		opts.Timeout, opts.MaxCandidates = 10*time.Second, 20*oracleMaxCandidates
		opts.Exec.SpinReduction = false
		want := m.Check(c.Test, opts)
		var limit *execution.LimitError
		if errors.As(want.Err, &limit) || checker.IsTimeout(want.Err) {
			skipped++
			return
		}
		opts.Timeout = 0
		opts.Exec.SpinReduction = true
		got := m.Check(c.Test, opts)
		require.Equal(t, awaitOutcome(want), awaitOutcome(got), "seed %d:\n%s", c.Seed, c.Src)
		if got.Hangs > 0 {
			hangs++
		}
		if want.Candidates > got.Candidates {
			spins++
		}
	})
	t.Logf("%d tests, %d with fewer candidates reduced, %d with hangs, %d over the bound", len(shapes)*n, spins, hangs, skipped)
	require.Greater(t, spins, len(shapes)*n/10, "the reduction left iterations out in %d of %d tests", spins, len(shapes)*n)
	require.Greater(t, hangs, len(shapes)*n/20, "hangs in %d of %d tests", hangs, len(shapes)*n)
	require.Less(t, skipped, len(shapes)*n/10)
}
