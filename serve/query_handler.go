package serve

import (
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/explore"
)

// MaxAnswers bounds the rows of one query answer; Total still counts them
// all, so nothing is dropped without saying so.
const MaxAnswers = 1000

// maxQueryBytes bounds the memory of a query's answer, past what the
// execution's relations take (less when -max-memory leaves less).
const maxQueryBytes = 256 << 20

// queryBytes is the memory one query's answer may take.
func (s *Server) queryBytes() int64 {
	if b := s.budget.Limit(); b > 0 {
		return min(maxQueryBytes, b/4)
	}
	return maxQueryBytes
}

func (s *Server) handleQuery(c *apiCall, req *QueryRequest) (any, error) {
	line := strings.TrimSpace(req.Query)
	switch {
	case strings.HasPrefix(line, "?-"):
	case strings.HasPrefix(line, ":show"):
	default:
		return nil, badRequest("query: expected \"?- BODY.\" or \":show REL\"; rules and checks are added to the model through ModelSource.Extra")
	}
	sel, done, err := s.selectExec(c, req.Test, req.Model, req.Exec, s.queryBytes())
	if err != nil {
		return nil, err
	}
	defer done()
	v := sel.view()
	var a *explore.Answer
	if rel, ok := strings.CutPrefix(line, ":show"); ok {
		rel = strings.TrimSpace(rel)
		if rel == "" {
			return nil, badRequest("query: usage :show REL")
		}
		if a, err = v.ShowRelation(rel, MaxAnswers); err != nil {
			return nil, &apiError{status: 422, msg: err.Error()}
		}
	} else {
		q, err := explore.ParseQuery(line, datalog.WithReader(s.includes.ReadFile))
		if errs := explore.QueryErrors(err); errs != nil {
			return nil, &apiError{status: 422, msg: errs.Quoted(), diags: texts{}.diagnostics(errs)}
		}
		if err != nil {
			return nil, badRequest("query: %v", err)
		}
		if a, err = v.Query(sel.ctx, q, 0, MaxAnswers); err != nil {
			err = stopCause(sel.ctx, c.ctx, err)
			if answered(err) {
				return nil, err
			}
			return nil, &apiError{status: 422, msg: "query: " + err.Error()}
		}
	}
	resp := &QueryResponse{Columns: a.Columns, Rows: [][]string{}, Total: a.Total, Text: v.Text(a)}
	for _, row := range a.Rows {
		resp.Rows = append(resp.Rows, v.Labels(row))
	}
	return resp, nil
}
