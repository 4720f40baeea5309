package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
)

// Expected holds the verdicts of an expected-results CSV in the corpus
// format (docs/expected.md): rows "path,verdict[,verdict...]" for herd
// tests (Ok, No, Undef for a program with undefined behaviour, or - for not
// rated), the path relative to the CSV's folder, and rows
// "file.test[K],holds|fails" (or NVlabs' "file.test#K") overriding a .test file's inline expectation
// (every assert and permit holds) for instance K, the file named by its
// base name or its path relative to the CSV's folder.
type Expected struct {
	path   string
	dir    string
	column int
	rows   map[string]string
	// empty holds the rows whose verdict is expected over no execution
	// at all ("No empty"): only they pass a test that has none.
	empty map[string]bool
	// keys lists the row keys in file order, and line gives each one's
	// line, for the rows no test checked matches.
	keys []string
	line map[string]int
	// reports, when set, says which rows no result matches this run
	// reports as NOT RUN (a shard reports only its own; see ReportOnly).
	reports func(key string) bool
}

// ReadExpected reads an expected-results CSV; spec is "FILE.csv" (first
// verdict column) or "FILE.csv:N" (the N-th verdict column, from 1).
func ReadExpected(spec string) (*Expected, error) {
	path, column := spec, 1
	if i := strings.LastIndex(spec, ":"); i > 0 && !strings.HasSuffix(spec, ".csv") {
		path = spec[:i]
		if _, err := fmt.Sscanf(spec[i+1:], "%d", &column); err != nil || column < 1 {
			return nil, fmt.Errorf("-expect %s: the column after ':' must be a number from 1", spec)
		}
	}
	data, err := limits.ListFile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read expected results: %w", err)
	}
	return ParseExpected(path, column, data)
}

// ParseExpected reads data, the text of the expected-results CSV at path,
// with its verdicts in the given column (from 1). Rows name tests
// relative to path's folder.
func ParseExpected(path string, column int, data []byte) (*Expected, error) {
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	e := &Expected{path: path, dir: abs, column: column, rows: map[string]string{}, empty: map[string]bool{}, line: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	// A row as long as the file (the file is bounded by limits.ListFile):
	// past bufio's 64 KiB default the scan used to stop with an error that
	// named neither the file nor the line.
	sc.Buffer(nil, len(data)+1)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cells := strings.Split(text, ",")
		// Cells are trimmed alike in every row: an override row read for a
		// later column used to keep the spaces of "T.test#1, holds", which
		// then did not read as "holds".
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if key, ok := overrideKey(cells[0]); ok && len(cells) == 2 {
			v, empty := cutEmpty(cells[1])
			if v != "holds" && v != "fails" {
				return nil, fmt.Errorf("%s:%d: an override row says holds or fails, not %q (followed by \" empty\" when no execution is expected)", path, line, cells[1])
			}
			if err := e.add(key, v, empty, line); err != nil {
				return nil, err
			}
			continue
		}
		if len(cells) <= column {
			return nil, fmt.Errorf("%s:%d: expected at least %d columns", path, line, column+1)
		}
		v, empty := cutEmpty(cells[column])
		switch {
		case v == "Ok" || v == "No" || v == "Undef" || (!empty && (v == "-" || v == "")):
			if err := e.add(cells[0], v, empty, line); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s:%d:%d: a verdict is Ok, No, Undef or -, not %q (Ok, No and Undef followed by \" empty\" when no execution is expected)",
				path, line, cellColumn(sc.Text(), column), cells[column])
		}
	}
	return e, sc.Err()
}

// cellColumn returns the column (from 1, in bytes) where the k-th cell of
// a row starts, past its leading spaces. Looking for the cell's text in
// the row pointed at an earlier cell with the same text ("No x,No x").
func cellColumn(row string, k int) int {
	off := 0
	for range k {
		off += strings.IndexByte(row[off:], ',') + 1
	}
	cell := row[off:]
	return off + len(cell) - len(strings.TrimLeftFunc(cell, unicode.IsSpace)) + 1
}

// nvlabsInstance matches NVlabs' spelling of a template row, FILE.test#K.
var nvlabsInstance = lazyregexp.New(`^(.*)#([0-9]+)$`)

// ptxmmInstance matches ptxmm's, FILE.test[K].
var ptxmmInstance = lazyregexp.New(`^(.*)\[([0-9]+)\]$`)

// overrideKey reports whether the first cell of a row names an instance of
// a .test file, and returns it in ptxmm's spelling, the one reports print.
func overrideKey(cell string) (string, bool) {
	if m := ptxmmInstance().FindStringSubmatch(cell); m != nil {
		return cell, true
	}
	if m := nvlabsInstance().FindStringSubmatch(cell); m != nil {
		return m[1] + "[" + m[2] + "]", true
	}
	return "", false
}

// cutEmpty splits a verdict cell into its verdict and whether it says
// "empty": the verdict is expected over no execution at all.
func cutEmpty(cell string) (string, bool) {
	if v, ok := strings.CutSuffix(cell, " empty"); ok {
		return strings.TrimSpace(v), true
	}
	return cell, false
}

// add records a row, refusing a key given twice.
func (e *Expected) add(key, verdict string, empty bool, line int) error {
	if first, dup := e.line[key]; dup {
		return fmt.Errorf("%s:%d: %s already has a row (line %d)", e.path, line, key, first)
	}
	e.rows[key] = verdict
	e.empty[key] = empty
	e.line[key] = line
	e.keys = append(e.keys, key)
	return nil
}

// Compare checks results against the expectations, printing one line per
// mismatch, and returns the numbers of passed and failed comparisons. A herd
// test counts once; a .test file counts once per assertion. A herd test no
// row names fails, and so does a row that no result matches (a test not
// checked, or a CSV read from the wrong folder): a comparison must never
// pass by comparing nothing.
func Compare(w io.Writer, e *Expected, results []*checker.Result) (passed, failed int) {
	used := map[string]bool{}
	for _, r := range results {
		t := r.Test
		rel := e.relative(t.File)
		if t.Format == litmus.FormatHerd {
			want, ok := e.rows[rel]
			if !ok {
				failed++
				fmt.Fprintf(w, "UNEXPECTED %s: no row of %s names this test\n", rel, e.path)
				continue
			}
			used[rel] = true
			if want != "Ok" && want != "No" && want != "Undef" {
				continue
			}
			why := vacuous(r)
			if r.Err == nil && r.Verdict == want && (why != "") == e.empty[rel] {
				passed++
				continue
			}
			failed++
			got := r.Verdict
			switch {
			case r.Err != nil:
				got = "error: " + r.Err.Error()
			case why != "":
				got += " over no execution: " + why
			}
			if e.empty[rel] {
				want += " over no execution"
			}
			fmt.Fprintf(w, "MISMATCH %s: want %s, got %s%s\n", rel, want, got, emptyHint(r, why, e.empty[rel], e.path))
			continue
		}
		wantHolds, wantEmpty := true, false
		if k, ok := e.overrideRow(rel, t); ok {
			wantHolds, wantEmpty = e.rows[k] == "holds", e.empty[k]
			used[k] = true
		}
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "MISMATCH %s: error: %v\n", instanceOf(rel, t), r.Err)
			continue
		}
		if why := vacuous(r); (why != "") != wantEmpty {
			failed++
			if why != "" {
				fmt.Fprintf(w, "MISMATCH %s: no execution: %s%s\n", instanceOf(rel, t), why, emptyHint(r, why, false, e.path))
			} else {
				fmt.Fprintf(w, "MISMATCH %s: want no execution, got %d state(s)\n", instanceOf(rel, t), len(r.States))
			}
			continue
		}
		for _, a := range r.Assertions {
			if a.Kind == litmus.AssertCheck {
				continue
			}
			if a.Holds == wantHolds {
				passed++
				continue
			}
			failed++
			fmt.Fprintf(w, "MISMATCH %s %s %s: want %s\n", instanceOf(rel, t), a.Kind, a.Name, holdsWord(wantHolds))
		}
	}
	for _, k := range e.keys {
		if !used[k] && (e.reports == nil || e.reports(k)) {
			failed++
			fmt.Fprintf(w, "NOT RUN %s (%s:%d): no test checked matches this row\n", k, e.path, e.line[k])
		}
	}
	return passed, failed
}

// vacuous says why r's verdict is over no execution at all, or "" when
// it is not: no candidate, none the model allows, or none meeting a
// .test file's restrictions (the sanity check) gives a forall that holds,
// an exists that fails and asserts that hold, whatever the test says. A
// test whose consistent executions all hang is not vacuous: its
// executions exist, and the hang is what it reports.
func vacuous(r *checker.Result) string {
	if r.Err != nil || r.Empty == nil || r.Empty.Kind == checker.EmptyHang {
		return ""
	}
	return r.Empty.Text
}

// emptyHint tells how a row says that no execution is expected, when a
// comparison failed only for that.
func emptyHint(r *checker.Result, why string, wanted bool, csv string) string {
	if why == "" || wanted || r.Err != nil {
		return ""
	}
	return fmt.Sprintf(" (when no execution is expected, the row of %s says so: \"%s empty\")", filepath.Base(csv), expectedWord(r))
}

// expectedWord is the verdict a row would give for r: its herd verdict, or
// holds for a .test instance whose assertions all hold.
func expectedWord(r *checker.Result) string {
	if r.Test.Format == litmus.FormatHerd {
		return r.Verdict
	}
	for _, a := range r.Assertions {
		if a.Kind != litmus.AssertCheck && !a.Holds {
			return "fails"
		}
	}
	return "holds"
}

// relative names a test file as rows do: relative to the CSV's folder,
// with slashes.
func (e *Expected) relative(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	rel, err := filepath.Rel(e.dir, abs)
	if err != nil {
		rel = file
	}
	return filepath.ToSlash(rel)
}

// instanceOf names test t of the .test file at rel in a report: the file
// for a file without a template, FILE.test[K] for row K of a template.
func instanceOf(rel string, t *litmus.Test) string {
	if t.Instance == 0 {
		return rel
	}
	return litmus.InstanceName(rel, t.Instance)
}

// overrideRow is the row overriding instance t of a .test file, named by
// its path (rel) or its base name, when there is one (rows are keyed in
// ptxmm's spelling, FILE.test[K], whichever the CSV used).
func (e *Expected) overrideRow(rel string, t *litmus.Test) (string, bool) {
	for _, k := range []string{litmus.InstanceName(rel, t.Instance), litmus.InstanceName(filepath.Base(t.File), t.Instance)} {
		if _, ok := e.rows[k]; ok {
			return k, true
		}
	}
	return "", false
}

// Claim returns the row that Compare matches with a test of file: the
// file's row for a herd test (whether or not the file could be read), the
// row overriding instance t of a .test file when t is given and such a
// row exists. A run split into shards uses it to tell whose rows are
// whose.
func (e *Expected) Claim(file string, t *litmus.Test) (string, bool) {
	if f, err := litmus.FormatForPath(file); err == nil && f == litmus.FormatHerd {
		rel := e.relative(file)
		_, ok := e.rows[rel]
		return rel, ok
	}
	if t == nil || t.Format != litmus.FormatNV {
		return "", false
	}
	return e.overrideRow(e.relative(file), t)
}

// ReportOnly makes Compare report as NOT RUN only the rows no result
// matches for which report returns true: a shard of a run checks only its
// own tests, and reports only the rows that are its own (see cli).
func (e *Expected) ReportOnly(report func(key string) bool) { e.reports = report }

func holdsWord(b bool) string {
	if b {
		return "holds"
	}
	return "fails"
}
