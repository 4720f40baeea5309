package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
)

// modelList collects repeated -model flags.
type modelList []string

func (m *modelList) String() string     { return strings.Join(*m, ",") }
func (m *modelList) Set(s string) error { *m = append(*m, s); return nil }

// load reads the two models to compare: the two given, or the embedded
// model and the one given. It returns their names, as the output calls
// them, and the models.
func (m modelList) load(mf *modelFlags) ([]string, []*checker.Model, error) {
	names := []string{"embedded spec.dl", m[0]}
	if len(m) == 2 {
		names = []string{m[0], m[1]}
	}
	var loaded []*checker.Model
	for _, n := range names {
		file := n
		if n == "embedded spec.dl" {
			file = ""
		}
		model, err := mf.load(file, os.Stderr)
		if err != nil {
			return nil, nil, err
		}
		loaded = append(loaded, model)
	}
	return names, loaded, nil
}

func runDiff(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return diffCommand(args, out) })
}

func diffCommand(args []string, out io.Writer) int {
	if wantsSynth(args) {
		return synthCommand(args, out)
	}
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	var models modelList
	fs.Var(&models, "model", "model `FILE` (.dl or .cat) to compare (give it twice; once compares with the embedded model)")
	mf := addModelFlags(fs)
	addLimitFlags(fs, &opts)
	workers := addWorkersFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm diff -model A.dl [-model B.dl] FILE|DIR...\n       ptxmm diff -synth -model A.dl [-model B.dl] [-events N]\n\nPrints the tests and outcomes on which two models disagree; with -synth,\nsearches for the smallest such tests (ptxmm diff -synth -h for its flags).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(opts.MaxMemory)
	if err := errors.Join(checkLimitFlags(opts), checkWorkers(*workers)); err != nil {
		fmt.Fprintf(os.Stderr, "ptxmm %s: %v\n", "diff", err)
		return cli.ExitError
	}
	applyWorkers(*workers)
	if len(models) == 0 || len(models) > 2 {
		fmt.Fprintln(os.Stderr, "ptxmm diff: give -model once (compared with the embedded model) or twice")
		return cli.ExitError
	}
	if len(pos) == 0 {
		fmt.Fprintln(os.Stderr, "ptxmm diff: no tests given: name .litmus or .test files, or directories")
		return cli.ExitError
	}
	names, loaded, err := models.load(mf)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	return cli.Diff(cli.DiffConfig{A: loaded[0], B: loaded[1], NameA: names[0], NameB: names[1], Options: opts, Workers: *workers, Files: pos}, out, os.Stderr)
}
