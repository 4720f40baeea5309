package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/limits"
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

// TestNumericFlagsAreValidated: every numeric flag of every command that
// takes it rejects values that cannot mean anything, with exit status 2,
// before doing any work (no output file is written).
func TestNumericFlagsAreValidated(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	spec := filepath.Join("..", "..", "spec.dl")
	dot := filepath.Join(t.TempDir(), "mp.dot")
	commands := []struct {
		name string
		run  func(args []string) int
		args []string
		own  [][]string // flags only this command has
	}{
		{"check", runCheck, []string{"-json", mp}, [][]string{{"-j", "0"}, {"-j", "-3"}}},
		{"diff", runDiff, []string{"-model", spec, mp}, [][]string{{"-j", "0"}}},
		{"graph", runGraph, []string{"-o", dot, mp}, [][]string{{"-exec", "-1"}, {"-instance", "-2"}}},
		{"repl", runRepl, []string{mp}, nil},
	}
	common := [][]string{
		{"-max-candidates", "-5"},
		{"-max-runs", "0"},
		{"-max-runs", "-2"},
		{"-timeout", "-1s"},
		{"-unroll", "-1"},
		{"-max-memory", "-1GiB"},
		{"-max-memory", "lots"},
	}
	for _, c := range commands {
		for _, bad := range append(common, c.own...) {
			args := append(append([]string{}, bad...), c.args...)
			assert.Equal(t, cli.ExitError, c.run(args), "%s %v", c.name, bad)
		}
	}
	_, err := os.Stat(dot)
	assert.True(t, os.IsNotExist(err), "graph drew despite a bad flag")

	sc := filepath.Join("..", "..", "examples", "datalog", "sc.dl")
	facts := filepath.Join("..", "..", "examples", "datalog", "sb-facts")
	for _, bad := range [][]string{{"-timeout", "-1s"}, {"-max-memory", "-5"}, {"-max-memory", "x"}} {
		args := append(append([]string{}, bad...), sc, "-F", facts, "-D", "-")
		assert.Equal(t, cli.ExitError, runEval(args), "eval %v", bad)
	}
}

// TestDefaultMemoryLimit: without -max-memory the limit is the machine's
// default, not "none".
func TestDefaultMemoryLimit(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	addLimitFlags(fs, &opts)
	require.NoError(t, fs.Parse(nil))
	want, _ := limits.DefaultMaxMemory()
	assert.Equal(t, want, opts.MaxMemory)
	require.NoError(t, fs.Parse([]string{"-max-memory", "512MiB"}))
	assert.Equal(t, int64(512<<20), opts.MaxMemory)
}
