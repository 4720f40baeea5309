package checker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus/families"
	"github.com/ptxmm/ptxmm/rules"
)

// storesTest is one thread of n stores to x, observing x: a single
// candidate whose n+1 choices of final write each need an order search of
// the coherence of n+1 writes, slow enough that one candidate takes far
// longer than the deadlines below.
func storesTest(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "PTX S%d\n{ x=0; }\n P0@cta 0,gpu 0 ;\n", n)
	for i := 0; i < n; i++ {
		b.WriteString(" st.weak.u32 [x], 1 ;\n")
	}
	b.WriteString("exists (x == 1)\n")
	return b.String()
}

// TestTimeoutReachesInsideACandidate: the deadline stops the check in the
// middle of its only candidate, whose 401 choices of final write take
// most of a second to evaluate. Checking the clock only between candidates
// evaluated them all and passed.
func TestTimeoutReachesInsideACandidate(t *testing.T) {
	tc := herd(t, storesTest(t, 400))
	o := DefaultOptions()
	o.Timeout = 20 * time.Millisecond
	r := spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.True(t, IsTimeout(r.Err), "%v", r.Err)
	assert.Contains(t, r.Err.Error(), "-timeout")
	assert.LessOrEqual(t, r.Candidates, 401)
	assert.Zero(t, r.Consistent, "the consistent choice is the last and slowest: its search was cut")
	assert.Empty(t, r.Verdict)
}

// TestCheckContextCancelled: a caller's cancellation stops the check and
// says so, without claiming a timeout.
func TestCheckContextCancelled(t *testing.T) {
	tc := herd(t, storesTest(t, 100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := spec(t).CheckContext(ctx, tc, DefaultOptions())
	require.ErrorIs(t, r.Err, context.Canceled)
	assert.False(t, IsTimeout(r.Err))
	assert.Zero(t, r.Candidates)
}

// manyLocations declares n locations and touches one: every location has
// an initial write, so every candidate has n+1 events.
func manyLocations(n int) string {
	var b strings.Builder
	b.WriteString("PTX L\n{ ")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "x%d=0; ", i)
	}
	b.WriteString("}\n P0@cta 0,gpu 0 ;\n st.weak.u32 [x0], 1 ;\nexists (x0 == 1)\n")
	return b.String()
}

// TestMemoryLimitRefusesAtOnce: a test whose relations would not fit is
// refused before any candidate is built, with the error naming the flag.
// Before the limit, its relations (about 600 MiB here, and 228 GiB for the
// issue's 100,000 locations) were allocated for the first candidate.
func TestMemoryLimitRefusesAtOnce(t *testing.T) {
	tc := herd(t, manyLocations(5000))
	o := DefaultOptions()
	o.MaxMemory = 64 << 20
	r := spec(t).Check(tc, o)
	var me *rules.MemoryError
	require.ErrorAs(t, r.Err, &me)
	assert.Contains(t, r.Err.Error(), "-max-memory")
	assert.Contains(t, r.Err.Error(), "5001 events")
	assert.Greater(t, me.Need, o.MaxMemory)
	assert.Zero(t, r.Candidates)

	// The same test fits a larger limit, and the estimate is what the
	// smaller one refused.
	small := herd(t, manyLocations(50))
	o.MaxMemory = 64 << 20
	r = spec(t).Check(small, o)
	require.NoError(t, r.Err)
	assert.Equal(t, "Ok", r.Verdict)
}

// TestMemoryLimitStopsTheOrderSearch: what the order search takes as it
// goes (the changes and the trail of its incremental evaluation, about a
// relation per relation it updates) is counted too, and stops it at the
// limit with an error naming the order, when the limit leaves room for the
// relations of the candidate and little more. A ring of SB threads with
// fence.sc updates some forty relations at the first step of its Fence-SC
// search.
func TestMemoryLimitStopsTheOrderSearch(t *testing.T) {
	tc := herd(t, families.SBRing(12))
	o := DefaultOptions()
	o.Timeout = 0
	o.MaxMemory = 20 << 10 // room for the runs, not for the relations
	var refused *rules.MemoryError
	require.ErrorAs(t, spec(t).Check(tc, o).Err, &refused)
	o.MaxMemory = refused.Need + 64<<10
	r := spec(t).Check(tc, o)
	var me *rules.MemoryError
	require.ErrorAs(t, r.Err, &me)
	assert.True(t, me.AtLeast)
	assert.Contains(t, r.Err.Error(), "the search of the order fence_sc")
	assert.Contains(t, r.Err.Error(), "-max-memory")
}

// pathsTest is one thread of k loads, each followed by a branch around a
// store: 2^k paths to explore before the first candidate.
func pathsTest(k int) string {
	var b strings.Builder
	b.WriteString("PTX Paths\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n")
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, " ld.weak r%d, x ;\n beq r%d, 1, L%d ;\n st.weak y, %d ;\n L%d: ;\n", i, i, i, i, i)
	}
	b.WriteString("exists (y == 1)\n")
	return b.String()
}

// TestLimitsHoldBeforeTheFirstCandidate: the exploration of a thread's
// paths (2^18 here) honours -timeout and -max-memory. It used to run to
// the bound of 100,000 runs, 30 s and 2.6 GB, under a time limit of
// 300 ms and a memory limit of 64 MiB.
func TestLimitsHoldBeforeTheFirstCandidate(t *testing.T) {
	tc := herd(t, pathsTest(18))
	o := DefaultOptions()
	o.Timeout = 200 * time.Millisecond
	r := spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.True(t, IsTimeout(r.Err), "%v", r.Err)
	assert.Zero(t, r.Candidates)

	o = DefaultOptions()
	o.MaxMemory = 64 << 20
	r = spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "the runs of the threads (")
	assert.Contains(t, r.Err.Error(), "over the memory limit of 64.0 MiB; raise it with -max-memory")

	// Time spent before the check (parsing the file) counts.
	o = DefaultOptions()
	o.Timeout = time.Second
	o.Spent = time.Second
	r = spec(t).Check(herd(t, storesTest(t, 2)), o)
	assert.True(t, IsTimeout(r.Err), "%v", r.Err)
}

// storeLoadThreads is n threads that each store to x and load it.
func storeLoadThreads(n int) string {
	var b strings.Builder
	b.WriteString("PTX SL\n{ x=0; }\n")
	var hdr, st, ld []string
	for i := 0; i < n; i++ {
		hdr = append(hdr, fmt.Sprintf("P%d@cta 0,gpu 0", i))
		st = append(st, fmt.Sprintf("st.weak x, %d", i+1))
		ld = append(ld, "ld.weak r0, x")
	}
	for _, row := range [][]string{hdr, st, ld} {
		b.WriteString(strings.Join(row, " | ") + " ;\n")
	}
	b.WriteString("exists (P0:r0 == 0)\n")
	return b.String()
}

// TestKeptCandidatesCountAgainstTheMemoryLimit: the candidates kept to
// list them (the REPL, graph, pictures) count against -max-memory: eight
// threads of a store and a load each took the REPL to 10.7 GB.
func TestKeptCandidatesCountAgainstTheMemoryLimit(t *testing.T) {
	tc := herd(t, storeLoadThreads(4))
	o := DefaultOptions()
	cands, r := spec(t).Candidates(tc, o, 0)
	require.NoError(t, r.Err)
	var all int64
	for _, c := range cands {
		all += c.Bytes()
	}
	require.Greater(t, all, int64(1<<20), "%d candidates", len(cands))

	o.MaxMemory = all / 2
	cands, r = spec(t).Candidates(tc, o, 0)
	var me *rules.MemoryError
	require.ErrorAs(t, r.Err, &me)
	assert.Contains(t, r.Err.Error(), "the candidate executions kept to list them (")
	assert.Contains(t, r.Err.Error(), "raise it with -max-memory")
	assert.Less(t, len(cands), r.Candidates+1)

	keep := func(Candidate, []Observable) bool { return true }
	_, r = spec(t).CheckKeep(tc, o, keep, 0)
	require.ErrorAs(t, r.Err, &me, "pictures keep candidates too")
}

// TestStartClockTakesPrepared: the search's deadline is the exploration's
// context when the check waited for no memory, and one of its own, later
// by the wait, when it waited; without -timeout there is none.
func TestStartClockTakesPrepared(t *testing.T) {
	cases := []struct {
		name            string
		timeout, waited time.Duration
		takes           bool
	}{
		{"no wait", time.Minute, 0, true},
		{"waited for memory", time.Minute, 3 * time.Second, false},
		{"no time limit", 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			s := &session{plan: &plan{opts: Options{Timeout: c.timeout}, ctx: context.Background()}, waited: c.waited}
			s.preparedCancel = func() {}
			if c.timeout > 0 {
				s.prepared, s.preparedCancel = context.WithDeadlineCause(s.ctx, start.Add(c.timeout), errTimeout{c.timeout})
			}
			defer s.preparedCancel()
			cancel := s.startClock(start)
			defer cancel()
			if c.takes {
				assert.Equal(t, s.prepared, s.ctx)
			} else {
				assert.NotEqual(t, s.prepared, s.ctx)
			}
			deadline, ok := s.ctx.Deadline()
			assert.Equal(t, c.timeout > 0, ok)
			if ok {
				assert.Equal(t, start.Add(c.timeout+c.waited), deadline)
			}
		})
	}
}
