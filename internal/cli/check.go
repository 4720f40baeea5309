package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// Exit statuses of ptxmm check.
const (
	ExitOK       = 0 // everything was checked, whatever the verdicts
	ExitMismatch = 1 // an -expect comparison failed
	ExitError    = 2 // unreadable input, model errors, or a test that could not be checked
	// ExitInterrupted is the status after Ctrl-C or SIGTERM (128 + SIGINT,
	// as shells report a command stopped by Ctrl-C): the log holds the
	// tests that were finished.
	ExitInterrupted = 130
)

// CheckConfig is what ptxmm check was asked to do.
type CheckConfig struct {
	Model   *checker.Model
	Options checker.Options
	JSON    bool
	Expect  string // path of an expected-results CSV, or ""
	Workers int
	Files   []string
	// Log configures the herd log.
	Log report.LogOptions
	// Pictures asks for herd-style pictures of selected executions.
	Pictures Pictures
	// Kinds is a file of expected kinds to compare with (-expect-kinds),
	// or "".
	Kinds string
	// Select chooses and rewrites the tests (herd7's -names, -kinds, ...);
	// nil keeps them all.
	Select *Selection
	// BadFlag makes a test that raises this flag Undef (herd7's -badflag).
	BadFlag string
	// StopOnError ends the run at the first test that cannot be checked
	// (herd7's -exit true).
	StopOnError bool
	// Shard is the part of the run to check (-shard), or the zero Shard
	// for all of it.
	Shard Shard
	// Context, when set, stops the run when it is cancelled (Ctrl-C,
	// SIGTERM): the tests finished by then are printed, the others are
	// named on stderr, and Check returns ExitInterrupted.
	Context context.Context
	// Terminal describes standard error when it is a terminal: a progress
	// line is kept there while the run goes on (unless Quiet), and a
	// summary line ends the run. Nil when it is not a terminal.
	Terminal *Terminal
	// Quiet (-q) leaves the progress line out.
	Quiet bool
}

// item is one test (or a file that failed to parse) in output order.
type item struct {
	file string
	test *litmus.Test
	err  error
	res  *checker.Result
	// parsed is the time parsing its file took (unit.parsed).
	parsed time.Duration
	// candidates counts the candidate executions built so far, for the
	// progress line; skipped is set when the run was interrupted before
	// the test was started.
	candidates atomic.Int64
	skipped    bool
}

// Check runs ptxmm check and returns the exit status.
func Check(cfg CheckConfig, stdout, stderr io.Writer) int {
	files, err := collectTests(cfg.Files, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm:", err)
		return ExitError
	}
	plan := planRun(files, cfg.Shard, cfg.Shard.Enabled() && cfg.Kinds != "", parseLimits(cfg.Options), cfg.Select, stderr)
	items := plan.items(cfg.Shard)
	if cfg.Shard.Enabled() {
		fmt.Fprintf(stderr, "ptxmm: shard %d/%d from %s: %d of the run's %d tests\n",
			cfg.Shard.Index, cfg.Shard.Count, cfg.Shard.Source, len(items), len(plan.units))
		if !cfg.JSON {
			fmt.Fprintln(stdout, plan.header(cfg.Shard, items).Header())
		}
	}
	warnDuplicateNames(items, stderr)
	var tests []*litmus.Test
	for _, it := range items {
		tests = append(tests, it.test)
	}
	warnHostModel(stderr, cfg.Model, tests)
	workers := workerCount(cfg.Workers, len(items))
	if cfg.Pictures.Mode != ShowNone {
		if err := os.MkdirAll(cfg.Pictures.Dir, 0o755); err != nil {
			fmt.Fprintf(stderr, "ptxmm: -o %s: %v\n", cfg.Pictures.Dir, err)
			return ExitError
		}
		files := make([]string, len(items))
		for i, it := range items {
			files[i] = it.file
		}
		cfg.Pictures.assignFiles(tests, files, stderr)
	}
	opts := sharedCores(sharedLimits(cfg.Options), cfg.Workers)
	run := newStream(cfg, items, stdout, stderr)
	status, results := run.run(func(ctx context.Context, it *item, o checker.Options) {
		if cfg.Pictures.Mode == ShowNone {
			it.res = cfg.Model.CheckContext(ctx, it.test, o)
		} else {
			it.res, it.err = checkWithPictures(ctx, cfg.Model, it.test, o, cfg.Pictures)
		}
		applyBadFlag(it.res, cfg.BadFlag)
	}, opts, workers)
	if run.interrupted() {
		run.reportUnfinished()
		if cfg.Expect != "" || cfg.Kinds != "" {
			fmt.Fprintln(stderr, "ptxmm: the comparison with the expected results was not made: the run was interrupted")
		}
		return ExitInterrupted
	}
	defer run.summarize()
	if cfg.Expect != "" {
		exp, err := report.ReadExpected(cfg.Expect)
		if err != nil {
			fmt.Fprintln(stderr, "ptxmm:", err)
			return ExitError
		}
		if cfg.Shard.Enabled() {
			plan.limitExpected(exp, cfg.Shard)
		}
		passed, failed := report.Compare(stdout, exp, results)
		fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
		if failed > 0 && status == ExitOK {
			status = ExitMismatch
		}
	}
	if cfg.Kinds != "" {
		kinds, err := report.ReadKinds(cfg.Kinds)
		if err != nil {
			fmt.Fprintln(stderr, "ptxmm:", err)
			return ExitError
		}
		passed, failed, missing := report.CompareKinds(stdout, kinds, results)
		for _, name := range plan.limitMissingKinds(missing, cfg.Shard) {
			fmt.Fprintf(stderr, "ptxmm: warning: -expect-kinds %s names %s, which no test of the run has\n", cfg.Kinds, name)
		}
		fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
		if failed > 0 && status == ExitOK {
			status = ExitMismatch
		}
	}
	return status
}

// parallel runs f(0..n-1) on a pool of workers.
func parallel(n, workers int, f func(int)) { parallelOn(nil, n, workers, f) }

// parallelOn is parallel with each worker holding one of the cores while
// it has work: the cores left free are for the searches (sharedCores).
func parallelOn(cores *limits.Cores, n, workers int, f func(int)) {
	// The indices are queued before the workers start: a worker takes
	// the next without waiting for another goroutine to hand it over
	// (a wake-up of an idle core per test, which costs a small test
	// more than its check).
	work := make(chan int, n)
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		held := cores.TryTake()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if held {
				defer cores.Give()
			}
			for i := range work {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// Quoted prints an error, with source lines when it carries them.
func Quoted(err error) string {
	type quoter interface{ Quoted() string }
	if q, ok := err.(quoter); ok {
		return q.Quoted()
	}
	return err.Error()
}
