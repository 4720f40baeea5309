package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/repl"
)

func runRepl(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return replCommand(args, out) })
}

func replCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("repl", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	model := fs.String("model", "", "model `FILE` (.dl or .cat) to use instead of the embedded PTX model (:reload re-reads it)")
	mf := addModelFlags(fs)
	// The session keeps every candidate in memory to list and select them,
	// so its default bound is lower than check's.
	opts.MaxCandidates = repl.DefaultMaxCandidates
	addLimitFlags(fs, &opts)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm repl [-model FILE] [TEST [K]]\n\nAn interactive session over a litmus test and the model; :help inside lists the commands.\nWith a non-terminal input it runs the input's lines as a script.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(opts.MaxMemory)
	if err := checkLimitFlags(opts); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm repl:", err)
		return cli.ExitError
	}
	src, err := mf.replSource(*model)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm repl:", err)
		return cli.ExitError
	}
	s, err := repl.New(src, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, cli.Quoted(err))
		return cli.ExitError
	}
	switch len(pos) {
	case 0:
	case 1, 2:
		k := 0
		if len(pos) == 2 {
			if k, err = strconv.Atoi(pos[1]); err != nil || k < 1 {
				fmt.Fprintf(os.Stderr, "ptxmm repl: instance must be a number from 1, not %q\n", pos[1])
				return cli.ExitError
			}
		}
		if err := s.LoadTest(pos[0], k); err != nil {
			fmt.Fprintln(os.Stderr, cli.Quoted(err))
			return cli.ExitError
		}
	default:
		fmt.Fprintln(os.Stderr, "ptxmm repl: expected at most one test (and an instance number)")
		return cli.ExitError
	}
	if err := repl.Run(s, os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm repl:", err)
		return cli.ExitError
	}
	return cli.ExitOK
}
