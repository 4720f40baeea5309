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
// tiles are skipped, which keeps sparse relations cheap as well.
func InverseInto(dst, r *Rel) {
	sameN("InverseInto", dst.n, r.n)
	dst.Clear()
	n, w := r.n, r.w
	if n <= 16 {
		// A 64x64 tile transpose costs the same however few bits are set;
		// small relations are cheaper bit by bit.
		for i := 0; i < n; i++ {
			for m := r.words[i]; m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				dst.words[j] |= 1 << uint(i)
			}
		}
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
