package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/report"
	"github.com/ptxmm/ptxmm/rules"
)

// defaultShown are the relations drawn unless hidden, as herd7 draws them.
var defaultShown = []string{"po", "rf", "co", "fr"}

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
	e, c, m := sel.entry, sel.cand, sel.model.model
	x := c.Execution
	resp := &ExecResponse{Index: sel.index, Count: len(e.cands), Consistent: c.Consistent, State: e.state(c),
		Failures: failureNames(c), Events: events(sel), Checks: []CheckInfo{}}
	witness := map[string][]rules.Edge{}
	stop := m.Program.StopAtEdges()
	for _, r := range sel.inst.Checks() {
		info := checkInfo(x, sel.inst, r, stop)
		if !r.Holds && info.Edges != nil {
			witness[r.Name] = edgesOf(info.Edges)
		}
		resp.Checks = append(resp.Checks, info)
	}
	if !c.Consistent && choseOrder(sel.inst, m.Syntax.Orders) {
		resp.OrderNote = "shown under the first choice of the model's run-time orders found failing; every choice fails some check"
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
	inst := ev.inst
	var out []CheckInfo
	var failing []string
	stop := full.model.Program.StopAtEdges()
	for _, r := range inst.Checks() {
		if !slices.Contains(disabled, r.Name) {
			continue
		}
		info := checkInfo(c.Execution, inst, r, stop)
		info.Unticked = true
		out = append(out, info)
		if !r.Holds {
			failing = append(failing, r.Name)
		}
	}
	return out, failing, nil
}

// checkInfo is a check's verdict with its witness as a chain of edges.
func checkInfo(x *execution.Execution, inst *rules.Instance, r rules.CheckResult, stop func(string) bool) CheckInfo {
	info := CheckInfo{Name: r.Name, Holds: r.Holds}
	if r.Holds {
		return info
	}
	edges, err := inst.ExplainCheck(r, stop)
	if err != nil {
		// A witness that is not a path (an empty check over a set, say)
		// is shown as its events.
		info.Chain = report.WitnessText(x, r)
		return info
	}
	info.Chain = report.EdgeChain(x, edges)
	for _, ed := range edges {
		info.Edges = append(info.Edges, EdgeInfo{From: ed.From, To: ed.To, Rel: ed.Rel, Inverse: ed.Inverse})
	}
	return info
}

func events(sel *selected) []EventInfo {
	x := sel.cand.Execution
	out := make([]EventInfo, len(x.Events))
	for i, ev := range x.Events {
		th := ""
		if !ev.IsInit() {
			th = x.Test.Threads[ev.Thread].Name
		}
		out[i] = EventInfo{ID: i, Label: x.Label(i), Thread: th}
	}
	return out
}

func edgesOf(infos []EdgeInfo) []rules.Edge {
	out := make([]rules.Edge, len(infos))
	for i, e := range infos {
		out[i] = rules.Edge{From: e.From, To: e.To, Rel: e.Rel, Inverse: e.Inverse}
	}
	return out
}

// choseOrder reports whether the instance holds a chosen pair of some
// run-time order: only then do the verdicts shown depend on that choice.
func choseOrder(inst *rules.Instance, orders []*datalog.Order) bool {
	for _, o := range orders {
		if r, err := inst.Rel(o.Name); err == nil && r.Len() > 0 {
			return true
		}
	}
	return false
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
// every execution of a model: po, rf, co, fr, the model's .edges, then
// every other binary relation.
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
	add(defaultShown...)
	add(m.Syntax.Edges...)
	add(binaryRelations(m)...)
	return out
}

// offeredRelations lists the relations the picture offers check-boxes for:
// po, rf, co, fr, the model's .edges, the witnesses' relations and those
// added; each shown unless hidden, except .edges ones that were not asked
// for.
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
	for _, n := range defaultShown {
		want[n] = true
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
