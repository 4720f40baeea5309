package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/serve"
)

// TestServe starts ptxmm serve on a free loopback port, fetches the page's
// library through it, and stops it as Ctrl+C would.
func TestServe(t *testing.T) {
	// From the repository's root, as the README runs it.
	t.Chdir(filepath.Join("..", ".."))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := ServeConfig{Addr: "127.0.0.1:0", ModelFile: filepath.Join("variants", "ptx-v6.0.dl"), Server: serve.DefaultConfig()}
	url, status, stderr := startServe(t, ctx, cfg)
	resp, err := http.Get(url + "api/library")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), `"name":"variants/ptx-v6.0.dl"`, "-model names the file so that its include of ../spec.dl resolves")
	cancel()
	select {
	case code := <-status:
		assert.Equal(t, ExitOK, code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("ptxmm serve did not stop")
	}
	assert.Empty(t, stderr.String(), "no warning on a loopback address")
}

// TestServeErrors: bad flags stop ptxmm serve with exit status 2 and a
// message.
func TestServeErrors(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken.dl")
	require.NoError(t, os.WriteFile(broken, []byte("let = ;\n"), 0o644))
	config := func(change func(*ServeConfig)) ServeConfig {
		c := ServeConfig{Addr: "127.0.0.1:0", Server: serve.DefaultConfig()}
		change(&c)
		return c
	}
	cases := []struct {
		name string
		cfg  ServeConfig
		msg  string
	}{
		{"an address without a port", config(func(c *ServeConfig) { c.Addr = "127.0.0.1" }), "expected HOST:PORT"},
		{"a missing model", config(func(c *ServeConfig) { c.ModelFile = "nosuch.dl" }), "-model"},
		{"a broken model", config(func(c *ServeConfig) { c.ModelFile = broken }), "broken.dl:1:5"},
		{"no workers", config(func(c *ServeConfig) { c.Server.Workers = 0 }), "-workers"},
		{"an include folder that does not exist", config(func(c *ServeConfig) { c.Server.IncludeDir = filepath.Join(t.TempDir(), "nosuch") }), "-include-dir"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			assert.Equal(t, ExitError, Serve(context.Background(), c.cfg, &stdout, &stderr))
			assert.Contains(t, stderr.String(), c.msg)
			assert.Empty(t, stdout.String())
		})
	}
}

// TestModelSourceNames: the -model file is named so that its includes
// resolve inside the server's include places.
func TestModelSourceNames(t *testing.T) {
	dir := t.TempDir()
	inDir := filepath.Join(dir, "sub", "m.dl")
	require.NoError(t, os.MkdirAll(filepath.Dir(inDir), 0o755))
	require.NoError(t, os.WriteFile(inDir, []byte("// m\n"), 0o644))
	cases := []struct {
		file, includeDir, name string
	}{
		{filepath.Join("..", "..", "spec.dl"), "", "spec.dl"},
		{filepath.Join("testdata", "..", "..", "..", "variants", "ptx-v6.0.dl"), "", "ptx-v6.0.dl"},
		{inDir, dir, "sub/m.dl"},
		{inDir, "", "m.dl"},
	}
	for _, c := range cases {
		m, err := modelSource(c.file, c.includeDir)
		require.NoError(t, err, c.file)
		assert.Equal(t, c.name, m.Name, c.file)
	}
}

// TestServeStopsItsChecks: stopping the server (SIGTERM, Ctrl+C) stops the
// checks in flight, so that it ends at once with status 0; it used to wait
// for them (26 s), past its 5 s of grace.
func TestServeStopsItsChecks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := ServeConfig{Addr: "127.0.0.1:0", Server: serve.DefaultConfig()}
	cfg.Server.Options.Timeout = time.Minute
	cfg.Server.MaxTestSize = 2000
	url, status, stderr := startServe(t, ctx, cfg)
	var stores strings.Builder
	stores.WriteString("PTX S\n{ x=0; }\n P0@cta 0,gpu 0 ;\n")
	for i := 0; i < 1400; i++ {
		stores.WriteString(" st.weak.u32 [x], 1 ;\n")
	}
	stores.WriteString("exists (x == 1)\n")
	spec, err := os.ReadFile(filepath.Join("..", "..", "spec.dl"))
	require.NoError(t, err)
	body, err := json.Marshal(serve.RunRequest{Test: serve.TestSource{Name: "S.litmus", Text: stores.String()},
		Model: serve.ModelSource{Name: "spec.dl", Text: string(spec)}})
	require.NoError(t, err)
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Post(url+"api/run", "application/json", bytes.NewReader(body))
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	time.Sleep(500 * time.Millisecond) // the check is under way
	cancel()
	select {
	case code := <-status:
		// ExitOK means Shutdown returned within its 5 s of grace: past
		// it, Serve reports the error and exits with ExitError. A check
		// of the wall clock here would only measure the machine's load.
		assert.Equal(t, ExitOK, code, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("ptxmm serve did not stop")
	}
	assert.Equal(t, http.StatusServiceUnavailable, <-answered, "the request in flight is answered")
}

// startServe runs Serve until ctx is done, and returns the address it
// listens on, where its exit status will come, and its stderr.
func startServe(t *testing.T, ctx context.Context, cfg ServeConfig) (string, <-chan int, *strings.Builder) {
	t.Helper()
	out, w := io.Pipe()
	stderr := &strings.Builder{}
	status := make(chan int, 1)
	go func() {
		status <- Serve(ctx, cfg, w, stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "stderr: %s", stderr.String())
	url := regexp.MustCompile(`http://\S+/`).FindString(line)
	require.NotEmpty(t, url, line)
	return url, status, stderr
}
