package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm"
)

// post wraps an API handler: it reads one JSON request of bounded size,
// runs the handler under the request's context (a checking slot is taken
// only for the work that needs one: admission.go), turns panics into 500
// answers (the server keeps running), and writes the answer or the error
// as JSON: 503 with Retry-After when the server cannot take the work now.
func post[Req any](s *Server, handle func(*apiCall, *Req) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req := new(Req)
		if err := s.decode(w, r, req); err != nil {
			writeError(w, err)
			return
		}
		c := &apiCall{s: s, ctx: r.Context()}
		resp, err := s.safely(func() (any, error) {
			defer c.done()
			return handle(c, req)
		})
		switch be, busy := overloaded(err); {
		case busy:
			writeBusy(w, be)
		case err != nil && r.Context().Err() != nil:
			// The client went away, or the server is stopping: the
			// work was stopped, and the answer says so to whoever reads.
			writeBusy(w, &busyError{msg: "the request was stopped: the client went away or the server is stopping", retryAfter: retryAfter})
		case err != nil:
			writeError(w, err)
		default:
			writeJSON(w, http.StatusOK, resp)
		}
	}
}

// safely runs f, turning a panic into an error (and a report in the log).
func (s *Server) safely(f func() (any, error)) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.cfg.ErrorLog.Printf("ptxmm serve: panic: %v\n%s", p, debug.Stack())
			resp, err = nil, &apiError{status: http.StatusInternalServerError, msg: fmt.Sprintf("internal error: %v (please report it with the request)", p)}
		}
	}()
	return f()
}

// decode reads a JSON request body into v: exactly one object, no unknown
// fields, at most MaxRequestBytes.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "application/json" {
		// Requiring JSON also keeps plain cross-site form posts out.
		return &apiError{status: http.StatusUnsupportedMediaType, msg: "the request body must be JSON, sent with Content-Type: application/json"}
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxRequestBytes)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("the request is larger than the limit of %d bytes (start ptxmm serve with a larger -max-request)", s.cfg.MaxRequestBytes)}
		}
		if errors.Is(err, io.EOF) {
			return badRequest("the request body is empty: expected a JSON object")
		}
		return badRequest("malformed JSON request: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("malformed JSON request: expected one JSON object and nothing after it")
	}
	return nil
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		// Errors the handlers did not classify come from the test and
		// model as submitted: a limit reached, an execution the model
		// cannot evaluate.
		ae = &apiError{status: http.StatusUnprocessableEntity, msg: err.Error()}
	}
	writeJSON(w, ae.status, ErrorResponse{Error: ae.msg, Advice: limitAdvice(ae.msg), Diagnostics: ae.diags})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = json.Marshal(ErrorResponse{Error: "cannot encode the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// hostAllowed accepts localhost, loopback addresses and the configured
// names, with any port.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") || slices.Contains(s.cfg.AllowedHosts, host) {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) handleLibrary(w http.ResponseWriter, r *http.Request) {
	examples, err := ptxmm.LibraryExamples()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, ErrorResponse{Error: err.Error()})
		return
	}
	models, err := ptxmm.LibraryModels()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, ErrorResponse{Error: err.Error()})
		return
	}
	o := s.cfg.Options
	writeJSON(w, http.StatusOK, LibraryResponse{Examples: examples, Models: models, Default: s.cfg.Model,
		Limits: Limits{MaxCandidates: o.MaxCandidates, TimeoutSeconds: o.Timeout.Seconds(), Unroll: o.Exec.Unroll,
			MaxRuns: o.Exec.MaxRuns, MaxRequestBytes: s.cfg.MaxRequestBytes, MaxTestSize: s.cfg.MaxTestSize}})
}

// handleFile serves a library file: an example test, spec.dl or a
// variant; nothing else can be named.
func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("path")
	examples, _ := ptxmm.LibraryExamples()
	models, _ := ptxmm.LibraryModels()
	if !slices.Contains(examples, name) && !slices.Contains(models, name) {
		writeJSON(w, http.StatusNotFound, ErrorResponse{Error: fmt.Sprintf("%q is not in the library: GET /api/library lists the examples and models", name)})
		return
	}
	data, err := fs.ReadFile(ptxmm.LibraryFS(), name)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, ErrorResponse{Error: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(data)
}

// sameOrigin reports whether an Origin header names this server as the
// request reached it: http or https, and the Host of the request. Browsers
// send Origin with every cross-site request and with same-site posts, so a
// page elsewhere cannot use the API through the user's browser, even
// where the Host check is off (a non-loopback -addr). "null" (a sandboxed
// frame, a file) is refused.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}
