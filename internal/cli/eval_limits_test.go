package cli

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEvalMemoryLimit: a program deriving a relation too large for the
// memory limit stops with the limit error naming the relation and where
// it is defined, exit status 2. Before the limit, Go died out of memory.
func TestEvalMemoryLimit(t *testing.T) {
	dir := filepath.Join("testdata", "limits")
	cases := []struct {
		program string
		limit   int64
		want    string
	}{
		{"complement.dl", 1 << 30, "relation big (testdata/limits/complement.dl:6:5) would take more than"},
		{"selfjoin.dl", 32 << 20, "relation big (testdata/limits/selfjoin.dl:6:7) would take more than"},
	}
	for _, c := range cases {
		t.Run(c.program, func(t *testing.T) {
			var out, errs bytes.Buffer
			cfg := EvalConfig{Program: filepath.Join(dir, c.program), FactsDir: filepath.Join(dir, "facts"), OutDir: "-", MaxMemory: c.limit}
			require.Equal(t, ExitError, Eval(cfg, &out, &errs))
			assert.Contains(t, errs.String(), filepath.FromSlash(c.want))
			assert.Contains(t, errs.String(), "raise it with -max-memory")
			assert.Empty(t, out.String(), "no output from a stopped evaluation")
		})
	}
}

// TestEvalTimeout: -timeout stops a long evaluation inside its one rule.
func TestEvalTimeout(t *testing.T) {
	dir := filepath.Join("testdata", "limits")
	var out, errs bytes.Buffer
	cfg := EvalConfig{Program: filepath.Join(dir, "selfjoin.dl"), FactsDir: filepath.Join(dir, "facts"), OutDir: "-",
		Timeout: time.Millisecond}
	require.Equal(t, ExitError, Eval(cfg, &out, &errs))
	assert.Contains(t, errs.String(), "longer than the time limit of 1ms; raise it with -timeout")
}
