package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReplInTmux runs the REPL as a person would, in a real terminal: it
// builds ptxmm and runs scripts/repl-tmux.sh, which types into the REPL
// through tmux (Tab completion, history) and checks the screen.
func TestReplInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (Debian package tmux); skipping the terminal test of the REPL")
	}
	bin := filepath.Join(t.TempDir(), "ptxmm")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	script := exec.Command("./scripts/repl-tmux.sh", bin, filepath.Join("examples", "MP.litmus"))
	script.Dir = filepath.Join("..", "..")
	out, err = script.CombinedOutput()
	require.NoError(t, err, "screen:\n%s", out)
}
