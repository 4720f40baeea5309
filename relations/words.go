package relations

// wordsFor returns how many 64-bit words hold n bits.
func wordsFor(n int) int {
	return (n + 63) >> 6
}

// tailMask is the mask of valid bits in the last word of an n-bit row; the
// bits above it must stay zero so that counts and comparisons can work on
// whole words.
func tailMask(n int) uint64 {
	if n&63 == 0 {
		return ^uint64(0)
	}
	return uint64(1)<<(uint(n)&63) - 1
}

// orWords sets dst |= src. Reslicing src lets the compiler drop bounds
// checks in the loop, which matters in the composition inner loop.
func orWords(dst, src []uint64) {
	src = src[:len(dst)]
	for k, x := range src {
		dst[k] |= x
	}
}

// orWordsChanged sets dst |= src and reports whether any bit was new. The
// change is accumulated without branches to keep the loop tight; ranging
// over dst with src resliced to its length lets the compiler drop the
// bounds checks of both.
func orWordsChanged(dst, src []uint64) bool {
	src = src[:len(dst)]
	var fresh uint64
	for k, d := range dst {
		x := src[k]
		fresh |= x &^ d
		dst[k] = d | x
	}
	return fresh != 0
}

// zeroWords reports whether every word of ws is zero. It is small enough
// to be inlined where bitset's None is a call: emptiness is the
// evaluator's most frequent question.
func zeroWords(ws []uint64) bool {
	for _, w := range ws {
		if w != 0 {
			return false
		}
	}
	return true
}

// fillOnes sets the first n bits of ws and clears the rest.
func fillOnes(ws []uint64, n int) {
	for k := range ws {
		ws[k] = ^uint64(0)
	}
	if len(ws) > 0 {
		ws[len(ws)-1] &= tailMask(n)
	}
}
