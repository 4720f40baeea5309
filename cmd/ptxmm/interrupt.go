package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// interruptContext is cancelled by the first Ctrl-C (SIGINT) or SIGTERM,
// so that a run can stop and leave a valid partial log. The first signal
// also gives the signals back their default action: a second Ctrl-C ends
// the process at once, for a user who will not wait even for that.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// stderrTerminal describes standard error when it is a terminal, for the
// progress and summary lines, and is nil otherwise (a file, a pipe, CI).
func stderrTerminal() *cli.Terminal {
	fd := int(os.Stderr.Fd())
	if !term.IsTerminal(fd) {
		return nil
	}
	width, _, err := term.GetSize(fd)
	if err != nil {
		width = 0
	}
	return &cli.Terminal{Width: width}
}

// addQuietFlag registers -q (herd7's "quiet"), which leaves the progress
// line out, unless the herd options already define it; quiet reads it.
func addQuietFlag(fs *flag.FlagSet) {
	if fs.Lookup("q") == nil {
		fs.Bool("q", false, "quiet: no progress line on standard error while the tests are checked")
	}
}

// quiet reports whether -q was given.
func quiet(fs *flag.FlagSet) bool {
	f := fs.Lookup("q")
	return f != nil && f.Value.String() == "true"
}
