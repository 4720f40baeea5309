package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileRequest is one hostile request to a server in process: the answer
// it must get (a status, a piece of its error), within a time and an
// allocation bound, and with at most a few diagnostics.
type hostileRequest struct {
	name     string
	endpoint string
	body     any
	// raw, when set, is sent as the body instead of body's JSON.
	raw []byte
	// origin, when set, is the request's Origin header.
	origin string
	// config, when set, changes the server's configuration for this
	// request alone (it gets a server of its own).
	config func(*Config)
	status int
	error  string
	// maxAlloc bounds what the server allocates answering it (default
	// 256 MiB); limit bounds its time (default 20 s).
	maxAlloc uint64
	limit    time.Duration
}

// hostileServer is the server the hostile requests go to: the limits of
// DefaultConfig but for a time limit of 2 s, and an include folder holding
// a named pipe, whose opening would block a worker forever.
func hostileServer(t *testing.T) (string, func(*Config)) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.dl"), 0o644))
	return dir, func(c *Config) {
		c.IncludeDir = dir
		c.Options.Timeout = 2 * time.Second
		c.Options.MaxCandidates = 20_000
	}
}

// loadsTest is n threads that each load x, and one that stores 1 and 2 to
// it: 3^n candidates.
func loadsTest(n int) TestSource {
	cells, loads, stores := []string{"P0@cta 0,gpu 0"}, []string{"st.weak x, 1"}, []string{"st.weak x, 2"}
	for i := 1; i <= n; i++ {
		cells = append(cells, fmt.Sprintf("P%d@cta 0,gpu 0", i))
		loads = append(loads, "ld.weak r0, x")
		stores = append(stores, "")
	}
	return TestSource{Name: fmt.Sprintf("L%d.litmus", n), Text: fmt.Sprintf("PTX L%d\n{ x=0; }\n", n) +
		strings.Join(cells, " | ") + " ;\n" + strings.Join(loads, " | ") + " ;\n" + strings.Join(stores, " | ") + " ;\nexists (P1:r0 == 1)\n"}
}

// TestHostileRequests: the requests that used to take the server (a query
// running past 120 s to 9 GB, an include of a named pipe blocking a worker
// forever, 59,049 candidates kept past a bound of 20,000, a cross-site
// page using the API) and the hostile models and tests of the command
// line, as one table: each gets its status and its error, in bounded time
// and allocation, with at most ten diagnostics and one "too many errors",
// its source quoted without control characters; and the server goes on
// answering.
func TestHostileRequests(t *testing.T) {
	dir, cfg := hostileServer(t)
	_, ts := newTestServer(t, cfg)
	mp, spec := example(t, "MP.litmus"), specModel(t)
	model := func(text string) ModelSource { return ModelSource{Name: "m.dl", Text: text} }
	run := func(test TestSource, m ModelSource) RunRequest { return RunRequest{Test: test, Model: m} }
	atoms := make([]string, 9)
	for i := range atoms {
		atoms[i] = fmt.Sprintf("E(X%d)", i)
	}
	const deep = 50_000
	nested := "let x = " + strings.Repeat("(", deep) + "po" + strings.Repeat(")", deep) + "\n"
	var badCells strings.Builder
	badCells.WriteString("PTX W\n{ x=0; }\n")
	for row, cell := range []string{"P%d@cta 0,gpu 0", "bogus.op r0"} {
		cells := make([]string, 400)
		for i := range cells {
			cells[i] = cell
			if row == 0 {
				cells[i] = fmt.Sprintf(cell, i)
			}
		}
		badCells.WriteString(strings.Join(cells, " | ") + " ;\n")
	}
	badCells.WriteString("exists (x == 1)\n")
	var badRules strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&badRules, "p%d(X) :- q%d(X).\n", i, i)
	}
	escapes := "PTX E\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.u32 x\x1b]0;pwned\x07\x1b[2J, 1 ;\nexists (x == 1)\n"

	cases := []hostileRequest{
		{name: "a query of nine atoms over the events", endpoint: "/api/query",
			body:   QueryRequest{Test: mp, Model: spec, Exec: 1, Query: "?- " + strings.Join(atoms, ", ") + "."},
			status: http.StatusUnprocessableEntity, error: "raise it with -max-memory"},
		{name: "a join of nine atoms over the events", endpoint: "/api/query",
			body:   QueryRequest{Test: mp, Model: spec, Exec: 1, Query: "?- " + strings.Join(atoms, ", ") + ", X0 != X1."},
			status: http.StatusUnprocessableEntity, error: "raise it with -", limit: 10 * time.Second, maxAlloc: 1 << 30},
		{name: "an include of a named pipe under -include-dir", endpoint: "/api/run",
			body:   run(mp, model(".include \"pipe.dl\"\n")),
			status: http.StatusUnprocessableEntity, error: "a named pipe, not a regular file"},
		{name: "an include of /dev/zero", endpoint: "/api/run",
			body:   run(mp, model(".include \"/dev/zero\"\n")),
			status: http.StatusUnprocessableEntity, error: "/dev/zero"},
		{name: "3^10 candidates under -max-candidates 20000", endpoint: "/api/run",
			body:   run(loadsTest(10), spec),
			status: http.StatusUnprocessableEntity, error: "limit of 20000 candidate executions",
			// The race detector slows the checker tenfold: the bound, not
			// the time limit, must end this one.
			config: func(c *Config) { c.Options.Timeout = 2 * time.Minute }, limit: time.Minute, maxAlloc: 1 << 30},
		{name: "a foreign Origin", endpoint: "/api/run", body: run(mp, spec), origin: "http://evil.example",
			status: http.StatusForbidden, error: "is not this server's"},
		{name: "a model nested 50,000 deep", endpoint: "/api/run", body: run(mp, model(nested)),
			status: http.StatusUnprocessableEntity, error: "expression nested more than 1000 deep"},
		{name: "an addition nested 50,000 deep", endpoint: "/api/run",
			body:   run(mp, ModelSource{Name: "spec.dl", Text: spec.Text, Extra: []string{nested}}),
			status: http.StatusUnprocessableEntity, error: "expression nested more than 1000 deep"},
		{name: "a model of 5000 errors", endpoint: "/api/run", body: run(mp, model(badRules.String())),
			status: http.StatusUnprocessableEntity, error: "too many errors"},
		{name: "a row of 400 bad cells", endpoint: "/api/run", body: run(TestSource{Name: "W.litmus", Text: badCells.String()}, spec),
			status: http.StatusUnprocessableEntity, error: "too many errors"},
		{name: "escape sequences in a test", endpoint: "/api/run", body: run(TestSource{Name: "E.litmus", Text: escapes}, spec),
			status: http.StatusUnprocessableEntity, error: `x\x1b]0;pwned\x07\x1b[2J`},
		{name: "10,000 stores", endpoint: "/api/run", body: run(storesTest(10_000), spec),
			status: http.StatusUnprocessableEntity, error: "-max-test-size"},
		{name: "900 stores under -timeout 2s", endpoint: "/api/run", body: run(storesTest(900), spec),
			status: http.StatusUnprocessableEntity, error: "raise it with -timeout", limit: 10 * time.Second, maxAlloc: 1 << 30},
		{name: "a body over -max-request", endpoint: "/api/run",
			raw:    []byte(`{"test": {"name": "MP.litmus", "text": "` + strings.Repeat("x", 2<<20) + `"}}`),
			status: http.StatusRequestEntityTooLarge, error: "-max-request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url := ts.URL
			if c.config != nil {
				_, own := newTestServer(t, func(conf *Config) { cfg(conf); c.config(conf) })
				url = own.URL
			}
			sendHostile(t, url, dir, c)
		})
	}
	// The server still answers.
	r := call[RunResponse](t, ts, "/api/run", run(mp, spec))
	assert.Equal(t, "No", r.Verdict)
}

// sendHostile sends one hostile request and checks its answer. A request
// still unanswered at its time limit fails; the named pipes of dir are
// then opened for writing, so that a worker blocked on one can end.
func sendHostile(t *testing.T, url, dir string, c hostileRequest) {
	body := c.raw
	if body == nil {
		var err error
		body, err = json.Marshal(c.body)
		require.NoError(t, err)
	}
	limit, maxAlloc := c.limit, c.maxAlloc
	if limit == 0 {
		limit = 20 * time.Second
	}
	if maxAlloc == 0 {
		maxAlloc = 256 << 20
	}
	req, err := http.NewRequest("POST", url+c.endpoint, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	type answer struct {
		status int
		data   []byte
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		done <- answer{resp.StatusCode, data, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(limit):
		unblockPipes(dir)
		t.Fatalf("%s: no answer within %s", c.name, limit)
	}
	runtime.ReadMemStats(&after)
	require.NoError(t, a.err, c.name)
	assert.Equal(t, c.status, a.status, "%s: %s", c.name, a.data)
	var e ErrorResponse
	require.NoError(t, json.Unmarshal(a.data, &e), "%s: %s", c.name, a.data)
	all := e.Error
	for _, d := range e.Diagnostics {
		all += "\n" + d.Message
	}
	assert.Contains(t, all, c.error, c.name)
	assert.LessOrEqual(t, len(e.Diagnostics), 11, "%s: at most ten diagnostics and 'too many errors'", c.name)
	for _, ch := range all {
		assert.False(t, ch < ' ' && ch != '\n' && ch != '\t' || ch == 0x7f, "%s: a control character %q in the answer", c.name, ch)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	assert.LessOrEqual(t, alloc, maxAlloc, "%s: allocated %d MiB", c.name, alloc>>20)
}

// unblockPipes opens every named pipe of dir for writing and closes it,
// so that a reader blocked opening one goes on.
func unblockPipes(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type()&os.ModeNamedPipe != 0 {
			if f, err := os.OpenFile(filepath.Join(dir, e.Name()), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
	}
}
