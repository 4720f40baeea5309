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
	"github.com/ptxmm/ptxmm/internal/loader"
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

// TestCheckWarnsAboutModelsWithoutHost: tests with host threads checked
// with a model that reads no relation about host threads get a warning
// saying their API synchronization is ignored; spec.dl, or a run without
// host threads, gets none.
func TestCheckWarnsAboutModelsWithoutHost(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.dl")
	require.NoError(t, os.WriteFile(plain, []byte(".decl W(e: event)\n.decl co(a: event, b: event)\n.decl loc(a: event, b: event)\n.input W, loc\nlet co = (W * W) & loc\n.check acyclic_co: acyclic(co)\n"), 0o644))
	noHost, err := loader.LoadFile(plain)
	require.NoError(t, err)
	host := filepath.Join("..", "..", "examples", "host", "StreamSync.litmus")
	device := filepath.Join("..", "..", "examples", "MP.litmus")
	cases := []struct {
		name  string
		model *checker.Model
		files []string
		warns bool
	}{
		{"spec.dl reads the host relations", specModel(t), []string{host, device}, false},
		{"a model without them, on a host test", noHost, []string{host, device}, true},
		{"a model without them, on device tests only", noHost, []string{device}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			Check(CheckConfig{Model: c.model, Options: checker.DefaultOptions(), JSON: true, Files: c.files}, &out, &errs)
			want := "reads none of the relations about host threads (API, TASK_START, stream_next, ...): 1 test(s) with host threads are checked without the CUDA API synchronization"
			if c.warns {
				assert.Contains(t, errs.String(), want)
			} else {
				assert.NotContains(t, errs.String(), "relations about host threads")
			}
		})
	}
}
