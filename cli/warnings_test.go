package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// TestCheckPrintsWarnings: a test's warnings go to stderr once, with the
// source line, and into its JSON line; the check itself goes on.
func TestCheckPrintsWarnings(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "W.litmus")
	require.NoError(t, os.WriteFile(f, []byte("PTX W\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak [r0], 1 ;\n ld.weak r1, [x] ;\nexists (P0:r1 == 0 /\\ P0:r7 == 0)\n"), 0o644))
	var out, errs bytes.Buffer
	status := Check(CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), JSON: true, Files: []string{f}}, &out, &errs)
	require.Equal(t, ExitOK, status, errs.String())
	assert.Equal(t, 2, strings.Count(errs.String(), ": warning: "), errs.String())
	assert.Contains(t, errs.String(), "W.litmus:4:11: warning: r0 is not declared")
	assert.Contains(t, errs.String(), "W.litmus:6:23: warning: thread P0 never writes r7")
	assert.Contains(t, out.String(), `"warnings":[`)
}
