//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// slowWriters is the number of writers of slowTests' IRIW, named IRIW-10W.
const slowWriters = 10

// slowTests writes MP, checked in milliseconds, and IRIW with 10 writers,
// which takes seconds (about 11 s of CPU in November 2026; 8 writers took
// under one by then, which let a run finish before the test interrupted
// it): a run of both, one at a time, is still checking the second when
// the first is printed.
func slowTests(t *testing.T) string {
	dir := t.TempDir()
	mp, err := os.ReadFile(filepath.Join("..", "..", "examples", "MP.litmus"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a-MP.litmus"), mp, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b-IRIW.litmus"), []byte(families.IRIW(slowWriters)), 0o644))
	return dir
}

// syncBuffer collects what a reader yields, for a test to look at while
// the command runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) collect(r io.Reader) {
	chunk := make([]byte, 4096)
	for {
		n, err := r.Read(chunk)
		b.mu.Lock()
		b.buf.Write(chunk[:n])
		b.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until cond holds, for at most a minute (a loaded machine
// is slow to start a process).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exitCode waits for the command and returns its exit status.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	require.NoError(t, err)
	return 0
}

// TestSignalLeavesPartialLog: Ctrl-C (SIGINT) or SIGTERM while a run is
// checking its second test leaves the first test's block, whole, as the
// log; standard error says what was not finished; the status is 130.
func TestSignalLeavesPartialLog(t *testing.T) {
	bin := ptxmmBinary(t)
	dir := slowTests(t)
	want, err := exec.Command(bin, "check", filepath.Join(dir, "a-MP.litmus")).Output()
	require.NoError(t, err)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "check", "-j", "1", dir)
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			var errs syncBuffer
			cmd.Stderr = &lockedWriter{b: &errs}
			require.NoError(t, cmd.Start())
			var log strings.Builder
			lines := bufio.NewScanner(stdout)
			for lines.Scan() {
				log.WriteString(lines.Text() + "\n")
				if strings.HasPrefix(lines.Text(), "Hash=") {
					break
				}
			}
			require.NoError(t, cmd.Process.Signal(sig))
			for lines.Scan() {
				log.WriteString(lines.Text() + "\n")
			}
			assert.Equal(t, cli.ExitInterrupted, exitCode(t, cmd), errs.String())
			assert.Equal(t, timeLines(string(want)), timeLines(log.String()))
			assert.Contains(t, errs.String(), "1 of 2 tests were not finished and are not in the log: IRIW-10W")
		})
	}
}

// lockedWriter lets exec write a command's output into a syncBuffer.
type lockedWriter struct{ b *syncBuffer }

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.b.mu.Lock()
	defer w.b.mu.Unlock()
	return w.b.buf.Write(p)
}

// timeLines blanks the times of a log.
func timeLines(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "Time ") {
			l = "Time"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestProgressLine runs ptxmm check with standard error on a terminal (a
// pseudo-terminal): while the slow test is checked, a line says how many
// tests are done, which one is being checked and how many candidates it
// has so far; it is erased before anything else is written. With -q, or
// when standard error is not a terminal, there is none.
func TestProgressLine(t *testing.T) {
	bin := ptxmmBinary(t)
	dir := slowTests(t)
	run := func(t *testing.T, terminal bool, args ...string) (status int, screen string) {
		cmd := exec.Command(bin, append([]string{"check", "-j", "1"}, append(args, dir)...)...)
		var logBuf syncBuffer
		cmd.Stdout = &lockedWriter{b: &logBuf}
		var screenBuf syncBuffer
		if terminal {
			master, slave := openPTY(t)
			cmd.Stderr = slave
			require.NoError(t, cmd.Start())
			slave.Close()
			go screenBuf.collect(master)
		} else {
			cmd.Stderr = &lockedWriter{b: &screenBuf}
			require.NoError(t, cmd.Start())
		}
		// Interrupt the slow test once it is being checked: when the
		// progress line names it, or, where no line is expected, when
		// MP's log is out, and a little later (the line is drawn every
		// 200 ms), so that a line drawn by mistake would show.
		if terminal && len(args) == 0 {
			waitFor(t, "the progress line", func() bool { return strings.Contains(screenBuf.String(), "checking IRIW-10W") })
		} else {
			waitFor(t, "MP's log", func() bool { return strings.Contains(logBuf.String(), "Hash=") })
			time.Sleep(time.Second)
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
		status = exitCode(t, cmd)
		time.Sleep(100 * time.Millisecond) // let the reader drain the terminal
		return status, screenBuf.String()
	}
	t.Run("terminal", func(t *testing.T) {
		status, screen := run(t, true)
		assert.Equal(t, cli.ExitInterrupted, status)
		assert.Regexp(t, `\r1 of 2 tests done, [0-9.]+ s; checking IRIW-10W \([0-9]+ candidates\)\x1b\[K`, screen)
		// Erased before the note on the interruption.
		assert.Regexp(t, `\r\x1b\[Kptxmm: interrupted after`, screen)
	})
	t.Run("-q", func(t *testing.T) {
		status, screen := run(t, true, "-q")
		assert.Equal(t, cli.ExitInterrupted, status)
		assert.NotContains(t, screen, "tests done")
		assert.Contains(t, screen, "ptxmm: interrupted after")
	})
	t.Run("not a terminal", func(t *testing.T) {
		status, screen := run(t, false)
		assert.Equal(t, cli.ExitInterrupted, status)
		assert.NotContains(t, screen, "tests done")
		assert.NotContains(t, screen, "\r")
	})
}

// TestSummaryOnTerminal: a run that ends prints one summary line on a
// terminal's standard error.
func TestSummaryOnTerminal(t *testing.T) {
	bin := ptxmmBinary(t)
	ex := filepath.Join("..", "..", "examples")
	cmd := exec.Command(bin, "check", filepath.Join(ex, "MP.litmus"), filepath.Join(ex, "SB+fence.acq_rel.litmus"))
	cmd.Stdout = io.Discard
	master, slave := openPTY(t)
	cmd.Stderr = slave
	require.NoError(t, cmd.Start())
	slave.Close()
	var screen syncBuffer
	go screen.collect(master)
	assert.Equal(t, cli.ExitOK, exitCode(t, cmd))
	waitFor(t, "the summary", func() bool { return strings.Contains(screen.String(), "with hangs") })
	assert.Regexp(t, `ptxmm: 2 tests: 1 Ok, 1 No, 0 Undef; 0 errors, 0 with hangs in [0-9.]+ s\r?\n`, screen.String())
}
