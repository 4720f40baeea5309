package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cli"
)

// TestLimitFlagsReachTheWork runs the commands that enumerate candidates
// with a candidate bound below and at MP's four candidates: the exit status
// changes, so each command parses the flag its limit error names and applies
// it.
func TestLimitFlagsReachTheWork(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	dot := filepath.Join(t.TempDir(), "mp.dot")
	commands := []struct {
		name string
		run  func(args []string) int
		args []string
	}{
		{"check", runCheck, []string{"-json", mp}},
		{"diff", runDiff, []string{"-model", filepath.Join("..", "..", "spec.dl"), mp}},
		{"graph", runGraph, []string{"-o", dot, mp}},
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			low := append([]string{"-max-candidates", "3", "-max-runs", "10", "-timeout", "1m", "-unroll", "2"}, c.args...)
			enough := append([]string{"-max-candidates", "4"}, c.args...)
			require.Equal(t, cli.ExitError, c.run(low), "below the bound")
			require.Equal(t, cli.ExitOK, c.run(enough), "at the bound")
		})
	}
	_, err := os.Stat(dot)
	require.NoError(t, err, "graph wrote its output once the bound allowed it")
}
