package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/report"
)

// runShard runs ptxmm check over files as shard s and returns the exit
// status, the standard output and the standard error.
func runShard(t *testing.T, m *checker.Model, files []string, s Shard, tweak func(*CheckConfig)) (int, string, string) {
	t.Helper()
	cfg := CheckConfig{Model: m, Options: checker.DefaultOptions(), Workers: 2, Files: files, Shard: s}
	if tweak != nil {
		tweak(&cfg)
	}
	var out, errs bytes.Buffer
	status := Check(cfg, &out, &errs)
	return status, out.String(), errs.String()
}

// timeLines are the only lines of a log that differ from run to run.
var timeLines = regexp.MustCompile(`(?m)^Time .*\n`)

// mergedText merges logs and prints the merged log without its times.
func mergedText(t *testing.T, logs []string) (string, *herdlog.Merged) {
	t.Helper()
	var read []*herdlog.Log
	for i, text := range logs {
		l, err := herdlog.Read(fmt.Sprintf("shard%d.log", i), []byte(text))
		require.NoError(t, err)
		read = append(read, l)
	}
	m := herdlog.Merge(read)
	var b bytes.Buffer
	require.NoError(t, m.WriteLog(&b))
	return timeLines.ReplaceAllString(b.String(), ""), m
}

// TestShardsMergeToOneRun runs a corpus as N shards, for several N, and
// checks that the merged logs are the log of one run: the same tests, with
// the same text but for the times, and nothing missing, given twice or in
// conflict. The shipped examples always; the shared corpora when present.
func TestShardsMergeToOneRun(t *testing.T) {
	model := specModel(t)
	corpora := []struct {
		name   string
		files  []string
		counts []int
	}{
		{"examples", []string{filepath.Join("..", "..", "examples")}, []int{1, 2, 3, 7, 200}},
	}
	shared := filepath.Join("..", "..", "..", "shared", "conformance")
	if _, err := os.Stat(shared); err == nil {
		corpora = append(corpora, struct {
			name   string
			files  []string
			counts []int
		}{"shared", []string{filepath.Join(shared, "dat3m"), filepath.Join(shared, "nvlabs")}, []int{3}})
	} else {
		t.Logf("shared conformance corpus not found at %s; checking the shards of examples/ only", shared)
	}
	for _, c := range corpora {
		status, one, _ := runShard(t, model, c.files, Shard{}, nil)
		require.Equal(t, ExitOK, status, c.name)
		whole, ref := mergedText(t, []string{one})
		oneLog, err := herdlog.Read("one.log", []byte(one))
		require.NoError(t, err)
		require.Len(t, ref.Entries, len(oneLog.Entries), "%s: merging one run's log keeps every test", c.name)
		require.NotEmpty(t, ref.Entries)
		for _, n := range c.counts {
			var logs []string
			for i := 0; i < n; i++ {
				status, out, errs := runShard(t, model, c.files, Shard{Index: i, Count: n, Source: "test"}, nil)
				require.Equal(t, ExitOK, status, "%s shard %d/%d: %s", c.name, i, n, errs)
				require.Contains(t, errs, fmt.Sprintf("ptxmm: shard %d/%d from test: ", i, n))
				logs = append(logs, out)
			}
			merged, m := mergedText(t, logs)
			assert.Empty(t, m.ShardProblems, "%s, %d shards", c.name, n)
			assert.Empty(t, m.Duplicates, "%s, %d shards", c.name, n)
			assert.Len(t, m.Conflicts, len(ref.Conflicts), "%s, %d shards", c.name, n)
			assert.Len(t, m.Clashes, len(ref.Clashes), "%s, %d shards", c.name, n)
			assert.Equal(t, []herdlog.Plan{{Plan: m.Plans[0].Plan, Count: n, Present: n}}, m.Plans)
			assert.Equal(t, whole, merged, "%s: %d shards merge to one run", c.name, n)
			var refTable, table bytes.Buffer
			require.NoError(t, report.MergeTable(&refTable, ref))
			require.NoError(t, report.MergeTable(&table, m))
			assert.Equal(t, tableRows(refTable.String()), tableRows(table.String()), "%s, %d shards: the verdict tables", c.name, n)
		}
	}
}

// tableRows drops a table's summary line, which names the logs merged.
func tableRows(table string) string {
	return table[:strings.LastIndex(strings.TrimSuffix(table, "\n"), "\n")]
}

// TestShardsExpect: the shards of a run compared with one CSV report,
// together, what one run reports: each mismatch once, each row no test
// matches once (a row of a file that cannot be read by the shard that
// has the file, a row of no file by shard 0), and the same numbers.
func TestShardsExpect(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"MP.litmus", "SB+fence.sc.litmus", "LB.litmus", "CoRR.litmus", "MP-scopes.test", "ISA2.litmus"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Broken.litmus"), []byte("PTX Broken\n{ x=0; }\n P0 ;\n nonsense ;\n"), 0o644))
	csv := filepath.Join(dir, "expected.csv")
	require.NoError(t, os.WriteFile(csv, []byte(strings.Join([]string{
		"MP.litmus,No",
		"SB+fence.sc.litmus,Ok", // a mismatch
		"LB.litmus,Ok",
		"Broken.litmus,No",       // not run: the file cannot be read
		"Missing.litmus,Ok",      // not run: no such test
		"MP-scopes.test#2,fails", // a mismatch
		"Other.test#1,holds",     // not run
		"ISA2.litmus,No",
		// CoRR.litmus has no row: unexpected.
	}, "\n")+"\n"), 0o644))
	kinds := filepath.Join(dir, "kinds.txt")
	require.NoError(t, os.WriteFile(kinds, []byte("MP Allowed\nLB Allowed\nGhost Forbidden\nISA2 Forbidden\n"), 0o644))
	model := specModel(t)
	for _, opt := range []struct {
		name  string
		tweak func(*CheckConfig)
		lines *regexp.Regexp
	}{
		{"-expect", func(c *CheckConfig) { c.Expect = csv }, regexp.MustCompile(`^(MISMATCH|UNEXPECTED|NOT RUN) `)},
		{"-expect-kinds", func(c *CheckConfig) { c.Kinds = kinds }, regexp.MustCompile(`^MISMATCH |ptxmm: warning: -expect-kinds `)},
	} {
		t.Run(opt.name, func(t *testing.T) {
			status, out, errs := runShard(t, model, []string{dir}, Shard{}, opt.tweak)
			wantLines, wantPassed, wantFailed := comparisonLines(t, out+errs, opt.lines)
			require.NotEmpty(t, wantLines)
			require.NotZero(t, wantFailed)
			for n := 2; n <= 9; n++ {
				var lines []string
				passed, failed, worst := 0, 0, ExitOK
				for i := 0; i < n; i++ {
					s, out, errs := runShard(t, model, []string{dir}, Shard{Index: i, Count: n, Source: "test"}, opt.tweak)
					l, p, f := comparisonLines(t, out+errs, opt.lines)
					lines, passed, failed, worst = append(lines, l...), passed+p, failed+f, max(worst, s)
				}
				sort.Strings(lines)
				assert.Equal(t, wantLines, lines, "%d shards", n)
				assert.Equal(t, [2]int{wantPassed, wantFailed}, [2]int{passed, failed}, "%d shards", n)
				assert.Equal(t, status, worst, "%d shards: the worst status is one run's", n)
			}
		})
	}
}

// comparisonLines picks the lines of a comparison and adds up its
// "N passed, M failed" lines.
func comparisonLines(t *testing.T, output string, keep *regexp.Regexp) (lines []string, passed, failed int) {
	t.Helper()
	for _, l := range strings.Split(output, "\n") {
		var p, f int
		if _, err := fmt.Sscanf(l, "%d passed, %d failed", &p, &f); err == nil {
			passed, failed = passed+p, failed+f
		}
		if keep.MatchString(l) {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return lines, passed, failed
}
