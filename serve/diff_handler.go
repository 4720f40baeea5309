package serve

import (
	"bytes"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

func (s *Server) handleDiff(c *apiCall, req *DiffRequest) (any, error) {
	if err := validateTest(req.Test); err != nil {
		return nil, err
	}
	for _, m := range []struct {
		src  ModelSource
		what string
	}{{req.A, "model A"}, {req.B, "model B"}} {
		if err := validateModel(m.src, m.what); err != nil {
			return nil, err
		}
	}
	a, err := s.model(c, req.A)
	if err != nil {
		return nil, texts{test: req.Test.Name, model: req.A.Name}.invalid("model A", err)
	}
	b, err := s.model(c, req.B)
	if err != nil {
		return nil, texts{test: req.Test.Name, model: req.B.Name}.invalid("model B", err)
	}
	t, _, err := parseTest(req.Test)
	if err != nil {
		return nil, texts{test: req.Test.Name}.invalid("test", err)
	}
	if err := s.checkSize(t); err != nil {
		return nil, err
	}
	if err := c.heavy(); err != nil {
		return nil, err
	}
	d := checker.DiffContext(c.ctx, a.model, b.model, t, s.cfg.Options)
	if d.Err != nil {
		return nil, texts{test: req.Test.Name}.invalid("test", d.Err)
	}
	nameA, nameB := modelLabel(req.A, "A"), modelLabel(req.B, "B")
	if nameA == nameB {
		nameA, nameB = nameA+" (A)", nameB+" (B)"
	}
	resp := &DiffResponse{A: nameA, B: nameB, Differs: d.Differs(), VerdictA: d.A.Verdict, VerdictB: d.B.Verdict,
		OnlyA: outcomeDiffs(d.A, d.OnlyA), OnlyB: outcomeDiffs(d.B, d.OnlyB)}
	for i := range d.A.Assertions {
		if i < len(d.B.Assertions) && d.A.Assertions[i].Holds != d.B.Assertions[i].Holds {
			resp.Asserts = append(resp.Asserts, AssertionDiff{Name: d.A.Assertions[i].Name, A: d.A.Assertions[i].Holds, B: d.B.Assertions[i].Holds})
		}
	}
	var text bytes.Buffer
	report.Diff(&text, d, nameA, nameB)
	if !d.Differs() {
		text.WriteString("The two models agree on every outcome of " + t.Name + ".\n")
	}
	resp.Text = text.String()
	return resp, nil
}

// modelLabel names a model in a diff: its file name, with its edits noted.
func modelLabel(m ModelSource, fallback string) string {
	name := m.Name
	if name == "" {
		name = fallback
	}
	if len(m.Extra) > 0 || len(m.Disabled) > 0 {
		name += " (edited)"
	}
	return name
}

func outcomeDiffs(r *checker.Result, diffs []checker.Difference) []OutcomeDiff {
	out := []OutcomeDiff{}
	for _, d := range diffs {
		o := OutcomeDiff{State: checker.FormatState(r.Test, r.Layout, r.Observables, d.State),
			Candidate: report.DescribeCandidate(d.Execution), Rejections: []Rejection{}}
		for i, f := range d.Failures {
			chain := report.WitnessText(d.Execution, f)
			if i < len(d.Explanations) && d.Explanations[i] != nil {
				chain = report.EdgeChain(d.Execution, d.Explanations[i])
			}
			o.Rejections = append(o.Rejections, Rejection{Check: f.Name, Chain: chain})
		}
		out = append(out, o)
	}
	return out
}
