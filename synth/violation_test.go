package synth

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
)

// TestOwnFlags checks the flags the violation screen raises for each
// shipped variant against spec.dl: the parts of each model's own axioms
// that the other's counterpart has not, less those the other's coherence
// axiom already rules out, and why the screen does not apply where the
// models are not paired.
func TestOwnFlags(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	for _, tc := range []struct {
		variant string
		flags   []string // "model: kind name: expression"
		why     string
	}{
		{"causality-alloy", []string{"../variants/causality-alloy.dl: irreflexive synth$own$causality: cause"}, ""},
		{"no-sc-per-location", []string{"../spec.dl: acyclic synth$own$sc_per_location: ms & com | po & vaddr"}, ""},
		{"nta-data-only", []string{"../spec.dl: irreflexive synth$own$no_thin_air: (addr | ctrl) ; (rf | addr | data | ctrl)*"}, ""},
		{"ptx-v6.0", nil, "the models are not paired"},
		{"fence-sc-not-acq-rel", nil, "the models are not paired"},
		{"obs-one-step", nil, "the models are not paired"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			variant := fileModel(t, filepath.Join("..", "variants", tc.variant+".dl"))
			v := newViolationScreen(checker.NewPair(spec, variant))
			var got []string
			for _, sd := range v.sides {
				for _, c := range sd.flags.Syntax.Checks {
					got = append(got, sd.owner+": "+c.Kind.String()+" "+c.Name+": "+datalog.ExprString(c.Expr))
				}
			}
			assert.Equal(t, tc.flags, got)
			if tc.why == "" {
				assert.Empty(t, v.why)
			} else {
				assert.Contains(t, v.why, tc.why)
			}
		})
	}
}

// TestNeverReflexive checks the one pattern of parts left out: co ; cause
// of causality-alloy's axiom goes where the allowing model checks
// acyclic(co_base), and stays where it does not.
func TestNeverReflexive(t *testing.T) {
	dir := t.TempDir()
	specPath, err := filepath.Abs("../spec.dl")
	require.NoError(t, err)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(".include \""+specPath+"\"\n"+body), 0o644))
		return p
	}
	alloy := fileModel(t, "../variants/causality-alloy.dl")
	for _, tc := range []struct {
		name  string
		other string
		flag  string
	}{
		{"coherence checked", write("same.dl", ""), "cause"},
		{"coherence not checked", write("nocoherence.dl", ".uncheck coherence\n"), "cause | co ; cause"},
		{"coherence over another relation", write("othercoherence.dl", ".recheck coherence: acyclic(co_ms)\n"), "cause | co ; cause"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := fileModel(t, tc.other)
			v := newViolationScreen(checker.NewPair(other, alloy))
			var got string
			for _, sd := range v.sides {
				for _, c := range sd.flags.Syntax.Checks {
					if c.Name == flagPrefix+"causality" && sd.b {
						got = datalog.ExprString(c.Expr)
					}
				}
			}
			assert.Equal(t, tc.flag, got)
		})
	}
}

// TestViolationScreenAgrees runs the search with and without the
// violation screen over every shipped variant and requires the same
// tests, name for name and text for text, and the same answer on thin
// air; where the screen applies to the default vocabulary it must close
// boxes and save checks, and where the models are not paired it must not
// run.
func TestViolationScreenAgrees(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	for _, tc := range []struct {
		variant string
		vocab   string
		events  int
		paired  bool // the screen applies
		narrows bool // and closes some box
	}{
		{"causality-alloy", DefaultFeatures, 3, true, true},
		{"causality-alloy", "fence.sc,atom", 4, true, true},
		{"no-sc-per-location", DefaultFeatures, 3, true, true},
		{"no-sc-per-location", "", 4, true, false},
		{"nta-data-only", DefaultFeatures, 3, true, true},
		{"nta-data-only", "ctrl,data", 4, true, false},
		{"ptx-v6.0", DefaultFeatures, 2, false, false},
		{"fence-sc-not-acq-rel", DefaultFeatures, 3, false, false},
		{"obs-one-step", "async", 3, false, false},
	} {
		t.Run(tc.variant+"/"+tc.vocab, func(t *testing.T) {
			if testing.Short() && tc.events > 3 {
				t.Skip("four instructions in -short")
			}
			variant := fileModel(t, filepath.Join("..", "variants", tc.variant+".dl"))
			v, err := ParseVocabulary(tc.vocab, "gpu")
			require.NoError(t, err)
			run := func(off bool) *Report {
				// The pruning of skeletons leaves out most of those whose
				// boxes the screen closes: off, the screen sees them all.
				return Search(context.Background(), Options{A: spec, B: variant, Vocabulary: v, noViolationScreen: off, noOwnPrune: true,
					Bounds: Bounds{Events: tc.events, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
			}
			with, without := run(false), run(true)
			require.NoError(t, with.Err)
			require.NoError(t, without.Err)
			assert.Equal(t, texts(without), texts(with))
			assert.Equal(t, without.ThinAir > 0, with.ThinAir > 0)
			assert.Zero(t, without.ViolationScreened)
			switch {
			case tc.narrows:
				assert.Positive(t, with.ViolationScreened)
				assert.Less(t, with.Programs, without.Programs)
			case !tc.paired:
				assert.Zero(t, with.ViolationScreened)
				assert.Zero(t, with.Checked.Violations)
			}
		})
	}
}

// texts lists a report's tests, name and text.
func texts(r *Report) []string {
	var out []string
	for _, f := range r.Tests {
		out = append(out, f.Test.Litmus())
	}
	return out
}
