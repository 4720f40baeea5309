package oraclecases

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus/families"
)

// TestEachRandom: each shape draws n tests from its own run of seeds, in
// order, and each case is the parsed test its seed draws, so that a
// failure's seed gives the test back.
func TestEachRandom(t *testing.T) {
	shapes := []families.RandomShape{
		{Threads: 2, Locations: 2, Instrs: 3, CTAs: 1},
		{Threads: 3, Locations: 1, Instrs: 2, CTAs: 2, Spins: true},
	}
	var seeds []uint64
	var perShape [2]int
	EachRandom(t, 7_000_000, 3, shapes, func(c Random) {
		seeds = append(seeds, c.Seed)
		perShape[c.Shape]++
		assert.Equal(t, families.Random(c.Seed, shapes[c.Shape]), c.Src)
		require.NotNil(t, c.Test)
		assert.NotEmpty(t, c.Test.Threads)
	})
	assert.Equal(t, []uint64{7_000_000, 7_000_001, 7_000_002, 8_000_000, 8_000_001, 8_000_002}, seeds)
	assert.Equal(t, [2]int{3, 3}, perShape)
}
