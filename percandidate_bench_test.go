package ptxmm_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// perCandidateTests are representative tests from small to large: classic
// shapes, asynchronous idioms (mbarriers, TMA rings, cp.async) and
// tcgen05 pipelines (docs/benchmarks.md, "Cost per candidate").
var perCandidateTests = []string{
	"examples/MP.litmus",
	"examples/IRIW+fence.sc.litmus",
	"examples/tcgen05/Pipelined-same-thread.litmus",
	"examples/tcgen05/Composed-two-mbarriers.litmus",
	"examples/idioms/MBarrier-init-fence.litmus",
	"examples/idioms/TMA-load-wait-consume.litmus",
	"examples/idioms/CpAsync-double-buffer.litmus",
	"examples/idioms/SplitK-semaphore-4.litmus",
	"examples/idioms/TMA-ring-2x3.litmus",
	"testdata/idioms/GridBarrier-4.litmus",
	"testdata/idioms/TMA-ring-4x2.litmus",
}

// BenchmarkPerCandidate checks each of perCandidateTests and reports, next
// to the time per check, the events of its largest candidate (initial
// writes included), its candidates (herd's count, which includes the
// completions of partial candidates the model rejects without building
// them), the candidates evaluated one by one, and the CPU time per
// candidate and per evaluated candidate: CPU time from getrusage, which a
// loaded machine inflates far less than wall time.
func BenchmarkPerCandidate(b *testing.B) {
	m := mustModel(b)
	for _, file := range perCandidateTests {
		t := parseOne(b, file)
		b.Run(filepath.Base(file), func(b *testing.B) {
			events := largestCandidate(b, t)
			var r *checker.Result
			start := cpuTime()
			for b.Loop() {
				r = m.Check(t, checker.DefaultOptions())
				if r.Err != nil {
					b.Fatal(r.Err)
				}
			}
			cpu := float64(cpuTime()-start) / float64(b.N)
			b.ReportMetric(float64(events), "events")
			b.ReportMetric(float64(r.Candidates), "candidates")
			b.ReportMetric(float64(r.Evaluated), "evaluated")
			b.ReportMetric(cpu/1e3/float64(max(r.Candidates, 1)), "cpu-µs/candidate")
			b.ReportMetric(cpu/1e3/float64(max(r.Evaluated, 1)), "cpu-µs/evaluated")
		})
	}
}

// parseOne reads a file of one test.
func parseOne(b *testing.B, file string) *litmus.Test {
	b.Helper()
	ts, err := litmus.ParseFile(file)
	if err != nil {
		b.Fatal(err)
	}
	if len(ts) != 1 {
		b.Fatalf("%s: %d tests, want 1", file, len(ts))
	}
	return ts[0]
}

// largestCandidate is the number of events of t's largest candidate: its
// initial writes and the longest run of each thread, as the checker's
// default options explore them (failed await iterations left out).
func largestCandidate(b *testing.B, t *litmus.Test) int {
	b.Helper()
	opts := checker.DefaultOptions().Exec
	opts.SpinReduction = true
	a, err := execution.Prepare(t, opts)
	if err != nil {
		b.Fatal(err)
	}
	return a.MaxEvents()
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
