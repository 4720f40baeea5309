package relations

import "github.com/bits-and-blooms/bitset"

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
	words []uint64
}

// NewBlock returns a block of rels empty relations and sets empty sets over
// [0, n), and those relations and sets.
func NewBlock(n, rels, sets int) (*Block, []*Rel, []*Set) {
	w := wordsFor(n)
	b := &Block{words: make([]uint64, rels*n*w+sets*w)}
	words := b.words
	rs := make([]Rel, rels)
	outRels := make([]*Rel, rels)
	for k := range rs {
		r := &rs[k]
		r.n, r.w = n, w
		r.words = words[: n*w : n*w]
		words = words[n*w:]
		r.all = *bitset.FromWithLength(uint(n*w*64), r.words)
		outRels[k] = r
	}
	ss := make([]Set, sets)
	outSets := make([]*Set, sets)
	for k := range ss {
		s := &ss[k]
		s.n = n
		s.words = words[:w:w]
		words = words[w:]
		s.view = *bitset.FromWithLength(uint(n), s.words)
		outSets[k] = s
	}
	return b, outRels, outSets
}

// Clear empties every relation and set of the block.
func (b *Block) Clear() { clear(b.words) }
