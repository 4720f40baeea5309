package relations

import "math/bits"

// Inverse returns r⁻¹ = {(j, i) | (i, j) in r}.
func (r *Rel) Inverse() *Rel {
	dst := NewRel(r.n)
	InverseInto(dst, r)
	return dst
}

// InverseInto overwrites dst with r⁻¹. dst must not be r, since dst is
// cleared before r is read.
//
// The matrix is transposed in 64×64 bit tiles, so a dense relation costs
// about n²/64·6 word operations instead of one operation per pair; all-zero
// tiles are skipped, which keeps sparse relations cheap as well. A relation
// of one word per row (n <= 64) with few pairs is inverted pair by pair,
// and a denser one of up to 32 atoms in one 32×32 tile: a 64×64 tile
// transpose costs the same however few bits are set, and the litmus tests
// with loops unrolled (17 to 64 events) inverted their sparse relations
// through it.
func InverseInto(dst, r *Rel) {
	sameN("InverseInto", dst.n, r.n)
	dst.Clear()
	n, w := r.n, r.w
	if w == 1 && (n <= 16 || r.fewPairs()) {
		for i := 0; i < n; i++ {
			for m := r.words[i]; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				dst.words[j] |= 1 << uint(i)
			}
		}
		return
	}
	if n <= 32 {
		var tile [32]uint64
		copy(tile[:], r.words)
		transpose32(&tile)
		copy(dst.words, tile[:n])
		return
	}
	var tile [64]uint64
	for bi := 0; bi < w; bi++ {
		rowLo := bi << 6
		rowHi := min(rowLo+64, n)
		for bj := 0; bj < w; bj++ {
			var nonzero uint64
			for t := range tile {
				var x uint64
				if i := rowLo + t; i < rowHi {
					x = r.words[i*w+bj]
				}
				tile[t] = x
				nonzero |= x
			}
			if nonzero == 0 {
				continue
			}
			transpose64(&tile)
			colLo := bj << 6
			colHi := min(colLo+64, n)
			for t := 0; t < colHi-colLo; t++ {
				dst.words[(colLo+t)*w+bi] = tile[t]
			}
		}
	}
}

// fewPairs reports whether a relation of one word per row has so few
// pairs that inverting it pair by pair (a few instructions each) is
// cheaper than a tile transpose (about 400 instructions for 32×32).
func (r *Rel) fewPairs() bool {
	const most = 48
	c := 0
	for _, x := range r.words[:r.n] {
		c += bits.OnesCount64(x)
		if c > most {
			return false
		}
	}
	return true
}

// transpose32 transposes the 32×32 bit matrix in the low 32 bits of m's
// words, in place: row i's bit j becomes row j's bit i. It is
// transpose64's last five steps: on a 64×64 matrix whose rows and columns
// from 32 on are zero, the first step (which swaps the two off-diagonal
// 32×32 quadrants) has nothing to swap, and the others keep rows under 32
// among themselves.
func transpose32(m *[32]uint64) {
	masks := [5]uint64{
		0x0000ffff0000ffff,
		0x00ff00ff00ff00ff,
		0x0f0f0f0f0f0f0f0f,
		0x3333333333333333,
		0x5555555555555555,
	}
	s := uint(16)
	for _, mask := range masks {
		for i := 0; i < 32; i = (i + int(s) + 1) &^ int(s) {
			t := ((m[i] >> s) ^ m[i+int(s)]) & mask
			m[i] ^= t << s
			m[i+int(s)] ^= t
		}
		s >>= 1
	}
}

// transpose64 transposes a 64×64 bit matrix in place, where bit c of m[i] is
// entry (i, c). Each round swaps the off-diagonal sub-blocks of size s
// within every 2s×2s block; six rounds halve s from 32 down to 1.
func transpose64(m *[64]uint64) {
	masks := [6]uint64{
		0x00000000ffffffff,
		0x0000ffff0000ffff,
		0x00ff00ff00ff00ff,
		0x0f0f0f0f0f0f0f0f,
		0x3333333333333333,
		0x5555555555555555,
	}
	s := uint(32)
	for _, mask := range masks {
		for i := 0; i < 64; i = (i + int(s) + 1) &^ int(s) {
			t := ((m[i] >> s) ^ m[i+int(s)]) & mask
			m[i] ^= t << s
			m[i+int(s)] ^= t
		}
		s >>= 1
	}
}
