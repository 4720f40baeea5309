package ptxmm_test

import (
	"os"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// BenchmarkScale checks the sizes issue 12 sets targets for, three ways:
// "search" abandons the partial candidates the model rejects (the
// default, on one core), "search-j2" splits that search across two cores,
// and "full" builds every candidate and searches the orders of each from
// scratch (-full-search, the enumeration ptxmm had before), so that
// docs/benchmarks.md gives their ratios from one run; "speedcheck" checks
// only the executions that may decide the condition (-speedcheck true).
// The largest sizes, whose full enumeration takes minutes to hours, run
// "speedcheck" only, and the searches too with PTXMM_SCALE_ALL=1.
func BenchmarkScale(b *testing.B) {
	m := mustModel(b)
	all := os.Getenv("PTXMM_SCALE_ALL") != ""
	cases := []struct {
		name, src string
		full      bool // also time the full enumeration
		huge      bool // only with PTXMM_SCALE_ALL
	}{
		{"CoWR-5", families.CoWRThreads(5), true, false},
		{"CoWR-6", families.CoWRThreads(6), true, false},
		{"CoWR-7", families.CoWRThreads(7), false, true},
		{"CoWR-8", families.CoWRThreads(8), false, true},
		{"IRIW-6+fence.sc", families.IRIW(6), true, false},
		{"IRIW-7+fence.sc", families.IRIW(7), true, false},
		{"SB-ring-10+fence.sc", families.SBRing(10), true, false},
		{"SB-ring-12+fence.sc", families.SBRing(12), true, false},
		{"MP-14payloads", families.MPPayload(14), true, false},
		{"Stores-200", families.StoreColumn(200), true, false},
	}
	for _, c := range cases {
		tc := mustParse(b, c.name, c.src)
		modes := []string{"search", "search-j2", "speedcheck"}
		switch {
		case c.huge && !all:
			modes = []string{"speedcheck"}
		case c.full:
			modes = append(modes, "full")
		}
		for _, mode := range modes {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				opts := checker.DefaultOptions()
				opts.MaxCandidates, opts.Timeout = 0, 0
				switch mode {
				case "search-j2":
					// Two cores, one of them this goroutine's.
					opts.Cores = limits.NewCores(2)
					opts.Cores.TryTake()
				case "full":
					opts.FullSearch = true
				case "speedcheck":
					opts.OnlyDeciding = true
				}
				var cands, evaluated int
				for b.Loop() {
					r := m.Check(tc, opts)
					if r.Err != nil {
						b.Fatal(r.Err)
					}
					cands, evaluated = r.Candidates, r.Evaluated
				}
				b.ReportMetric(float64(cands), "candidates")
				b.ReportMetric(float64(evaluated), "evaluated")
			})
		}
	}
}
