package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mpStale = "P1:%r0=1; P1:%r1=0;"

// TestRun checks verdicts, counts and the execution list against what
// ptxmm check says of the shipped examples.
func TestRun(t *testing.T) {
	_, ts := newTestServer(t, nil)
	cases := []struct {
		test        TestSource
		verdict     string
		observation string
		executions  int
		forbidden   []string // the forbidden executions' final states
		herd        string
	}{
		{example(t, "MP.litmus"), "No", "Never", 4, []string{mpStale}, "Observation MP Never 0 3"},
		{example(t, "SB+fence.acq_rel.litmus"), "Ok", "Sometimes", 4, nil, "Observation SB+fence.acq_rel Sometimes 1 3"},
		{example(t, "CoRR.litmus"), "No", "Never", 0, nil, "Observation CoRR Never"},
	}
	for _, c := range cases {
		t.Run(c.test.Name, func(t *testing.T) {
			r := call[RunResponse](t, ts, "/api/run", RunRequest{Test: c.test, Model: specModel(t)})
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.observation, r.Observation)
			assert.Contains(t, r.Herd, c.herd)
			if c.executions > 0 {
				assert.Len(t, r.Executions, c.executions)
			}
			assert.Equal(t, r.Candidates, len(r.Executions), "every candidate is listed")
			var forbidden []string
			consistent := 0
			for i, e := range r.Executions {
				assert.Equal(t, i+1, e.Index)
				require.Len(t, e.Satisfies, 1)
				if e.Consistent {
					consistent++
					assert.Empty(t, e.Failures)
				} else {
					assert.NotEmpty(t, e.Failures, "a forbidden execution names its checks")
					if c.forbidden != nil {
						forbidden = append(forbidden, e.State)
					}
				}
			}
			assert.Equal(t, r.Consistent, consistent)
			assert.Equal(t, c.forbidden, forbidden)
			assert.Equal(t, []string{"coherence", "fence_sc", "atomicity", "atomicity_rmw", "no_thin_air", "sc_per_location", "tcgen05_order", "causality", "query_result", "device_synchronize"}, r.Model.Checks)
		})
	}
}

// TestRunTemplateRows: each row of a .test template is its own instance.
func TestRunTemplateRows(t *testing.T) {
	_, ts := newTestServer(t, nil)
	src := example(t, "MP-scopes.test")
	holds := map[int]bool{}
	for k := 1; k <= 3; k++ {
		src.Instance = k
		r := call[RunResponse](t, ts, "/api/run", RunRequest{Test: src, Model: specModel(t)})
		assert.Equal(t, 3, r.Test.Instances)
		assert.Equal(t, k, r.Test.Instance)
		assert.Empty(t, r.Verdict, ".test files have assertions, not a herd verdict")
		require.Len(t, r.Assertions, 1)
		require.Len(t, r.Test.Conditions, 1)
		holds[k] = r.Assertions[0].Holds
	}
	assert.Equal(t, map[int]bool{1: true, 2: true, 3: true}, holds, "MP-scopes' assertions hold row by row (examples/MP-scopes.test)")
	src.Instance = 4
	e := fail(t, ts, "/api/run", RunRequest{Test: src, Model: specModel(t)}, http.StatusUnprocessableEntity)
	assert.Contains(t, e.Error, "there is no instance 4")
}

// TestRunCache: the same request is answered from the result cache; any
// change to the test or the model is not.
func TestRunCache(t *testing.T) {
	_, ts := newTestServer(t, nil)
	req := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	assert.False(t, call[RunResponse](t, ts, "/api/run", req).Cached)
	assert.True(t, call[RunResponse](t, ts, "/api/run", req).Cached)
	edited := req
	edited.Test.Text += "\n"
	assert.False(t, call[RunResponse](t, ts, "/api/run", edited).Cached)
	edited = req
	edited.Model.Extra = []string{"late(X) :- W(X), !IW(X)."}
	assert.False(t, call[RunResponse](t, ts, "/api/run", edited).Cached)
}

// TestExecution: the forbidden MP execution with its witness, the relations
// offered, hidden and added, and the picture.
func TestExecution(t *testing.T) {
	_, ts := newTestServer(t, nil)
	req := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	k := forbidden(t, call[RunResponse](t, ts, "/api/run", req)).Index
	shown := func(r ExecResponse) map[string]bool {
		out := map[string]bool{}
		for _, rel := range r.Relations {
			out[rel.Name] = rel.Shown
		}
		return out
	}

	x := call[ExecResponse](t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: req.Model, Exec: k})
	assert.False(t, x.Consistent)
	assert.Equal(t, []string{"causality"}, x.Failures)
	assert.Equal(t, mpStale, x.State)
	assert.Len(t, x.Events, 8)
	var causality CheckInfo
	for _, c := range x.Checks {
		if c.Name == "causality" {
			causality = c
		} else {
			assert.True(t, c.Holds, c.Name)
		}
	}
	assert.False(t, causality.Holds)
	var rels []string
	for _, e := range causality.Edges {
		rels = append(rels, e.Rel)
	}
	assert.Equal(t, []string{"fr", "po", "sync", "po"}, rels)
	assert.Contains(t, causality.Chain, "-fr-> P0:st.global.u32 [data], 1")
	assert.Equal(t, map[string]bool{"po": true, "rf": true, "co": true, "fr": true, "sync": true}, onlyTrue(shown(x)),
		"po, rf, co, fr and the witness's sync are drawn")
	assert.Contains(t, shown(x), "obs", ".edges relations are offered")
	assert.Contains(t, x.SVG, `class="edge witness" data-rel="sync"`)
	assert.Contains(t, x.SVG, `data-rel="co"`)
	assert.Contains(t, x.AllRelations, "cause")

	hidden := call[ExecResponse](t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: req.Model, Exec: k,
		Hidden: []string{"co", "sync"}, Added: []string{"obs"}})
	assert.Equal(t, map[string]bool{"po": true, "rf": true, "fr": true, "obs": true}, onlyTrue(shown(hidden)))
	assert.NotContains(t, hidden.SVG, `data-rel="co"`)
	assert.NotContains(t, hidden.SVG, `data-rel="sync"`)
	assert.Contains(t, hidden.SVG, `data-rel="obs"`)

	e := fail(t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: req.Model, Exec: k, Added: []string{"nosuch"}}, http.StatusBadRequest)
	assert.Contains(t, e.Error, "nosuch")
	for _, bad := range []int{0, 5, -1} {
		e = fail(t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: req.Model, Exec: bad}, http.StatusBadRequest)
		assert.Contains(t, e.Error, "4 candidate execution(s)")
	}
}

func onlyTrue(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if v {
			out[k] = true
		}
	}
	return out
}

// TestWhy: derivation trees of edges, as :why prints them.
func TestWhy(t *testing.T) {
	_, ts := newTestServer(t, nil)
	req := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	k := forbidden(t, call[RunResponse](t, ts, "/api/run", req)).Index
	why := func(rel string, args ...int) WhyRequest {
		return WhyRequest{Test: req.Test, Model: req.Model, Exec: k, Rel: rel, Args: args}
	}
	w := call[WhyResponse](t, ts, "/api/why", why("fr", 7, 2))
	assert.Equal(t, "fr", w.Tree.Rel)
	assert.Equal(t, []int{7, 2}, w.Tree.Args)
	assert.Equal(t, `fr = (rf^-1 ; co) & loc \ id`, w.Tree.Rule)
	require.NotEmpty(t, w.Tree.Children)
	assert.Equal(t, "rf", w.Tree.Children[0].Rel)
	assert.True(t, w.Tree.Children[0].Base)
	assert.True(t, strings.HasPrefix(w.Text, "fr(e7, e2)   [fr = "), w.Text)
	assert.Contains(t, w.Text, "events:\n  e0 init:data=0\n")
	for _, e := range w.Events {
		assert.Contains(t, []int{0, 2, 7}, e.ID, "only the events of the derivation are listed")
	}

	base := call[WhyResponse](t, ts, "/api/why", why("rf", 4, 5))
	assert.True(t, base.Tree.Base)
	assert.Empty(t, base.Tree.Children)

	cases := []struct {
		name   string
		req    WhyRequest
		status int
		msg    string
	}{
		{"a pair that does not hold", why("fr", 2, 7), http.StatusUnprocessableEntity, "does not hold"},
		{"an unknown relation", why("nosuch", 2, 7), http.StatusUnprocessableEntity, "unknown relation nosuch"},
		{"a wrong arity", why("fr", 2), http.StatusUnprocessableEntity, "2 column(s)"},
		{"an event out of range", why("fr", 7, 99), http.StatusBadRequest, "e99 is not an event"},
		{"no relation", why("", 7, 2), http.StatusBadRequest, "name the relation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Contains(t, fail(t, ts, "/api/why", c.req, c.status).Error, c.msg)
		})
	}
}

// TestQuery: queries and :show over one execution, as in the REPL.
func TestQuery(t *testing.T) {
	_, ts := newTestServer(t, nil)
	req := RunRequest{Test: example(t, "MP.litmus"), Model: specModel(t)}
	k := forbidden(t, call[RunResponse](t, ts, "/api/run", req)).Index
	q := func(line string) QueryRequest {
		return QueryRequest{Test: req.Test, Model: req.Model, Exec: k, Query: line}
	}
	cases := []struct {
		line    string
		columns []string
		rows    int
		text    string
	}{
		{"?- rf(X, Y).", []string{"X", "Y"}, 2, "X = e0 init:data=0;  Y = e7 P1:ld.global.u32 %r1, [data] =0\n"},
		{"?- sync(X, Y), F(X)", []string{"X", "Y"}, 1, "1 answer(s)\n"},
		{":show fr", []string{"fr.1", "fr.2"}, 1, "e7 P1:ld.global.u32 %r1, [data] =0  ->  e2 P0:st.global.u32 [data], 1\nfr: 1 tuple(s)\n"},
		{"?- W(e2).", []string{}, 1, "yes\n"},
		{"?- R(e2).", []string{}, 0, "no\n"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			a := call[QueryResponse](t, ts, "/api/query", q(c.line))
			assert.Equal(t, c.columns, append([]string{}, a.Columns...))
			assert.Len(t, a.Rows, c.rows)
			assert.Equal(t, c.rows, a.Total)
			assert.Contains(t, a.Text, c.text)
		})
	}
	bad := []struct {
		line   string
		status int
		msg    string
	}{
		{"?- nosuch(X).", http.StatusUnprocessableEntity, "unknown relation nosuch"},
		{"?- rf(X", http.StatusUnprocessableEntity, "query:1:"},
		{":show nosuch", http.StatusUnprocessableEntity, "nosuch"},
		{":show", http.StatusBadRequest, "usage"},
		{"late(X) :- W(X).", http.StatusBadRequest, "ModelSource.Extra"},
		{`?- rf(X, Y). .include "/etc/passwd"`, http.StatusUnprocessableEntity, "confined"},
	}
	for _, c := range bad {
		t.Run(c.line, func(t *testing.T) {
			assert.Contains(t, fail(t, ts, "/api/query", q(c.line), c.status).Error, c.msg)
		})
	}
}

// TestUntick: leaving causality out allows MP's stale read, and the page
// is told that causality alone forbids it.
func TestUntick(t *testing.T) {
	_, ts := newTestServer(t, nil)
	model := specModel(t)
	model.Disabled = []string{"causality"}
	req := RunRequest{Test: example(t, "MP.litmus"), Model: model}
	r := call[RunResponse](t, ts, "/api/run", req)
	assert.Equal(t, "Ok", r.Verdict)
	assert.Equal(t, []string{"causality"}, r.Model.Disabled)
	assert.Contains(t, r.Model.Checks, "causality", "the axioms listed include the unticked one")
	require.NotNil(t, r.Unticked)
	assert.Equal(t, []string{mpStale}, r.Unticked.NowAllowed)
	var stale ExecSummary
	for _, e := range r.Executions {
		assert.True(t, e.Consistent)
		if e.State == mpStale {
			stale = e
		} else {
			assert.Empty(t, e.Unticked)
		}
	}
	assert.Equal(t, []string{"causality"}, stale.Unticked)

	x := call[ExecResponse](t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: model, Exec: stale.Index})
	assert.True(t, x.Consistent)
	assert.Equal(t, []string{"causality"}, x.Unticked)
	last := x.Checks[len(x.Checks)-1]
	assert.Equal(t, CheckInfo{Name: "causality", Holds: false, Unticked: true, Chain: last.Chain, Edges: last.Edges}, last)
	assert.Contains(t, last.Chain, "-sync->")

	model.Disabled = []string{"nosuch"}
	e := fail(t, ts, "/api/run", RunRequest{Test: req.Test, Model: model}, http.StatusUnprocessableEntity)
	assert.Contains(t, e.Error, "no check named nosuch")
	model.Disabled = []string{"not a name"}
	fail(t, ts, "/api/run", RunRequest{Test: req.Test, Model: model}, http.StatusBadRequest)
}

// TestExtra: rules and checks added as in the REPL change the outcomes;
// an error in one is reported in it.
func TestExtra(t *testing.T) {
	_, ts := newTestServer(t, nil)
	model := specModel(t)
	model.Extra = []string{".check no_init_reads: empty(rf & (IW * R))", "late(X) :- W(X), !IW(X)."}
	req := RunRequest{Test: example(t, "MP.litmus"), Model: model}
	r := call[RunResponse](t, ts, "/api/run", req)
	assert.Equal(t, []string{"P1:%r0=1; P1:%r1=1;"}, r.States, "only the execution reading no initial value remains")
	assert.Contains(t, r.Model.Checks, "no_init_reads")
	a := call[QueryResponse](t, ts, "/api/query", QueryRequest{Test: req.Test, Model: model, Exec: 1, Query: "?- late(X)."})
	assert.Equal(t, 2, a.Total, "the two stores of P0")

	model.Extra = []string{"late(X) :- W(X), !IW(X).", "also(X) :- W(X"}
	e := fail(t, ts, "/api/run", RunRequest{Test: req.Test, Model: model}, http.StatusUnprocessableEntity)
	require.NotEmpty(t, e.Diagnostics)
	d := e.Diagnostics[0]
	assert.Equal(t, "extra", d.Source)
	assert.Equal(t, 2, d.Item)
	assert.Equal(t, 1, d.Line)
	assert.Positive(t, d.Col)
}

// TestDiff compares models on one test.
func TestDiff(t *testing.T) {
	_, ts := newTestServer(t, nil)
	oneStep := ModelSource{Name: "variants/obs-one-step.dl", Text: library(t, "variants/obs-one-step.dl")}
	test := example(t, "MP+rmw-chain.litmus")
	d := call[DiffResponse](t, ts, "/api/diff", DiffRequest{Test: test, A: specModel(t), B: oneStep})
	assert.True(t, d.Differs)
	assert.Equal(t, "No", d.VerdictA)
	assert.Equal(t, "Ok", d.VerdictB)
	assert.Empty(t, d.OnlyA)
	require.Len(t, d.OnlyB, 1)
	require.NotEmpty(t, d.OnlyB[0].Rejections)
	assert.Equal(t, "causality", d.OnlyB[0].Rejections[0].Check)
	assert.Contains(t, d.Text, "allowed by variants/obs-one-step.dl, forbidden by spec.dl")

	same := call[DiffResponse](t, ts, "/api/diff", DiffRequest{Test: test, A: specModel(t), B: specModel(t)})
	assert.False(t, same.Differs)
	assert.Contains(t, same.Text, "agree")

	broken := ModelSource{Name: "b.dl", Text: "let x = "}
	e := fail(t, ts, "/api/diff", DiffRequest{Test: test, A: specModel(t), B: broken}, http.StatusUnprocessableEntity)
	assert.True(t, strings.HasPrefix(e.Error, "model B: "), e.Error)
}

// TestExecutionNotes: what the checks alone do not say. A consistent
// execution says why its outcome is allowed; one every check accepts yet
// forbidden says why; one that hangs says which thread waits forever.
func TestExecutionNotes(t *testing.T) {
	_, ts := newTestServer(t, nil)
	execs := func(name string) (RunRequest, RunResponse) {
		test := example(t, name)
		test.Name = name[strings.LastIndex(name, "/")+1:]
		req := RunRequest{Test: test, Model: specModel(t)}
		return req, call[RunResponse](t, ts, "/api/run", req)
	}
	get := func(req RunRequest, k int) ExecResponse {
		return call[ExecResponse](t, ts, "/api/execution", ExecRequest{Test: req.Test, Model: req.Model, Exec: k})
	}

	req, run := execs("MP.litmus")
	x := get(req, forbidden(t, run).Index)
	assert.Empty(t, x.Note, "a failing check says why itself")
	assert.Empty(t, x.Explanation, "a forbidden execution has no allowed outcome to explain")

	req, run = execs("MP+cta-scope.litmus")
	for _, e := range run.Executions {
		if e.State == "P1:r0=1; P1:r1=0;" {
			x = get(req, e.Index)
		}
	}
	require.NotEmpty(t, x.Explanation, "the stale read of MP+cta-scope is explained")
	assert.Contains(t, strings.Join(x.Explanation, "\n"), "does not synchronize")
	assert.Empty(t, x.Note)

	req, _ = execs("Atomicity1.litmus")
	x = get(req, 1)
	assert.False(t, x.Consistent)
	for _, c := range x.Checks {
		assert.True(t, c.Holds, c.Name)
	}
	assert.Contains(t, x.Note, "no choice of the model's run-time orders")

	req, run = execs("hangs/Hang-unsettled.litmus")
	for _, e := range run.Executions {
		if e.Consistent {
			x = get(req, e.Index)
			break
		}
	}
	assert.Contains(t, x.Note, "no final state")
	assert.Contains(t, x.Note, "waits forever")
	assert.Empty(t, x.Explanation, "no final state, no outcome to explain")

	// Spin-forever: the spin that reads the initial flag for ever while
	// P0's store comes later in coherence is not fair.
	req, run = execs("hangs/Spin-forever.litmus")
	unfair := 0
	for _, e := range run.Executions {
		if !e.Consistent && len(e.Failures) == 0 {
			x = get(req, e.Index)
			assert.Contains(t, x.Note, "polls for ever", e.Index)
			assert.Contains(t, x.Note, "Awaits and termination", e.Index)
			unfair++
		}
	}
	assert.Equal(t, 1, unfair)
}

// TestRunTermination: the termination of a loop that writes is decided
// for the embedded spec.dl sent unchanged, as ptxmm check decides it, and
// not for an edited one (docs/model.md, "Loops that write").
func TestRunTermination(t *testing.T) {
	_, ts := newTestServer(t, nil)
	test := TestSource{Name: "exch-spin.litmus", Text: `PTX exch-spin
{ x=0; P0:r0=0; }
P0@cta 0,gpu 0                 | P1@cta 1,gpu 0      ;
LC00:                          | st.relaxed.gpu x, 1 ;
atom.relaxed.gpu.exch r0, x, 0 |                     ;
bne r0, 1, LC00                |                     ;
exists 0==0
`}
	edited := specModel(t)
	edited.Extra = []string{"late(X) :- W(X), !IW(X)."}
	withText := specModel(t)
	withText.Text += "\n// a comment: the text is no longer the embedded one\n"
	cases := []struct {
		name  string
		model ModelSource
		want  string
	}{
		{"spec.dl unchanged", specModel(t), "Termination exch-spin: every run finishes under a fair scheduler"},
		{"spec.dl with an extra rule", edited, "Termination exch-spin: not decided"},
		{"spec.dl with its text edited", withText, "Termination exch-spin: not decided"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call[RunResponse](t, ts, "/api/run", RunRequest{Test: test, Model: c.model})
			assert.Contains(t, r.Herd, c.want)
		})
	}
}
