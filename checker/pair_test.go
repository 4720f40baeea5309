package checker_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
)

// pairVariants are spec.dl itself ("") and the shipped variants, each
// with whether it is paired with spec.dl.
var pairVariants = []struct {
	name   string
	paired bool
}{
	{"", true},
	{"causality-alloy", true},
	{"no-sc-per-location", true},
	{"nta-data-only", true},
	{"fence-sc-not-acq-rel", false}, // one axiom in common of ten
	{"obs-one-step", false},
	{"ptx-v6.0", false}, // its coherence pairs read vaddr: the orders differ
}

// pairExamples loads spec.dl and the shipped examples (.litmus and
// .test; every sixth in -short).
func pairExamples(t *testing.T) (*checker.Model, []*litmus.Test) {
	spec, err := loader.LoadFile(filepath.Join("..", "spec.dl"))
	require.NoError(t, err)
	tests := testcorpus.Tree(t, filepath.Join("..", "examples"), ".litmus", ".test")
	if testing.Short() {
		var some = tests[:0:0]
		for i := 0; i < len(tests); i += 6 {
			some = append(some, tests[i])
		}
		tests = some
	}
	return spec, tests
}

// pairVariant loads the shipped variant called name, or returns spec for
// "".
func pairVariant(t *testing.T, spec *checker.Model, name string) *checker.Model {
	if name == "" {
		return spec
	}
	m, err := loader.LoadFile(filepath.Join("..", "variants", name+".dl"))
	require.NoError(t, err)
	return m
}

// TestCheckPair checks the shipped examples (.litmus and .test) with
// spec.dl and each shipped variant through their merged program
// (checker.CheckPair) and as CheckAll does: the final states of each
// model's consistent executions, its count of executions out of thin air
// and the count of candidates are the same, and so are the counts of
// consistent executions, of hangs and of those that satisfy the condition
// and each assertion. The variants that cannot be paired say why, and are
// checked as CheckAll does.
func TestCheckPair(t *testing.T) {
	spec, tests := pairExamples(t)
	opts := checker.DefaultOptions()
	for _, c := range pairVariants {
		t.Run(c.name, func(t *testing.T) {
			b := pairVariant(t, spec, c.name)
			p := checker.NewPair(spec, b)
			require.Equal(t, c.paired, p.Why == "", p.Why)
			for _, lt := range tests {
				want := checker.CheckAllContext(context.Background(), []*checker.Model{spec, b}, lt, opts)
				got := checker.CheckPair(context.Background(), p, lt, opts)
				for k := range want {
					if want[k].Err != nil {
						require.Error(t, got[k].Err, lt.Name)
						continue
					}
					require.NoError(t, got[k].Err, lt.Name)
					require.Equal(t, pairStates(want[k]), pairStates(got[k]), "%s, model %d", lt.Name, k)
					require.Equal(t, want[k].ThinAir, got[k].ThinAir, "%s, model %d", lt.Name, k)
					require.Equal(t, want[k].Candidates, got[k].Candidates, "%s, model %d", lt.Name, k)
					require.Equal(t, pairCounts(want[k]), pairCounts(got[k]), "%s, model %d", lt.Name, k)
				}
			}
		})
	}
}

func pairStates(r *checker.Result) []string {
	var out []string
	for _, s := range r.States {
		out = append(out, checker.FormatState(r.Test, r.Layout, r.Observables, s))
	}
	slices.Sort(out)
	return out
}

// pairCounts lists a result's counts of consistent executions.
func pairCounts(r *checker.Result) []int {
	out := []int{r.Consistent, r.Hangs, r.Unjudged, r.Positive, r.Negative}
	for _, a := range r.Assertions {
		out = append(out, a.Positive, a.Negative)
	}
	return out
}
