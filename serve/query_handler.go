package serve

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
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
	label := func(a int) string {
		x := sel.cand.Execution
		if a < len(x.Events) {
			return fmt.Sprintf("e%d %s", a, x.Label(a))
		}
		return sel.inst.Domain().Value(a).String()
	}
	resp := &QueryResponse{Rows: [][]string{}}
	if rel, ok := strings.CutPrefix(line, ":show"); ok {
		rel = strings.TrimSpace(rel)
		if rel == "" {
			return nil, badRequest("query: usage :show REL")
		}
		tu, err := sel.inst.Tuples(rel)
		if err != nil {
			return nil, &apiError{status: 422, msg: err.Error()}
		}
		for t := range tu.All() {
			if resp.Columns == nil {
				for i := range t {
					resp.Columns = append(resp.Columns, fmt.Sprintf("%s.%d", rel, i+1))
				}
			}
			resp.Total++
			if len(resp.Rows) < MaxAnswers {
				resp.Rows = append(resp.Rows, labels(t, label))
			}
		}
		resp.Text = answerText(resp, fmt.Sprintf("%s: %d tuple(s)", rel, resp.Total), true)
		return resp, nil
	}
	if !strings.HasSuffix(line, ".") {
		line += "."
	}
	prog, errs := datalog.LoadSource("query", line, datalog.WithReader(s.includes.ReadFile))
	if errs.HasErrors() {
		return nil, &apiError{status: 422, msg: errs.Quoted(), diags: texts{}.diagnostics(errs)}
	}
	if len(prog.Queries) != 1 || len(prog.Files) != 1 {
		return nil, badRequest("query: expected one query: ?- BODY.")
	}
	vars, rows, err := sel.inst.QueryContext(sel.ctx, prog.Queries[0], 0)
	if err != nil {
		err = stopCause(sel.ctx, c.ctx, err)
		if answered(err) {
			return nil, err
		}
		return nil, &apiError{status: 422, msg: "query: " + err.Error()}
	}
	resp.Columns = append([]string{}, vars...)
	resp.Total = len(rows)
	for _, row := range rows {
		if len(resp.Rows) == MaxAnswers {
			break
		}
		resp.Rows = append(resp.Rows, labels(row, label))
	}
	switch {
	case len(vars) == 0 && len(rows) > 0:
		resp.Text = "yes\n"
	case len(vars) == 0:
		resp.Text = "no\n"
	default:
		resp.Text = answerText(resp, fmt.Sprintf("%d answer(s)", resp.Total), false)
	}
	return resp, nil
}

func labels(t []int, label func(int) string) []string {
	out := make([]string, len(t))
	for i, a := range t {
		out[i] = label(a)
	}
	return out
}

// answerText prints an answer as the REPL does: a query's rows as
// "X = e1 ...;  Y = e2 ...", a relation's tuples as "e1 ...  ->  e2 ...".
func answerText(resp *QueryResponse, footer string, tuples bool) string {
	var b strings.Builder
	for _, row := range resp.Rows {
		parts := make([]string, len(row))
		for i, v := range row {
			parts[i] = v
			if !tuples {
				parts[i] = resp.Columns[i] + " = " + v
			}
		}
		sep := ";  "
		if tuples {
			sep = "  ->  "
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(parts, sep))
	}
	if resp.Total > len(resp.Rows) {
		fmt.Fprintf(&b, "  (%d more not shown: answers are limited to %d)\n", resp.Total-len(resp.Rows), MaxAnswers)
	}
	b.WriteString(footer + "\n")
	return b.String()
}
