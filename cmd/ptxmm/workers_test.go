package main

import (
	"flag"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestApplyWorkers: -j below the runtime's processors lowers GOMAXPROCS to
// it; -j at or above it, or GOMAXPROCS set in the environment, leaves the
// runtime as it is.
func TestApplyWorkers(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	cases := []struct {
		name string
		env  string
		j    int
		want int
	}{
		{"one test at a time", "", 1, 1},
		{"fewer workers", "", 3, 3},
		{"as many as processors", "", 4, 4},
		{"more than processors", "", 9, 4},
		{"below one is left to checkWorkers", "", 0, 4},
		{"the environment wins", "4", 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOMAXPROCS", c.env)
			runtime.GOMAXPROCS(4)
			applyWorkers(c.j)
			assert.Equal(t, c.want, runtime.GOMAXPROCS(0))
		})
	}
}

// TestPlainWorkers: the -j that applyPlainWorkers applies before the flags
// are set up is the one they parse, wherever it stands, and none where it
// is not given plainly.
func TestPlainWorkers(t *testing.T) {
	cases := []struct {
		args []string
		j    int
		ok   bool
	}{
		{[]string{"-j", "1", "dir"}, 1, true},
		{[]string{"dir", "-j=3"}, 3, true},
		{[]string{"--j", "2", "dir"}, 2, true},
		{[]string{"--j=4"}, 4, true},
		{[]string{"-j", "1", "dir", "-j", "2"}, 2, true},
		{[]string{"-j", "0x2"}, 2, true},
		{[]string{"dir"}, 0, false},
		{[]string{"-j"}, 0, false},
		{[]string{"-j", "many"}, 0, false},
		{[]string{"--", "-j", "1"}, 0, false},
		{[]string{"j", "1"}, 0, false},
		{[]string{"-jj", "1"}, 0, false},
		{[]string{"-json", "dir"}, 0, false},
	}
	for _, c := range cases {
		j, ok := plainWorkers(c.args)
		assert.Equal(t, c.ok, ok, "%q", c.args)
		assert.Equal(t, c.j, j, "%q", c.args)
		if !ok {
			continue
		}
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		workers := addWorkersFlag(fs)
		_, err := parseInterspersed(fs, c.args)
		assert.NoError(t, err, "%q", c.args)
		assert.Equal(t, *workers, j, "%q: the flags parse the same -j", c.args)
	}
}
