package relations

import (
	"math/rand/v2"
	"testing"
)

func TestRestrict(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d)
		s, sref := randSet(rng, n, 0.5)

		dom, domRef := r.Clone(), newRefRel(n)
		rng2, rngRef := r.Clone(), newRefRel(n)
		for p := range ref.pairs {
			if sref[p[0]] {
				domRef.pairs[p] = true
			}
			if sref[p[1]] {
				rngRef.pairs[p] = true
			}
		}
		dom.RestrictDomain(s)
		assertRel(t, domRef, dom)
		rng2.RestrictRange(s)
		assertRel(t, rngRef, rng2)
	})
}

func TestDomainRangeImage(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d*d) // sparser, so that some rows stay empty
		s, sref := randSet(rng, n, 0.3)

		domRef, ranRef, imgRef := refSet{}, refSet{}, refSet{}
		for p := range ref.pairs {
			domRef[p[0]] = true
			ranRef[p[1]] = true
			if sref[p[0]] {
				imgRef[p[1]] = true
			}
		}
		// Destinations start non-empty: the results must overwrite them.
		dst := FullSet(n)
		r.DomainInto(dst)
		assertSet(t, domRef, dst)
		dst = FullSet(n)
		r.RangeInto(dst)
		assertSet(t, ranRef, dst)
		dst = FullSet(n)
		ImageInto(dst, s, r)
		assertSet(t, imgRef, dst)
	})
}
