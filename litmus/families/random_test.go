package families

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestRandom checks that random tests parse, stay within their shape, are
// the same for the same seed, and cover the instructions they promise.
func TestRandom(t *testing.T) {
	shape := RandomShape{Threads: 4, Locations: 3, Instrs: 5, CTAs: 2, Barriers: true, Sizes: true}
	ops := map[litmus.Op]bool{}
	branches, barriers, sized := 0, 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		src := Random(seed, shape)
		require.Equal(t, src, Random(seed, shape), "seed %d is not deterministic", seed)
		tc, err := litmus.ParseHerd("r.litmus", []byte(src))
		require.NoError(t, err, src)
		require.LessOrEqual(t, len(tc.Threads), shape.Threads)
		require.NotNil(t, tc.Condition)
		for _, th := range tc.Threads {
			for _, in := range th.Instrs {
				ops[in.Op] = true
				if strings.Contains(in.Text, ".u8 ") || strings.Contains(in.Text, ".u16 ") {
					sized++
				}
				switch in.Op {
				case litmus.OpBranch:
					branches++
				case litmus.OpBarrier:
					barriers++
				}
			}
		}
	}
	for _, op := range []litmus.Op{litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed, litmus.OpFence} {
		assert.True(t, ops[op], "no random test has op %v", op)
	}
	assert.Positive(t, branches)
	assert.Positive(t, barriers)
	assert.Positive(t, sized)
	assert.NotEqual(t, Random(1, shape), Random(2, shape))
}
