package rules

import "math/bits"

// strataBits is a set of strata (the dirty ones, a stratum's ancestors, the
// needed ones) as bits, so that the scans the evaluation makes after every
// change (which dirty strata does this relation depend on, which needed
// ones are dirty) cost a word per 64 strata: the PTX model has hundreds.
type strataBits []uint64

func newStrataBits(n int) strataBits { return make(strataBits, (n+63)/64) }

func (b strataBits) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b strataBits) set(i int) { b[i>>6] |= 1 << (uint(i) & 63) }

func (b strataBits) unset(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// setAll adds the strata 0 to n-1.
func (b strataBits) setAll(n int) {
	for k := 0; k < n>>6; k++ {
		b[k] = ^uint64(0)
	}
	if r := n & 63; r != 0 {
		b[n>>6] |= 1<<uint(r) - 1
	}
}

// nextIn returns the smallest stratum at or after from that is in b and in
// mask (nil: every stratum), or -1.
func (b strataBits) nextIn(mask strataBits, from int) int {
	for k := from >> 6; k < len(b); k++ {
		w := b[k]
		if mask != nil {
			w &= mask[k]
		}
		if k == from>>6 {
			w &^= 1<<(uint(from)&63) - 1
		}
		if w != 0 {
			return k<<6 + bits.TrailingZeros64(w)
		}
	}
	return -1
}
