package oraclecases

import (
	"fmt"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// SeedsPerShape separates the seeds of a property test's shapes: shape s
// draws its cases from seeds base + s*SeedsPerShape on.
const SeedsPerShape = 1_000_000

// Random is one random test a property test draws.
type Random struct {
	Seed  uint64 // draws it again: families.Random(Seed, the shape)
	Shape int    // the index of its shape
	Src   string
	Test  *litmus.Test
}

// EachRandom draws n random tests of each shape (families.Random, seeded
// base + shape*SeedsPerShape + i, so that a failure's seed draws the same
// test again), parses each and calls f with it, shape by shape. A test
// the generator draws and the parser refuses fails tb.
func EachRandom(tb testing.TB, base uint64, n int, shapes []families.RandomShape, f func(Random)) {
	tb.Helper()
	for si, shape := range shapes {
		for i := range n {
			seed := base + uint64(si*SeedsPerShape+i)
			src := families.Random(seed, shape)
			tc, err := litmus.ParseHerd(fmt.Sprintf("random-%d.litmus", seed), []byte(src))
			if err != nil {
				tb.Fatalf("seed %d: the random test does not parse: %v\n%s", seed, err, src)
			}
			f(Random{Seed: seed, Shape: si, Src: src, Test: tc})
		}
	}
}
