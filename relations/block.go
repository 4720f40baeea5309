package relations

import (
	"context"

	"github.com/bits-and-blooms/bitset"
)

// Block keeps many relations and sets over one domain in one backing
// array. An evaluator holds a few hundred small relations per domain size
// (one per relation of its program) and empties them all between tests:
// made one by one, each costs three allocations and each emptying a call,
// where a block costs a handful of allocations in all and one pass over
// memory.
// A block's relation makes its row views (Rel.Row) at the first call, where
// NewRel makes them at once: most of an evaluator's relations are never
// read row by row, and their views took four times their words. So unlike
// NewRel's, a block's relations must not be read from several goroutines
// at once. They are ordinary relations in every other way.
type Block struct {
	// chunks are the backing arrays: one, unless the relations are big
	// (blockChunkWords).
	chunks [][]uint64
}

// blockChunkWords bounds the words of one backing array of a block whose
// relations are big, rounded up to a relation's: NewBlockContext looks at
// its context between arrays. The first touch of fresh memory costs a page
// fault per 4 KiB (17 µs on some virtual machines), and the relations of
// a candidate of 10,000 events take 2.7 GB: made in one array, they kept a
// deadline waiting for seconds.
const blockChunkWords = 1 << 19 // 4 MiB

// NewBlock returns a block of rels empty relations and sets empty sets over
// [0, n), and those relations and sets.
func NewBlock(n, rels, sets int) (*Block, []*Rel, []*Set) {
	b, rs, ss, _ := NewBlockContext(context.Background(), n, rels, sets)
	return b, rs, ss
}

// NewBlockContext is NewBlock under a context: a block of big relations
// is allocated in parts, and ctx is looked at before each; once it is done,
// NewBlockContext returns its error.
func NewBlockContext(ctx context.Context, n, rels, sets int) (*Block, []*Rel, []*Set, error) {
	w := wordsFor(n)
	b := &Block{}
	left := rels*n*w + sets*w // the words not handed out yet
	var words []uint64        // what is left of the last array
	take := func(k int) ([]uint64, error) {
		if len(words) < k {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			words = make([]uint64, min(max(k, blockChunkWords), left))
			b.chunks = append(b.chunks, words)
		}
		out := words[:k:k]
		words, left = words[k:], left-k
		return out, nil
	}
	rs := make([]Rel, rels)
	outRels := make([]*Rel, rels)
	for k := range rs {
		r := &rs[k]
		r.n, r.w = n, w
		ws, err := take(n * w)
		if err != nil {
			return nil, nil, nil, err
		}
		r.words = ws
		r.all = *bitset.FromWithLength(uint(n*w*64), r.words)
		outRels[k] = r
	}
	ss := make([]Set, sets)
	outSets := make([]*Set, sets)
	for k := range ss {
		s := &ss[k]
		s.n = n
		ws, err := take(w)
		if err != nil {
			return nil, nil, nil, err
		}
		s.words = ws
		s.view = *bitset.FromWithLength(uint(n), s.words)
		outSets[k] = s
	}
	return b, outRels, outSets, nil
}

// Clear empties every relation and set of the block.
func (b *Block) Clear() {
	for _, c := range b.chunks {
		clear(c)
	}
}

// ClearContext is Clear under a context, looked at before each backing
// array: once ctx is done it returns its error, and the block's relations
// are left partly emptied.
func (b *Block) ClearContext(ctx context.Context) error {
	for _, c := range b.chunks {
		if len(b.chunks) > 1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		clear(c)
	}
	return nil
}
