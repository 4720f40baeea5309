package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cli"
)

// TestMain keeps a batch engine's variables, when the tests themselves run
// in a Kubernetes Indexed Job or a Slurm job array, from splitting the
// runs of ptxmm check the tests make.
func TestMain(m *testing.M) {
	for _, v := range []string{cli.EnvJobIndex, cli.EnvSlurmID, cli.EnvSlurmCount, cli.EnvSlurmMin, cli.EnvSlurmMax, cli.EnvSlurmStep} {
		os.Unsetenv(v)
	}
	os.Exit(m.Run())
}

// TestShardFlags: -shard, -shard-count and the batch engines' variables
// reach ptxmm check, and bad values stop it with status 2.
func TestShardFlags(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	tests := []string{filepath.Join(ex, "MP.litmus"), filepath.Join(ex, "SB+fence.sc.litmus"), filepath.Join(ex, "LB.litmus")}
	cases := []struct {
		name   string
		env    map[string]string
		args   []string
		status int
		header string // the shard's header, or "" for none
	}{
		{"no shard", nil, nil, cli.ExitOK, ""},
		{"-shard", nil, []string{"-shard", "1/2"}, cli.ExitOK, "# ptxmm shard=1/2 plan="},
		{"-shard out of range", nil, []string{"-shard", "2/2"}, cli.ExitError, ""},
		{"Kubernetes", map[string]string{cli.EnvJobIndex: "1"}, []string{"-shard-count", "2"}, cli.ExitOK, "# ptxmm shard=1/2 plan="},
		{"Kubernetes without -shard-count", map[string]string{cli.EnvJobIndex: "1"}, nil, cli.ExitError, ""},
		{"-shard 0/1 checks everything", map[string]string{cli.EnvJobIndex: "1"}, []string{"-shard", "0/1"}, cli.ExitOK, "# ptxmm shard=0/1 plan="},
		{"Slurm", map[string]string{cli.EnvSlurmID: "1", cli.EnvSlurmMin: "1", cli.EnvSlurmCount: "2", cli.EnvSlurmMax: "2"}, nil, cli.ExitOK, "# ptxmm shard=0/2 plan="},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			var out bytes.Buffer
			require.Equal(t, c.status, checkCommand(append(append([]string{}, c.args...), tests...), &out))
			if c.header == "" {
				assert.False(t, strings.HasPrefix(out.String(), "# ptxmm shard="), out.String())
				return
			}
			assert.True(t, strings.HasPrefix(out.String(), c.header), out.String())
		})
	}
}

// TestMergeFlags: ptxmm merge unions the logs of the shards, as a log or
// as a table.
func TestMergeFlags(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	dir := t.TempDir()
	var logs []string
	for _, s := range []string{"0/2", "1/2"} {
		var out bytes.Buffer
		require.Equal(t, cli.ExitOK, checkCommand([]string{"-shard", s, filepath.Join(ex, "MP.litmus"), filepath.Join(ex, "LB.litmus")}, &out))
		p := filepath.Join(dir, strings.Replace(s, "/", "of", 1)+".log")
		require.NoError(t, os.WriteFile(p, out.Bytes(), 0o644))
		logs = append(logs, p)
	}
	var merged bytes.Buffer
	require.Equal(t, cli.ExitOK, mergeCommand(logs, &merged))
	assert.True(t, strings.HasPrefix(merged.String(), "Test LB Required\n"), merged.String())
	assert.Contains(t, merged.String(), "\n\nTest MP Allowed\n")
	var table bytes.Buffer
	require.Equal(t, cli.ExitOK, mergeCommand(append([]string{"-table"}, logs...), &table))
	assert.Contains(t, table.String(), "\n2 tests: 1 Ok, 1 No; 0 duplicates, 0 conflicts; from 2 logs (all 2 shards of plan ")
	require.Equal(t, cli.ExitMismatch, mergeCommand(logs[:1], &bytes.Buffer{}), "a shard missing")
	require.Equal(t, cli.ExitError, mergeCommand([]string{"-nosuch"}, &bytes.Buffer{}))
}
