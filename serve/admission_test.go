package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storesTest is one thread of n stores to x, observing x: one candidate
// whose n+1 choices of final write each need an order search, seconds of
// work for a few hundred stores.
func storesTest(n int) TestSource {
	var b strings.Builder
	fmt.Fprintf(&b, "PTX S%d\n{ x=0; }\n P0@cta 0,gpu 0 ;\n", n)
	for i := 0; i < n; i++ {
		b.WriteString(" st.weak.u32 [x], 1 ;\n")
	}
	b.WriteString("exists (x == 1)\n")
	return TestSource{Name: fmt.Sprintf("S%d.litmus", n), Text: b.String()}
}

// background posts a request in the background; the returned function
// cancels it, and the channel gets its status (0 when it failed to get an
// answer) once it ends.
func background(t testing.TB, ts *httptest.Server, endpoint string, body any) (context.CancelFunc, <-chan int) {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+endpoint, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	return cancel, done
}

// waitFor polls cond for at most d.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// budgetFree reports whether every byte of the requests' memory is free.
func budgetFree(s *Server) bool {
	if !s.budget.TryReserve(s.budget.Limit()) {
		return false
	}
	s.budget.Release(s.budget.Limit())
	return true
}

// TestQueriesAreBounded: a query runs under the request's time limit and
// memory bound. A query over nine events took a server past 120 s and to
// 9 GB; a product is now refused before it is computed, and a join with a
// comparison stops at the time limit or the memory bound.
func TestQueriesAreBounded(t *testing.T) {
	_, ts := newTestServer(t, func(c *Config) {
		c.Options.Timeout = 300 * time.Millisecond
		c.MaxMemory, c.CacheBytes = 512<<20, 64<<20
	})
	req := QueryRequest{Test: example(t, "MP.litmus"), Model: specModel(t), Exec: 1}
	call[RunResponse](t, ts, "/api/run", RunRequest{Test: req.Test, Model: req.Model})
	vars := []string{"A", "B", "C", "D", "F", "G", "H", "I", "J"}
	var atoms []string
	for _, v := range vars {
		atoms = append(atoms, "E("+v+")")
	}
	product := "?- " + strings.Join(atoms, ", ") + "."
	join := "?- " + strings.Join(atoms, ", ") + ", A != B, C != D."
	for _, q := range []string{product, join} {
		req.Query = q
		start := time.Now()
		e := fail(t, ts, "/api/query", req, http.StatusUnprocessableEntity)
		assert.Less(t, time.Since(start), 20*time.Second, q)
		assert.Regexp(t, `-max-memory|-timeout`, e.Error, q)
	}
}

// TestRequestsStopWhenTheClientLeaves: a check stops when its client goes
// away, giving back its worker and memory: a worker used to stay busy for
// the whole check after the client left.
func TestRequestsStopWhenTheClientLeaves(t *testing.T) {
	s, ts := newTestServer(t, func(c *Config) { c.Workers = 1; c.Options.Timeout = time.Minute; c.MaxTestSize = 2000 })
	cancel, done := background(t, ts, "/api/run", RunRequest{Test: storesTest(1400), Model: specModel(t)})
	waitFor(t, 10*time.Second, "the check takes the worker", func() bool { return len(s.slots) == 1 })
	cancel()
	<-done
	waitFor(t, 5*time.Second, "the worker is given back", func() bool { return len(s.slots) == 0 })
	waitFor(t, 5*time.Second, "the memory is given back", func() bool { return budgetFree(s) })
	r := call[RunResponse](t, ts, "/api/run", RunRequest{Test: example(t, "SB+fence.sc.litmus"), Model: specModel(t)})
	assert.Equal(t, "No", r.Verdict, "the next request gets the worker")
}

// TestCheapRequestsDoNotWait: with the only checking worker busy, cached
// answers and single executions are answered at once; a request that
// needs a worker waits at most -queue-wait, and at most -max-queue wait,
// and is otherwise answered 503 with Retry-After, never dropped.
func TestCheapRequestsDoNotWait(t *testing.T) {
	s, ts := newTestServer(t, func(c *Config) {
		c.Workers = 1
		c.QueueWait = 300 * time.Millisecond
		c.MaxQueue = 1
		c.Options.Timeout = time.Minute
	})
	mp := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	call[RunResponse](t, ts, "/api/run", mp)
	cancel, done := background(t, ts, "/api/run", RunRequest{Test: storesTest(900), Model: specModel(t)})
	defer cancel()
	waitFor(t, 10*time.Second, "the check takes the worker", func() bool { return len(s.slots) == 1 })

	r := call[RunResponse](t, ts, "/api/run", mp)
	assert.True(t, r.Cached)
	call[ExecResponse](t, ts, "/api/execution", ExecRequest{Test: mp.Test, Model: mp.Model, Exec: 2})
	call[QueryResponse](t, ts, "/api/query", QueryRequest{Test: mp.Test, Model: mp.Model, Exec: 2, Query: "?- po(X, Y)."})

	sb := RunRequest{Test: example(t, "SB+fence.sc.litmus"), Model: specModel(t)}
	resp := postResponse(t, ts, "/api/run", sb)
	assert.Equal(t, http.StatusServiceUnavailable, resp.status, "%s", resp.body)
	assert.Equal(t, "2", resp.retryAfter)
	assert.Contains(t, string(resp.body), "no checking worker was free within 300ms")

	// One request waits; the next is answered at once.
	cancelWait, waiting := background(t, ts, "/api/run", sb)
	defer cancelWait()
	waitFor(t, 5*time.Second, "a request waits", func() bool { return s.waiting.Load() == 1 })
	resp = postResponse(t, ts, "/api/run", RunRequest{Test: example(t, "LB.litmus"), Model: specModel(t)})
	assert.Equal(t, http.StatusServiceUnavailable, resp.status)
	assert.Contains(t, string(resp.body), "1 requests wait already")
	assert.Equal(t, http.StatusServiceUnavailable, <-waiting)

	select {
	case st := <-done:
		t.Fatalf("the long check ended (%d) before the cheap requests were answered", st)
	default:
	}
	// The long check stops with its request: the tests after this one
	// (TestCacheCosts measures the heap) must not run beside it.
	cancel()
	<-done
	waitFor(t, 30*time.Second, "the long check stops", func() bool { return len(s.slots) == 0 })
}

// answer is a response's status, Retry-After header and body.
type answer struct {
	status     int
	retryAfter string
	body       []byte
}

func postResponse(t testing.TB, ts *httptest.Server, endpoint string, body any) answer {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(ts.URL+endpoint, "application/json", bytes.NewReader(data))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{resp.StatusCode, resp.Header.Get("Retry-After"), out}
}

// TestProcessMemoryLimit: while the process holds more than -max-memory,
// new work is refused with 503, Retry-After and the limit named; cached
// answers still come.
func TestProcessMemoryLimit(t *testing.T) {
	s, ts := newTestServer(t, func(c *Config) { c.MaxMemory = 1 << 30; c.CacheBytes = 64 << 20 })
	mp := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	call[RunResponse](t, ts, "/api/run", mp)
	s.heap = func() int64 { return 2 << 30 }
	resp := postResponse(t, ts, "/api/run", RunRequest{Test: example(t, "SB+fence.sc.litmus"), Model: specModel(t)})
	assert.Equal(t, http.StatusServiceUnavailable, resp.status)
	assert.Equal(t, "2", resp.retryAfter)
	assert.Contains(t, string(resp.body), "it holds 2.00 GiB, over its memory limit of 1.00 GiB (-max-memory)")
	assert.True(t, call[RunResponse](t, ts, "/api/run", mp).Cached)
	s.heap = liveHeap
	call[RunResponse](t, ts, "/api/run", RunRequest{Test: example(t, "SB+fence.sc.litmus"), Model: specModel(t)})

	_, err := New(func() Config { c := DefaultConfig(); c.MaxMemory = 100 << 20; return c }())
	assert.ErrorContains(t, err, "-max-memory 100 MiB leaves too little for the requests besides the caches' -cache-mb 256")
}

// TestKeptCandidatesAreBounded: -max-candidates bounds the candidates a
// run keeps, one per choice of final values, and the memory they take
// counts against the server's.
func TestKeptCandidatesAreBounded(t *testing.T) {
	// Ten loads that may each read one of three writes: 3^10 = 59,049.
	cells := []string{"P0@cta 0,gpu 0"}
	loads := []string{"st.weak x, 1"}
	stores := []string{"st.weak x, 2"}
	for i := 1; i <= 10; i++ {
		cells = append(cells, fmt.Sprintf("P%d@cta 0,gpu 0", i))
		loads = append(loads, "ld.weak r0, x")
		stores = append(stores, "")
	}
	test := TestSource{Name: "L10.litmus", Text: "PTX L10\n{ x=0; }\n" + strings.Join(cells, " | ") + " ;\n" +
		strings.Join(loads, " | ") + " ;\n" + strings.Join(stores, " | ") + " ;\nexists (P1:r0 == 1)\n"}
	// The default -timeout (10 s) can end the check first under the race
	// detector on a busy machine: this test is about the candidate limit.
	_, ts := newTestServer(t, func(c *Config) { c.Options.MaxCandidates = 20_000; c.Options.Timeout = 5 * time.Minute })
	e := fail(t, ts, "/api/run", RunRequest{Test: test, Model: specModel(t)}, http.StatusUnprocessableEntity)
	assert.Contains(t, e.Error, "raise it with -max-candidates")
}

// TestForeignOriginsAreRefused: a request whose Origin is not the
// server's own is refused, whatever the Host check says.
func TestForeignOriginsAreRefused(t *testing.T) {
	_, ts := newTestServer(t, nil)
	body, err := json.Marshal(RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)})
	require.NoError(t, err)
	for _, c := range []struct {
		origin string
		status int
	}{
		{"", http.StatusOK},
		{ts.URL, http.StatusOK},
		{"http://evil.example", http.StatusForbidden},
		{"https://" + strings.TrimPrefix(ts.URL, "http://") + ".evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{ts.URL + "/path", http.StatusForbidden},
	} {
		req, err := http.NewRequest("POST", ts.URL+"/api/run", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, c.status, resp.StatusCode, "%s: %s", c.origin, data)
		if c.status == http.StatusForbidden {
			assert.Contains(t, string(data), "is not this server's")
		}
	}
	resp, err := http.Get(ts.URL + "/api/library")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// retained measures the heap that make's result keeps alive.
func retained(make func() any) int64 {
	// Two collections: the first moves what sync.Pools hold (the last
	// test's big candidate buffers) to their victim caches, the second
	// frees it, which would otherwise happen during make and count as
	// negative memory kept.
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v := make()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// TestCacheCosts: the caches count each entry at its estimated size in
// bytes, which must be about what the entry keeps alive (measured, which
// other goroutines' allocations blur by a few percent), or more, but not
// far above it. Counting a compiled model as one entry of 64, and a
// result at a fraction of its candidates, let 1,200 distinct models take a
// server to 4.35 GB.
func TestCacheCosts(t *testing.T) {
	s, _ := newTestServer(t, nil)
	const n = 16
	var models []*compiled
	got := retained(func() any {
		for i := 0; i < n; i++ {
			src := specModel(t)
			src.Extra = []string{fmt.Sprintf("late%d(X) :- W(X), !IW(X).", i)}
			c, err := s.compile(src)
			require.NoError(t, err)
			models = append(models, c)
		}
		return models
	}) / n
	est := models[0].bytes
	t.Logf("compiled model: estimated %d, kept %d", est, got)
	assert.GreaterOrEqual(t, est, got*4/5)
	assert.Less(t, est, 3*got)

	for _, name := range []string{"IRIW+fence.sc.litmus", "SB+fence.sc.litmus"} {
		var entries []*runEntry
		m := models[0]
		got := retained(func() any {
			for i := 0; i < n; i++ {
				test := example(t, name)
				test.Text += fmt.Sprintf("\n// %d\n", i)
				e, err := direct(s, func(c *apiCall) (*runEntry, error) {
					e, _, err := s.run(c, m, test)
					return e, err
				})
				require.NoError(t, err)
				entries = append(entries, e)
			}
			return entries
		}) / n
		est := entries[0].bytes(len(example(t, name).Text))
		t.Logf("%s: estimated %d, kept %d", name, est, got)
		assert.GreaterOrEqual(t, est, got*4/5, name)
		assert.Less(t, est, 4*got, name)
	}
}

// TestCachesHoldTheirBytes: many distinct models and results keep the
// server's heap within -cache-mb (and what one request takes): results
// used to keep their compiled model alive whatever the model cache held.
func TestCachesHoldTheirBytes(t *testing.T) {
	s, ts := newTestServer(t, func(c *Config) { c.CacheBytes = 8 << 20 })
	runtime.GC()
	base := liveBytes()
	for i := 0; i < 80; i++ {
		model := specModel(t)
		model.Extra = []string{fmt.Sprintf("late%d(X) :- W(X), !IW(X).", i)}
		call[RunResponse](t, ts, "/api/run", RunRequest{Test: example(t, "IRIW+fence.sc.litmus"), Model: model})
	}
	runtime.GC()
	grew := liveBytes() - base
	t.Logf("80 distinct models: the heap grew by %d bytes (cache %d)", grew, s.cfg.CacheBytes)
	assert.Less(t, grew, s.cfg.CacheBytes+8<<20, "80 compiled models of spec.dl alone take 35 MB")
}

func liveBytes() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
