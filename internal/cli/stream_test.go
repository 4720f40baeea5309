package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/litmus/families"
)

var timeFields = regexp.MustCompile(`(?m)^Time .*$|"time_ms":[0-9.]+`)

// slowRun writes a run of two tests: MP, checked in milliseconds, then
// IRIW with 10 writers, which takes seconds (8 writers took under one by
// November 2026), so that a test can watch the first result come out
// while the second is still being checked.
func slowRun(t *testing.T) (dir string) {
	dir = t.TempDir()
	mp, err := os.ReadFile(filepath.Join("..", "..", "examples", "MP.litmus"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a-MP.litmus"), mp, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b-IRIW.litmus"), []byte(families.IRIW(10)), 0o644))
	return dir
}

// firstWrite is an output that calls back at its first write.
type firstWrite struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first func()
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first != nil {
		w.first()
		w.first = nil
	}
	return w.buf.Write(p)
}

func (w *firstWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestStreamedAndInterrupted: the first test's block is written while the
// second is still being checked, and interrupting the run then leaves a
// log that holds exactly the finished test's block, as a whole run prints
// it, that herd's log reader accepts; the unfinished test is named, and
// the status is 130. The same holds for -json.
func TestStreamedAndInterrupted(t *testing.T) {
	dir := slowRun(t)
	for _, jsonOut := range []bool{false, true} {
		var whole, wholeErrs bytes.Buffer
		cfg := CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Workers: 1, JSON: jsonOut,
			Files: []string{filepath.Join(dir, "a-MP.litmus")}}
		require.Equal(t, ExitOK, Check(cfg, &whole, &wholeErrs), wholeErrs.String())

		ctx, cancel := context.WithCancel(context.Background())
		out := &firstWrite{first: cancel}
		var errs bytes.Buffer
		cfg.Files, cfg.Context = []string{dir}, ctx
		status := Check(cfg, out, &errs)
		assert.Equal(t, ExitInterrupted, status, "json=%v", jsonOut)
		assert.Equal(t, timeFields.ReplaceAllString(whole.String(), "Time"), timeFields.ReplaceAllString(out.String(), "Time"),
			"json=%v: the partial log is the finished test's block", jsonOut)
		assert.Contains(t, errs.String(), "ptxmm: interrupted after")
		assert.Contains(t, errs.String(), "1 of 2 tests were not finished and are not in the log: IRIW-10W")
		if !jsonOut {
			log, err := herdlog.Read("partial.log", []byte(out.String()))
			require.NoError(t, err, "the partial log is a herd log")
			require.Len(t, log.Entries, 1)
			assert.Equal(t, "MP", log.Entries[0].Name)
		}
	}
}

// TestStreamOrderIsInputOrder: however many workers check the tests and
// in whatever order they finish, the log is in the order of the tests and
// byte for byte the log of one worker, times aside.
func TestStreamOrderIsInputOrder(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	logs := map[int]string{}
	for _, j := range []int{1, 4} {
		var out, errs bytes.Buffer
		status := Check(CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Workers: j, Files: []string{ex}}, &out, &errs)
		require.Equal(t, ExitOK, status, errs.String())
		logs[j] = timeFields.ReplaceAllString(out.String(), "Time")
	}
	assert.Equal(t, logs[1], logs[4])
}

// TestSummaryLine: on a terminal a run ends with one line counting the
// verdicts; without one it prints none.
func TestSummaryLine(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	files := []string{filepath.Join(ex, "MP.litmus"), filepath.Join(ex, "SB+fence.acq_rel.litmus"), filepath.Join(ex, "no-such.litmus")}
	for _, term := range []*Terminal{nil, {Width: 100}} {
		var out, errs bytes.Buffer
		cfg := CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Files: files[:2], Terminal: term, Quiet: true}
		require.Equal(t, ExitOK, Check(cfg, &out, &errs))
		if term == nil {
			assert.Empty(t, errs.String())
			continue
		}
		assert.Regexp(t, `^ptxmm: 2 tests: 1 Ok, 1 No, 0 Undef; 0 errors, 0 with hangs in [0-9.]+ s\n$`, errs.String())
	}
}

func TestFitWidth(t *testing.T) {
	assert.Equal(t, "abc", fitWidth("abc", 10))
	assert.Equal(t, "abcdefg...", fitWidth("abcdefghijklmnop", 10))
	assert.Equal(t, "0.4 s", elapsed(400*time.Millisecond))
	assert.Equal(t, "2 min 05 s", elapsed(125*time.Second))
}
