package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
)

func runGraph(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return graphCommand(args, out) })
}

func graphCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	cfg := cli.GraphConfig{Options: checker.DefaultOptions()}
	model := fs.String("model", "", "model `FILE` (.dl or .cat) to use instead of the embedded PTX model")
	mf := addModelFlags(fs)
	fs.IntVar(&cfg.Exec, "exec", 0, "draw candidate execution `K` (numbered as ptxmm repl's :execs lists them)")
	fs.StringVar(&cfg.Outcome, "outcome", "", "draw an execution reaching this `CONDITION`, only its events and edges that explain it (without -show): a forbidden one with its witness, an allowed one with the synchronization it lacks")
	show := fs.String("show", "", "comma-separated `relations` to draw as edges (default po,rf,co,fr, with the API synchronization rules sync_stream, ..., sync_query in tests with host threads)")
	fs.StringVar(&cfg.Out, "o", "", "write to `FILE` (.dot, .svg or .png; .png needs Graphviz's dot, .svg is drawn by ptxmm itself when dot is missing or fails) instead of DOT on stdout")
	fs.IntVar(&cfg.Instance, "instance", 0, "template row `K` of a .test file")
	addLimitFlags(fs, &cfg.Options)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm graph TEST [-exec K | -outcome COND] [-show po,rf,co] [-o FILE.dot|.svg|.png]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(cfg.Options.MaxMemory)
	if err := checkLimitFlags(cfg.Options); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm graph:", err)
		return cli.ExitError
	}
	if cfg.Exec < 0 || cfg.Instance < 0 {
		fmt.Fprintln(os.Stderr, "ptxmm graph: -exec and -instance count from 1 (0: not given)")
		return cli.ExitError
	}
	if len(pos) != 1 {
		fmt.Fprintln(os.Stderr, "ptxmm graph: expected exactly one test file")
		return cli.ExitError
	}
	if cfg.Exec > 0 && cfg.Outcome != "" {
		fmt.Fprintln(os.Stderr, "ptxmm graph: give -exec or -outcome, not both")
		return cli.ExitError
	}
	cfg.Test = pos[0]
	for _, s := range strings.Split(*show, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Show = append(cfg.Show, s)
		}
	}
	m, err := mf.load(*model, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	cfg.Model = m
	return cli.Graph(cfg, out, os.Stderr)
}
