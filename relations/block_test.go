package relations

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlock fills the relations and sets of a block at random next to ones
// made by NewRel and NewSet: each must hold what its twin holds (pairs,
// rows, counts), none may touch its neighbours' words, and Clear must
// empty them all.
func TestBlock(t *testing.T) {
	for _, tc := range []struct{ n, rels, sets int }{
		{0, 2, 2},
		{1, 3, 1},
		{5, 4, 3},
		{63, 2, 2},
		{64, 3, 3},
		{65, 2, 4},
		{130, 2, 2},
		{9, 0, 3},
		{9, 3, 0},
		{2100, 10, 3}, // 554 KB a relation: in more than one array
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.rels*10+tc.sets)))
		b, rs, ss := NewBlock(tc.n, tc.rels, tc.sets)
		assert.Equal(t, tc.n == 2100, len(b.chunks) > 1, "n=%d: %d arrays", tc.n, len(b.chunks))
		require.Len(t, rs, tc.rels)
		require.Len(t, ss, tc.sets)
		twinRels := make([]*Rel, tc.rels)
		for k := range twinRels {
			twinRels[k] = NewRel(tc.n)
		}
		twinSets := make([]*Set, tc.sets)
		for k := range twinSets {
			twinSets[k] = NewSet(tc.n)
		}
		for round := 0; round < 2; round++ {
			if tc.n > 0 {
				for range 4 * tc.n {
					k, i, j := rng.IntN(max(tc.rels, 1)), rng.IntN(tc.n), rng.IntN(tc.n)
					if tc.rels > 0 {
						rs[k].Add(i, j)
						twinRels[k].Add(i, j)
					}
					if tc.sets > 0 {
						ss[k%tc.sets].Add(i)
						twinSets[k%tc.sets].Add(i)
					}
				}
				if tc.rels > 0 {
					// A row view writes through to its relation only.
					rs[0].Row(tc.n - 1).Set(0)
					twinRels[0].Add(tc.n-1, 0)
				}
			}
			for k, r := range rs {
				assert.Equal(t, tc.n, r.N())
				assert.True(t, r.Equal(twinRels[k]), "n=%d rel %d round %d: %v against %v", tc.n, k, round, r, twinRels[k])
				assert.Equal(t, twinRels[k].Len(), r.Len())
				for i := 0; i < tc.n; i++ {
					assert.True(t, r.Row(i).Equal(twinRels[k].Row(i)), "n=%d rel %d row %d", tc.n, k, i)
				}
			}
			for k, s := range ss {
				assert.Equal(t, tc.n, s.N())
				assert.True(t, s.Equal(twinSets[k]), "n=%d set %d round %d", tc.n, k, round)
				assert.Equal(t, twinSets[k].Len(), s.Len())
			}
			b.Clear()
			for _, r := range twinRels {
				r.Clear()
			}
			for _, s := range twinSets {
				s.Clear()
			}
			for _, r := range rs {
				assert.True(t, r.IsEmpty())
			}
			for _, s := range ss {
				assert.True(t, s.IsEmpty())
			}
		}
	}
}

// TestNextInRow compares nextInRow, which cycle tests and strongly
// connected components read rows with, against the row view's NextSet on
// random relations of one, two and three words a row, from every start.
func TestNextInRow(t *testing.T) {
	for _, n := range []int{1, 7, 64, 65, 130} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		r := NewRel(n)
		for range 3 * n {
			r.Add(rng.IntN(n), rng.IntN(n))
		}
		for i := range n {
			for from := uint(0); from <= uint(n)+1; from++ {
				wantJ, wantOK := r.Row(i).NextSet(from)
				gotJ, gotOK := r.nextInRow(i, from)
				require.Equal(t, wantOK, gotOK, "n=%d row %d from %d", n, i, from)
				if wantOK {
					require.Equal(t, wantJ, gotJ, "n=%d row %d from %d", n, i, from)
				}
			}
		}
	}
}

// doneAfter is a context whose Err reports it done from the limit-th look
// on.
type doneAfter struct {
	context.Context
	looks, limit int
}

func (c *doneAfter) Err() error {
	c.looks++
	if c.looks >= c.limit {
		return context.Canceled
	}
	return nil
}

// TestNewBlockContext: the relations of a candidate of 10,000 events (2.5
// GB) are made in parts, and making them stops at the first look at a
// context that is done, having allocated the parts made before; a small
// block is one array, made after one look.
func TestNewBlockContext(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx := &doneAfter{Context: context.Background(), limit: 3}
	b, rs, ss, err := NewBlockContext(ctx, 10_000, 200, 100)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, b)
	assert.Nil(t, rs)
	assert.Nil(t, ss)
	assert.Equal(t, 3, ctx.looks)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "two relations of 12.5 MB, not 200")

	ctx = &doneAfter{Context: context.Background(), limit: 2}
	b, rs, ss, err = NewBlockContext(ctx, 20, 200, 100)
	require.NoError(t, err)
	assert.Len(t, b.chunks, 1)
	assert.Len(t, rs, 200)
	assert.Len(t, ss, 100)
	assert.Equal(t, 1, ctx.looks)
	require.NoError(t, b.ClearContext(&doneAfter{Context: context.Background(), limit: 1}), "one array: cleared without a look")

	b, _, _ = NewBlock(2100, 10, 0)
	require.Greater(t, len(b.chunks), 1)
	require.ErrorIs(t, b.ClearContext(&doneAfter{Context: context.Background(), limit: 1}), context.Canceled)
	require.NoError(t, b.ClearContext(context.Background()))
}
