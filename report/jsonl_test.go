package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// decodeLines decodes one JSON object per line, checking that every line is
// one complete object.
func decodeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	require.True(t, strings.HasSuffix(out, "\n"), "lines end with a newline")
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		objs = append(objs, m)
	}
	return objs
}

// TestJSONHerd: a herd result carries the file as given, instance 0, the
// verdict, the states and the counts; no assertions.
func TestJSONHerd(t *testing.T) {
	r := checkSrc(t, "dir/MP.litmus", herdCases[0].src, checker.DefaultOptions())[0]
	require.NoError(t, r.Err)
	r.Elapsed = 2500 * time.Microsecond
	var b bytes.Buffer
	require.NoError(t, JSON(&b, r))
	objs := decodeLines(t, b.String())
	require.Len(t, objs, 1)
	assert.Equal(t, map[string]any{
		"file":       "dir/MP.litmus",
		"instance":   0.0,
		"name":       "MP",
		"verdict":    "Ok",
		"states":     []any{"P1:r0=0; P1:r1=0;", "P1:r0=0; P1:r1=1;", "P1:r0=1; P1:r1=0;", "P1:r0=1; P1:r1=1;"},
		"positive":   1.0,
		"negative":   3.0,
		"candidates": 4.0,
		"consistent": 4.0,
		"sanity":     true,
		"time_ms":    2.5,
		// 8.7.1: when P1 misses the flag, its weak load of x races with
		// P0's weak store.
		"flags": []any{map[string]any{"name": "data_race", "executions": 4.0,
			"witness": "data_race: P0:st.weak x, 1 -data_race-> P1:ld.weak r1, x =0"}},
	}, objs[0])
}

// TestJSONTest: a .test result has one line per instance with its
// assertions (name, kind, holds) and no verdict; a cut shows up.
func TestJSONTest(t *testing.T) {
	var b bytes.Buffer
	for _, r := range checkSrc(t, "nv/MP-rel.test", herdCases[3].src, checker.DefaultOptions()) {
		require.NoError(t, r.Err)
		require.NoError(t, JSON(&b, r))
	}
	objs := decodeLines(t, b.String())
	require.Len(t, objs, 2)
	for i, o := range objs {
		assert.Equal(t, "nv/MP-rel.test", o["file"])
		assert.Equal(t, float64(i+1), o["instance"])
		assert.NotContains(t, o, "verdict")
		assert.NotContains(t, o, "error")
		assert.NotContains(t, o, "cut")
		assert.Equal(t, true, o["sanity"])
	}
	assert.Equal(t, []any{
		map[string]any{"name": "fresh", "kind": "assert", "holds": true},
		map[string]any{"name": "c", "kind": "check", "holds": true},
	}, objs[0]["assertions"])
	assert.Equal(t, []any{
		map[string]any{"name": "fresh", "kind": "permit", "holds": true},
		map[string]any{"name": "c", "kind": "check", "holds": false},
	}, objs[1]["assertions"])

	// Sanity and cuts.
	b.Reset()
	require.NoError(t, JSON(&b, checkSrc(t, "Filter.test", herdCases[4].src, checker.DefaultOptions())[0]))
	o := decodeLines(t, b.String())[0]
	assert.Equal(t, false, o["sanity"])
	assert.Equal(t, []any{}, o["states"], "no states is an empty list, not null")
	b.Reset()
	opts := checker.DefaultOptions()
	opts.Exec.Unroll = 1
	require.NoError(t, JSON(&b, checkSrc(t, "Spin.litmus", herdCases[6].src, opts)[0]))
	assert.Equal(t, 1.0, decodeLines(t, b.String())[0]["cut"])
}

// TestJSONError: a result with an error carries the error text, an empty
// states list and no assertions or verdict.
func TestJSONError(t *testing.T) {
	tc := parse(t, "nv/E.test", ".global x;\nd0.b0.t0 { st [x], 1; }\nassert (x == 1) as a;\n")[0]
	var b bytes.Buffer
	require.NoError(t, JSON(&b, &checker.Result{Test: tc, Err: errors.New("checking took longer than the time limit of 1s; raise it with -timeout")}))
	o := decodeLines(t, b.String())[0]
	assert.Equal(t, "nv/E.test", o["file"])
	assert.Equal(t, 0.0, o["instance"])
	assert.Equal(t, "checking took longer than the time limit of 1s; raise it with -timeout", o["error"])
	assert.Equal(t, []any{}, o["states"])
	assert.NotContains(t, o, "assertions")
	assert.NotContains(t, o, "verdict")
}

// TestErrorJSON: a file that could not be parsed gives a line with the file
// and the error.
func TestErrorJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, ErrorJSON(&b, "bad/x.litmus", errors.New(`bad/x.litmus:1:1: unsupported architecture "X86": expected PTX`)))
	require.NoError(t, ErrorJSON(&b, "bad/y.test", errors.New("second")))
	objs := decodeLines(t, b.String())
	require.Len(t, objs, 2)
	assert.Equal(t, "bad/x.litmus", objs[0]["file"])
	assert.Equal(t, `bad/x.litmus:1:1: unsupported architecture "X86": expected PTX`, objs[0]["error"])
	assert.Equal(t, 0.0, objs[0]["instance"])
	assert.Equal(t, []any{}, objs[0]["states"])
	assert.NotContains(t, objs[0], "verdict")
	assert.Equal(t, "second", objs[1]["error"])
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestJSONWriteErrors: write errors are returned.
func TestJSONWriteErrors(t *testing.T) {
	r := checkSrc(t, "MP.litmus", herdCases[0].src, checker.DefaultOptions())[0]
	assert.EqualError(t, JSON(failingWriter{}, r), "disk full")
	assert.EqualError(t, ErrorJSON(failingWriter{}, "f", errors.New("x")), "disk full")
}

// TestJSONEmptyAndLoop: a test without a final state says why in JSON, and
// herd's Loop flag is a field beside the verdict (which stays Ok or No for
// the tools that read it).
func TestJSONEmptyAndLoop(t *testing.T) {
	var forever string
	for _, c := range herdCases {
		if c.name == "empty-loop" {
			forever = c.src
		}
	}
	r := checkSrc(t, "Forever.litmus", forever, checker.DefaultOptions())[0]
	require.NoError(t, r.Err)
	var b bytes.Buffer
	require.NoError(t, JSON(&b, r))
	obj := decodeLines(t, b.String())[0]
	assert.Equal(t, "No", obj["verdict"])
	assert.Equal(t, true, obj["loop"])
	require.Contains(t, obj, "empty")
	empty := obj["empty"].(map[string]any)
	assert.Equal(t, "loop", empty["kind"])
	assert.Contains(t, empty["reason"], "still in a loop at the unrolling bound")

	r = checkSrc(t, "dir/MP.litmus", herdCases[0].src, checker.DefaultOptions())[0]
	b.Reset()
	require.NoError(t, JSON(&b, r))
	obj = decodeLines(t, b.String())[0]
	assert.NotContains(t, obj, "empty")
	assert.NotContains(t, obj, "loop")
}
