package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// shortWriter accepts only part of each write, without an error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

type brokenWriter struct{ calls int }

func (b *brokenWriter) Write(p []byte) (int, error) {
	b.calls++
	return 0, errors.New("broken pipe")
}

func TestCheckedWriter(t *testing.T) {
	var ok bytes.Buffer
	c := NewCheckedWriter(&ok)
	_, err := io.WriteString(c, "fine")
	assert.NoError(t, err)
	assert.NoError(t, c.Err())
	assert.Equal(t, "fine", ok.String())

	b := &brokenWriter{}
	c = NewCheckedWriter(b)
	_, err = io.WriteString(c, "a")
	assert.EqualError(t, err, "broken pipe")
	_, err = io.WriteString(c, "b")
	assert.EqualError(t, err, "broken pipe")
	assert.Equal(t, 1, b.calls, "no write after the first failure")
	assert.EqualError(t, c.Err(), "broken pipe")

	c = NewCheckedWriter(shortWriter{})
	_, err = io.WriteString(c, "abcd")
	assert.ErrorIs(t, err, io.ErrShortWrite)

	var errs strings.Builder
	assert.Equal(t, ExitMismatch, WithCheckedOutput(&ok, &errs, func(io.Writer) int { return ExitMismatch }), "the command's status when output worked")
	assert.Equal(t, ExitError, WithCheckedOutput(&brokenWriter{}, &errs, func(w io.Writer) int {
		io.WriteString(w, "result")
		return ExitOK
	}))
	assert.Contains(t, errs.String(), "ptxmm: cannot write the output: broken pipe")
}
