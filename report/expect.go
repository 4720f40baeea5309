package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// Expected holds the verdicts of an expected-results CSV in the corpus
// format: rows "path,verdict[,verdict...]" for herd tests (Ok, No, Undef
// for a program with undefined behaviour, or - for not rated) and rows "file.test#K,holds|fails" overriding a .test file's
// inline expectation (every assert and permit holds) for instance K.
type Expected struct {
	dir    string
	column int
	rows   map[string]string
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
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read expected results: %w", err)
	}
	defer f.Close()
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	e := &Expected{dir: abs, column: column, rows: map[string]string{}}
	sc := bufio.NewScanner(f)
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
		if strings.Contains(cells[0], "#") && len(cells) == 2 {
			if cells[1] != "holds" && cells[1] != "fails" {
				return nil, fmt.Errorf("%s:%d: an override row says holds or fails, not %q", path, line, cells[1])
			}
			e.rows[cells[0]] = cells[1]
			continue
		}
		if len(cells) <= column {
			return nil, fmt.Errorf("%s:%d: expected at least %d columns", path, line, column+1)
		}
		switch v := cells[column]; v {
		case "Ok", "No", "Undef", "-", "":
			e.rows[cells[0]] = v
		default:
			return nil, fmt.Errorf("%s:%d:%d: a verdict is Ok, No, Undef or -, not %q", path, line, strings.Index(sc.Text(), v)+1, v)
		}
	}
	return e, sc.Err()
}

// Compare checks results against the expectations, printing one line per
// mismatch, and returns the numbers of passed and failed comparisons. A herd
// test counts once; a .test file counts once per assertion.
func Compare(w io.Writer, e *Expected, results []*checker.Result) (passed, failed int) {
	for _, r := range results {
		t := r.Test
		abs, err := filepath.Abs(t.File)
		if err != nil {
			abs = t.File
		}
		rel, err := filepath.Rel(e.dir, abs)
		if err != nil {
			rel = t.File
		}
		rel = filepath.ToSlash(rel)
		if t.Format == litmus.FormatHerd {
			want, ok := e.rows[rel]
			if !ok || (want != "Ok" && want != "No" && want != "Undef") {
				continue
			}
			if r.Err == nil && r.Verdict == want {
				passed++
				continue
			}
			failed++
			got := r.Verdict
			if r.Err != nil {
				got = "error: " + r.Err.Error()
			}
			fmt.Fprintf(w, "MISMATCH %s: want %s, got %s\n", rel, want, got)
			continue
		}
		wantHolds := true
		if o, ok := e.rows[fmt.Sprintf("%s#%d", filepath.Base(t.File), t.Instance)]; ok {
			wantHolds = o == "holds"
		}
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "MISMATCH %s#%d: error: %v\n", rel, t.Instance, r.Err)
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
			fmt.Fprintf(w, "MISMATCH %s#%d %s %s: want %s\n", rel, t.Instance, a.Kind, a.Name, holdsWord(wantHolds))
		}
	}
	return passed, failed
}

func holdsWord(b bool) string {
	if b {
		return "holds"
	}
	return "fails"
}
