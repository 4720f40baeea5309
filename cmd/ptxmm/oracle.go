package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/internal/oracle"
)

func runOracle(args []string) int {
	fs := flag.NewFlagSet("oracle", flag.ContinueOnError)
	opts := checker.DefaultOptions()
	model := fs.String("model", "", "model `FILE` (.dl or .cat) to answer for instead of the embedded PTX model")
	mf := addModelFlags(fs)
	addLimitFlags(fs, &opts)
	maxRequest := fs.Int("max-request", oracle.DefaultMaxRequest, "largest request line in `bytes`; a longer one is answered with an error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm oracle [-model FILE] [flags]\n\n"+
			"Answers requests about the model, one JSON object per line on standard input, each with one\n"+
			"JSON line on standard output: evaluate an execution (\"execution\" or \"build\"), check a litmus\n"+
			"test (\"litmus\"), or describe the model ({\"op\":\"model\"}). docs/embedding.md has the protocol.\n"+
			"A bad request is answered with {\"error\": ...}; the process ends when standard input does.\n"+
			"Every request runs under the limits below (-timeout, -max-memory, ...).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(os.Stderr, "ptxmm oracle: unexpected argument %q (requests come on standard input)\n", pos[0])
		return cli.ExitError
	}
	if err := checkLimitFlags(opts); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm oracle:", err)
		return cli.ExitError
	}
	if *maxRequest < 1 {
		fmt.Fprintf(os.Stderr, "ptxmm oracle: -max-request must be at least 1 byte, not %d\n", *maxRequest)
		return cli.ExitError
	}
	applyMemoryLimit(opts.MaxMemory)
	m, err := mf.embedded(*model, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	o := oracle.New(m, ptxmm.Option(func(o *checker.Options) { *o = opts }))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := o.Serve(ctx, os.Stdin, os.Stdout, *maxRequest); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "ptxmm oracle:", err)
		return cli.ExitError
	}
	return cli.ExitOK
}
