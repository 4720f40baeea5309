package relations

import "math/bits"

// ComposeInto overwrites dst with a ; b = {(i, k) | (i, j) in a, (j, k) in b}.
// dst must not be a or b, since it is cleared before they are read. It does
// not allocate.
//
// Row i of the result is the union of the rows of b selected by row i of a,
// so the cost is one word-wide row union per pair of a rather than a test
// of every (i, k) candidate.
func ComposeInto(dst, a, b *Rel) {
	sameN("ComposeInto", dst.n, a.n)
	sameN("ComposeInto", a.n, b.n)
	w := a.w
	if w == 1 {
		// A row is one word (a litmus test's domain): the row of the
		// result is built in a register and stored once.
		bw := b.words[:a.n]
		for i, x := range a.words {
			var row uint64
			for ; x != 0; x &= x - 1 {
				row |= bw[bits.TrailingZeros64(x)]
			}
			dst.words[i] = row
		}
		return
	}
	dst.Clear()
	for i := 0; i < a.n; i++ {
		drow := dst.row(i)
		for k, x := range a.row(i) {
			for x != 0 {
				j := k<<6 + bits.TrailingZeros64(x)
				x &= x - 1
				orWords(drow, b.words[j*w:(j+1)*w])
			}
		}
	}
}

// ComposeUnionInto sets dst |= a ; b and reports whether dst changed. It is
// the semi-naive step: deriving new facts into an accumulator without
// materialising a ; b. dst must not be a or b, since rows of dst are
// updated while a and b are still being read. It does not allocate.
func ComposeUnionInto(dst, a, b *Rel) bool {
	sameN("ComposeUnionInto", dst.n, a.n)
	sameN("ComposeUnionInto", a.n, b.n)
	w := a.w
	if w == 1 {
		bw := b.words[:a.n]
		var fresh uint64
		for i, x := range a.words {
			var row uint64
			for ; x != 0; x &= x - 1 {
				row |= bw[bits.TrailingZeros64(x)]
			}
			d := dst.words[i]
			fresh |= row &^ d
			dst.words[i] = d | row
		}
		return fresh != 0
	}
	var changed bool
	for i := 0; i < a.n; i++ {
		drow := dst.row(i)
		for k, x := range a.row(i) {
			for x != 0 {
				j := k<<6 + bits.TrailingZeros64(x)
				x &= x - 1
				if orWordsChanged(drow, b.words[j*w:(j+1)*w]) {
					changed = true
				}
			}
		}
	}
	return changed
}
