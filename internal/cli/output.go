package cli

import (
	"fmt"
	"io"
)

// CheckedWriter remembers the first error writing to its writer fails
// with (a full disk, a closed pipe), so that a command can end with the
// error status instead of claiming success after output was lost. Once a
// write has failed, later ones fail at once with the same error.
type CheckedWriter struct {
	w   io.Writer
	err error
}

// NewCheckedWriter wraps w.
func NewCheckedWriter(w io.Writer) *CheckedWriter { return &CheckedWriter{w: w} }

func (c *CheckedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// Err returns the first write error, or nil.
func (c *CheckedWriter) Err() error { return c.err }

// WithCheckedOutput runs a command writing its output to stdout and
// returns its exit status, or ExitError when a write to stdout failed, with
// the reason on stderr.
func WithCheckedOutput(stdout, stderr io.Writer, command func(out io.Writer) int) int {
	out := NewCheckedWriter(stdout)
	status := command(out)
	if err := out.Err(); err != nil {
		fmt.Fprintf(stderr, "ptxmm: cannot write the output: %v\n", err)
		return ExitError
	}
	return status
}
