package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
)

func runCheck(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return checkCommand(args, out) })
}

func checkCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	model := fs.String("model", "", "model `FILE` (.dl, or a herd7 .cat model) to use instead of the embedded PTX model")
	fs.StringVar(model, "cat", "", "herd7's name for -model: the cat model `FILE`, found as herd7 finds it (-I, $HERDLIB, -set-libdir)")
	mf := addModelFlags(fs)
	jsonOut := fs.Bool("json", false, "print one JSON object per test instead of herd7's layout")
	expect := fs.String("expect", "", "compare verdicts with an expected-results `CSV` (FILE.csv or FILE.csv:COLUMN; paths relative to its folder; see docs/expected.md)")
	// -j is registered (its default read) and applied before the flags
	// whose set-up reads files (applyPlainWorkers).
	workers := addWorkersFlag(fs)
	applyPlainWorkers(args)
	addLimitFlags(fs, &opts)
	fs.BoolVar(&opts.Explain, "explain", false, "for each forbidden outcome, print the checks that reject it with a witness")
	shard := fs.String("shard", "", "check only shard `I/N` of the tests: every N-th, from the I-th (counted from 0); by default from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID when set (-shard 0/1: all; see docs/scale.md)")
	shardCount := fs.Int("shard-count", 0, "the number of shards `N` when the index comes from $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's .spec.completions)")
	herd := addHerdFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm check [flags] FILE|DIR|@LIST...\n\nFlags (-conf FILE reads herd7-style options from FILE):\n")
		fs.PrintDefaults()
	}
	args, err := expandHerdArgs(fs, args, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm check:", err)
		return cli.ExitError
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(opts.MaxMemory)
	if err := errors.Join(checkLimitFlags(opts), checkWorkers(*workers)); err != nil {
		fmt.Fprintf(os.Stderr, "ptxmm %s: %v\n", "check", err)
		return cli.ExitError
	}
	applyWorkers(*workers)
	cfg := cli.CheckConfig{Options: opts, JSON: *jsonOut, Expect: *expect, Workers: *workers, Files: pos}
	if cfg.Shard, err = cli.ResolveShard(*shard, *shardCount, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm check:", err)
		return cli.ExitError
	}
	adj, err := herd.apply(&cfg, mf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm check:", err)
		return cli.ExitError
	}
	switch {
	case herd.version:
		return versionCommand(nil, out)
	case herd.libdir:
		fmt.Fprintln(out, mf.searchedLibDir())
		return cli.ExitOK
	}
	if len(pos) == 0 {
		fmt.Fprintln(os.Stderr, "ptxmm check: no tests given: name .litmus or .test files, or directories")
		return cli.ExitError
	}
	m, err := mf.load(*model, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	if cfg.Model, err = m.Adjusted(adj); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm check:", cli.Quoted(err))
		return cli.ExitError
	}
	ctx, stop := interruptContext()
	defer stop()
	cfg.Context, cfg.Terminal, cfg.Quiet = ctx, stderrTerminal(), quiet(fs)
	return cli.Check(cfg, out, os.Stderr)
}
