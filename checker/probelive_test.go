package checker

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/oraclecases"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// raceInFailedIteration is message passing whose reader loads the data in
// the loop body, after the acquire of the flag: the iteration that passes
// is synchronized with the writer, a failed one is not, so only an
// execution with a failed iteration races (a probe's).
const raceInFailedIteration = `PTX MP+spin+race
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.weak x, 1         | L:                   ;
 st.release.gpu y, 1  | ld.acquire.gpu r0, y ;
                      | ld.weak r1, x        ;
                      | beq r0, 0, L         ;
exists (P1:r1 == 0)
`

// TestProbesFromLiveCombinations: the search records the combinations of
// runs with a consistent candidate, and the probe search starts from
// those: the race only a failed iteration makes is found as the unrolled
// search finds it, while the reader's run that spins for ever (y is
// written 1, which a fair poll sees) has no consistent execution, and
// neither has any probe built on it.
func TestProbesFromLiveCombinations(t *testing.T) {
	m := spec(t)
	tc := herd(t, raceInFailedIteration)
	opts := DefaultOptions()
	opts.Exec.SpinReduction = false
	unrolled := m.Check(tc, opts)
	require.NoError(t, unrolled.Err)
	require.True(t, hasFlag(unrolled, "data_race"), "the unrolled search finds the race")

	opts = DefaultOptions()
	opts.Exec.Probes = false
	without := m.Check(tc, opts)
	require.NoError(t, without.Err)
	require.False(t, hasFlag(without, "data_race"), "only a failed iteration races")

	var sess *session
	got := checkAllWith([]*Model{m}, tc, DefaultOptions(), nil, func(s *session) { sess = s })[0]
	require.NoError(t, got.Err)
	assert.True(t, hasFlag(got, "data_race"), "a probe finds the race")
	assert.Equal(t, awaitFlags(unrolled), awaitFlags(got))
	require.NotNil(t, sess.live, "the search records its live combinations")
	var live, dead int
	for i, r := range sess.a.Runs[1] {
		if sess.live.has([]int{0, i}) {
			live++
			assert.Equal(t, 0, int(r.Status), "only the run that finishes has consistent executions")
		} else {
			dead++
		}
	}
	assert.Equal(t, 1, live)
	assert.Positive(t, dead)
	filter := sess.baseFilter(sess.a)
	kept := 0
	for _, p := range sess.a.Probes[1] {
		if filter([]*execution.Run{sess.a.Runs[0][0], p}) {
			kept++
			assert.Equal(t, 0, int(p.Status), "a kept probe finishes")
		}
	}
	assert.Positive(t, kept)
	assert.Less(t, kept, len(sess.a.Probes[1]), "the probes that spin for ever are left out")

	// A check that looks only at the executions settling the test records
	// nothing, and searches the probes as before.
	opts = DefaultOptions()
	opts.OnlyDeciding = true
	checkAllWith([]*Model{m}, tc, opts, nil, func(s *session) { sess = s })
	assert.Nil(t, sess.live)
}

// hasFlag reports whether r raised the flag called name.
func hasFlag(r *Result, name string) bool {
	for _, f := range r.Flags {
		if f.Name == name {
			return true
		}
	}
	return false
}

// awaitFlags lists the names of the flags r raised.
func awaitFlags(r *Result) []string {
	var out []string
	for _, f := range r.Flags {
		out = append(out, f.Name)
	}
	return out
}

// TestProbeCombosListWhatTheFilterKeeps: the probe combinations listed
// from the live combinations are, among those with a failed iteration,
// exactly those the walk with baseFilter keeps, in enumeration order: on
// random tests with awaits (with barriers in every CTA, some), and on
// the grid barrier of 8 threads (not with -short), whose 1.7 million
// probe combinations the list avoids walking.
func TestProbeCombosListWhatTheFilterKeeps(t *testing.T) {
	m := spec(t)
	var tests []*litmus.Test
	shapes := []families.RandomShape{
		{Threads: 2, Locations: 2, Instrs: 3, CTAs: 2, Spins: true},
		{Threads: 3, Locations: 2, Instrs: 2, CTAs: 2, Spins: true, Barriers: true, BarriersEveryCTA: true},
	}
	n := oraclecases.Count(t, 60)
	if testing.Short() {
		n /= 10
	}
	oraclecases.EachRandom(t, 9_100_000, n, shapes, func(r oraclecases.Random) { tests = append(tests, r.Test) })
	if !testing.Short() {
		grid, err := os.ReadFile(filepath.Join("..", "testdata", "idioms", "GridBarrier-4x2.litmus"))
		require.NoError(t, err)
		tests = append(tests, herd(t, string(grid)))
	}
	listed := 0
	for _, tc := range tests {
		var sess *session
		got := checkAllWith([]*Model{m}, tc, DefaultOptions(), nil, func(s *session) { sess = s })[0]
		require.NoError(t, got.Err, tc.Name)
		if sess.live == nil {
			continue
		}
		p := sess.a.WithProbes()
		combos, ok := sess.probeCombos(sess.a, p)
		if !ok {
			continue
		}
		require.True(t, slices.IsSorted(combos), tc.Name)
		require.Len(t, slices.Compact(slices.Clone(combos)), len(combos), "%s: listed once each", tc.Name)
		var withFailed []int
		for _, k := range combos {
			if execution.FailedIters(comboRuns(p, k)) > 0 {
				withFailed = append(withFailed, k)
			}
		}
		var kept []int
		filter := sess.baseFilter(sess.a)
		for k := range comboCount(p) {
			runs := comboRuns(p, k)
			if execution.FailedIters(runs) > 0 && filter(runs) {
				kept = append(kept, k)
			}
		}
		assert.Equal(t, kept, withFailed, tc.Name)
		listed++
	}
	assert.Positive(t, listed, "some tests list their probe combinations")
}

// comboCount is the number of combinations of runs of a.
func comboCount(a *execution.Analysis) int {
	n := 1
	for _, runs := range a.Runs {
		n *= len(runs)
	}
	return n
}

// comboRuns returns the runs of the combination of a with index k in
// enumeration order (the first thread's run changes fastest).
func comboRuns(a *execution.Analysis, k int) []*execution.Run {
	runs := make([]*execution.Run, len(a.Runs))
	for t := range a.Runs {
		runs[t] = a.Runs[t][k%len(a.Runs[t])]
		k /= len(a.Runs[t])
	}
	return runs
}
