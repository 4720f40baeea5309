package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus/families"
	"github.com/ptxmm/ptxmm/report"
)

// TestWorkerCount: never more workers than tests, whatever -j asks.
func TestWorkerCount(t *testing.T) {
	cases := []struct{ asked, items, want int }{
		{100_000_000, 3, 3},
		{2, 10, 2},
		{1, 1, 1},
		{4, 0, 1},
		{0, 1000, min(runtime.GOMAXPROCS(0), 1000)},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, workerCount(c.asked, c.items), "%+v", c)
	}
}

// TestSharedLimits: the memory limit becomes one budget for the run.
func TestSharedLimits(t *testing.T) {
	o := checker.DefaultOptions()
	o.MaxMemory = 1 << 30
	s := sharedLimits(o)
	assert.Equal(t, int64(1<<30), s.Budget.Limit())
	o.MaxMemory = 0
	assert.Nil(t, sharedLimits(o).Budget)
}

// TestSharedCores: -j cores are shared by the workers and the searches.
func TestSharedCores(t *testing.T) {
	o := sharedCores(checker.DefaultOptions(), 3)
	assert.Equal(t, 3, o.Cores.Size())
	assert.Nil(t, sharedCores(checker.DefaultOptions(), 1).Cores, "one core has nothing to share")
}

// TestCheckSplitsBigTest checks one big test with one core and with
// three: the search of the test is split across the cores, and the log is
// the same, line for line, but for the times.
func TestCheckSplitsBigTest(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "CoWR-4.litmus")
	require.NoError(t, os.WriteFile(file, []byte(families.CoWRThreads(4)), 0o644))
	times := regexp.MustCompile(`(?m)^Time .*$`)
	logs := map[int]string{}
	for _, j := range []int{1, 3} {
		var out, errs bytes.Buffer
		status := Check(CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Workers: j, Files: []string{file},
			Log: report.LogOptions{Candidates: true}}, &out, &errs)
		require.Equal(t, ExitOK, status, errs.String())
		logs[j] = times.ReplaceAllString(out.String(), "Time")
	}
	assert.Contains(t, logs[1], "Candidates CoWR-4 625")
	assert.Equal(t, logs[1], logs[3])
}
