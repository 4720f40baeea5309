package main

import (
	"flag"
	"io"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseInterspersed(t *testing.T) {
	cases := []struct {
		args []string
		pos  []string
		f    string
		b    bool
	}{
		{[]string{"p.dl"}, []string{"p.dl"}, "", false},
		{[]string{"-F", "dir", "p.dl"}, []string{"p.dl"}, "dir", false},
		{[]string{"p.dl", "-F", "dir", "-naive"}, []string{"p.dl"}, "dir", true},
		{[]string{"a", "-naive", "b"}, []string{"a", "b"}, "", true},
		{[]string{"-naive", "--", "-F"}, []string{"-F"}, "", true},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := fs.String("F", "", "")
		b := fs.Bool("naive", false, "")
		pos, err := parseInterspersed(fs, c.args)
		require.NoError(t, err, c.args)
		require.Equal(t, c.pos, pos, c.args)
		require.Equal(t, c.f, *f, c.args)
		require.Equal(t, c.b, *b, c.args)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	_, err := parseInterspersed(fs, []string{"p.dl", "-nosuch"})
	require.Error(t, err)
}

// TestGCPercentAfterFirstCollection checks the collector's targets: the
// start target until the first collection, the steady one after it.
func TestGCPercentAfterFirstCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	current := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	defer debug.SetGCPercent(current())
	applyGCPercent()
	require.Equal(t, startGCPercent, current())
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for current() != gcPercent && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, gcPercent, current())
}
