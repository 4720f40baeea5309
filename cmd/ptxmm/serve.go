package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/serve"
)

// hostList collects repeated -allow-host flags.
type hostList []string

func (h *hostList) String() string     { return strings.Join(*h, ",") }
func (h *hostList) Set(s string) error { *h = append(*h, s); return nil }

func runServe(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := cli.ServeConfig{Server: serve.DefaultConfig()}
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "`HOST:PORT` to listen on; a non-loopback address makes the page reachable from other machines")
	fs.StringVar(&cfg.ModelFile, "model", "", "model `FILE.dl` the page starts with instead of the embedded PTX model")
	fs.StringVar(&cfg.Server.IncludeDir, "include-dir", "", "`DIR` whose .dl files submitted models may .include (default: only the built-in spec.dl and variants/)")
	fs.Int64Var(&cfg.Server.MaxRequestBytes, "max-request", cfg.Server.MaxRequestBytes, "largest request body in `bytes`")
	fs.IntVar(&cfg.Server.MaxTestSize, "max-test-size", cfg.Server.MaxTestSize, "instructions plus memory locations one test may have (bounds the memory of its relations)")
	fs.IntVar(&cfg.Server.Workers, "workers", cfg.Server.Workers, "checks running at once (compiling a model, checking a test); cached answers and single executions need none")
	fs.DurationVar(&cfg.Server.QueueWait, "queue-wait", cfg.Server.QueueWait, "how long a request may wait for a checking worker before it is answered 503 (try again)")
	fs.IntVar(&cfg.Server.MaxQueue, "max-queue", cfg.Server.MaxQueue, "requests that may wait for a checking worker at once; more are answered 503 at once")
	cacheMB := fs.Int64("cache-mb", cfg.Server.CacheBytes>>20, "memory of the caches (compiled models and results) in `MiB`, counted by the estimated size of each entry")
	var hosts hostList
	fs.Var(&hosts, "allow-host", "host `NAME` the page may be reached by besides localhost (repeatable)")
	addLimitFlags(fs, &cfg.Server.Options)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm serve [-addr 127.0.0.1:8080] [-model FILE] [-include-dir DIR]\n\n"+
			"Serves a web page to write a litmus test, edit the model, and step through the executions.\n"+
			"Every request runs under the limits below (-max-candidates, -timeout, ...).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(os.Stderr, "ptxmm serve: unexpected argument %q (the page loads tests itself)\n", pos[0])
		return cli.ExitError
	}
	if err := checkLimitFlags(cfg.Server.Options); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm serve:", err)
		return cli.ExitError
	}
	// -max-memory bounds the whole server: its caches and the requests
	// (serve.Config.MaxMemory), and the Go runtime collects garbage
	// before the heap passes it.
	cfg.Server.MaxMemory = cfg.Server.Options.MaxMemory
	if cfg.Server.MaxMemory > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serve.RuntimeMemoryLimit(cfg.Server.MaxMemory))
	}
	if *cacheMB < 1 {
		fmt.Fprintf(os.Stderr, "ptxmm serve: -cache-mb must be at least 1, not %d\n", *cacheMB)
		return cli.ExitError
	}
	cfg.Server.CacheBytes = *cacheMB << 20
	cfg.Server.AllowedHosts = hosts
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Serve(ctx, cfg, os.Stdout, os.Stderr)
}
