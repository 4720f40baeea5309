package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// failingWriter fails every write, as stdout on a full disk or a closed
// pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorsExit2: every command whose output cannot be written ends
// with exit status 2 and says why. "check > /dev/full" used to exit 0.
func TestWriteErrorsExit2(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	dl := filepath.Join("..", "..", "examples", "datalog")
	commands := []struct {
		name string
		run  func(args []string, out io.Writer) int
		args []string
	}{
		{"check", checkCommand, []string{mp}},
		{"check -json", checkCommand, []string{"-json", mp}},
		{"diff", diffCommand, []string{"-model", filepath.Join("..", "..", "variants", "ptx-v6.0.dl"), filepath.Join("..", "..", "examples")}},
		{"eval", evalCommand, []string{filepath.Join(dl, "sc.dl"), "-F", filepath.Join(dl, "sb-facts"), "-D", "-"}},
		{"graph", graphCommand, []string{mp}},
	}
	for _, c := range commands {
		var errs strings.Builder
		status := cli.WithCheckedOutput(failingWriter{}, &errs, func(out io.Writer) int { return c.run(c.args, out) })
		assert.Equal(t, cli.ExitError, status, c.name)
		assert.Contains(t, errs.String(), "cannot write the output: no space left on device", c.name)
	}
}

// TestDevFull runs the command line against /dev/full where it exists.
func TestDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full on this system; TestWriteErrorsExit2 covers the same with a failing writer")
	}
	defer full.Close()
	saved := os.Stdout
	os.Stdout = full
	defer func() { os.Stdout = saved }()
	assert.Equal(t, cli.ExitError, run([]string{"check", filepath.Join("..", "..", "examples", "MP.litmus")}))
	assert.Equal(t, cli.ExitError, run([]string{"help"}))
}
