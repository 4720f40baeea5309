package relations

import "math/bits"

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
// change is accumulated without branches to keep the loop tight.
func orWordsChanged(dst, src []uint64) bool {
	src = src[:len(dst)]
	var fresh uint64
	for k, x := range src {
		d := dst[k]
		fresh |= x &^ d
		dst[k] = d | x
	}
	return fresh != 0
}

// popcount counts the set bits of ws.
func popcount(ws []uint64) int {
	c := 0
	for _, x := range ws {
		c += bits.OnesCount64(x)
	}
	return c
}

// allZero reports whether ws has no set bit.
func allZero(ws []uint64) bool {
	for _, x := range ws {
		if x != 0 {
			return false
		}
	}
	return true
}

// equalWords reports whether a and b hold the same bits; callers guarantee
// equal lengths.
func equalWords(a, b []uint64) bool {
	b = b[:len(a)]
	for k, x := range a {
		if b[k] != x {
			return false
		}
	}
	return true
}

// nextSet returns the first set bit of ws at or after pos, or -1. It lets
// the iterative DFS resume a row scan where it left off without keeping an
// iterator per stack frame.
func nextSet(ws []uint64, pos int) int {
	k := pos >> 6
	if k >= len(ws) {
		return -1
	}
	x := ws[k] >> (uint(pos) & 63)
	if x != 0 {
		return pos + bits.TrailingZeros64(x)
	}
	for k++; k < len(ws); k++ {
		if ws[k] != 0 {
			return k<<6 + bits.TrailingZeros64(ws[k])
		}
	}
	return -1
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
