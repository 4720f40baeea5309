package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ptxmm/ptxmm/relations"
)

// The closure benchmarks compare four ways of computing e+ on the same
// graphs: the textbook Warshall loop (the hand-written reference), the
// SCC-based Rel.TransitiveClosure, and the Datalog program
//
//	tc(X,Y) :- e(X,Y).
//	tc(X,Y) :- tc(X,Z), e(Z,Y).
//
// evaluated semi-naively, by the closure operator, and naively. Each
// Datalog iteration invalidates the input and times Run alone: the program
// is compiled and the instance warmed up outside the loop.

const benchTCSrc = `
.decl e(x, y)
.input e
.decl tc(x, y)
tc(X, Y) :- e(X, Y).
tc(X, Y) :- tc(X, Z), e(Z, Y).
`

// benchTCLeftSrc is the same closure with the recursive atom on the
// right of its edge ("left-linear" in rules' tests), which semi-naive
// evaluation grows from the other end.
const benchTCLeftSrc = `
.decl e(x, y)
.input e
.decl tc(x, y)
tc(X, Y) :- e(X, Y).
tc(X, Y) :- e(X, Z), tc(Z, Y).
`

type benchMode struct {
	name string
	// maxN is the largest domain the mode runs on (0: no limit).
	maxN int
	run  func(b *testing.B, e *relations.Rel)
}

var closureBenchModes = []benchMode{
	{name: "warshall", run: benchRelOp(relations.WarshallClosure)},
	{name: "relop", run: benchRelOp((*relations.Rel).TransitiveClosure)},
	{name: "datalog-seminaive", run: benchDatalog(benchTCSrc, WithClosureOperator(false))},
	{name: "datalog-closure", run: benchDatalog(benchTCSrc, WithClosureOperator(true))},
	{name: "datalog-naive", maxN: 1024, run: benchDatalog(benchTCSrc, WithNaive(true))},
}

func benchRelOp(closure func(*relations.Rel)) func(*testing.B, *relations.Rel) {
	return func(b *testing.B, e *relations.Rel) {
		r := relations.NewRel(e.N())
		// A first closure outside the loop sets up the scratch space that
		// TransitiveClosure keeps for reuse.
		r.CopyFrom(e)
		closure(r)
		want := r.Len()
		b.ReportAllocs()
		for b.Loop() {
			r.CopyFrom(e)
			closure(r)
		}
		if r.Len() != want {
			b.Fatalf("closure changed between runs")
		}
	}
}

func benchDatalog(src string, opt CompileOption) func(*testing.B, *relations.Rel) {
	return func(b *testing.B, e *relations.Rel) {
		p := compileSrc(b, src, opt)
		in := benchInstance(b, p, e)
		in.Run()
		eID := p.byName["e"]
		want, _ := in.Size("tc")
		b.ReportAllocs()
		for b.Loop() {
			in.invalidate(eID)
			in.Run()
		}
		if got, _ := in.Size("tc"); got != want {
			b.Fatalf("tc has %d pairs, want %d", got, want)
		}
	}
}

func benchInstance(b *testing.B, p *Program, e *relations.Rel) *Instance {
	dom := NewDomain()
	for i := 0; i < e.N(); i++ {
		if _, err := dom.AddHost("v" + strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
	in := p.NewInstance(dom)
	if err := in.SetRel("e", e); err != nil {
		b.Fatal(err)
	}
	return in
}

// benchGraph builds a chain, the worst case for the number of semi-naive
// rounds, or a random graph of out-degree 2 with a fixed seed.
func benchGraph(kind string, n int) *relations.Rel {
	if kind == "chain" {
		return chainRel(n)
	}
	return randomRel(rand.New(rand.NewPCG(42, uint64(n))), n, 2)
}

func BenchmarkClosure(b *testing.B) {
	for _, g := range []string{"chain", "random"} {
		for _, n := range []int{64, 256, 1024, 4096} {
			e := benchGraph(g, n)
			for _, m := range closureBenchModes {
				if m.maxN > 0 && n > m.maxN {
					continue
				}
				b.Run(fmt.Sprintf("graph=%s/n=%d/mode=%s", g, n, m.name), func(b *testing.B) { m.run(b, e) })
			}
		}
	}
}

// BenchmarkChain2000 is the goal of the semi-naive work: on a chain of 2000
// atoms, semi-naive Datalog within 3x of Warshall and at least 10x faster
// than naive evaluation.
func BenchmarkChain2000(b *testing.B) {
	e := benchGraph("chain", 2000)
	// A fresh slice: appending to the shared mode table could write into
	// its backing array.
	modes := slices.Concat(closureBenchModes, []benchMode{
		{name: "datalog-seminaive-left-linear", run: benchDatalog(benchTCLeftSrc, WithClosureOperator(false))},
		{name: "datalog-closure-left-linear", run: benchDatalog(benchTCLeftSrc, WithClosureOperator(true))},
	})
	for _, m := range modes {
		b.Run("mode="+m.name, func(b *testing.B) { m.run(b, e) })
	}
}
