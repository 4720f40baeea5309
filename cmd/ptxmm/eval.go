package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/limits"
)

func runEval(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return evalCommand(args, out) })
}

func evalCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	var cfg cli.EvalConfig
	fs.StringVar(&cfg.FactsDir, "F", "", "read each .input relation NAME from `DIR`/NAME.facts (tab-separated)")
	fs.StringVar(&cfg.OutDir, "D", ".", "write each .output relation NAME to `DIR`/NAME.csv, or to stdout with -D -")
	fs.BoolVar(&cfg.Naive, "naive", false, "use naive instead of semi-naive evaluation (for testing)")
	fs.DurationVar(&cfg.Timeout, "timeout", 5*time.Minute, "time the evaluation may take (0: no limit)")
	def, from := limits.DefaultMaxMemory()
	cfg.MaxMemory = def
	fs.Var(sizeFlag{&cfg.MaxMemory}, "max-memory", "`SIZE` of memory the relations may take, e.g. 8GiB or 512MB (0: no limit); the default is "+from)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm eval [flags] PROGRAM.dl\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(cfg.MaxMemory)
	if cfg.Timeout < 0 {
		fmt.Fprintf(os.Stderr, "ptxmm eval: -timeout %s: the time limit is at least 0 (0: no limit)\n", cfg.Timeout)
		return cli.ExitError
	}
	if len(pos) != 1 {
		fmt.Fprintln(os.Stderr, "ptxmm eval: expected exactly one program (PROGRAM.dl)")
		return cli.ExitError
	}
	cfg.Program = pos[0]
	return cli.Eval(cfg, out, os.Stderr)
}
