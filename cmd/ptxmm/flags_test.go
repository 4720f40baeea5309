package main

import (
	"flag"
	"io"
	"testing"

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
