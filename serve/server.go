package serve

import (
	"embed"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"runtime"
	"time"

	"github.com/dgraph-io/ristretto/v2"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
)

//go:embed static
var static embed.FS

// Config is what ptxmm serve was started with.
type Config struct {
	// Model is the model the page starts with; a zero Model is the
	// embedded spec.dl.
	Model ModelSource
	// IncludeDir, when set, is a folder whose .dl files submitted models
	// may include (besides the built-in spec.dl and variants/).
	IncludeDir string
	// Options are the limits every request runs under (candidates, time,
	// unrolling, runs per thread).
	Options checker.Options
	// MaxRequestBytes bounds a request body.
	MaxRequestBytes int64
	// MaxTestSize bounds the instructions plus memory locations of one
	// test, which bound its events and so the memory its relations take.
	MaxTestSize int
	// Workers bounds the requests computing at once; others wait.
	Workers int
	// CacheBytes bounds the result cache (estimated size of the kept
	// candidate executions); CacheModels the compiled-model cache.
	CacheBytes  int64
	CacheModels int64
	// AllowedHosts are the host names (besides localhost and loopback
	// addresses) the server answers to; nil accepts any Host header,
	// which is right only when the server is reachable from elsewhere on
	// purpose.
	AllowedHosts []string
	// ErrorLog receives the reports of internal errors (nil: the standard
	// logger).
	ErrorLog *log.Logger
	// CheckHost turns the Host check on (ptxmm serve does when it binds a
	// loopback address), so that a web page elsewhere cannot reach the
	// server through DNS rebinding.
	CheckHost bool
}

// DefaultMaxCandidates is the candidate bound of one request: the server
// keeps a run's candidates to list and draw them.
const DefaultMaxCandidates = 20_000

// DefaultMaxTestSize is the bound on instructions plus memory locations of
// one test: litmus tests have tens, and a thousand events keep every
// relation of spec.dl under a megabyte.
const DefaultMaxTestSize = 1000

// DefaultConfig returns the defaults of ptxmm serve.
func DefaultConfig() Config {
	o := checker.DefaultOptions()
	o.MaxCandidates = DefaultMaxCandidates
	o.Timeout = 10 * time.Second
	return Config{Options: o, MaxRequestBytes: 1 << 20, MaxTestSize: DefaultMaxTestSize, Workers: runtime.NumCPU(), CacheBytes: 256 << 20, CacheModels: 64}
}

// Server answers the page and the JSON API. It is safe for concurrent use.
type Server struct {
	cfg      Config
	includes *includeFS
	models   *loader.Cache[*compiled]
	runs     *ristretto.Cache[string, *runEntry]
	slots    chan struct{}
	mux      *http.ServeMux
}

// New checks the configuration, compiles the starting model (so that a
// broken -model fails at once) and returns a server.
func New(cfg Config) (*Server, error) {
	switch {
	case cfg.MaxRequestBytes < 1:
		return nil, fmt.Errorf("-max-request must be at least 1 byte, not %d", cfg.MaxRequestBytes)
	case cfg.MaxTestSize < 1:
		return nil, fmt.Errorf("-max-test-size must be at least 1, not %d", cfg.MaxTestSize)
	case cfg.Workers < 1:
		return nil, fmt.Errorf("-workers must be at least 1, not %d", cfg.Workers)
	case cfg.CacheBytes < 1:
		return nil, fmt.Errorf("-cache-mb must be at least 1")
	case cfg.CacheModels < 1:
		return nil, fmt.Errorf("the model cache must hold at least 1 model, not %d", cfg.CacheModels)
	case cfg.Options.MaxCandidates < 1:
		return nil, fmt.Errorf("-max-candidates must be at least 1 for ptxmm serve, not %d", cfg.Options.MaxCandidates)
	case cfg.Options.Timeout <= 0:
		return nil, fmt.Errorf("-timeout must be positive for ptxmm serve, not %s", cfg.Options.Timeout)
	}
	if cfg.ErrorLog == nil {
		cfg.ErrorLog = log.Default()
	}
	if cfg.Model.Name == "" {
		text, err := fs.ReadFile(ptxmm.LibraryFS(), ptxmm.DefaultModelName)
		if err != nil {
			return nil, err
		}
		cfg.Model = ModelSource{Name: ptxmm.DefaultModelName, Text: string(text)}
	}
	inc, err := newIncludeFS(ptxmm.LibraryFS(), cfg.IncludeDir)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, includes: inc, slots: make(chan struct{}, cfg.Workers)}
	s.models, err = loader.NewCache(cfg.CacheModels, newCompiled)
	if err != nil {
		inc.Close()
		return nil, err
	}
	// About one counter per kilobyte of budget: entries are tens of
	// kilobytes and more.
	s.runs, err = ristretto.NewCache(&ristretto.Config[string, *runEntry]{
		NumCounters: max(cfg.CacheBytes/1024, 1000), MaxCost: cfg.CacheBytes, BufferItems: 64, IgnoreInternalCost: true})
	if err != nil {
		s.models.Close()
		inc.Close()
		return nil, fmt.Errorf("result cache: %w", err)
	}
	if err := validateModel(cfg.Model, "-model"); err != nil {
		s.Close()
		return nil, err
	}
	if _, err := s.model(cfg.Model); err != nil {
		s.Close()
		return nil, fmt.Errorf("-model %s: %w", cfg.Model.Name, err)
	}
	s.routes()
	return s, nil
}

// Close releases the caches and the include folder.
func (s *Server) Close() {
	s.models.Close()
	s.runs.Close()
	s.includes.Close()
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.CheckHost && !s.hostAllowed(r.Host) {
		writeJSON(w, http.StatusMisdirectedRequest, ErrorResponse{Error: fmt.Sprintf(
			"host %q is not this server's: ptxmm serve answers requests for localhost (start it with -allow-host to add a name)", r.Host)})
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static")
	files := http.FileServerFS(page)
	mux.Handle("GET /{$}", files)
	mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	mux.HandleFunc("GET /api/library", s.handleLibrary)
	mux.HandleFunc("GET /api/file", s.handleFile)
	mux.HandleFunc("POST /api/run", post(s, s.handleRun))
	mux.HandleFunc("POST /api/execution", post(s, s.handleExec))
	mux.HandleFunc("POST /api/why", post(s, s.handleWhy))
	mux.HandleFunc("POST /api/query", post(s, s.handleQuery))
	mux.HandleFunc("POST /api/diff", post(s, s.handleDiff))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, ErrorResponse{Error: fmt.Sprintf("no API endpoint %s %s (docs/serve.md lists them)", r.Method, r.URL.Path)})
	})
	s.mux = mux
}
