package explore

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// Answer is what a query or a relation's listing found: a query's
// variables and each binding of them, or a relation's columns and its
// tuples. Total counts every row; Rows holds at most the limit asked for.
type Answer struct {
	Columns []string
	Rows    [][]int
	Total   int
	// Tuples is set for a relation's tuples (ShowRelation), unset for a
	// query's bindings.
	Tuples bool
	// Rel is the relation listed.
	Rel string
}

// ParseQuery reads "?- BODY." (the final dot may be left out). A query
// that does not parse returns the parser's errors as a source.List.
func ParseQuery(line string, opts ...datalog.Option) (*datalog.Query, error) {
	line = strings.TrimSpace(line)
	if !strings.HasSuffix(line, ".") {
		line += "."
	}
	prog, errs := datalog.LoadSource("query", line, opts...)
	if errs.HasErrors() {
		return nil, errs
	}
	if len(prog.Queries) != 1 || len(prog.Files) != 1 {
		return nil, fmt.Errorf("expected one query: ?- BODY.")
	}
	return prog.Queries[0], nil
}

// Query answers q over the execution, keeping at most limit rows (0: all)
// and taking at most maxBytes of memory for the answer (0: no bound).
func (v *View) Query(ctx context.Context, q *datalog.Query, maxBytes int64, limit int) (*Answer, error) {
	vars, rows, err := v.Inst.QueryContext(ctx, q, maxBytes)
	if err != nil {
		return nil, err
	}
	a := &Answer{Columns: append([]string{}, vars...), Total: len(rows)}
	if limit > 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	a.Rows = rows
	return a, nil
}

// ShowRelation lists the tuples of a relation, keeping at most limit (0:
// all); its columns are named REL.1, REL.2, ...
func (v *View) ShowRelation(rel string, limit int) (*Answer, error) {
	tu, err := v.Inst.Tuples(rel)
	if err != nil {
		return nil, err
	}
	a := &Answer{Tuples: true, Rel: rel, Rows: [][]int{}}
	for t := range tu.All() {
		if a.Columns == nil {
			for i := range t {
				a.Columns = append(a.Columns, fmt.Sprintf("%s.%d", rel, i+1))
			}
		}
		a.Total++
		if limit == 0 || len(a.Rows) < limit {
			a.Rows = append(a.Rows, append([]int{}, t...))
		}
	}
	return a, nil
}

// Text prints an answer: a query's rows as "X = e1 ...;  Y = e2 ..." and
// a count (or yes or no for a query without variables), a relation's
// tuples as "e1 ...  ->  e2 ..." and a count. Rows left out are counted.
func (v *View) Text(a *Answer) string {
	var b strings.Builder
	if !a.Tuples && len(a.Columns) == 0 {
		if a.Total > 0 {
			return "yes\n"
		}
		return "no\n"
	}
	for _, row := range a.Rows {
		parts := v.Labels(row)
		sep := "  ->  "
		if !a.Tuples {
			sep = ";  "
			for i := range parts {
				parts[i] = a.Columns[i] + " = " + parts[i]
			}
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(parts, sep))
	}
	if a.Total > len(a.Rows) {
		fmt.Fprintf(&b, "  (%d more not shown: answers are limited to %d)\n", a.Total-len(a.Rows), len(a.Rows))
	}
	if a.Tuples {
		fmt.Fprintf(&b, "%s: %d tuple(s)\n", a.Rel, a.Total)
	} else {
		fmt.Fprintf(&b, "%d answer(s)\n", a.Total)
	}
	return b.String()
}

// QueryErrors returns the parser's errors of a query that did not parse,
// or nil for another error.
func QueryErrors(err error) source.List {
	if l, ok := err.(source.List); ok {
		return l
	}
	return nil
}
