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
