package ptxgen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSupportRefuses checks that every shipped example of a form ptxmm run
// cannot emit is refused, saying why: tensor copies need a tensor map,
// which ptxmm run does not make, so it can neither emit the instruction
// nor replace it; multicast bulk loads are not generated.
func TestSupportRefuses(t *testing.T) {
	cases := []struct {
		prefix, why string
		least       int
	}{
		{"Tensor", "a tensor copy needs a tensor map", 10},
		{"TMA-multicast", "does not generate .multicast::cluster", 5},
	}
	all := examples(t)
	for _, c := range cases {
		t.Run(c.prefix, func(t *testing.T) {
			n := 0
			for _, ex := range all {
				if !strings.HasPrefix(filepath.Base(ex.file), c.prefix) {
					continue
				}
				n++
				require.Error(t, ex.refused, ex.file)
				require.ErrorContains(t, ex.refused, c.why, ex.file)
			}
			require.GreaterOrEqual(t, n, c.least)
		})
	}
}

// TestSupportRefusesWhatTheGPUGotWrong checks the refusals the fourth GPU
// run (docs/hardware.md) called for, on the shipped examples: a wait for a
// phase number other than 0, whose .parity form reads an earlier phase as
// complete (Support), and a plain store into an mbarrier object, which
// faulted the kernel (NewPlan); and that tests near them still run.
func TestSupportRefusesWhatTheGPUGotWrong(t *testing.T) {
	byFile := map[string]example{}
	for _, ex := range examples(t) {
		byFile[filepath.ToSlash(ex.file)] = ex
	}
	cases := []struct {
		file string
		want string // "" when the test must run
	}{
		{"async/MBar-arrive-next-phase.litmus", "runs phase-number waits only for phase 0"},
		{"async/MBar-arrive_drop-next-phase.litmus", "runs phase-number waits only for phase 0"},
		{"async/MBar-st-after-init.litmus", "writes b, an mbarrier object"},
		{"async/MBar-parity-preceding-phase.litmus", ""},
		{"async/MBar-ld-object.litmus", ""},
		{"async/MBar-inval-reuse.litmus", ""},
		{"async/MBar-store-after-arrive.litmus", ""},
		{"idioms/TMA-ring-2x3.litmus", ""},
	}
	for _, c := range cases {
		ex, ok := byFile[c.file]
		require.True(t, ok, "no example %s", c.file)
		if c.want == "" {
			require.NoError(t, ex.refused, c.file)
			continue
		}
		require.ErrorContains(t, ex.refused, c.want, c.file)
	}
}
