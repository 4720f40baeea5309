package checker_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/oraclecases"
	"github.com/ptxmm/ptxmm/litmus/families"
	"github.com/ptxmm/ptxmm/report"
)

var oracleModel = sync.OnceValues(func() (*checker.Model, error) {
	return loader.LoadFile(filepath.Join("..", "spec.dl"))
})

// oracleCases is the number of random tests per shape: a few seconds in
// go test, more with PTXMM_ORACLE_CASES.
func oracleCases(t *testing.T) int {
	n := oraclecases.Count(t, 250)
	if testing.Short() {
		n /= 10
	}
	return n
}

// times blanks what differs from run to run in a log: elapsed times.
var times = regexp.MustCompile(`(?m)^Time (.*) [0-9.]+$|"time_ms":[0-9.e+-]+`)

// visible is everything a user sees of a result: the herd log with
// ptxmm's own lines (flags' witnesses, hangs, thin air, emptiness), the
// JSON line (counts of candidates, consistent executions, hangs), the
// error, and which execution each flag was first raised by.
func visible(t *testing.T, r *checker.Result) string {
	t.Helper()
	var b bytes.Buffer
	report.HerdLog(&b, r, report.LogOptions{Candidates: true})
	require.NoError(t, report.JSON(&b, r))
	fmt.Fprintf(&b, "err=%v thinair=%d candidates=%d consistent=%d\n", r.Err, r.ThinAir, r.Candidates, r.Consistent)
	for _, f := range r.Flags {
		fmt.Fprintf(&b, "flag %s first raised by rf %v combo %v\n", f.Name, f.Execution.RF, f.Execution.Combo)
	}
	return times.ReplaceAllString(b.String(), "Time $1 T")
}

// TestSearchMatchesFullEnumeration is the oracle of the reads-from
// search: on thousands of random tests (loads, stores, atomics,
// reductions, fences of every order and scope, data dependencies,
// branches, barriers, conditions on registers and final values), the
// search that abandons rejected partial candidates and reuses orders
// reports exactly what building every candidate reports. The last shape
// has accesses of 8, 16 and 32 bits that overlap in part.
func TestSearchMatchesFullEnumeration(t *testing.T) {
	m, err := oracleModel()
	require.NoError(t, err)
	shapes := []families.RandomShape{
		{Threads: 2, Locations: 2, Instrs: 4, CTAs: 2, Barriers: true},
		{Threads: 3, Locations: 2, Instrs: 3, CTAs: 2, Barriers: true},
		{Threads: 4, Locations: 3, Instrs: 2, CTAs: 3},
		{Threads: 3, Locations: 1, Instrs: 3, CTAs: 1, Barriers: true},
		{Threads: 2, Locations: 2, Instrs: 3, CTAs: 2, Sizes: true},
	}
	n := oracleCases(t)
	pruned, skipped := 0, 0
	oraclecases.EachRandom(t, 0, n, shapes, func(c oraclecases.Random) {
		// The few tests with more candidates than the bound are left out,
		// to keep the run short.
		opts := checker.DefaultOptions()
		checker.AlwaysPrune(&opts)
		opts.Timeout, opts.MaxCandidates, opts.FullSearch = 0, oracleMaxCandidates, true
		want := m.Check(c.Test, opts)
		var limit *execution.LimitError
		if errors.As(want.Err, &limit) {
			skipped++
			return
		}
		opts.FullSearch = false
		got := m.Check(c.Test, opts)
		require.Equal(t, visible(t, want), visible(t, got), "seed %d:\n%s", c.Seed, c.Src)
		if got.Evaluated < want.Evaluated {
			pruned++
		}
	})
	// The property is only worth something if the search leaves
	// candidates out on a fair share of the tests.
	t.Logf("%d tests, %d with candidates left out, %d over %d candidates", len(shapes)*n, pruned, skipped, oracleMaxCandidates)
	require.Greater(t, pruned, len(shapes)*n/20, "the search left candidates out in %d of %d tests", pruned, len(shapes)*n)
	require.Less(t, skipped, len(shapes)*n/10, "%d of %d tests have more than %d candidates", skipped, len(shapes)*n, oracleMaxCandidates)
}

// oracleMaxCandidates bounds the candidates of a test the oracle compares.
const oracleMaxCandidates = 500
