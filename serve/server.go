package serve

import (
	"embed"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/limits"
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
	// unrolling, runs per thread). Their MaxMemory and Budget are set by
	// New from MaxMemory; MaxCandidates also bounds the candidates a run
	// keeps, one per choice of final writes.
	Options checker.Options
	// MaxMemory bounds the memory of the whole process (-max-memory):
	// the caches take CacheBytes of it, the requests share the rest, and
	// new work is refused with 503 while the process holds more. 0 means
	// no bound.
	MaxMemory int64
	// MaxRequestBytes bounds a request body.
	MaxRequestBytes int64
	// MaxTestSize bounds the instructions plus memory locations of one
	// test, which bound its events and so the memory its relations take.
	MaxTestSize int
	// Workers bounds the checks running at once (compiling a model,
	// checking a test); other requests needing one wait at most QueueWait,
	// at most MaxQueue of them, and are otherwise answered 503.
	Workers   int
	QueueWait time.Duration
	MaxQueue  int
	// CacheBytes bounds the memory of the caches together (-cache-mb):
	// a quarter for compiled models, the rest for results, each entry
	// counted by its estimated size in bytes.
	CacheBytes int64
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

// processBytes is what the process takes besides the caches and the
// requests: code, the embedded library, buffers.
const processBytes = 64 << 20

// DefaultConfig returns the defaults of ptxmm serve.
func DefaultConfig() Config {
	o := checker.DefaultOptions()
	o.MaxCandidates = DefaultMaxCandidates
	o.Timeout = 10 * time.Second
	mem, _ := limits.DefaultMaxMemory()
	return Config{Options: o, MaxMemory: mem, MaxRequestBytes: 1 << 20, MaxTestSize: DefaultMaxTestSize,
		Workers: DefaultWorkers(), QueueWait: 10 * time.Second, MaxQueue: 64, CacheBytes: 256 << 20}
}

// DefaultWorkers is one checking worker per CPU but one: the CPU left
// answers the cached and cheap requests while checks take the others.
func DefaultWorkers() int { return max(runtime.NumCPU()-1, 1) }

// RuntimeMemoryLimit is the Go runtime's soft memory limit for a server
// under maxMemory (debug.SetMemoryLimit): below it, so that garbage is
// collected before the process's resident memory, stacks and runtime
// included, reaches the limit. 0 for none.
func RuntimeMemoryLimit(maxMemory int64) int64 { return maxMemory / 100 * 85 }

// Server answers the page and the JSON API. It is safe for concurrent use.
type Server struct {
	cfg      Config
	includes *includeFS
	models   *loader.Cache[*compiled]
	runs     *resultCache
	// builtin is the text of the embedded spec.dl: a request that sends
	// it unchanged gets the model compiled when ptxmm was built
	// (loaderInput).
	builtin string
	// slots are the checking workers, waiting the requests waiting for
	// one; budget is the memory the requests share.
	slots   chan struct{}
	waiting atomic.Int64
	budget  *limits.Budget
	// heap reads the process's live heap (liveHeap; tests replace it).
	heap func() int64
	mux  *http.ServeMux
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
	case cfg.QueueWait <= 0:
		return nil, fmt.Errorf("-queue-wait must be positive, not %s", cfg.QueueWait)
	case cfg.MaxQueue < 0:
		return nil, fmt.Errorf("-max-queue must be at least 0, not %d", cfg.MaxQueue)
	case cfg.CacheBytes < 1<<20:
		return nil, fmt.Errorf("-cache-mb must be at least 1")
	case cfg.MaxMemory < 0:
		return nil, fmt.Errorf("-max-memory must be at least 0 (0: no limit)")
	case cfg.MaxMemory > 0 && cfg.MaxMemory < 2*cfg.CacheBytes+processBytes:
		return nil, fmt.Errorf("-max-memory %s leaves too little for the requests besides the caches' -cache-mb %d: it must be at least twice -cache-mb and 64 MiB more (%s)",
			limits.FormatSize(cfg.MaxMemory), cfg.CacheBytes>>20, limits.FormatSize(2*cfg.CacheBytes+processBytes))
	case cfg.Options.MaxCandidates < 1:
		return nil, fmt.Errorf("-max-candidates must be at least 1 for ptxmm serve, not %d", cfg.Options.MaxCandidates)
	case cfg.Options.Timeout <= 0:
		return nil, fmt.Errorf("-timeout must be positive for ptxmm serve, not %s", cfg.Options.Timeout)
	}
	if cfg.ErrorLog == nil {
		cfg.ErrorLog = log.Default()
	}
	// The embedded spec.dl is read once: it is the starting model when
	// -model names none, and the text loaderInput recognises.
	builtin, err := fs.ReadFile(ptxmm.DefaultModelFS(), ptxmm.DefaultModelName)
	if err != nil {
		return nil, err
	}
	if cfg.Model.Name == "" {
		cfg.Model = ModelSource{Name: ptxmm.DefaultModelName, Text: string(builtin)}
	}
	inc, err := newIncludeFS(ptxmm.LibraryFS(), cfg.IncludeDir)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, includes: inc, slots: make(chan struct{}, cfg.Workers), heap: liveHeap, builtin: string(builtin)}
	if cfg.MaxMemory > 0 {
		// The requests share what the caches and the process leave: each
		// check reserves its relations and the candidates it keeps.
		s.budget = limits.NewBudget(cfg.MaxMemory - cfg.CacheBytes - processBytes)
	}
	s.cfg.Options.Budget = s.budget
	s.cfg.Options.MaxMemory = s.budget.Limit()
	s.cfg.Options.MaxKept = cfg.Options.MaxCandidates
	modelBytes := cfg.CacheBytes / 4
	s.models, err = loader.NewSizedCache(modelBytes, newCompiled, modelCost)
	if err != nil {
		inc.Close()
		return nil, err
	}
	s.runs, err = newResultCache(cfg.CacheBytes - modelBytes)
	if err != nil {
		s.models.Close()
		inc.Close()
		return nil, fmt.Errorf("result cache: %w", err)
	}
	if err := validateModel(cfg.Model, "-model"); err != nil {
		s.Close()
		return nil, err
	}
	// The server's own model is pinned: most requests use it, and a
	// stream of other models must not evict it (each miss waits for a
	// checking slot to compile it again).
	if _, err = s.models.Pin(s.loaderInput(cfg.Model)); err != nil {
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
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r) {
		writeJSON(w, http.StatusForbidden, ErrorResponse{Error: fmt.Sprintf(
			"origin %q is not this server's (%s): ptxmm serve answers only its own page", origin, r.Host)})
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
