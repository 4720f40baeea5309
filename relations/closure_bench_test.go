package relations

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var benchSizes = []int{64, 256, 1024, 4096}

// benchGraphs builds the inputs once per size: a chain, the worst case for
// closure depth, and a random graph of out-degree 2 with a fixed seed,
// which condenses into one giant component plus a fringe.
func benchGraphs(n int) []namedRel {
	rng := rand.New(rand.NewPCG(42, uint64(n)))
	return []namedRel{
		{"chain", chainRel(n)},
		{"random", randOutDegree(rng, n, 2)},
	}
}

// BenchmarkClosure compares the SCC-based TransitiveClosure with the
// Warshall reference. Each iteration first restores the input with
// CopyFrom, n·ceil(n/64) words, so both operations carry the same small
// overhead.
func BenchmarkClosure(b *testing.B) {
	ops := []struct {
		name    string
		closure func(*Rel)
	}{
		{"scc", (*Rel).TransitiveClosure},
		{"warshall", WarshallClosure},
	}
	for _, op := range ops {
		for _, g := range []string{"chain", "random"} {
			for _, n := range benchSizes {
				var input *Rel
				for _, c := range benchGraphs(n) {
					if c.name == g {
						input = c.rel
					}
				}
				b.Run(fmt.Sprintf("op=%s/graph=%s/n=%d", op.name, g, n), func(b *testing.B) {
					r := NewRel(n)
					// A first closure outside the timed loop sets up the
					// scratch that TransitiveClosure keeps for reuse.
					r.CopyFrom(input)
					op.closure(r)
					b.ReportAllocs()
					for b.Loop() {
						r.CopyFrom(input)
						op.closure(r)
					}
				})
			}
		}
	}
}

// BenchmarkCompose measures a ; a into a preallocated destination for a
// sparse relation (out-degree 2) and a dense one (density 0.1).
func BenchmarkCompose(b *testing.B) {
	for _, n := range []int{256, 1024} {
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		dense, _ := randRel(rng, n, 0.1)
		inputs := []namedRel{
			{"outdeg2", randOutDegree(rng, n, 2)},
			{"density0.1", dense},
		}
		for _, in := range inputs {
			b.Run(fmt.Sprintf("graph=%s/n=%d", in.name, n), func(b *testing.B) {
				dst := NewRel(n)
				b.ReportAllocs()
				for b.Loop() {
					ComposeInto(dst, in.rel, in.rel)
				}
			})
		}
	}
}

// BenchmarkAcyclic compares the acyclicity test that builds a shortest
// cycle (Acyclic, which also allocates its working arrays) with the
// witness-free CycleTest, on a chain (acyclic), the chain closed into a
// ring (one long cycle), and the random graph (cyclic); and AcyclicFrom
// from the target of the one pair that closes the ring, as an order search
// tests a step.
func BenchmarkAcyclic(b *testing.B) {
	for _, n := range []int{64, 256, 1024} {
		ring := chainRel(n)
		ring.Add(n-1, 0)
		graphs := append(benchGraphs(n), namedRel{"ring", ring})
		for _, g := range graphs {
			b.Run(fmt.Sprintf("op=witness/graph=%s/n=%d", g.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					g.rel.Acyclic()
				}
			})
			b.Run(fmt.Sprintf("op=cycletest/graph=%s/n=%d", g.name, n), func(b *testing.B) {
				var ct CycleTest
				b.ReportAllocs()
				for b.Loop() {
					ct.Acyclic(g.rel)
				}
			})
		}
		b.Run(fmt.Sprintf("op=from-new-pair/graph=ring/n=%d", n), func(b *testing.B) {
			var ct CycleTest
			roots := NewSet(n)
			roots.Add(0)
			b.ReportAllocs()
			for b.Loop() {
				ct.AcyclicFrom(ring, roots)
			}
		})
	}
}

// BenchmarkSmallClosure compares, on the domains of litmus tests, the two
// ways TransitiveClosure closes a relation: Warshall's loop on one-word
// rows, and the condensation it uses above warshallMaxAtoms.
func BenchmarkSmallClosure(b *testing.B) {
	for _, n := range []int{8, 16, 32, 48, 64} {
		rng := rand.New(rand.NewPCG(42, uint64(n)))
		for _, g := range []namedRel{{"chain", chainRel(n)}, {"random", randOutDegree(rng, n, 2)}} {
			for _, op := range []string{"warshall-word", "condensation"} {
				b.Run(fmt.Sprintf("op=%s/graph=%s/n=%d", op, g.name, n), func(b *testing.B) {
					closure := (*Rel).closeCondensed
					if op == "warshall-word" {
						closure = (*Rel).closeOneWord
					}
					r := NewRel(n)
					closure(r) // sets up the scratch the condensation keeps
					for b.Loop() {
						r.CopyFrom(g.rel)
						closure(r)
					}
				})
			}
		}
	}
}
