package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/internal/explore"
	"github.com/ptxmm/ptxmm/report"
	"github.com/ptxmm/ptxmm/rules"
)

// selected is one execution of a run, evaluated with provenance.
type selected struct {
	entry *runEntry
	model *compiled
	index int
	cand  checker.Candidate
	inst  *rules.Instance
	// ctx bounds what is evaluated on inst: the request's context and
	// its time limit.
	ctx context.Context
}

// selectExec prepares execution k of a run for inspection: the run from
// the cache or checked, the execution's relations evaluated under the
// request's context and time limit, in memory reserved from what the
// requests share (extra more, for what the caller adds: a query's
// answer). The caller calls done when it no longer needs them.
func (s *Server) selectExec(c *apiCall, test TestSource, model ModelSource, k int, extra int64) (*selected, func(), error) {
	e, m, _, err := s.prepare(c, test, model, "model")
	if err != nil {
		return nil, nil, err
	}
	cand, err := e.candidate(k)
	if err != nil {
		return nil, nil, err
	}
	ev, err := s.instance(c, m, cand, fmt.Sprintf("execution %d", k), extra)
	if err != nil {
		return nil, nil, err
	}
	return &selected{entry: e, model: m, index: k, cand: cand, inst: ev.inst, ctx: ev.ctx}, ev.done, nil
}

// view is the selected execution as the exploration core sees it.
func (sel *selected) view() *explore.View {
	return &explore.View{Model: sel.model.model, Cand: sel.cand, Inst: sel.inst}
}

// evaluated is a candidate's instance, the context it is evaluated under
// and the function that releases both.
type evaluated struct {
	inst *rules.Instance
	ctx  context.Context
	done func()
}

// instance evaluates one candidate of model m with provenance, in memory
// reserved for it (and extra more), under the request's context and
// -timeout. done gives the memory back.
func (s *Server) instance(c *apiCall, m *compiled, cand checker.Candidate, what string, extra int64) (*evaluated, error) {
	// The estimate covers the relations; the order search and the
	// relations of three or more columns grow past it.
	need := 2*m.model.Program.EstimateBytes(len(cand.Execution.Events)) + 1<<20 + extra
	if err := c.reserve(what, need); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(c.ctx, s.cfg.Options.Timeout, &timeLimitError{what: what, limit: s.cfg.Options.Timeout})
	inst, err := m.model.InstanceContext(ctx, cand, need)
	if err != nil {
		err = stopCause(ctx, c.ctx, err)
		cancel()
		c.release(need)
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &evaluated{inst: inst, ctx: ctx, done: func() { cancel(); c.release(need) }}, nil
}

// timeLimitError is the -timeout of evaluating one execution or query.
type timeLimitError struct {
	what  string
	limit time.Duration
}

func (e *timeLimitError) Error() string {
	return fmt.Sprintf("%s took longer than the time limit of %s; raise it with -timeout", e.what, e.limit)
}

// stopCause turns an evaluation stopped by ctx's deadline into the time
// limit's error; a request that ended (outer done) keeps its own error.
func stopCause(ctx, outer context.Context, err error) error {
	if ctx.Err() != nil && outer.Err() == nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
	}
	return err
}

func (s *Server) handleExec(cl *apiCall, req *ExecRequest) (any, error) {
	sel, done, err := s.selectExec(cl, req.Test, req.Model, req.Exec, 0)
	if err != nil {
		return nil, err
	}
	defer done()
	e, c, m, v := sel.entry, sel.cand, sel.model.model, sel.view()
	x := c.Execution
	resp := &ExecResponse{Index: sel.index, Count: len(e.cands), Consistent: c.Consistent, State: e.state(c),
		Failures: failureNames(c), Events: events(v), Checks: []CheckInfo{}}
	witness := map[string][]rules.Edge{}
	for _, ch := range v.Checks() {
		info := checkInfo(ch)
		if !ch.Holds && len(ch.Edges) > 0 {
			witness[ch.Name] = ch.Edges
		}
		resp.Checks = append(resp.Checks, info)
	}
	if !c.Consistent && v.ChoseOrder() {
		resp.OrderNote = explore.OrderNote
	}
	resp.Note = execNote(c, resp.Checks)
	if c.Consistent && c.NoFinalState() == "" {
		resp.Explanation = report.AllowedText(checker.Allowed{Execution: x, Reads: checker.ReadSources(x, sel.inst)})
	}
	if disabled := normalizedDisabled(req.Model.Disabled); len(disabled) > 0 {
		unticked, names, err := s.untickedChecks(cl, req, c, disabled)
		if err != nil {
			return nil, err
		}
		resp.Checks = append(resp.Checks, unticked...)
		if c.Consistent {
			resp.Unticked = names
		}
	}
	rels, err := offeredRelations(m, sel.inst, witness, req.Added, req.Hidden)
	if err != nil {
		return nil, err
	}
	resp.Relations = rels
	resp.AllRelations = binaryRelations(m)
	var drawn []graph.SVGRelation
	for _, r := range rels {
		if r.Shown {
			drawn = append(drawn, graph.SVGRelation{Name: r.Name, Color: r.Color})
		}
	}
	verdict := "consistent"
	if !c.Consistent {
		verdict = "forbidden"
		if len(resp.Failures) > 0 {
			verdict += " by " + strings.Join(resp.Failures, ", ")
		}
	}
	title := fmt.Sprintf("%s: execution %d of %d, %s: %s", e.test.Name, sel.index, len(e.cands), verdict, resp.State)
	svg, err := graph.SVG(x, sel.inst, graph.SVGOptions{Title: title, Relations: drawn, Witness: witness})
	if err != nil {
		return nil, err
	}
	resp.SVG = svg
	return resp, nil
}

// untickedChecks evaluates the disabled checks on the execution with the
// whole model, so the page can say what each would have said.
func (s *Server) untickedChecks(cl *apiCall, req *ExecRequest, c checker.Candidate, disabled []string) ([]CheckInfo, []string, error) {
	full, err := s.model(cl, whole(req.Model))
	if err != nil {
		return nil, nil, texts{test: req.Test.Name, model: req.Model.Name}.invalid("model", err)
	}
	ev, err := s.instance(cl, full, c, "the execution under the whole model", 0)
	if err != nil {
		return nil, nil, err
	}
	defer ev.done()
	v := &explore.View{Model: full.model, Cand: c, Inst: ev.inst}
	var out []CheckInfo
	var failing []string
	for _, ch := range v.Checks() {
		if !slices.Contains(disabled, ch.Name) {
			continue
		}
		info := checkInfo(ch)
		info.Unticked = true
		out = append(out, info)
		if !ch.Holds {
			failing = append(failing, ch.Name)
		}
	}
	return out, failing, nil
}

// checkInfo is a check's verdict with its witness as a chain of edges.
func checkInfo(ch explore.Check) CheckInfo {
	info := CheckInfo{Name: ch.Name, Holds: ch.Holds, Chain: ch.Chain}
	for _, ed := range ch.Edges {
		info.Edges = append(info.Edges, EdgeInfo{From: ed.From, To: ed.To, Rel: ed.Rel, Inverse: ed.Inverse})
	}
	return info
}

func events(v *explore.View) []EventInfo {
	evs := v.Events()
	out := make([]EventInfo, len(evs))
	for i, e := range evs {
		out[i] = eventInfo(e)
	}
	return out
}

func eventInfo(e explore.Event) EventInfo {
	return EventInfo{ID: e.ID, Label: e.Label, Thread: e.Thread}
}

// binaryRelations lists the model's binary relations a user can name.
func binaryRelations(m *checker.Model) []string {
	out := []string{}
	for _, name := range m.Syntax.Names {
		r := m.Syntax.Relations[name]
		if r.Arity == 2 && !r.Generated && r.Kind != datalog.RelUniverse && !strings.ContainsRune(name, '$') {
			out = append(out, name)
		}
	}
	return out
}

// relationOrder is the order relations get their colours in, the same for
// every execution of a model: the model's .edges, the relations it shows,
// then every other binary relation.
func relationOrder(m *checker.Model) []string {
	var out []string
	seen := map[string]bool{}
	add := func(names ...string) {
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	add(m.Syntax.Edges...)
	add(m.Show...)
	add(binaryRelations(m)...)
	return out
}

// offeredRelations lists the relations the picture offers check-boxes for:
// those the model shows (checker.Model.Show), its .edges, the witnesses'
// relations and those added; each shown unless hidden, except .edges ones
// that were not asked for and shown ones without a pair in this execution
// (spec.dl's CUDA API rules in a test without host threads).
func offeredRelations(m *checker.Model, inst *rules.Instance, witness map[string][]rules.Edge, added, hidden []string) ([]RelationInfo, error) {
	order := relationOrder(m)
	color := map[string]string{}
	for i, n := range order {
		color[n] = graph.SVGColor(i)
	}
	inWitness := map[string]bool{}
	for _, edges := range witness {
		for _, ed := range edges {
			inWitness[ed.Rel] = true
		}
	}
	for _, n := range added {
		if _, ok := color[n]; !ok {
			return nil, badRequest("added relation %q: the model has no binary relation of that name", n)
		}
	}
	want := map[string]bool{}
	for _, n := range m.Show {
		if r, err := inst.Rel(n); err == nil && r.Len() > 0 {
			want[n] = true
		}
	}
	for n := range inWitness {
		want[n] = true
	}
	for _, n := range added {
		want[n] = true
	}
	offered := map[string]bool{}
	for n := range want {
		offered[n] = true
	}
	for _, n := range m.Syntax.Edges {
		offered[n] = true
	}
	for _, n := range m.Show {
		offered[n] = true
	}
	var out []RelationInfo
	for _, n := range order {
		if !offered[n] {
			continue
		}
		r, err := inst.Rel(n)
		if err != nil {
			continue // a model without po, say
		}
		pairs := r.Len()
		if n == "po" {
			pairs = graph.CoveringPairs(r)
		}
		out = append(out, RelationInfo{Name: n, Color: color[n], Shown: want[n] && !slices.Contains(hidden, n),
			Pairs: pairs, Witness: inWitness[n]})
	}
	return out, nil
}

// execNote says what the checks shown do not: why an execution that every
// check accepts is forbidden, or why an execution has no final state.
func execNote(c checker.Candidate, checks []CheckInfo) string {
	x := c.Execution
	stuck := ""
	if s := x.Stuck(); len(s) > 0 {
		stuck = " (" + strings.Join(s, "; ") + " waits forever)"
	}
	if c.Consistent {
		if why := c.NoFinalState(); why != "" {
			return "This execution has no final state: " + why + stuck + ", so the condition does not range over it (docs/model.md, \"Hangs\")."
		}
		if stuck != "" {
			return "A thread never finishes" + stuck + "; it waits at its last instruction, so the execution is judged by its final state (docs/model.md, \"Hangs\")."
		}
		return ""
	}
	for _, ch := range checks {
		if !ch.Holds && !ch.Unticked {
			return ""
		}
	}
	switch {
	case x.Undetermined:
		return "Every check holds, but the values of this execution form a cycle of reads-from and dependencies (out of thin air): they are not determined, so it is not an outcome."
	case len(x.LatestReads)+len(x.FinalPolls) > 0:
		also := ""
		if len(c.Finals) > 0 {
			also = ", together with the final values this candidate picks"
		}
		return "Every check holds, but a thread polls for ever here" + stuck + ": under a fair scheduler a load that polls for ever eventually reads the last write of its location (an mbarrier wait, its mbarrier's final state), and no choice of the model's run-time orders that the checks accept makes what its last iteration reads the last" + also + " (docs/model.md, \"Awaits and termination\")."
	case len(c.Finals) > 0:
		return "Every check holds for its reads, but no choice of the model's run-time orders (coherence, Fence-SC) that the checks accept makes the writes this candidate picks the last ones of the observed locations: another candidate with the same reads ends with the other final values" + stuck + "."
	}
	return "Every check holds, but the search of the model's run-time orders rejects this candidate" + stuck + "."
}
