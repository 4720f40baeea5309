package relations

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestComposeInto(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		a, aref := randRel(rng, n, d)
		b, bref := randRel(rng, n, 0.1)
		dst, _ := randRel(rng, n, 0.5) // stale contents must be overwritten
		ComposeInto(dst, a, b)
		assertRel(t, refCompose(aref, bref), dst)

		ComposeInto(dst, b, a)
		assertRel(t, refCompose(bref, aref), dst)
	})
}

func TestComposeUnionInto(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		a, aref := randRel(rng, n, d)
		b, bref := randRel(rng, n, 0.1)
		dst, dref := randRel(rng, n, 0.05)

		want := refCompose(aref, bref)
		grew := false
		for p := range want.pairs {
			if !dref.pairs[p] {
				grew = true
			}
			dref.pairs[p] = true
		}
		assert.Equal(t, grew, ComposeUnionInto(dst, a, b))
		assertRel(t, dref, dst)
		assert.False(t, ComposeUnionInto(dst, a, b), "second round derives nothing new")
		assertRel(t, dref, dst)
	})
}

func TestInverse(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, ref := randRel(rng, n, d)
		want := refInverse(ref)
		assertRel(t, want, r.Inverse())

		dst, _ := randRel(rng, n, 0.5)
		InverseInto(dst, r)
		assertRel(t, want, dst)
		assertRel(t, ref, r) // the source is untouched
	})
}

// TestInverseEachPath covers the three ways InverseInto inverts a
// relation of one word per row (pair by pair when it has few pairs, a
// 32×32 tile, a 64×64 tile) at the sizes and pair counts around their
// limits.
func TestInverseEachPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{17, 31, 32, 33, 48, 64} {
		for _, pairs := range []int{1, 47, 48, 49, 200} {
			r, ref := NewRel(n), newRefRel(n)
			for r.Len() < min(pairs, n*n) {
				i, j := rng.IntN(n), rng.IntN(n)
				r.Add(i, j)
				ref.add(i, j)
			}
			dst, _ := randRel(rng, n, 0.5)
			InverseInto(dst, r)
			assertRel(t, refInverse(ref), dst)
		}
	}
}

func TestTranspose32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var m, orig [32]uint64
	for i := range m {
		m[i] = rng.Uint64() & 0xffffffff
	}
	orig = m
	transpose32(&m)
	for i := range 32 {
		assert.Zero(t, m[i]>>32, "row %d", i)
		for j := range 32 {
			assert.Equal(t, orig[i]>>j&1, m[j]>>i&1, "entry (%d,%d)", i, j)
		}
	}
}

func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var m, orig [64]uint64
	for i := range m {
		m[i] = rng.Uint64()
	}
	orig = m
	transpose64(&m)
	for i := range 64 {
		for j := range 64 {
			assert.Equal(t, orig[i]>>j&1, m[j]>>i&1, "entry (%d,%d)", i, j)
		}
	}
}
