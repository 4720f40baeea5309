package ptxmm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
	"github.com/ptxmm/ptxmm/rules"
)

func mustModel(b *testing.B) *checker.Model { return defaultChecker(b) }

// defaultChecker loads the embedded model for the tests that drive the
// checker itself.
func defaultChecker(tb testing.TB) *checker.Model {
	tb.Helper()
	return checkerModel(tb, loader.Source{Name: ptxmm.DefaultModelName, FS: ptxmm.DefaultModelFS()})
}

// checkerModel loads a model for the tests that drive the checker itself.
func checkerModel(tb testing.TB, src loader.Source) *checker.Model {
	tb.Helper()
	m, err := loader.Load(src, loader.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m.Model
}

func mustParse(b *testing.B, name, src string) *litmus.Test {
	b.Helper()
	t, err := litmus.ParseHerd(name+".litmus", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkFamilies checks the shapes where brute-force enumeration
// explodes (docs/benchmarks.md compares them with herd7).
func BenchmarkFamilies(b *testing.B) {
	m := mustModel(b)
	cases := []struct{ name, src string }{
		{"IRIW-4W+fence.sc", families.IRIW(4)},
		{"SB-ring-6+fence.sc", families.SBRing(6)},
		{"CoWR-5threads", families.CoWRThreads(5)},
		{"MP-10payloads", families.MPPayload(10)},
	}
	for _, c := range cases {
		tc := mustParse(b, c.name, c.src)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var cands int
			for b.Loop() {
				r := m.Check(tc, checker.DefaultOptions())
				if r.Err != nil {
					b.Fatal(r.Err)
				}
				cands = r.Candidates
			}
			b.ReportMetric(float64(cands), "candidates")
		})
	}
}

// corpusTests parses every test of the shared conformance corpora.
func corpusTests(b *testing.B) []*litmus.Test {
	b.Helper()
	root := filepath.Join("..", "shared", "conformance")
	if _, err := os.Stat(root); err != nil {
		b.Skipf("shared conformance corpus not found at %s", root)
	}
	var tests []*litmus.Test
	for _, dir := range []string{"dat3m", "nvlabs"} {
		tests = append(tests, testcorpus.Tree(b, filepath.Join(root, dir), ".litmus", ".test")...)
	}
	return tests
}

// BenchmarkCorpus checks every dat3m test and every nvlabs instance once per
// iteration, on one core (the command line uses every core).
func BenchmarkCorpus(b *testing.B) {
	checkEach(b, corpusTests(b))
}

// checkEach checks every test once per iteration, on one core, with the
// model compiled once, and reports the tests and candidates.
func checkEach(b *testing.B, tests []*litmus.Test) {
	m := mustModel(b)
	b.ReportAllocs()
	var cands int
	for b.Loop() {
		cands = 0
		for _, t := range tests {
			r := m.Check(t, checker.DefaultOptions())
			if r.Err != nil {
				b.Fatal(r.Err)
			}
			cands += r.Candidates
		}
	}
	b.ReportMetric(float64(len(tests)), "tests")
	b.ReportMetric(float64(cands), "candidates")
}

// BenchmarkEvaluate measures one evaluation of spec.dl (every stratum, the
// checks and the order search) on one candidate of an MP-sized test, and
// the relational work of that evaluation replayed without the bookkeeping
// of the strata and the search: "rules-only" evaluates the same rules'
// plans through the evaluator, "ops-only" makes their bit-matrix
// operations with package relations alone, from a flat list of operations
// with their operands resolved once (rules.RuleTrace.ReplayOps): the
// reference of issue 33's target, the evaluation within 3 times it.
func BenchmarkEvaluate(b *testing.B) {
	m := mustModel(b)
	for _, c := range []struct{ name, src string }{
		{"MP", families.MPPayload(1)},
		{"SB+fence.sc", families.SBRing(2)},
	} {
		tc := mustParse(b, c.name, c.src)
		a, err := execution.Prepare(tc, execution.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		var x *execution.Execution
		if _, err := a.Enumerate(0, func(e *execution.Execution) bool { x = e.Clone(); return false }); err != nil {
			b.Fatal(err)
		}
		dom := rules.NewDomain()
		for i := range x.Events {
			dom.Intern(rules.Value{Kind: rules.KindHost, Str: x.Label(i)})
		}
		inst := m.Program.NewInstance(dom)
		f := fill.New(m.Syntax)
		if err := f.Fill(inst, x); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				inst.Invalidate()
				inst.Solve()
			}
			b.ReportMetric(float64(len(x.Events)), "events")
		})
		// The same evaluation's relational work alone: its rules' plans
		// and closures, replayed without the bookkeeping around them.
		inst.Invalidate()
		trace := inst.TraceRules(func() { inst.Solve() })
		b.Run("rules-only/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				trace.Replay()
			}
			b.ReportMetric(float64(trace.Rules()), "rules")
		})
		// And that work as bare operations of package relations.
		b.Run("ops-only/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				trace.ReplayOps()
			}
			b.ReportMetric(float64(trace.Ops()), "ops")
		})
	}
}
