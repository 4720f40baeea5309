package main

import (
	"errors"
	"flag"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// flagFailure is the exit status of a command whose flags did not parse:
// asking for help (-h, -help) is a success, as in Go's own tools; a bad
// flag is a usage error. The flag package has already printed the usage
// or the error.
func flagFailure(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	return cli.ExitError
}
