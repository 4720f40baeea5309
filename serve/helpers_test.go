package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// newTestServer starts a server with cfg (DefaultConfig when nil).
func newTestServer(t testing.TB, change func(*Config)) (*Server, *httptest.Server) {
	t.Helper()
	cfg := DefaultConfig()
	if change != nil {
		change(&cfg)
	}
	s, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// library reads a file of the embedded library.
func library(t testing.TB, name string) string {
	t.Helper()
	data, err := fs.ReadFile(ptxmm.LibraryFS(), name)
	require.NoError(t, err)
	return string(data)
}

func example(t testing.TB, name string) TestSource {
	return TestSource{Name: name, Text: library(t, "examples/"+name)}
}

func specModel(t testing.TB) ModelSource {
	return ModelSource{Name: "spec.dl", Text: library(t, "spec.dl")}
}

// postJSON sends a JSON request and returns the status and the body.
func postJSON(t testing.TB, ts *httptest.Server, endpoint string, body any) (int, []byte) {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	return postRaw(t, ts, endpoint, "application/json", data)
}

func postRaw(t testing.TB, ts *httptest.Server, endpoint, contentType string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(ts.URL+endpoint, contentType, bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, out
}

// call posts a request that must succeed and decodes the answer.
func call[T any](t testing.TB, ts *httptest.Server, endpoint string, body any) T {
	t.Helper()
	status, data := postJSON(t, ts, endpoint, body)
	require.Equal(t, http.StatusOK, status, "%s: %s", endpoint, data)
	var out T
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

// fail posts a request that must fail with status and decodes the error.
func fail(t testing.TB, ts *httptest.Server, endpoint string, body any, status int) ErrorResponse {
	t.Helper()
	got, data := postJSON(t, ts, endpoint, body)
	require.Equal(t, status, got, "%s: %s", endpoint, data)
	var out ErrorResponse
	require.NoError(t, json.Unmarshal(data, &out), "%s", data)
	require.NotEmpty(t, out.Error)
	return out
}

// forbidden returns the first forbidden execution of a run.
func forbidden(t testing.TB, r RunResponse) ExecSummary {
	t.Helper()
	for _, e := range r.Executions {
		if !e.Consistent {
			return e
		}
	}
	t.Fatal("no forbidden execution")
	return ExecSummary{}
}

// direct runs f as a handler runs, outside HTTP: with a call of its own
// under the background context, whose slot is given back after.
func direct[T any](s *Server, f func(*apiCall) (T, error)) (T, error) {
	c := &apiCall{s: s, ctx: context.Background()}
	defer c.done()
	return f(c)
}
