package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ptxmm/ptxmm/internal/cli"
)

func runMerge(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return mergeCommand(args, out) })
}

func mergeCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	table := fs.Bool("table", false, "print a verdict table (one test per row) and the totals instead of the merged log")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: ptxmm merge [-table] LOG...

Unions herd logs (of ptxmm check -shard, ptxmm check or herd7; - reads
standard input) into one log sorted by test name, as msum7 does: a test in
two logs is a duplicate when the results agree, a conflict when they do
not; the shards of a run must all be there, each log whole. Exit status: 0
merged, 1 conflicts, shards missing, twice or cut short, or an empty log, 2
a log cannot be read or is no herd log.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	return cli.Merge(cli.MergeConfig{Logs: pos, Table: *table, Stdin: os.Stdin}, out, os.Stderr)
}
