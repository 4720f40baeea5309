package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/cli"
)

func runCheck(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return checkCommand(args, out) })
}

func checkCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	model := fs.String("model", "", "model `FILE.dl` to use instead of the embedded PTX model")
	jsonOut := fs.Bool("json", false, "print one JSON object per test instead of herd7's layout")
	expect := fs.String("expect", "", "compare verdicts with an expected-results `CSV` (FILE.csv or FILE.csv:COLUMN; paths relative to its folder; see docs/expected.md)")
	addLimitFlags(fs, &opts)
	fs.BoolVar(&opts.Explain, "explain", false, "for each forbidden outcome, print the checks that reject it with a witness")
	workers := addWorkersFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm check [flags] FILE|DIR...\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return cli.ExitError
	}
	applyMemoryLimit(opts.MaxMemory)
	if err := errors.Join(checkLimitFlags(opts), checkWorkers(*workers)); err != nil {
		fmt.Fprintf(os.Stderr, "ptxmm %s: %v\n", "check", err)
		return cli.ExitError
	}
	if len(pos) == 0 {
		fmt.Fprintln(os.Stderr, "ptxmm check: no tests given: name .litmus or .test files, or directories")
		return cli.ExitError
	}
	m, err := loadModel(*model)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	return cli.Check(cli.CheckConfig{Model: m, Options: opts, JSON: *jsonOut, Expect: *expect, Workers: *workers, Files: pos}, out, os.Stderr)
}

// loadModel loads -model FILE, or the embedded model when file is empty.
func loadModel(file string) (*checker.Model, error) {
	var pm *ptxmm.Model
	var err error
	if file == "" {
		pm, err = ptxmm.DefaultModel()
	} else {
		pm, err = ptxmm.LoadModel(file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s", cli.Quoted(err))
	}
	m := pm.Checker()
	for _, w := range m.Warnings {
		fmt.Fprintln(os.Stderr, w.Quoted())
	}
	return m, nil
}
