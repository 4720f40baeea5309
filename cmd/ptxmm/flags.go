package main

import (
	"flag"

	"github.com/ptxmm/ptxmm/checker"
)

// parseInterspersed parses flags that may come before or after the
// positional arguments, as in "ptxmm eval PROGRAM.dl -F DIR", and returns
// the positional arguments. "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// addLimitFlags registers the flags that bound the work on one test:
// every command that enumerates candidates takes them, because the limit
// errors name these flags as the way to raise the limit.
func addLimitFlags(fs *flag.FlagSet, opts *checker.Options) {
	fs.IntVar(&opts.Exec.Unroll, "unroll", opts.Exec.Unroll, "times a thread may take a backward branch before its run is cut")
	fs.IntVar(&opts.MaxCandidates, "max-candidates", opts.MaxCandidates, "candidate executions allowed per test")
	fs.IntVar(&opts.Exec.MaxRuns, "max-runs", opts.Exec.MaxRuns, "runs one thread may have")
	fs.DurationVar(&opts.Timeout, "timeout", opts.Timeout, "time allowed per test")
}
