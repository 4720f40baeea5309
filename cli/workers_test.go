package cli

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ptxmm/ptxmm/checker"
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
