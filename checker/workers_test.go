package checker

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/limits"
)

// TestWorkersReusedAcrossTests checks the shipped examples one after the
// other, forwards and backwards, so that each test runs on instances and
// fillers another test used (workers.go), with explanations, under a
// memory limit, and split across cores: every result must be the one a
// model that builds everything anew gives (but for how many candidates a
// split search evaluates, which varies from run to run).
func TestWorkersReusedAcrossTests(t *testing.T) {
	m := spec(t)
	fresh := *m
	fresh.workers = nil
	tests := testcorpus.Tree(t, filepath.Join("..", "examples"), ".litmus", ".test")
	require.Greater(t, len(tests), 50)
	if testing.Short() {
		tests = tests[:len(tests)/4]
	}
	split := DefaultOptions()
	split.Cores, split.splitMin = limits.NewCores(3), 2
	split.Cores.TryTake()
	explained := DefaultOptions()
	explained.Explain = true
	limited := DefaultOptions()
	limited.MaxMemory = 1 << 30
	for _, c := range []struct {
		name    string
		opts    Options
		reverse bool
	}{
		{"forwards", DefaultOptions(), false},
		{"backwards", DefaultOptions(), true},
		{"explained", explained, false},
		{"limited", limited, true},
		{"split", split, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			order := slices.Clone(tests)
			if c.reverse {
				slices.Reverse(order)
			}
			for _, tc := range order {
				got, want := m.Check(tc, c.opts), fresh.Check(tc, c.opts)
				got.Elapsed, want.Elapsed = 0, 0
				if c.opts.Cores != nil {
					// The parts of a split search learn from each other
					// in the order the cores reach them, which changes
					// what they evaluate, not what they find.
					got.Evaluated, want.Evaluated = 0, 0
				}
				require.Equal(t, want, got, "%s (%s)", tc.Name, tc.File)
			}
		})
	}
}
