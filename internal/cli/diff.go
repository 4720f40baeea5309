package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// DiffConfig is what ptxmm diff was asked to do.
type DiffConfig struct {
	A, B         *checker.Model
	NameA, NameB string
	Options      checker.Options
	Workers      int
	Files        []string
}

// Diff runs ptxmm diff and returns the exit status: 0 when the models agree
// on every test, 1 when they differ somewhere, 2 on errors.
func Diff(cfg DiffConfig, stdout, stderr io.Writer) int {
	files, err := collectTests(cfg.Files, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm:", err)
		return ExitError
	}
	type diffItem struct {
		test *litmus.Test
		res  *checker.DiffResult
	}
	var items []*diffItem
	status := ExitOK
	for _, f := range files {
		tests, err := litmus.ParseFileLimits(f, parseLimits(cfg.Options))
		if err != nil {
			fmt.Fprintln(stderr, Quoted(err))
			status = ExitError
			continue
		}
		printWarnings(stderr, tests)
		for _, t := range tests {
			items = append(items, &diffItem{test: t})
		}
	}
	var tests []*litmus.Test
	for _, it := range items {
		tests = append(tests, it.test)
	}
	warnHostModel(stderr, cfg.A, tests)
	warnHostModel(stderr, cfg.B, tests)
	opts := sharedLimits(cfg.Options)
	// Each candidate is evaluated once for both models where they can be
	// paired (checker.DiffPair); the models are merged once for all tests.
	var pair *checker.Pair
	if len(items) > 0 {
		pair = checker.NewDiffPair(cfg.A, cfg.B)
	}
	parallel(len(items), workerCount(cfg.Workers, len(items)), func(i int) {
		items[i].res = checker.DiffPair(context.Background(), pair, items[i].test, opts)
	})
	differ := 0
	for _, it := range items {
		if it.res.Err != nil {
			fmt.Fprintf(stderr, "ptxmm: %s: %v\n", it.test.Name, it.res.Err)
			status = ExitError
			continue
		}
		if it.res.Differs() {
			differ++
			report.Diff(stdout, it.res, cfg.NameA, cfg.NameB)
		}
	}
	fmt.Fprintf(stdout, "%d of %d tests differ between %s and %s\n", differ, len(items), cfg.NameA, cfg.NameB)
	if status == ExitOK && differ > 0 {
		status = ExitMismatch
	}
	return status
}
