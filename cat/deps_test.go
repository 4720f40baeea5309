package cat

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFrontEndsLeaveTheEnumeratorOut: the language front ends and the
// catalog's table of names compile without the enumerator, the litmus
// parser or the engine (package catalog/fill is what joins them).
func TestFrontEndsLeaveTheEnumeratorOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, pkg := range []string{".", "../datalog", "../catalog"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
		for _, dep := range strings.Fields(string(out)) {
			for _, banned := range []string{"execution", "litmus", "rules", "checker"} {
				require.NotEqual(t, "github.com/ptxmm/ptxmm/"+banned, dep, "%s depends on %s", pkg, banned)
			}
		}
	}
}
