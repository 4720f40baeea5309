package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeCommand: what ptxmm merge prints and its exit status, from the
// logs of two shards of the examples.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	model := specModel(t)
	files := []string{filepath.Join("..", "..", "examples", "MP.litmus"), filepath.Join("..", "..", "examples", "SB+fence.sc.litmus"),
		filepath.Join("..", "..", "examples", "LB.litmus")}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	var shards []string
	for i := 0; i < 2; i++ {
		_, out, _ := runShard(t, model, files, Shard{Index: i, Count: 2}, nil)
		shards = append(shards, write("shard"+string(rune('0'+i))+".log", out))
	}
	shard1, err := os.ReadFile(shards[1])
	require.NoError(t, err)
	conflicting := write("conflict.log", strings.Replace(string(shard1), "\nNo\n", "\nOk\n", 1))
	broken := write("broken.log", "Test T Allowed\nStates 1\n0:r0=?;\nOk\n")
	empty := write("empty.log", "")
	notes := write("shard0.err", "ptxmm: shard 0/2 from -shard 0/2: 2 of the run's 3 tests\n")
	cases := []struct {
		name      string
		cfg       MergeConfig
		status    int
		out, errs []string
	}{
		{"merged log", MergeConfig{Logs: shards}, ExitOK,
			[]string{"Test LB Required\n", "Test MP Allowed\n", "Test SB+fence.sc Allowed\n"},
			[]string{"ptxmm merge: 3 tests: 1 Ok, 2 No; 0 duplicates, 0 conflicts; from 2 logs (all 2 shards of plan "}},
		{"table", MergeConfig{Logs: shards, Table: true}, ExitOK,
			[]string{"Test         Kind      Result  Positive  Negative  Notes\nLB           Required  Ok      3         0", "\nMP           Allowed   No      0         3",
				"\n3 tests: 1 Ok, 2 No; 0 duplicates, 0 conflicts; from 2 logs (all 2 shards of plan "},
			nil},
		{"a shard missing", MergeConfig{Logs: shards[:1]}, ExitMismatch, []string{"Test LB Required\n"},
			[]string{": no log holds shard(s) 1 of 2\n", "(1 of the 2 shards of plan "}},
		{"a shard twice", MergeConfig{Logs: []string{shards[0], shards[1], shards[1]}}, ExitMismatch, nil,
			[]string{"ptxmm merge: duplicate: SB+fence.sc at " + shards[1] + " (argument 3):2, with the same results as at " + shards[1] + ":2\n",
				" is given 2 times: " + shards[1] + ":1, " + shards[1] + " (argument 3):1\n", "; 1 duplicate, 0 conflicts;"}},
		{"a conflict", MergeConfig{Logs: []string{shards[0], shards[1], conflicting}}, ExitMismatch, nil,
			[]string{"ptxmm merge: conflict: SB+fence.sc at " + conflicting + ":2 disagrees with " + shards[1] + ":2 (kept): No (Positive: 0 Negative: 3) vs Ok (Positive: 0 Negative: 3)\n"}},
		{"standard input", MergeConfig{Logs: []string{shards[0], "-"}, Stdin: bytes.NewReader(shard1)}, ExitOK,
			[]string{"Test MP Allowed\n"}, []string{"(all 2 shards of plan "}},
		{"a broken log", MergeConfig{Logs: []string{shards[0], broken}}, ExitError, nil,
			[]string{broken + ":3:6: expected a value: a number, a name, a set {...}\n    0:r0=?;\n         ^\n"}},
		{"an empty log", MergeConfig{Logs: []string{shards[0], shards[1], empty}}, ExitMismatch, []string{"Test MP Allowed\n"},
			[]string{"ptxmm merge: " + empty + " is empty: no test and no shard header (a task that stopped before printing anything?)\n"}},
		{"not a log", MergeConfig{Logs: []string{shards[0], notes}}, ExitError, nil,
			[]string{notes + ":1:1: not a herd log: none of its lines is a \"Test NAME\" line, an \"Error NAME:\" line or a ptxmm shard header\n"}},
		{"a folder", MergeConfig{Logs: []string{dir}}, ExitError, nil, []string{"cannot read log: read " + dir + ": a directory, not a file; a log is read from a regular file"}},
		{"no such log", MergeConfig{Logs: []string{filepath.Join(dir, "none.log")}}, ExitError, nil, []string{"cannot read log: stat ", "no such file or directory"}},
		{"no logs", MergeConfig{}, ExitError, nil, []string{"ptxmm merge: no logs given"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			assert.Equal(t, c.status, Merge(c.cfg, &out, &errs), errs.String())
			for _, s := range c.out {
				assert.Contains(t, out.String(), s)
			}
			for _, s := range c.errs {
				assert.Contains(t, errs.String(), s)
			}
		})
	}
}
