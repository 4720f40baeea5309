package ptxmm_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// TestWithSpeedcheck: on CoWR with 8 threads (43 million choices of
// reads-from, more than the default bound on candidates), the speedcheck
// modes settle exists (every thread reads its own write) from the one
// candidate that settles it, where the full check passes the bound.
func TestWithSpeedcheck(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	tests, err := ptxmm.ParseTests("CoWR-8.litmus", []byte(families.CoWRThreads(8)))
	require.NoError(t, err)
	require.Len(t, tests, 1)
	full := m.Check(tests[0], ptxmm.WithMaxCandidates(100_000))
	require.ErrorContains(t, full.Err, "-max-candidates")
	for _, stop := range []bool{false, true} {
		r := m.Check(tests[0], ptxmm.WithMaxCandidates(100_000), ptxmm.WithSpeedcheck(stop))
		require.NoError(t, r.Err, "stop %v", stop)
		require.Equal(t, "Ok", r.Verdict, "stop %v", stop)
		require.True(t, r.OnlyDeciding)
		require.Equal(t, stop, r.Stopped)
		require.Len(t, r.States, 1, "stop %v", stop)
		require.Equal(t, 1, r.Positive, "stop %v", stop)
		require.Equal(t, 1, r.Evaluated, "stop %v", stop)
	}
}
