package serve

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBigResultsKeepSmallOnes: a stream of big results, each a tenth of
// the budget, never evicts a small result, which stays readable however
// rarely it is read.
func TestBigResultsKeepSmallOnes(t *testing.T) {
	const budget = 64 << 20
	c, err := newResultCache(budget)
	require.NoError(t, err)
	defer c.Close()
	small := &runEntry{}
	c.Set("small", small, 100<<10)
	for i := 0; i < 200; i++ {
		c.Set(fmt.Sprintf("big %d", i), &runEntry{}, budget/10)
	}
	got, ok := c.Get("small")
	require.True(t, ok, "the small result was evicted by big ones")
	assert.Same(t, small, got)
	_, ok = c.Get("big 199")
	assert.True(t, ok, "the last big result is kept")
}

// TestTinyBudgetKeepsResults: with a budget too small for a small cache
// of use, results still go to the large one.
func TestTinyBudgetKeepsResults(t *testing.T) {
	c, err := newResultCache(768 << 10)
	require.NoError(t, err)
	defer c.Close()
	e := &runEntry{}
	c.Set("mp", e, 110<<10)
	got, ok := c.Get("mp")
	require.True(t, ok)
	assert.Same(t, e, got)
}
