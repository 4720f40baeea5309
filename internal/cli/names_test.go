package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

const mpSrc = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

const sbSrc = "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n ld.weak r0, y | ld.weak r1, x ;\n~exists (P0:r0 == 0 /\\ P1:r1 == 0)\n"

// writeTests writes test files into a temporary directory.
func writeTests(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

// TestDuplicateNamesWarn: two tests of one name in a run draw a warning
// naming both files; the log keeps both.
func TestDuplicateNamesWarn(t *testing.T) {
	dir := writeTests(t, map[string]string{"a/MP.litmus": mpSrc, "b/MP.litmus": mpSrc, "SB.litmus": sbSrc})
	var out, errs bytes.Buffer
	status := Check(CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Files: []string{dir}}, &out, &errs)
	require.Equal(t, ExitOK, status)
	require.Equal(t, "ptxmm: warning: tests in "+filepath.Join(dir, "a", "MP.litmus")+" and "+filepath.Join(dir, "b", "MP.litmus")+
		" are both named MP; herd's log tools take them for one test\n", errs.String())
	require.Equal(t, 2, bytes.Count(out.Bytes(), []byte("Test MP Allowed\n")))
}
