package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoThinAirThroughRMW: the value an atom.or writes is computed from the
// value it reads, so the read-to-write edge inside the instruction closes
// a No-Thin-Air cycle (8.10.4). spec.dl rejects the self-justifying
// candidate by no_thin_air; a model without that check allows it, and the
// candidate is then consistent but has no final state (its values are not
// determined), never an outcome.
func TestNoThinAirThroughRMW(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "NTA+atom.litmus"))
	require.NoError(t, err)
	tc := herd(t, string(src))

	r := check(t, spec(t), tc)
	assert.Zero(t, r.ThinAir, "spec.dl forbids the thin-air execution")
	assert.Equal(t, "No", r.Verdict)

	// Every candidate whose values form a cycle (P0 reading P2's copy of
	// its own write, or P1 and P2 copying each other's writes) is
	// rejected, by no_thin_air.
	cands, _ := spec(t).Candidates(tc, DefaultOptions(), 0)
	cyclic := 0
	for _, c := range cands {
		if !c.Execution.Undetermined {
			continue
		}
		cyclic++
		assert.False(t, c.Consistent)
		var names []string
		for _, f := range c.Failures {
			names = append(names, f.Name)
		}
		assert.Contains(t, names, "no_thin_air")
	}
	assert.NotZero(t, cyclic)

	noNTA, err := spec(t).Adjusted(Adjustments{Skip: []string{"no_thin_air"}})
	require.NoError(t, err)
	r = check(t, noNTA, tc)
	assert.NotZero(t, r.ThinAir, "without no_thin_air the model allows them")
	cands, _ = noNTA.Candidates(tc, DefaultOptions(), 0)
	allowed := 0
	for _, c := range cands {
		if !c.Execution.Undetermined || len(c.Failures) > 0 {
			continue
		}
		// The status agrees with the checks: none fails, so it is
		// consistent; it is still not an outcome.
		allowed++
		assert.True(t, c.Consistent)
		assert.Contains(t, c.NoFinalState(), "thin air")
	}
	assert.Equal(t, r.ThinAir, allowed)
}

// TestCandidateStatusAgreesWithChecks: over the examples that exercise
// thin air, hangs and forbidden outcomes, a candidate is consistent exactly
// when no check fails.
func TestCandidateStatusAgreesWithChecks(t *testing.T) {
	for _, name := range []string{"NTA+atom.litmus", "NTA+cas.litmus", "LB+ctrl.litmus", "MP.litmus", "hangs/Hang-unsettled.litmus"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "examples", name))
			require.NoError(t, err)
			cands, _ := spec(t).Candidates(herd(t, string(src)), DefaultOptions(), 0)
			require.NotEmpty(t, cands)
			for i, c := range cands {
				assert.Equal(t, len(c.Failures) == 0, c.Consistent, "candidate %d", i+1)
			}
		})
	}
}
