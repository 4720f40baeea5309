package main

import (
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
