package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// mpBuild is the MP execution of ptxmm's ExecutionBuilder example as a
// "build" request: the acquire reads the release, the data load misses
// the data store.
const mpBuild = `{"events":[
 {"name":"init x","sets":["IW","W","GEN","GLOBAL"],"location":"x","size":4},
 {"name":"init flag","sets":["IW","W","GEN","GLOBAL"],"location":"flag","size":4},
 {"name":"st x","sets":["W","GEN","GLOBAL"],"location":"x","size":4,"thread":"P0","gpu":"0","cta":"0"},
 {"name":"st.release flag","sets":["W","REL","GPU","GEN","GLOBAL"],"location":"flag","size":4,"thread":"P0","gpu":"0","cta":"0"},
 {"name":"ld.acquire flag","sets":["R","LD","ACQ","GPU","GEN","GLOBAL"],"location":"flag","size":4,"thread":"P1","gpu":"0","cta":"1"},
 {"name":"ld x","sets":["R","LD","GEN","GLOBAL"],"location":"x","size":4,"thread":"P1","gpu":"0","cta":"1"}],
 "relations":{"po":[[2,3],[4,5]],"rf":[[3,4],[0,5]]}}`

const mpLitmus = "PTX MP\n{ x=0; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

func newOracle(t testing.TB) *Oracle {
	t.Helper()
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	return New(m)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func answer(t testing.TB, o *Oracle, req string) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(o.Answer(context.Background(), []byte(req)), &out))
	return out
}

// TestEvaluateMP: the MP execution is not consistent; causality fails at
// the stale read, and the relations asked for come back.
func TestEvaluateMP(t *testing.T) {
	o := newOracle(t)
	got := answer(t, o, `{"id":7,"build":`+oneLine(mpBuild)+`,"relations":["sync"]}`)
	assert.Equal(t, float64(7), got["id"])
	assert.Equal(t, false, got["consistent"])
	var failed []any
	for _, c := range got["checks"].([]any) {
		if c := c.(map[string]any); c["holds"] == false {
			failed = append(failed, c["name"], c["witness"])
		}
	}
	assert.Equal(t, []any{"causality", []any{"ld x"}}, failed)
	assert.Equal(t, map[string]any{"sync": []any{[]any{"st.release flag", "ld.acquire flag"}}}, got["relations"])

	// The same execution given whole, as the builder makes it.
	var b ptxmm.ExecutionBuilder
	require.NoError(t, json.Unmarshal([]byte(mpBuild), &b))
	x, err := b.Build()
	require.NoError(t, err)
	whole, err := json.Marshal(Request{Execution: x})
	require.NoError(t, err)
	got = answer(t, o, string(whole))
	assert.Equal(t, false, got["consistent"])
	assert.Nil(t, got["id"])
}

// TestCheckAndModel: a litmus request gets check -json's object per test;
// a model request what the model reads.
func TestCheckAndModel(t *testing.T) {
	o := newOracle(t)
	req, err := json.Marshal(Request{Litmus: mpLitmus, Name: "MP.litmus"})
	require.NoError(t, err)
	got := answer(t, o, string(req))
	require.Nil(t, got["error"])
	results := got["results"].([]any)
	require.Len(t, results, 1)
	r := results[0].(map[string]any)
	assert.Equal(t, "MP", r["name"])
	assert.Equal(t, "No", r["verdict"])

	got = answer(t, o, `{"op":"model"}`)
	info := got["model"].(map[string]any)
	assert.Equal(t, "spec.dl", info["name"])
	assert.Contains(t, info["inputs"], "loc")
	assert.Contains(t, info["checks"], "causality")
	assert.Contains(t, info["orders"], map[string]any{"name": "co_ms", "over": "co_pairs", "doc": "8.9.6: the run-time direction of each morally strong pair of writes."})
}

// TestBadRequests: each gets an error answer naming what is wrong.
func TestBadRequests(t *testing.T) {
	o := newOracle(t)
	cases := []struct{ req, err string }{
		{`garbage`, "bad request: not JSON: invalid character 'g'"},
		{`[1,2]`, "bad request: expected oracle.Request, found a JSON array"},
		{`{"id":1}`, `bad request: a request gives "execution", "build" or "litmus"`},
		{`{"op":"explode"}`, `bad request: unknown op "explode"`},
		{`{"execution":{"events":[]},"build":{"events":[]}}`, `give the execution once`},
		{`{"op":"check"}`, `"check" needs the text of a litmus test`},
		{`{"op":"check","litmus":"x","relations":["co"]}`, `"check" takes "litmus" and "name" only`},
		{`{"op":"evaluate","litmus":"x"}`, `"evaluate" needs an "execution" or a "build"`},
		{`{"build":{"events":[{"name":"a","colour":"red"}]}}`, `bad request: json: unknown field "colour"`},
		{`{"build":{"events":[{"name":"a","thread":3}]}}`, `bad request: build.events.thread is string, not a JSON number`},
		{`{"build":{"events":[{"name":"a","sets":["R"],"location":"x"}]}}`, `read "a" reads from no write`},
		{`{"build":{"events":[]},"relations":["nonesuch"]}`, `relation nonesuch: unknown relation nonesuch`},
		{`{"execution":{"events":["a"],"sets":{"E":[5]}}}`, "E: event index 5 is out of range"},
		{`{"litmus":"PTX X\n","name":"x.cat"}`, `name "x.cat": a litmus file's name ends in .litmus or .test`},
		{`{"id":1} {"id":2}`, "one JSON object per line"},
		{`{"id":1`, "bad request: the JSON ends before the object does"},
	}
	for _, c := range cases {
		t.Run(c.req, func(t *testing.T) {
			got := answer(t, o, c.req)
			require.NotNil(t, got["error"], "%v", got)
			assert.Contains(t, got["error"], c.err)
		})
	}
}

// TestServe: requests are answered in order, one line each; a bad one or
// one too long does not stop the others; blank lines are skipped.
func TestServe(t *testing.T) {
	o := newOracle(t)
	in := strings.Join([]string{
		`{"id":1,"build":` + oneLine(mpBuild) + `}`,
		``,
		`not json`,
		`{"id":2,"op":"model"` + strings.Repeat(" ", 1000) + `}`,
		`{"id":3,"build":` + oneLine(mpBuild) + `}`,
	}, "\n") // the last line has no newline
	var out bytes.Buffer
	max := 250 + len(oneLine(mpBuild))
	require.NoError(t, o.Serve(context.Background(), strings.NewReader(in), &out, max))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 4)
	assert.Contains(t, lines[0], `"id":1,"consistent":false`)
	assert.Contains(t, lines[1], `"error":"bad request: not JSON`)
	assert.Equal(t, fmt.Sprintf(`{"error":"bad request: longer than %d bytes (ptxmm oracle -max-request raises the bound)"}`, max), lines[2])
	assert.Contains(t, lines[3], `"id":3,"consistent":false`)
}

// BenchmarkOracle compares, in one run, evaluating the MP execution in
// process (Evaluate on an Execution built once) with answering it as an
// oracle request (decoding the JSON, building and evaluating, encoding the
// answer).
func BenchmarkOracle(b *testing.B) {
	o := newOracle(b)
	var eb ptxmm.ExecutionBuilder
	require.NoError(b, json.Unmarshal([]byte(mpBuild), &eb))
	x, err := eb.Build()
	require.NoError(b, err)
	whole, err := json.Marshal(Request{Execution: x})
	require.NoError(b, err)
	b.Run("in-process", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ev, err := o.model.Evaluate(x)
			if err != nil {
				b.Fatal(err)
			}
			ev.Close()
		}
	})
	for _, c := range []struct{ name, req string }{
		{"request-build", `{"build":` + oneLine(mpBuild) + `}`},
		{"request-execution", string(whole)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o.Answer(context.Background(), []byte(c.req))
			}
		})
	}
}

// TestConfig: the configurations the C library opens models with.
func TestConfig(t *testing.T) {
	c, err := ParseConfig([]byte(" "))
	require.NoError(t, err)
	o, err := Open(c)
	require.NoError(t, err)
	assert.Equal(t, "spec.dl", o.model.Name())

	c, err = ParseConfig([]byte(`{"library":"variants/ptx-v6.0.dl","unchecked":["causality"],"timeout_ms":1000}`))
	require.NoError(t, err)
	o, err = Open(c)
	require.NoError(t, err)
	assert.NotContains(t, o.model.Checks(), "causality")

	for text, want := range map[string]string{
		`{"modle":"x.dl"}`:                         `configuration: json: unknown field "modle"`,
		`{"model":"x.dl","library":"spec.dl"}`:     `give "model" (a file) or "library"`,
		`{"variants":["ptx-v6.0"],"model":"x.dl"}`: `"variants" edit the embedded spec.dl`,
		`{"timeout_ms":-1}`:                        `"timeout_ms" and "max_memory" are at least 0`,
		`{"model":"/nonexistent/m.dl"}`:            "cannot read model: no such file",
		`{"variants":["nonesuch"]}`:                "no variant nonesuch",
		`{} {}`:                                    "the text has more after it",
	} {
		c, err := ParseConfig([]byte(text))
		if err == nil {
			_, err = Open(c)
		}
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}
