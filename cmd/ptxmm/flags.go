package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/procstart"
	"github.com/ptxmm/ptxmm/limits"
)

// parseInterspersed parses flags that may come before or after the
// positional arguments, as in "ptxmm eval PROGRAM.dl -F DIR", and returns
// the positional arguments. "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// addLimitFlags registers the flags that bound the work on one test:
// every command that enumerates candidates takes them, because the limit
// errors name these flags as the way to raise the limit.
func addLimitFlags(fs *flag.FlagSet, opts *checker.Options) {
	fs.IntVar(&opts.Exec.Unroll, "unroll", opts.Exec.Unroll, "times a thread may take a backward branch before its run is cut")
	fs.IntVar(&opts.MaxCandidates, "max-candidates", opts.MaxCandidates, "candidate executions allowed per test")
	fs.IntVar(&opts.Exec.MaxRuns, "max-runs", opts.Exec.MaxRuns, "runs one thread may have")
	fs.IntVar(&opts.Exec.MaxSteps, "max-instructions", opts.Exec.MaxSteps, "instructions one run of a thread may execute")
	fs.Var(timeoutFlag{&opts.Timeout}, "timeout", "time allowed per test: seconds, as herd7 takes it (10, 2.5), or a Go duration (10s, 1m30s); 0: no limit")
	fs.BoolVar(&opts.FullSearch, "full-search", opts.FullSearch, "build every candidate execution and search the orders of each from scratch, instead of abandoning the choices the model already rejects (same results, slower; to compare against)")
	def, from := limits.DefaultMaxMemory()
	opts.MaxMemory = def
	fs.Var(sizeFlag{&opts.MaxMemory}, "max-memory", "`SIZE` of memory the tests checked at once may take for their relations, e.g. 8GiB or 512MB (0: no limit); the default is "+from)
}

// timeoutFlag is a time limit: a number of seconds, as herd7's -timeout
// takes it, or a Go duration.
type timeoutFlag struct{ v *time.Duration }

func (f timeoutFlag) String() string {
	if f.v == nil {
		return ""
	}
	return f.v.String()
}

func (f timeoutFlag) Set(s string) error {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(secs) || math.IsInf(secs, 0) || secs > math.MaxInt64/float64(time.Second) {
			return fmt.Errorf("%q is not a time: write seconds (10, 2.5) or a duration (10s, 1m30s)", s)
		}
		*f.v = time.Duration(secs * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a time: write seconds (10, 2.5) or a duration (10s, 1m30s)", s)
	}
	*f.v = d
	return nil
}

// sizeFlag is a flag holding a memory size (limits.ParseSize).
type sizeFlag struct{ v *int64 }

func (f sizeFlag) String() string {
	if f.v == nil {
		return ""
	}
	return limits.FormatSize(*f.v)
}

func (f sizeFlag) Set(s string) error {
	v, err := limits.ParseSize(s)
	if err != nil {
		return err
	}
	*f.v = v
	return nil
}

// checkLimitFlags rejects values of the limit flags that cannot mean
// anything: a negative bound, or a bound of runs per thread that no test
// can meet. 0 means "no limit" where the flag's help says so.
func checkLimitFlags(opts checker.Options) error {
	switch {
	case opts.Exec.Unroll < 0:
		return fmt.Errorf("-unroll %d: the unrolling bound is at least 0 (0: no backward branch is taken)", opts.Exec.Unroll)
	case opts.MaxCandidates < 0:
		return fmt.Errorf("-max-candidates %d: the bound is at least 0 (0: no limit)", opts.MaxCandidates)
	case opts.Exec.MaxRuns < 1:
		return fmt.Errorf("-max-runs %d: a thread has at least one run, so the bound is at least 1", opts.Exec.MaxRuns)
	case opts.Exec.MaxSteps < 1:
		return fmt.Errorf("-max-instructions %d: the bound is at least 1", opts.Exec.MaxSteps)
	case opts.Timeout < 0:
		return fmt.Errorf("-timeout %s: the time limit is at least 0 (0: no limit)", opts.Timeout)
	}
	return nil
}

// addWorkersFlag registers -j, the number of tests checked in parallel.
func addWorkersFlag(fs *flag.FlagSet) *int {
	return fs.Int("j", runtime.GOMAXPROCS(0), "tests checked in parallel (at least 1; never more than there are tests); below the CPUs, also the Go runtime's processors (GOMAXPROCS, unless set)")
}

// checkWorkers rejects a -j below 1.
func checkWorkers(j int) error {
	if j < 1 {
		return fmt.Errorf("-j %d: at least one test must be checked at a time (the default is one per CPU, %d here)", j, runtime.GOMAXPROCS(0))
	}
	return nil
}

// applyPlainWorkers applies -j before the other flags are set up, when
// args give it plainly (procstart.Plain): setting them up reads files
// (-max-memory's default reads the machine's memory), a goroutine back
// from such a read may run on another processor than before, and the
// memory that processor then holds is torn down when -j lowers the
// processors after parsing (docs/benchmarks.md, "Fifteenth round"). For
// ptxmm check as the process's command, procstart has already applied it
// while the packages were initialized; this is for check run otherwise
// (tests). The flags' own -j is applied after parsing as before.
func applyPlainWorkers(args []string) {
	if j, ok := plainWorkers(args); ok {
		applyWorkers(j)
	}
}

// plainWorkers returns the last -j that args give plainly, N read as the
// flag package reads an int.
func plainWorkers(args []string) (int, bool) {
	return procstart.Plain(args, func(s string) (int, bool) {
		n, err := strconv.ParseInt(s, 0, strconv.IntSize)
		return int(n), err == nil
	})
}

// applyWorkers holds the Go runtime to j processors (procstart.Apply).
func applyWorkers(j int) { procstart.Apply(j) }

// applyMemoryLimit makes the Go runtime hold the process near -max-memory:
// its soft limit (GOMEMLIMIT) is set a quarter above what the relations
// may take, plus room for the model and the tests themselves, so that the
// garbage collector runs before the heap doubles past the limit, as it
// otherwise may. An explicit GOMEMLIMIT in the environment wins.
func applyMemoryLimit(limit int64) {
	if limit <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit + limit/4 + 256<<20)
}

// gcPercent is the collector's target (GOGC) the command line runs with:
// a run of small tests allocates a few kilobytes per test over a live
// heap of a few megabytes (the model, the instances kept for the next
// test), which the default of 100 collects every few tests. At 400 the
// 243-test suite takes 16% fewer instructions and one tiny test 26% fewer,
// for a peak a tenth higher (docs/benchmarks.md); the soft memory limit
// still holds the heap near -max-memory.
const gcPercent = 400

// startGCPercent is the target until the first collection: the runtime's
// first goal is its 4 MB minimum heap scaled by the target, 40 MB here
// instead of 16 MB, which a run of small tests (the 243-test suite
// allocates about 20 MB in all) never reaches: it then collects nothing,
// which spares it 8% of its instructions (docs/benchmarks.md). After the
// first collection the target is gcPercent, so that a big test's peak is
// what it was.
const startGCPercent = 1000

// applyGCPercent sets startGCPercent, and gcPercent once the collector has
// run (a cleanup of an object nothing references runs after the first
// collection), unless GOGC is set in the environment.
func applyGCPercent() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(startGCPercent)
	runtime.AddCleanup(new(gcSentinel), func(int) { debug.SetGCPercent(gcPercent) }, 0)
}

// gcSentinel is the object whose cleanup marks the first collection; it
// holds a pointer so that the allocator does not pack it with others
// (cleanups of tiny objects may never run).
type gcSentinel struct{ _ *int }
