package serve

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// prepare validates a test and a model, compiles the model and checks the
// test, each from its cache when possible. what names the model in errors.
func (s *Server) prepare(c *apiCall, test TestSource, model ModelSource, what string) (*runEntry, *compiled, bool, error) {
	if err := validateTest(test); err != nil {
		return nil, nil, false, err
	}
	if err := validateModel(model, what); err != nil {
		return nil, nil, false, err
	}
	tx := texts{test: test.Name, model: model.Name}
	m, err := s.model(c, model)
	if err != nil {
		return nil, nil, false, tx.invalid(what, err)
	}
	e, cached, err := s.run(c, m, test)
	if err != nil {
		return nil, nil, false, tx.invalid("test", err)
	}
	return e, m, cached, nil
}

// answered reports whether err is already the answer to give: a
// classified error, the server being busy, or the request ending.
func answered(err error) bool {
	var ae *apiError
	if _, busy := overloaded(err); busy || errors.As(err, &ae) {
		return true
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && !checker.IsTimeout(err)
}

// whole returns the model without its disabled checks.
func whole(m ModelSource) ModelSource {
	m.Disabled = nil
	return m
}

func (s *Server) handleRun(c *apiCall, req *RunRequest) (any, error) {
	start := time.Now()
	e, m, cached, err := s.prepare(c, req.Test, req.Model, "model")
	if err != nil {
		return nil, err
	}
	resp := runResponse(e, m, cached)
	resp.Model.Disabled = append([]string{}, normalizedDisabled(req.Model.Disabled)...)
	if len(resp.Model.Disabled) > 0 {
		full, fm, _, err := s.prepare(c, req.Test, whole(req.Model), "model")
		if err != nil {
			return nil, err
		}
		resp.Model.Checks = checkNames(fm.model)
		resp.Unticked = compareUnticked(e, full, resp)
	}
	resp.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// runResponse describes a run of model mc.
func runResponse(e *runEntry, mc *compiled, cached bool) *RunResponse {
	t, r := e.test, e.result
	m := mc.model
	resp := &RunResponse{
		Test: TestInfo{Name: t.Name, Format: t.Format.String(), Instance: max(t.Instance, 1), Instances: e.instances,
			Conditions: []string{}},
		Model:    ModelInfo{Name: m.Name, Checks: checkNames(m), Disabled: []string{}, Warnings: []Diagnostic{}},
		Verdict:  r.Verdict,
		Positive: r.Positive, Negative: r.Negative, Candidates: r.Candidates, Consistent: r.Consistent,
		States: []string{}, Executions: []ExecSummary{}, Cached: cached,
	}
	tx := texts{test: t.File, model: m.Name}
	for _, w := range m.Warnings {
		resp.Model.Warnings = append(resp.Model.Warnings, tx.diagnostic(w))
	}
	if t.Condition != nil {
		resp.Observation = r.Observation()
		resp.Test.Conditions = append(resp.Test.Conditions, t.Condition.Kind.String()+" "+litmus.ExprString(t, t.Condition.Expr))
	}
	for i, a := range t.Assertions {
		cond := litmus.ExprString(t, a.Expr)
		resp.Test.Conditions = append(resp.Test.Conditions, a.Kind.String()+" "+a.Name+": "+cond)
		if i < len(r.Assertions) {
			ar := r.Assertions[i]
			resp.Assertions = append(resp.Assertions, AssertionInfo{Name: ar.Name, Kind: ar.Kind.String(), Condition: cond, Holds: ar.Holds, Sometimes: ar.Sometimes})
		}
	}
	var herd bytes.Buffer
	report.Herd(&herd, r)
	resp.Herd = herd.String()
	for _, st := range r.States {
		resp.States = append(resp.States, checker.FormatState(t, r.Layout, r.Observables, st))
	}
	for i, c := range e.cands {
		resp.Executions = append(resp.Executions, ExecSummary{Index: i + 1, Consistent: c.Consistent,
			Failures: failureNames(c), State: e.state(c), NoFinalState: c.NoFinalState(), Satisfies: e.satisfies[i]})
	}
	return resp
}

// compareUnticked finds what the disabled checks alone forbid: the
// executions consistent without them that the whole model rejects (by
// those checks), and the final states that become allowed.
func compareUnticked(e, full *runEntry, resp *RunResponse) *UntickedInfo {
	disabled := resp.Model.Disabled
	info := &UntickedInfo{Checks: disabled, NowAllowed: []string{}}
	for i, c := range e.cands {
		if !c.Consistent {
			continue
		}
		k, ok := full.byKey[candidateKey(c)]
		if !ok || full.cands[k].Consistent {
			continue
		}
		var names []string
		for _, f := range full.cands[k].Failures {
			if slices.Contains(disabled, f.Name) {
				names = append(names, f.Name)
			}
		}
		if len(names) == 0 {
			// Rejected under another choice of the run-time orders only.
			names = disabled
		}
		resp.Executions[i].Unticked = names
	}
	before := map[string]bool{}
	for _, st := range full.result.States {
		before[full.state(checker.Candidate{State: st})] = true
	}
	for _, st := range resp.States {
		if !before[st] {
			info.NowAllowed = append(info.NowAllowed, st)
		}
	}
	return info
}

func checkNames(m *checker.Model) []string {
	out := []string{}
	for _, c := range m.Program.Checks() {
		out = append(out, c.Name)
	}
	return out
}
