package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ptxmm/ptxmm/cli"
)

func runEval(args []string) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	var cfg cli.EvalConfig
	fs.StringVar(&cfg.FactsDir, "F", "", "read each .input relation NAME from `DIR`/NAME.facts (tab-separated)")
	fs.StringVar(&cfg.OutDir, "D", ".", "write each .output relation NAME to `DIR`/NAME.csv, or to stdout with -D -")
	fs.BoolVar(&cfg.Naive, "naive", false, "use naive instead of semi-naive evaluation (for testing)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm eval [flags] PROGRAM.dl\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return cli.ExitError
	}
	if len(pos) != 1 {
		fmt.Fprintln(os.Stderr, "ptxmm eval: expected exactly one program (PROGRAM.dl)")
		return cli.ExitError
	}
	cfg.Program = pos[0]
	return cli.Eval(cfg, os.Stdout, os.Stderr)
}
