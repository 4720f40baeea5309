package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/serve"
)

// ServeConfig is what ptxmm serve was asked to do.
type ServeConfig struct {
	Addr string
	// ModelFile is the -model file the page starts with ("" for spec.dl).
	ModelFile string
	Server    serve.Config
}

// Serve runs the web page until ctx is done, and returns the exit status.
// It prints the address it listens on as "listening on http://HOST:PORT/".
func Serve(ctx context.Context, cfg ServeConfig, stdout, stderr io.Writer) int {
	if cfg.ModelFile != "" {
		m, err := modelSource(cfg.ModelFile, cfg.Server.IncludeDir)
		if err != nil {
			fmt.Fprintln(stderr, "ptxmm serve:", err)
			return ExitError
		}
		cfg.Server.Model = m
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "ptxmm serve: -addr %s: %v (expected HOST:PORT, such as 127.0.0.1:8080)\n", cfg.Addr, err)
		return ExitError
	}
	cfg.Server.CheckHost = isLoopback(host)
	s, err := serve.New(cfg.Server)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm serve:", Quoted(err))
		return ExitError
	}
	defer s.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm serve:", err)
		return ExitError
	}
	if !cfg.Server.CheckHost {
		fmt.Fprintf(stderr, "ptxmm serve: warning: %s is not a loopback address, so anyone who can reach this machine can use the page\n", cfg.Addr)
	}
	fmt.Fprintf(stdout, "ptxmm serve: listening on http://%s/ (Ctrl+C stops)\n", ln.Addr())
	// The requests' contexts end when the server stops, so that the
	// checks running stop with it instead of delaying the shutdown.
	base, stopRequests := context.WithCancel(context.Background())
	defer stopRequests()
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// A request may wait -queue-wait for a worker, then compute for
		// -timeout, before answering: the connection stays open for that
		// and more, so that every request gets its answer.
		WriteTimeout:   cfg.Server.QueueWait + cfg.Server.Options.Timeout + 30*time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		BaseContext:    func(net.Listener) context.Context { return base },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintln(stderr, "ptxmm serve:", err)
		return ExitError
	case <-ctx.Done():
	}
	stopRequests()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		fmt.Fprintln(stderr, "ptxmm serve: shutting down:", err)
		return ExitError
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "ptxmm serve:", err)
		return ExitError
	}
	return ExitOK
}

// isLoopback reports whether a listening host only accepts local
// connections.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// modelSource reads the -model file and names it the way the page and its
// includes will: by its path below -include-dir when it lies there, by its
// relative path when that stays below the current folder (so that
// variants/ptx-v6.0.dl still includes ../spec.dl), and by its base name
// otherwise.
func modelSource(file, includeDir string) (serve.ModelSource, error) {
	text, err := limits.ModelFile.ReadFile(file)
	if err != nil {
		return serve.ModelSource{}, fmt.Errorf("-model: %w", err)
	}
	name := filepath.Base(file)
	if includeDir != "" {
		dir, derr := filepath.Abs(includeDir)
		abs, ferr := filepath.Abs(file)
		if derr == nil && ferr == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
				name = rel
			}
		}
	} else if filepath.IsLocal(file) {
		name = filepath.Clean(file)
	}
	return serve.ModelSource{Name: filepath.ToSlash(name), Text: string(text)}, nil
}
