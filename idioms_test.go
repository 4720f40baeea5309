package ptxmm_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// TestIdiomTargets checks issue 33's larger idioms (testdata/idioms: the
// 4-stage TMA ring with 2 consumer warps, the grid barriers over 4 CTAs
// of one thread and of two, and their broken twins) against the verdicts
// argued in their comments. They stay out of examples/, whose tests the
// other tests also enumerate in full, explain and draw; they take
// seconds, so -short leaves them out.
func TestIdiomTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("testdata/idioms takes seconds of CPU")
	}
	results := checkDir(t, filepath.Join("testdata", "idioms"))
	exp, err := report.ReadExpected(filepath.Join("testdata", "idioms", "expected.csv"))
	require.NoError(t, err)
	var out bytes.Buffer
	passed, failed := report.Compare(&out, exp, results)
	require.Zero(t, failed, out.String())
	require.Equal(t, 7, passed, out.String())
}

// idiomTargets are the tests issue 33 sets times for: its TMA rings, the
// split-K semaphore and the grid barrier, with their broken twins.
var idiomTargets = []string{
	"examples/idioms/TMA-ring-2x3*.litmus",
	"examples/idioms/SplitK-semaphore-4*.litmus",
	"testdata/idioms/*.litmus",
}

// BenchmarkIdioms checks each of issue 33's idioms on one core, as
// ptxmm check does (docs/benchmarks.md, "Awaits").
func BenchmarkIdioms(b *testing.B) {
	m := mustModel(b)
	for _, pattern := range idiomTargets {
		files, err := filepath.Glob(pattern)
		require.NoError(b, err)
		require.NotEmpty(b, files, pattern)
		for _, f := range files {
			tests, err := litmus.ParseFile(f)
			require.NoError(b, err)
			tc := tests[0]
			b.Run(strings.TrimSuffix(filepath.Base(f), ".litmus"), func(b *testing.B) {
				for b.Loop() {
					if r := m.Check(tc, checker.DefaultOptions()); r.Err != nil {
						b.Fatal(r.Err)
					}
				}
			})
		}
	}
}
