// Command ptxmm checks PTX litmus tests against the PTX memory consistency
// model written as Datalog, evaluates standalone Datalog programs, and lets
// you explore a model. Run "ptxmm help" for the subcommands.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/ptxmm/ptxmm/internal/cli"
)

func main() {
	// internal/procstart (imported by flags.go) has applied a check's -j
	// and reserved a run's heap while the packages were initialized.
	applyGCPercent()
	os.Exit(run(os.Args[1:]))
}

const usage = `ptxmm: an executable PTX memory consistency model

Usage:
  ptxmm check [flags] FILE|DIR...   check litmus tests (.litmus, .test) against the model
                                    (-shard I/N: every N-th test, for batch engines; docs/scale.md)
  ptxmm merge [-table] LOG...       union herd logs (the shards' of a run): merged log, or a verdict table
  ptxmm diff -model A.dl [-model B.dl] FILE|DIR...
                                    show the tests and outcomes on which two models disagree
  ptxmm diff -synth -model A.dl [-model B.dl] [-events N] [-o DIR]
                                    search for the smallest tests on which two models disagree
  ptxmm gen -cycle 'PodWW Rfe PodRR Fre' | -family MP,SB | -relax EDGES [-o DIR]
                                    write litmus tests from cycles of edges, as diy7 does
  ptxmm repl [-model FILE] [TEST]   explore a test and the model interactively
  ptxmm graph TEST [-exec K | -outcome COND] [-show po,rf] [-o FILE.svg]
                                    draw an execution (Graphviz), a forbidden one with its witness
  ptxmm run [flags] FILE|DIR...     run litmus tests on an NVIDIA GPU and compare what it does with the model
                                    (litmus7's log; an alarm when the GPU does what the model forbids)
  ptxmm eval [flags] PROGRAM.dl     evaluate a standalone Datalog program
  ptxmm oracle [-model FILE]       answer JSON requests on stdin, one per line, for checkers in any language
                                    (evaluate an execution, check a litmus test; docs/embedding.md)
  ptxmm serve [-addr 127.0.0.1:8080] [-model FILE]
                                    a local web page to write a test, edit the model and step through executions
  ptxmm version                     show the version, commit and Go version of this binary
  ptxmm help                        show this help

Run "ptxmm COMMAND -h" for the flags of a command.
`

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:])
	case "diff":
		return runDiff(args[1:])
	case "merge":
		return runMerge(args[1:])
	case "gen":
		return runGen(args[1:])
	case "run":
		return runRun(args[1:])
	case "eval":
		return runEval(args[1:])
	case "graph":
		return runGraph(args[1:])
	case "repl":
		return runRepl(args[1:])
	case "serve":
		return runServe(args[1:])
	case "oracle":
		return runOracle(args[1:])
	case "version", "-version", "--version":
		return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return versionCommand(args[1:], out) })
	case "help", "-h", "-help", "--help":
		return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int {
			fmt.Fprint(out, usage)
			return cli.ExitOK
		})
	}
	fmt.Fprintf(os.Stderr, "ptxmm: unknown command %q\n\n%s", args[0], usage)
	return 2
}
