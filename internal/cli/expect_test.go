package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// TestExpectInAnotherFolder: a CSV whose paths do not lead to the tests
// checked compares nothing, and that is a failure (exit status 1), not
// "0 passed, 0 failed" and success.
func TestExpectInAnotherFolder(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "expected.csv")
	require.NoError(t, os.WriteFile(csv, []byte("MP.litmus,No\n"), 0o644))
	var out, errs bytes.Buffer
	cfg := CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Expect: csv,
		Files: []string{filepath.Join("..", "..", "examples", "MP.litmus")}}
	require.Equal(t, ExitMismatch, Check(cfg, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "UNEXPECTED ")
	assert.Contains(t, out.String(), "NOT RUN MP.litmus")
	assert.Contains(t, out.String(), "0 passed, 2 failed")

	// Beside the tests, the same row passes.
	csv = filepath.Join("..", "..", "examples", "expected.csv")
	out.Reset()
	cfg.Expect = csv
	cfg.Files = []string{filepath.Join("..", "..", "examples")}
	require.Equal(t, ExitOK, Check(cfg, &out, &errs), out.String())
}

// TestExpectNoExecution: a test with no execution at all (here no
// candidate meets the load's "== 5" restriction, so its assert holds over
// nothing) fails -expect with the reason, unless the row says that no
// execution is expected.
func TestExpectNoExecution(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "Never.test")
	require.NoError(t, os.WriteFile(test, []byte(".global x;\nd0.b0.t0 {\n  ld r0, [x] == 5;\n}\nassert (r0 == 7) as seven;\n"), 0o644))
	csv := filepath.Join(dir, "expected.csv")
	require.NoError(t, os.WriteFile(csv, []byte("# no row\n"), 0o644))
	var out, errs bytes.Buffer
	cfg := CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Expect: csv, Files: []string{test}}
	require.Equal(t, ExitMismatch, Check(cfg, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "MISMATCH Never.test: no execution: no candidate execution meets the \"== v\" restrictions of the loads")
	assert.Contains(t, out.String(), "0 passed, 1 failed")

	require.NoError(t, os.WriteFile(csv, []byte("Never.test[0],holds empty\n"), 0o644))
	out.Reset()
	require.Equal(t, ExitOK, Check(cfg, &out, &errs), out.String())
}
