package ptxgen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSupportRefusesTensorCopies checks that every shipped tensor-copy
// example is refused at the tensor copy, saying why: ptxmm run makes no
// tensor maps, so it can neither emit the instruction nor replace it.
func TestSupportRefusesTensorCopies(t *testing.T) {
	n := 0
	for _, ex := range examples(t) {
		if !strings.HasPrefix(filepath.Base(ex.file), "Tensor") {
			continue
		}
		n++
		require.Error(t, ex.refused, ex.file)
		require.ErrorContains(t, ex.refused, "a tensor copy needs a tensor map", ex.file)
	}
	require.GreaterOrEqual(t, n, 10)
}
