package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// TestMain keeps a batch engine's variables, when the tests themselves run
// in a Kubernetes Indexed Job or a Slurm job array, from splitting the
// runs of ptxmm check the tests make.
func TestMain(m *testing.M) {
	for _, v := range []string{cli.EnvJobIndex, cli.EnvSlurmID, cli.EnvSlurmCount, cli.EnvSlurmMin, cli.EnvSlurmMax, cli.EnvSlurmStep} {
		os.Unsetenv(v)
	}
	status := m.Run()
	removeBuiltBinary()
	os.Exit(status)
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

// TestEngineShardsMergeToOneRun runs examples/ the way the batch engines
// of docs/scale.md do: each task's shard from the engine's variables, each
// log in a file, the files merged by ptxmm merge. The merged log and the
// verdict table must be those of one run merged alone (but for the Time
// lines and the summary line naming the logs).
func TestEngineShardsMergeToOneRun(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	dir := t.TempDir()
	var one bytes.Buffer
	require.Equal(t, cli.ExitOK, checkCommand([]string{ex}, &one))
	onePath := filepath.Join(dir, "one.log")
	require.NoError(t, os.WriteFile(onePath, one.Bytes(), 0o644))
	wantLog, wantTable := mergeOutputs(t, []string{onePath})
	require.Contains(t, wantLog, "Test MP Allowed\n")

	cases := []struct {
		name  string
		tasks int
		env   func(task int) map[string]string
		args  []string
	}{
		{"Kubernetes Indexed Job, 3 completions", 3,
			func(i int) map[string]string { return map[string]string{cli.EnvJobIndex: strconv.Itoa(i)} },
			[]string{"-shard-count", "3"}},
		{"Slurm --array=1-5", 5,
			func(i int) map[string]string {
				return map[string]string{cli.EnvSlurmID: strconv.Itoa(i + 1), cli.EnvSlurmMin: "1", cli.EnvSlurmMax: "5", cli.EnvSlurmCount: "5"}
			}, nil},
		{"Slurm --array=0-6:2", 4,
			func(i int) map[string]string {
				return map[string]string{cli.EnvSlurmID: strconv.Itoa(2 * i), cli.EnvSlurmMin: "0", cli.EnvSlurmMax: "6", cli.EnvSlurmCount: "4", cli.EnvSlurmStep: "2"}
			}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs []string
			for i := 0; i < c.tasks; i++ {
				var out bytes.Buffer
				func() {
					for k, v := range c.env(i) {
						// Set by hand, not with t.Setenv, so that each
						// task sees only its own variables.
						require.NoError(t, os.Setenv(k, v))
						defer os.Unsetenv(k)
					}
					require.Equal(t, cli.ExitOK, checkCommand(append(append([]string{}, c.args...), ex), &out), "task %d", i)
				}()
				require.True(t, strings.HasPrefix(out.String(), fmt.Sprintf("# ptxmm shard=%d/%d plan=", i, c.tasks)), "task %d: %.80s", i, out.String())
				p := filepath.Join(dir, fmt.Sprintf("%s-%d.log", strings.Fields(c.name)[0], i))
				require.NoError(t, os.WriteFile(p, out.Bytes(), 0o644))
				logs = append(logs, p)
			}
			gotLog, gotTable := mergeOutputs(t, logs)
			assert.Equal(t, wantLog, gotLog)
			assert.Equal(t, wantTable, gotTable)
		})
	}
}

// mergeOutputs runs ptxmm merge and ptxmm merge -table over logs and
// returns the merged log without its Time lines and the table without its
// summary line, which names the logs.
func mergeOutputs(t *testing.T, logs []string) (string, string) {
	t.Helper()
	var log, table bytes.Buffer
	require.Equal(t, cli.ExitOK, mergeCommand(logs, &log))
	require.Equal(t, cli.ExitOK, mergeCommand(append([]string{"-table"}, logs...), &table))
	rows := strings.TrimSuffix(table.String(), "\n")
	rows = rows[:strings.LastIndex(rows, "\n")]
	return regexp.MustCompile(`(?m)^Time .*\n`).ReplaceAllString(log.String(), ""), rows
}
