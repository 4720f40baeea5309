package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiagnostics: errors in the submitted texts come back as 4xx answers
// with the place of each error, attributed to the right editor.
func TestDiagnostics(t *testing.T) {
	_, ts := newTestServer(t, nil)
	mp := example(t, "MP.litmus")
	badTest := mp
	badTest.Text = strings.Replace(mp.Text, "fence.sys                          |", "fence.bogus                        |", 1)
	badModel := specModel(t)
	badModel.Text += "\nlet broken = po ;\n"
	cases := []struct {
		name   string
		req    RunRequest
		source string
		line   int
		msg    string
	}{
		{"a test that does not parse", RunRequest{Test: badTest, Model: specModel(t)}, "test", 11, "fence"},
		{"a model that does not parse", RunRequest{Test: mp, Model: badModel}, "model", strings.Count(badModel.Text, "\n") + 1, ""},
		{"an unknown relation in the model", RunRequest{Test: mp, Model: ModelSource{Name: "m.dl", Text: ".decl E(e: event)\n.input E\n.check c: acyclic(nosuch)\n"}},
			"model", 3, "nosuch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := fail(t, ts, "/api/run", c.req, http.StatusUnprocessableEntity)
			require.NotEmpty(t, e.Diagnostics, e.Error)
			d := e.Diagnostics[0]
			assert.Equal(t, c.source, d.Source)
			assert.Equal(t, c.line, d.Line, e.Error)
			assert.Positive(t, d.Col)
			assert.Equal(t, "error", d.Severity)
			assert.Contains(t, d.Message, c.msg)
		})
	}
}

// TestIncludesAreConfined: a submitted model reads nothing but the
// built-in models (and, with -include-dir, that folder's .dl files).
func TestIncludesAreConfined(t *testing.T) {
	_, ts := newTestServer(t, nil)
	cases := []struct {
		include string
		msg     string
	}{
		{"/etc/passwd", "confined"},
		{"/etc/ptxmm.dl", "confined"},
		{"nosuch.dl", "no such file among the built-in spec.dl and variants/"},
		{"../../../../etc/x.dl", "confined"},
		{"../secret.dl", "confined"},
		{"examples/datalog/sc.dl", "no such file"},
		{"variants/nosuch.dl", "no such file"},
		{"../go.mod", "confined"},
		{"spec.txt", "only .dl files"},
	}
	for _, c := range cases {
		t.Run(c.include, func(t *testing.T) {
			m := ModelSource{Name: "mine.dl", Text: fmt.Sprintf(".include %q\n", c.include)}
			e := fail(t, ts, "/api/run", RunRequest{Test: example(t, "MP.litmus"), Model: m}, http.StatusUnprocessableEntity)
			assert.Contains(t, e.Error, c.msg)
			require.NotEmpty(t, e.Diagnostics)
			assert.Equal(t, "model", e.Diagnostics[0].Source, "the error is at the .include line")
			assert.Equal(t, 1, e.Diagnostics[0].Line)
		})
	}
	// The built-in models can be included, the way the variants do.
	m := ModelSource{Name: "variants/mine.dl", Text: ".include \"../spec.dl\"\n.uncheck causality\n"}
	r := call[RunResponse](t, ts, "/api/run", RunRequest{Test: example(t, "MP.litmus"), Model: m})
	assert.Equal(t, "Ok", r.Verdict)
}

// TestIncludeDir: with -include-dir, that folder's .dl files can be
// included, edits to them are seen at once, and nothing escapes it.
func TestIncludeDir(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.dl")
	require.NoError(t, os.WriteFile(mine, []byte(".include \"spec.dl\"\n.uncheck causality\n"), 0o644))
	outside := filepath.Join(t.TempDir(), "outside.dl")
	require.NoError(t, os.WriteFile(outside, []byte("// outside\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link.dl")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("secret\n"), 0o644))
	_, ts := newTestServer(t, func(c *Config) { c.IncludeDir = dir })
	req := RunRequest{Test: example(t, "MP.litmus"), Model: ModelSource{Name: "model.dl", Text: ".include \"mine.dl\"\n"}}
	assert.Equal(t, "Ok", call[RunResponse](t, ts, "/api/run", req).Verdict, "mine.dl unchecks causality")

	require.NoError(t, os.WriteFile(mine, []byte(".include \"spec.dl\"\n"), 0o644))
	assert.Equal(t, "No", call[RunResponse](t, ts, "/api/run", req).Verdict, "the edited include is read again")

	for _, c := range []struct{ include, msg string }{
		{"link.dl", "escapes"},
		{"notes.txt", "only .dl files"},
		{"../outside.dl", "confined"},
	} {
		m := ModelSource{Name: "model.dl", Text: fmt.Sprintf(".include %q\n", c.include)}
		e := fail(t, ts, "/api/run", RunRequest{Test: req.Test, Model: m}, http.StatusUnprocessableEntity)
		assert.Contains(t, e.Error, c.msg, c.include)
	}
}

// TestIncludeDirPipes: a named pipe or a folder under -include-dir is
// refused without being opened (opening a pipe waits for a writer, which
// kept a worker busy for ever), and so is a file over the bound.
func TestIncludeDirPipes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.dl"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "folder.dl"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.dl"), make([]byte, MaxIncludeBytes+1), 0o644))
	_, ts := newTestServer(t, func(c *Config) { c.IncludeDir = dir })
	for _, c := range []struct{ include, msg string }{
		{"pipe.dl", "a named pipe, not a regular file"},
		{"folder.dl", "a directory, not a file"},
		{"big.dl", "more than the 1.00 MiB a model file may have"},
	} {
		done := make(chan string, 1)
		go func() {
			m := ModelSource{Name: "model.dl", Text: fmt.Sprintf(".include %q\n", c.include)}
			status, body := postJSON(t, ts, "/api/run", RunRequest{Test: example(t, "MP.litmus"), Model: m})
			done <- fmt.Sprintf("%d %s", status, body)
		}()
		select {
		case got := <-done:
			assert.Contains(t, got, "422 ", c.include)
			assert.Contains(t, got, c.msg, c.include)
		case <-time.After(20 * time.Second):
			// Open the pipe's other end so that the blocked worker, and
			// the server's shutdown, can end.
			if w, err := os.OpenFile(filepath.Join(dir, c.include), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("%s: the request did not end: the include was opened", c.include)
		}
	}
}

// TestMalformedRequests: every malformed request gets a 4xx answer with
// the error, as JSON.
func TestMalformedRequests(t *testing.T) {
	// The limit holds a request that carries spec.dl (69 KB) and refuses
	// the "too large" one.
	_, ts := newTestServer(t, func(c *Config) { c.MaxRequestBytes = 256 << 10 })
	mp := example(t, "MP.litmus")
	good, err := json.Marshal(RunRequest{Test: mp, Model: specModel(t)})
	require.NoError(t, err)
	cases := []struct {
		name        string
		endpoint    string
		contentType string
		body        string
		status      int
		msg         string
	}{
		{"not JSON", "/api/run", "application/json", "{", http.StatusBadRequest, "malformed JSON"},
		{"an empty body", "/api/run", "application/json", "", http.StatusBadRequest, "empty"},
		{"an unknown field", "/api/run", "application/json", `{"tset": {}}`, http.StatusBadRequest, "unknown field"},
		{"a wrong type", "/api/execution", "application/json", `{"exec": "three"}`, http.StatusBadRequest, "malformed JSON"},
		{"two objects", "/api/run", "application/json", string(good) + "{}", http.StatusBadRequest, "one JSON object"},
		{"another content type", "/api/run", "text/plain", string(good), http.StatusUnsupportedMediaType, "Content-Type: application/json"},
		{"too large", "/api/run", "application/json", `{"test": {"name": "a.litmus", "text": "` + strings.Repeat("x", 300<<10) + `"}}`,
			http.StatusRequestEntityTooLarge, "-max-request"},
		{"no test name", "/api/run", "application/json", `{"model": {"name": "spec.dl"}}`, http.StatusBadRequest, "test name"},
		{"a test name with a folder", "/api/run", "application/json", `{"test": {"name": "../MP.litmus"}, "model": {"name": "spec.dl"}}`, http.StatusBadRequest, "file name"},
		{"a model name outside", "/api/run", "application/json", `{"test": {"name": "MP.litmus"}, "model": {"name": "../x.dl"}}`, http.StatusBadRequest, "clean relative path"},
		{"a model name without .dl", "/api/run", "application/json", `{"test": {"name": "MP.litmus"}, "model": {"name": "x"}}`, http.StatusBadRequest, ".dl"},
		{"a negative instance", "/api/run", "application/json", `{"test": {"name": "MP.litmus", "instance": -1}, "model": {"name": "spec.dl"}}`, http.StatusBadRequest, "instance"},
		{"an empty test", "/api/run", "application/json", `{"test": {"name": "MP.litmus"}, "model": {"name": "spec.dl", "text": ""}}`, http.StatusUnprocessableEntity, "MP.litmus"},
		{"no endpoint", "/api/nosuch", "application/json", "{}", http.StatusNotFound, "no API endpoint"},
		{"a query without a query", "/api/query", "application/json", `{}`, http.StatusBadRequest, "?- BODY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, data := postRaw(t, ts, c.endpoint, c.contentType, []byte(c.body))
			assert.Equal(t, c.status, status, "%s", data)
			var e ErrorResponse
			require.NoError(t, json.Unmarshal(data, &e), "%s", data)
			assert.Contains(t, e.Error, c.msg)
		})
	}
	resp, err := http.Get(ts.URL + "/api/run")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "the API's computing endpoints take POST only")
}

// TestLimits: the checker's limits hold for every request, and their
// errors name the flag that raises them.
func TestLimits(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Config)
		msg    string
	}{
		{"candidates", func(c *Config) { c.Options.MaxCandidates = 3 }, "-max-candidates"},
		{"time", func(c *Config) { c.Options.Timeout = time.Nanosecond }, "-timeout"},
		{"runs", func(c *Config) { c.Options.Exec.MaxRuns = 1 }, "-max-runs"},
	}
	test := example(t, "MP.litmus")
	cases = append(cases, struct {
		name   string
		change func(*Config)
		msg    string
	}{"test size", func(c *Config) { c.MaxTestSize = 9 }, "has 10 instructions and memory locations, more than the limit of 9 of ptxmm serve; raise it with -max-test-size"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ts := newTestServer(t, c.change)
			if c.name == "runs" {
				test = example(t, "LB+ctrl.litmus")
			}
			e := fail(t, ts, "/api/run", RunRequest{Test: test, Model: specModel(t)}, http.StatusUnprocessableEntity)
			assert.Contains(t, e.Error, c.msg)
			// The page's user does not own the server's flags: the answer
			// says what they can do.
			assert.Contains(t, e.Advice, "This server limits")
			assert.Contains(t, e.Advice, "ptxmm check on your own machine")
		})
	}
	_, err := New(func() Config { c := DefaultConfig(); c.Options.MaxCandidates = 0; return c }())
	assert.ErrorContains(t, err, "-max-candidates")
	_, err = New(func() Config { c := DefaultConfig(); c.Options.Timeout = 0; return c }())
	assert.ErrorContains(t, err, "-timeout")
}

// TestHostCheck: a server on loopback answers only requests addressed to
// localhost, so that a page elsewhere cannot reach it by DNS rebinding.
func TestHostCheck(t *testing.T) {
	_, ts := newTestServer(t, func(c *Config) { c.CheckHost = true; c.AllowedHosts = []string{"ptxmm.test"} })
	cases := map[string]int{
		"127.0.0.1:8080":   http.StatusOK,
		"localhost":        http.StatusOK,
		"[::1]:80":         http.StatusOK,
		"ptxmm.test:8080":  http.StatusOK,
		"attacker.example": http.StatusMisdirectedRequest,
		"10.0.0.1:8080":    http.StatusMisdirectedRequest,
	}
	for host, want := range cases {
		req, err := http.NewRequest("GET", ts.URL+"/api/library", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, host)
	}
}

// TestPanicsAreAnswered: a panic inside a handler becomes a 500 answer.
func TestPanicsAreAnswered(t *testing.T) {
	var logged strings.Builder
	s, _ := newTestServer(t, func(c *Config) { c.ErrorLog = log.New(&logged, "", 0) })
	_, err := s.safely(func() (any, error) { panic("boom") })
	var ae *apiError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusInternalServerError, ae.status)
	assert.Contains(t, ae.msg, "boom")
	assert.Contains(t, logged.String(), "panic: boom", "the stack goes to the log")
}

// TestConcurrentRequests runs many requests at once over a few tests and
// both caches (run it with -race): every answer is the one a lone request
// gets.
func TestConcurrentRequests(t *testing.T) {
	_, ts := newTestServer(t, func(c *Config) { c.Workers = 4 })
	tests := []TestSource{example(t, "MP.litmus"), example(t, "SB+fence.sc.litmus"), example(t, "IRIW+fence.sc.litmus")}
	want := map[string]string{"MP": "No", "SB+fence.sc": "No", "IRIW+fence.sc": "No"}
	oneStep := ModelSource{Name: "variants/obs-one-step.dl", Text: library(t, "variants/obs-one-step.dl")}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for g := 0; g < 12; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			test := tests[g%len(tests)]
			model := specModel(t)
			if g%4 == 3 {
				model.Disabled = []string{"causality"}
			}
			for i := 0; i < 3; i++ {
				status, data := postJSON(t, ts, "/api/run", RunRequest{Test: test, Model: model})
				var r RunResponse
				if status != http.StatusOK || json.Unmarshal(data, &r) != nil {
					errs <- fmt.Sprintf("run %s: %d %s", test.Name, status, data)
					return
				}
				if len(model.Disabled) == 0 && r.Verdict != want[r.Test.Name] {
					errs <- fmt.Sprintf("%s: verdict %s", r.Test.Name, r.Verdict)
				}
				k := 1 + (g+i)%len(r.Executions)
				if status, data := postJSON(t, ts, "/api/execution", ExecRequest{Test: test, Model: model, Exec: k}); status != http.StatusOK {
					errs <- fmt.Sprintf("execution: %d %s", status, data)
				}
				if status, data := postJSON(t, ts, "/api/query", QueryRequest{Test: test, Model: model, Exec: k, Query: "?- po(X, Y)."}); status != http.StatusOK {
					errs <- fmt.Sprintf("query: %d %s", status, data)
				}
				if status, data := postJSON(t, ts, "/api/diff", DiffRequest{Test: test, A: model, B: oneStep}); status != http.StatusOK {
					errs <- fmt.Sprintf("diff: %d %s", status, data)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestLibraryEndpoints: the page's library and the files it can load.
func TestLibraryEndpoints(t *testing.T) {
	_, ts := newTestServer(t, nil)
	get := func(path string) (int, string) {
		resp, err := http.Get(ts.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(data)
	}
	status, body := get("/api/library")
	require.Equal(t, http.StatusOK, status)
	var lib LibraryResponse
	require.NoError(t, json.Unmarshal([]byte(body), &lib))
	assert.Contains(t, lib.Examples, "examples/MP.litmus")
	assert.Contains(t, lib.Examples, "examples/MP-scopes.test")
	assert.Equal(t, "spec.dl", lib.Models[0])
	assert.Contains(t, lib.Models, "variants/ptx-v6.0.dl")
	assert.Equal(t, "spec.dl", lib.Default.Name)
	assert.Contains(t, lib.Default.Text, ".check causality")
	assert.Equal(t, DefaultMaxCandidates, lib.Limits.MaxCandidates)

	status, body = get("/api/file?path=examples/MP.litmus")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, library(t, "examples/MP.litmus"), body)
	for _, p := range []string{"go.mod", "../spec.dl", "examples/expected.csv", "/etc/passwd", ""} {
		status, _ := get("/api/file?path=" + p)
		assert.Equal(t, http.StatusNotFound, status, p)
	}
	status, body = get("/")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `<script src="static/app.js"`)
	status, body = get("/static/app.js")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "/api/run")
}

// TestStartingModel: -model's text is what the page starts with, and a
// broken one stops the server from starting.
func TestStartingModel(t *testing.T) {
	v6 := ModelSource{Name: "variants/ptx-v6.0.dl", Text: library(t, "variants/ptx-v6.0.dl")}
	_, ts := newTestServer(t, func(c *Config) { c.Model = v6 })
	resp, err := http.Get(ts.URL + "/api/library")
	require.NoError(t, err)
	defer resp.Body.Close()
	var lib LibraryResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&lib))
	assert.Equal(t, v6, lib.Default)
	_, err = New(func() Config { c := DefaultConfig(); c.Model = ModelSource{Name: "bad.dl", Text: "let = ;"}; return c }())
	assert.ErrorContains(t, err, "-model bad.dl")
}
