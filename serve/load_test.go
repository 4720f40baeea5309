package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The load test of ptxmm serve: a server on loopback (httptest), in this
// process, under the load the issue measured, bounded in requests and in
// time. It runs when PTXMM_LOAD is set (.ci/run sets it); docs/serve.md
// gives its figures.
//
//	PTXMM_LOAD=1 go test -run TestLoad -v ./serve
func TestLoad(t *testing.T) {
	if os.Getenv("PTXMM_LOAD") == "" {
		t.Skip("the load test runs with PTXMM_LOAD=1 (about a minute)")
	}
	t.Run("small requests beside heavy ones", loadHeavy)
	t.Run("2000 distinct models", loadModels)
}

// loadClient posts JSON requests and times them.
type loadClient struct {
	url    string
	client *http.Client
}

func newLoadClient(ts *httptest.Server) *loadClient {
	return &loadClient{url: ts.URL, client: &http.Client{Timeout: 2 * time.Minute}}
}

// post sends one request: its status (0 when no answer came), the time to
// the answer, and the answer.
func (c *loadClient) post(endpoint string, body any) (int, time.Duration, []byte) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, 0, nil
	}
	start := time.Now()
	resp, err := c.client.Post(c.url+endpoint, "application/json", bytes.NewReader(data))
	if err != nil {
		return 0, time.Since(start), []byte(err.Error())
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, time.Since(start), []byte(err.Error())
	}
	return resp.StatusCode, time.Since(start), out
}

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
}

// loadHeavy: 16 clients send heavy runs (each a distinct test, so none is
// cached: one thread of 250 stores, a second or more of checking) for
// 20 s, while one client sends small requests (a cached run, an
// execution's picture) every 50 ms. Every request gets an answer (200,
// or 503 with Retry-After when no worker came free in time), and the
// small requests' p99 latency stays under 100 ms: a cached request used
// to wait 41 s at the median, and 126 heavy requests were dropped.
//
// The machine the test runs on may be busy with other work, which slows
// every request whatever the server does (on a two-core machine shared by
// twenty busy threads, the small requests alone had a p99 of 50-150 ms);
// so they are first timed alone for 5 s, and the bound is 100 ms or ten
// times their p99 alone, whichever is larger (on an idle machine, 100
// ms). A server that made them wait behind a check would take seconds.
func loadHeavy(t *testing.T) {
	_, ts := newTestServer(t, nil)
	c := newLoadClient(ts)
	mp := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	status, _, body := c.post("/api/run", mp)
	require.Equal(t, http.StatusOK, status, "%s", body)
	for k := 1; k <= 4; k++ {
		status, _, body := c.post("/api/execution", ExecRequest{Test: mp.Test, Model: mp.Model, Exec: k})
		require.Equal(t, http.StatusOK, status, "%s", body)
	}
	small := func(until time.Time) (took []time.Duration, failed int) {
		for k := 0; time.Now().Before(until); k++ {
			var status int
			var d time.Duration
			if k%2 == 0 {
				status, d, _ = c.post("/api/run", mp)
			} else {
				status, d, _ = c.post("/api/execution", ExecRequest{Test: mp.Test, Model: mp.Model, Exec: 1 + k%4})
			}
			if status != http.StatusOK {
				failed++
			}
			took = append(took, d)
			time.Sleep(50 * time.Millisecond)
		}
		return took, failed
	}
	alone, aloneFailed := small(time.Now().Add(5 * time.Second))
	require.Zero(t, aloneFailed)
	aloneP99 := percentile(alone, 0.99)

	const clients, duration = 16, 20 * time.Second
	stop := time.Now().Add(duration)
	var heavy, answered, ok200, busy503, limited422 atomic.Int64
	var unanswered sync.Map
	var wg sync.WaitGroup
	for g := 0; g < clients; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; time.Now().Before(stop); i++ {
				test := storesTest(250)
				test.Text = fmt.Sprintf("%s// client %d request %d\n", test.Text, g, i)
				heavy.Add(1)
				status, _, body := c.post("/api/run", RunRequest{Test: test, Model: specModel(t)})
				switch status {
				case 0:
					unanswered.Store(fmt.Sprintf("%d/%d", g, i), string(body))
					continue
				case http.StatusOK:
					ok200.Add(1)
				case http.StatusServiceUnavailable:
					busy503.Add(1)
				case http.StatusUnprocessableEntity:
					limited422.Add(1)
				}
				answered.Add(1)
			}
		}(g)
	}
	loaded, smallFailed := small(stop)
	wg.Wait()
	var lost []string
	unanswered.Range(func(k, v any) bool { lost = append(lost, fmt.Sprintf("%s: %s", k, v)); return true })
	p50, p99 := percentile(loaded, 0.5), percentile(loaded, 0.99)
	bound := max(100*time.Millisecond, 10*aloneP99)
	t.Logf("heavy: %d requests, %d answered (%d ok, %d 503 busy, %d 422 limit), %d unanswered",
		heavy.Load(), answered.Load(), ok200.Load(), busy503.Load(), limited422.Load(), len(lost))
	t.Logf("small alone: %d requests, latency p50 %s, p99 %s", len(alone), percentile(alone, 0.5), aloneP99)
	t.Logf("small beside the heavy: %d requests, %d failed, latency p50 %s, p99 %s, max %s (bound %s)",
		len(loaded), smallFailed, p50, p99, percentile(loaded, 1), bound)
	assert.Empty(t, lost, "every request gets an answer")
	assert.Zero(t, smallFailed)
	assert.Less(t, p99, bound, "small requests' p99 latency beside the heavy ones (alone: %s)", aloneP99)
}

// loadModels: 2000 distinct models (spec.dl with one rule added, as the
// page sends an edited model), each run on MP by 8 clients, under
// -max-memory 1 GiB: the process's resident
// memory stays under the limit (1,200 distinct models took a server to
// 4.35 GB).
func loadModels(t *testing.T) {
	const limit = 1 << 30
	old := debug.SetMemoryLimit(RuntimeMemoryLimit(limit)) // as ptxmm serve sets it
	defer debug.SetMemoryLimit(old)
	_, ts := newTestServer(t, func(c *Config) { c.MaxMemory = limit })
	c := newLoadClient(ts)
	const models, clients = 2000, 8
	var next atomic.Int64
	var failed atomic.Int64
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			if rss := residentBytes(); rss > peak.Load() {
				peak.Store(rss)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for g := 0; g < clients; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1)
				if k > models {
					return
				}
				model := specModel(t)
				model.Extra = []string{fmt.Sprintf("late%d(X) :- W(X), !IW(X).", k)}
				test := example(t, "MP.litmus")
				if status, _, body := c.post("/api/run", RunRequest{Test: test, Model: model}); status != http.StatusOK {
					failed.Add(1)
					t.Logf("model %d: %d %s", k, status, body)
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	t.Logf("%d models in %s; resident memory peaked at %d MiB (limit %d MiB)", models, time.Since(start).Round(time.Second), peak.Load()>>20, limit>>20)
	assert.Zero(t, failed.Load())
	assert.Less(t, peak.Load(), int64(limit), "resident memory under -max-memory")
}

// residentBytes reads the process's resident memory (VmRSS) from
// /proc/self/status; 0 where it cannot.
func residentBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
