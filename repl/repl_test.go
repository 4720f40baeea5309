package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// newSession opens a session over ../spec.dl with a test from ../examples.
func newSession(t *testing.T, test string) *Session {
	t.Helper()
	s, err := New(ModelSource{Path: filepath.Join("..", "spec.dl")}, checker.DefaultOptions())
	require.NoError(t, err)
	if test != "" {
		require.NoError(t, s.LoadTest(filepath.Join("..", "examples", test), 0))
	}
	return s
}

// script runs lines through RunScript and returns what it printed.
func script(t *testing.T, s *Session, lines ...string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, RunScript(s, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out))
	return out.String()
}

func TestExecsAndFind(t *testing.T) {
	s := newSession(t, "MP.litmus")
	out := script(t, s, ":execs")
	assert.Contains(t, out, "*   1  consistent")
	assert.Contains(t, out, "forbidden: causality         P1:%r0=1; P1:%r1=0;")
	assert.Equal(t, 4, strings.Count(out, "\n"), "one line per candidate:\n%s", out)

	out = script(t, s, `:find P1:%r0 == 1 /\ P1:%r1 == 0`)
	assert.Equal(t, "execution 3: forbidden: causality  P1:%r0=1; P1:%r1=0;\n", out)
	out = script(t, s, ":next", ":prev", ":exec 1", ":exec 9")
	assert.Contains(t, out, "execution 4: consistent")
	assert.Contains(t, out, "execution 3: forbidden")
	assert.Contains(t, out, "execution 1: consistent")
	assert.Contains(t, out, "error: there are 4 candidate executions (1 to 4)")

	out = script(t, s, `:find P1:%r0 == 7`)
	assert.Contains(t, out, "error: no candidate execution reaches")
}

func TestChecksExplainWithEdges(t *testing.T) {
	s := newSession(t, "SB+fence.sc.litmus")
	out := script(t, s, `:find P0:r0 == 0 /\ P1:r1 == 0`, ":checks")
	assert.Contains(t, out, "coherence          holds")
	// The witness is the cycle through the Fence-SC synchronization.
	assert.Regexp(t, `causality +fails: P\d:ld.weak r\d, [xy] =0 -fr-> P\d:st.weak [xy], 1 -po-> P\d:fence.sc.sys -sync-> P\d:fence.sc.sys -po-> P\d:ld.weak r\d, [xy] =0`, out)
	assert.Contains(t, out, "first choice of the run-time orders", "the verdict depends on the chosen fence-SC order")

	// CoRR has no fence.sc and a single write per location, so no run-time
	// order was chosen and the note about choices would mislead.
	s = newSession(t, "CoRR.litmus")
	out = script(t, s, `:find P1:r0 == 1 /\ P1:r1 == 0`, ":checks")
	assert.Contains(t, out, "fails:")
	assert.NotContains(t, out, "run-time orders")
}

func TestQueriesAndWhy(t *testing.T) {
	s := newSession(t, "MP.litmus")
	out := script(t, s, `:find P1:%r0 == 1 /\ P1:%r1 == 1`, "?- sync(X, Y).", "?- rf(X, Y), IW(X).", "?- po(e2, e3).", "?- po(e3, e2).", "?- po(X, e3).", "?- !W(X).")
	assert.Contains(t, out, "X = e3 P0:fence.sys;  Y = e6 P1:fence.sys\n1 answer(s)")
	assert.Contains(t, out, "0 answer(s)", "no read reads an initial write in this execution")
	assert.Contains(t, out, "yes\nno\n", "events are named eN in queries")
	assert.Contains(t, out, "X = e2 P0:st.global.u32 [data], 1\n1 answer(s)")
	assert.Contains(t, out, "error: query:1:1: variable X is not bound")
	out = script(t, s, ":why sync(e3, e6)")
	assert.Contains(t, out, "sync(e3, e6)   [sync = sync_fence | sync_barrier | sync_cluster | sync_pattern]")
	assert.Contains(t, out, "    obs(e4, e5)   [obs = ms & rf | mbar_rf | obs ; rmw ; obs]")
	assert.Contains(t, out, "      rf(e4, e5)   [base]")
	assert.Contains(t, out, "events:\n  e3 P0:fence.sys\n")
	assert.NotContains(t, out, "$", "generated relations are folded away")
	out = script(t, s, ":why sync(e2, e3)", ":why nosuch(e1)", ":why sync(e99, e1)")
	assert.Contains(t, out, "error: sync(e2, e3) does not hold")
	assert.Contains(t, out, "error: unknown relation nosuch")
	assert.Contains(t, out, "error: e99 is not an event of this execution")
}

func TestAddRulesAndChecks(t *testing.T) {
	s := newSession(t, "SB+fence.acq_rel.litmus")
	out := script(t, s, "late_write(X) :- W(X), !IW(X).", "?- late_write(X).")
	assert.Contains(t, out, "added to the model\n  no outcome changed")
	assert.Contains(t, out, "2 answer(s)")
	// A check that forbids reading the initial value changes the outcomes.
	out = script(t, s, ".check no_init_reads: empty(rf & (IW * R))")
	assert.Contains(t, out, "now forbidden: P0:r0=0; P1:r1=0;")
	out = script(t, s, "bad(X :- W(X).")
	assert.Contains(t, out, "error: ")
	out = script(t, s, "?- late_write(X).")
	assert.Contains(t, out, "answer(s)", "a rejected addition leaves the session usable")
	// The rejected text left the earlier additions in force: the outcome
	// the check forbids stays forbidden.
	out = script(t, s, "early_write(X) :- IW(X).")
	assert.Contains(t, out, "added to the model\n  no outcome changed")
	assert.Contains(t, script(t, s, ":checks"), "no_init_reads")
}

func TestReloadShowsChangedOutcomes(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "model.dl")
	spec, err := os.ReadFile(filepath.Join("..", "spec.dl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(model, spec, 0o644))
	s, err := New(ModelSource{Path: model}, checker.DefaultOptions())
	require.NoError(t, err)
	require.NoError(t, s.LoadTest(filepath.Join("..", "examples", "CoRR.litmus"), 0))
	require.NoError(t, os.WriteFile(model, []byte(strings.Replace(string(spec),
		".check sc_per_location: acyclic((ms & com) | (po & vaddr))", "", 1)+"\n"), 0o644))
	out := script(t, s, ":reload")
	// Without SC per location, causality still forbids CoRR's outcome: no change.
	assert.Contains(t, out, "reloaded "+model)
	assert.Contains(t, out, "no outcome changed")
	require.NoError(t, os.WriteFile(model, []byte(strings.Replace(string(spec),
		".check causality: irreflexive((rf | fr) ; cause)", "", 1)+"\n"), 0o644))
	out = script(t, s, ":reload")
	assert.Contains(t, out, "no outcome changed", "SC per location alone also forbids it")
}

func TestUsageErrors(t *testing.T) {
	s := newSession(t, "")
	out := script(t, s, ":execs", ":checks", ":bogus", ":exec x", ":test", ":help")
	assert.Contains(t, out, "error: no test loaded: use :test FILE")
	assert.Contains(t, out, "error: no execution selected")
	assert.Contains(t, out, "error: unknown command :bogus (type :help)")
	assert.Contains(t, out, "error: usage: :exec N")
	assert.Contains(t, out, "error: usage: :test FILE [K]")
	assert.Contains(t, out, ":why       REL(eA, eB)")
	out = script(t, s, ":test "+filepath.Join("..", "examples", "MP-scopes.test")+" 3", ":execs ok")
	assert.Contains(t, out, "MP-scopes[3]: ")
}

func TestComplete(t *testing.T) {
	s := newSession(t, "")
	cases := []struct {
		line    string
		pos     int
		want    string
		wpos    int
		match   bool
		options []string // the candidates, listed when nothing more is common
	}{
		{":ex", 3, ":exec", 5, true, nil},
		{":rela", 5, ":relations ", 11, true, nil},
		{":rel", 4, "", 0, false, []string{":relations", ":reload"}},
		{"?- sync_b", 9, "?- sync_barrier", 15, true, nil},
		{"?- zzz", 6, "", 0, false, nil},
		{"?- cause_base(X, Y), W(X", 24, "", 0, false, nil},
	}
	for _, c := range cases {
		line, pos, ok, options := s.complete(c.line, c.pos)
		assert.Equal(t, c.match, ok, c.line)
		if ok {
			assert.Equal(t, c.want, line, c.line)
			assert.Equal(t, c.wpos, pos, c.line)
		}
		if c.options != nil {
			assert.ElementsMatch(t, c.options, options, c.line)
		}
	}
}

// TestCandidateBoundFailsLoudly checks that a test with more candidates than
// the session may keep is refused with the limit and its flag named, rather
// than listed in part.
func TestCandidateBoundFailsLoudly(t *testing.T) {
	opts := checker.DefaultOptions()
	opts.MaxCandidates = 2
	s, err := New(ModelSource{Path: filepath.Join("..", "spec.dl")}, opts)
	require.NoError(t, err)
	err = s.LoadTest(filepath.Join("..", "examples", "MP.litmus"), 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "limit of 2 candidate executions reached; raise it with -max-candidates")

	opts.MaxCandidates = 4
	s, err = New(ModelSource{Path: filepath.Join("..", "spec.dl")}, opts)
	require.NoError(t, err)
	require.NoError(t, s.LoadTest(filepath.Join("..", "examples", "MP.litmus"), 0))
	assert.Equal(t, 4, strings.Count(script(t, s, ":execs"), "\n"), "all four candidates are listed")
}

// TestThinAirStatusAgreesWithChecks: a candidate whose values form a
// thin-air cycle is listed as forbidden by no_thin_air under spec.dl, and,
// with that check removed from the model, as consistent without a final
// state: never "forbidden" while every check holds.
func TestThinAirStatusAgreesWithChecks(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "model.dl")
	spec, err := os.ReadFile(filepath.Join("..", "spec.dl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(model, spec, 0o644))
	s, err := New(ModelSource{Path: model}, checker.DefaultOptions())
	require.NoError(t, err)
	require.NoError(t, s.LoadTest(filepath.Join("..", "examples", "NTA+atom.litmus"), 0))
	out := script(t, s, ":execs")
	assert.Contains(t, out, "forbidden: no_thin_air")
	assert.NotRegexp(t, `(?m)forbidden +P`, out, "every forbidden candidate names a failed check:\n%s", out)

	without := strings.Replace(string(spec), ".check no_thin_air: acyclic(rf | addr | data | ctrl)", "", 1)
	require.NotEqual(t, string(spec), without)
	require.NoError(t, os.WriteFile(model, []byte(without), 0o644))
	out = script(t, s, ":reload", ":execs")
	assert.Contains(t, out, "consistent, no final state")
	assert.Contains(t, out, "(not final: its values form a cycle")
	assert.NotRegexp(t, `(?m)forbidden +P`, out, "every forbidden candidate names a failed check:\n%s", out)
}

// TestDefaultModelIsBuiltin: a session over the embedded default model
// (no path) has the embedded model, as ptxmm check does, until it adds a
// rule of its own; a session over a file of the same name does not.
func TestDefaultModelIsBuiltin(t *testing.T) {
	s, err := New(ModelSource{FS: os.DirFS(".."), Name: "spec.dl"}, checker.DefaultOptions())
	require.NoError(t, err)
	assert.True(t, s.model.Builtin, "the embedded default")
	script(t, s, "late(X) :- W(X), !IW(X).")
	assert.False(t, s.model.Builtin, "a session's own rule makes it a user's model")

	s, err = New(ModelSource{Path: filepath.Join("..", "spec.dl")}, checker.DefaultOptions())
	require.NoError(t, err)
	assert.False(t, s.model.Builtin, "a file named on the command line")
}

// TestErrorsEscapeControlCharacters: an error that repeats what the user
// typed writes its control characters as escapes, so that a pasted line
// cannot clear or retitle the terminal (found by FuzzLines).
func TestErrorsEscapeControlCharacters(t *testing.T) {
	s := newSession(t, "MP.litmus")
	cases := []struct {
		line, want string
	}{
		{":\x1b[2J", `error: unknown command :\x1b[2J (type :help)`},
		{":\x140", `error: unknown command :\x140 (type :help)`},
		{":exec 1\x07", `error: usage: :exec N`},
		{":test nosuch\x1b]0;title\x07.litmus", `nosuch\x1b]0;title\x07.litmus`},
		{":why po\u202e(e1, e2)", `\u202e`},
		{":find P1:r0 == \x1b", `\x1b`},
	}
	for _, c := range cases {
		out := script(t, s, c.line)
		assert.Contains(t, out, c.want, "%q", c.line)
		assert.Equal(t, -1, strings.IndexFunc(out, isControl), "%q printed %q", c.line, out)
	}
}
