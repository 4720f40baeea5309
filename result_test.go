package ptxmm_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/litmus"
)

// TestResultIsTheJSONLine checks that a Result shows what `ptxmm check
// -json` prints of it, field by field, on every test of examples/ (with
// explanations for the .litmus files of examples/host, which forbid and
// allow outcomes with reasons).
func TestResultIsTheJSONLine(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	n, explained, flagged := 0, 0, 0
	err = filepath.WalkDir("examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (!strings.HasSuffix(path, ".litmus") && !strings.HasSuffix(path, ".test")) {
			return err
		}
		var opts []ptxmm.Option
		if strings.HasPrefix(path, filepath.Join("examples", "host")) {
			opts = append(opts, ptxmm.WithExplain())
		}
		results, err := m.CheckFile(path, opts...)
		require.NoError(t, err, path)
		for _, r := range results {
			n++
			if len(r.Forbidden) > 0 && len(r.Allowed) > 0 {
				explained++
			}
			if len(r.Flags) > 0 {
				flagged++
			}
			var b bytes.Buffer
			require.NoError(t, r.WriteJSON(&b))
			var line map[string]any
			require.NoError(t, json.Unmarshal(b.Bytes(), &line))
			delete(line, "time_ms")
			assert.Equal(t, line, resultMap(t, r), "%s: %s: a field of the -json line (report.JSON) is shown by ptxmm.Result (result.go) and compared here (resultMap)", path, r.Name)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 100, "the tests of examples/")
	require.NotZero(t, explained, "tests with forbidden and allowed outcomes explained")
	require.NotZero(t, flagged, "tests raising flags")
}

// resultMap is r under the names of the -json output, as encoding/json
// decodes them: what the view shows of the line.
func resultMap(t *testing.T, r *ptxmm.Result) map[string]any {
	states := r.States
	if states == nil {
		states = []string{} // the line always has its list
	}
	out := map[string]any{"file": r.File, "instance": r.Instance, "name": r.Name, "states": states,
		"positive": r.Positive, "negative": r.Negative, "candidates": r.Candidates, "consistent": r.Consistent,
		"sanity": r.Sanity}
	set := func(key string, v any, present bool) {
		if present {
			out[key] = v
		}
	}
	set("verdict", r.Verdict, r.Verdict != "")
	set("cut", r.Cut, r.Cut != 0)
	set("hangs", r.Hangs, r.Hangs != 0)
	set("hangs_without_final_state", r.Unjudged, r.Unjudged != 0)
	set("stuck", r.Stuck, len(r.Stuck) > 0)
	set("loop", r.Loop, r.Loop)
	set("awaits", r.Awaits, r.Awaits != "")
	set("termination", r.Termination, r.Termination != "")
	set("livelock", r.Livelock, len(r.Livelock) > 0)
	set("warnings", r.Warnings, len(r.Warnings) > 0)
	if r.Empty != nil {
		out["empty"] = map[string]any{"kind": r.Empty.Kind, "reason": r.Empty.Reason}
	}
	switch {
	case r.Stopped:
		out["speedcheck"] = "stopped"
	case r.OnlyDeciding:
		out["speedcheck"] = "deciding"
	}
	if r.Err != nil {
		out["error"] = r.Err.Error()
	}
	var flags, asserts []any
	for _, f := range r.Flags {
		flag := map[string]any{"name": f.Name, "executions": f.Executions, "witness": f.Witness}
		if f.Undefined {
			flag["undefined"] = true
		}
		flags = append(flags, flag)
	}
	set("flags", flags, len(flags) > 0)
	for _, a := range r.Assertions {
		asserts = append(asserts, map[string]any{"name": a.Name, "kind": a.Kind, "holds": a.Holds})
	}
	set("assertions", asserts, len(asserts) > 0)
	explained := func(es []ptxmm.Explained) []any {
		var out []any
		for _, e := range es {
			out = append(out, map[string]any{"state": e.State, "why": e.Why})
		}
		return out
	}
	set("forbidden", explained(r.Forbidden), len(r.Forbidden) > 0)
	set("allowed", explained(r.Allowed), len(r.Allowed) > 0)
	// Through JSON, as the line was: numbers become float64, lists []any.
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(b, &back))
	return back
}

// TestResultTermination: the embedded model decides the termination of a
// loop that writes, and Result shows it as the -json line does: two
// threads swapping 0 and 1 into x, each looping while it takes what the
// other writes, can loop forever under a fair scheduler.
func TestResultTermination(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	tc, err := litmus.ParseHerd("Exch-livelock.litmus", []byte(`PTX Exch-livelock
{ x = 0; }
 P0@cta 0,gpu 0                 | P1@cta 0,gpu 0                 ;
 L0:                            | L1:                            ;
 atom.relaxed.gpu.exch r0, x, 0 | atom.relaxed.gpu.exch r1, x, 1 ;
 beq r0, 1, L0                  | beq r1, 0, L1                  ;
exists (P0:r0 == 0 /\ P1:r1 == 1)
`))
	require.NoError(t, err)
	r := m.Check(tc)
	require.NoError(t, r.Err)
	assert.Equal(t, "livelock", r.Termination)
	assert.Equal(t, []string{"P0: atom.relaxed.gpu.exch r0, x, 0", "P1: atom.relaxed.gpu.exch r1, x, 1"}, r.Livelock)
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	var line map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &line))
	assert.Equal(t, "livelock", line["termination"])
}
