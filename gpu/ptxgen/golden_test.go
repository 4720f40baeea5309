package ptxgen

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden PTX in testdata/golden")

// goldenName is the golden file of an example: its path with / as _, and
// the template row for .test templates.
func goldenName(ex example) string {
	name := strings.ReplaceAll(ex.file, string(filepath.Separator), "_")
	if ex.test.Instance > 0 {
		name += fmt.Sprintf("#%d", ex.test.Instance)
	}
	return name + ".ptx"
}

// TestGolden compares the module of every supported shipped example with
// testdata/golden (go test -update rewrites them), so that a change to the
// generated code shows in review. A new example the GPU can run needs its
// golden module: run go test ./gpu/ptxgen -update and commit
// testdata/golden.
func TestGolden(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	want := map[string]bool{}
	for _, ex := range examples(t) {
		if ex.refused != nil {
			continue
		}
		name := goldenName(ex)
		want[name] = true
		path := filepath.Join(dir, name)
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, []byte(ex.module), 0o644))
			continue
		}
		golden, err := os.ReadFile(path)
		require.NoError(t, err, "no golden module for %s: run go test ./gpu/ptxgen -update", ex.file)
		require.Equal(t, string(golden), ex.module, "the module of %s changed: if that is meant, run go test ./gpu/ptxgen -update and review the diff", ex.file)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("testdata/golden/%s belongs to no supported example: run go test ./gpu/ptxgen -update", e.Name())
		}
	}
	require.Greater(t, len(want), 60)
}

// TestGoldenAssembles assembles every golden module for sm_90 with ptxas
// when it is on the PATH (or $PTXMM_PTXAS names it); CI has no CUDA
// toolkit, and the test skips saying so. A module of PTX ISA 8.6 (relaxed
// mbarrier operations, fence.acquire and fence.release) is assembled with
// those qualifiers made 8.4's when ptxas is older.
func TestGoldenAssembles(t *testing.T) {
	ptxas := os.Getenv("PTXMM_PTXAS")
	if ptxas == "" {
		var err error
		if ptxas, err = exec.LookPath("ptxas"); err != nil {
			t.Skip("ptxas not found (set $PTXMM_PTXAS or put the CUDA toolkit on the PATH); skipping the assembly of the golden modules")
		}
	}
	dir := t.TempDir()
	for _, ex := range examples(t) {
		if ex.refused != nil {
			continue
		}
		for _, m := range []struct{ kind, text string }{{"kernel", ex.module}, {"optcheck", optcheck(t, ex)}} {
			text := m.text
			if strings.Contains(text, ".version 8.6") && !supports86(ptxas) {
				text = downgrade(text)
			}
			in := filepath.Join(dir, "m.ptx")
			require.NoError(t, os.WriteFile(in, []byte(text), 0o644))
			out, err := exec.Command(ptxas, "-arch=sm_90", in, "-o", filepath.Join(dir, "m.cubin")).CombinedOutput()
			require.NoError(t, err, "ptxas rejects the %s module of %s:\n%s", m.kind, ex.file, out)
		}
	}
}

func optcheck(t *testing.T, ex example) string {
	p, err := NewPlan(ex.test)
	require.NoError(t, err)
	m, err := p.OptcheckModule("sm_90")
	require.NoError(t, err)
	return m
}

// supports86 asks ptxas whether it knows PTX ISA 8.6.
func supports86(ptxas string) bool {
	out, _ := exec.Command(ptxas, "--version").CombinedOutput()
	for _, old := range []string{"release 12.0", "release 12.1", "release 12.2", "release 12.3", "release 12.4", "release 12.5", "release 12.6", "release 12.7", "release 11."} {
		if strings.Contains(string(out), old) {
			return false
		}
	}
	return true
}

// downgrade makes a PTX ISA 8.6 module 8.4's: the relaxed mbarrier
// operations become release arrives and acquire waits, fence.acquire and
// fence.release become fence.acq_rel. Only for assembling with an older
// ptxas; the run uses the module as generated.
func downgrade(ptx string) string {
	r := strings.NewReplacer(".version 8.6", ".version 8.4", "fence.acquire.", "fence.acq_rel.", "fence.release.", "fence.acq_rel.")
	ptx = r.Replace(ptx)
	var out []string
	for _, line := range strings.Split(ptx, "\n") {
		if strings.Contains(line, "mbarrier.") && strings.Contains(line, ".relaxed.") && !strings.Contains(line, "expect_tx.relaxed") && !strings.Contains(line, "complete_tx.relaxed") {
			if strings.Contains(line, "wait") {
				line = strings.Replace(line, ".relaxed.", ".acquire.", 1)
			} else {
				line = strings.Replace(line, ".relaxed.", ".release.", 1)
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
