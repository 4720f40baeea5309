package datalog

import (
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// The golden programs: valid ones (name.dl, with name.out holding the
// analyzed model) and must-fail ones (fail_name.dl, with fail_name.err
// holding the exact diagnostics, one per line). Files under inc/ are only
// included by others.
//
//go:embed testdata/golden/*.dl
//go:embed testdata/golden/*.err testdata/golden/*.out testdata/golden/inc/*.dl
var goldenFS embed.FS

var updateGolden = flag.Bool("update", false, "rewrite the .err and .out files of testdata/golden")

func TestGolden(t *testing.T) {
	files, err := fs.Glob(goldenFS, "testdata/golden/*.dl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	failing := 0
	for _, file := range files {
		name := strings.TrimSuffix(path.Base(file), ".dl")
		t.Run(name, func(t *testing.T) {
			prog, errs := Load(file, WithFS(goldenFS))
			var m *Model
			if !errs.HasErrors() {
				m, errs = Analyze(prog)
			}
			mustFail := strings.HasPrefix(name, "fail_")
			var got, ext string
			if mustFail {
				require.True(t, errs.HasErrors(), "%s must fail", file)
				assert.Nil(t, m)
				got, ext = strings.Join(diagLines(errs), "\n")+"\n", ".err"
				failing++
			} else {
				require.False(t, errs.HasErrors(), "%s", errs.Quoted())
				require.NotNil(t, m)
				got, ext = dumpModel(m), ".out"
			}
			want := strings.TrimSuffix(file, ".dl") + ext
			if *updateGolden {
				require.NoError(t, os.WriteFile(want, []byte(got), 0o644))
				return
			}
			wantText, err := fs.ReadFile(goldenFS, want)
			require.NoError(t, err, "missing golden file (run go test -run TestGolden -update)")
			assert.Equal(t, string(wantText), got)
		})
	}
	assert.GreaterOrEqual(t, failing, 30, "each must-fail file covers a different error")
}

// dumpModel prints what Analyze made of a valid program: warnings, the
// relations that are not generated, the checks and orders, and every rule.
func dumpModel(m *Model) string {
	var b strings.Builder
	for _, w := range m.Warnings {
		fmt.Fprintf(&b, "%s\n", w)
	}
	kinds := map[RelKind]string{RelDerived: "derived", RelInput: "input", RelOrder: "order", RelUniverse: "universe"}
	for _, n := range m.Names {
		r := m.Relations[n]
		if r.Generated {
			continue
		}
		extra := ""
		if r.Def != nil {
			extra = " = " + ExprString(r.Def.Expr)
		}
		if r.Doc != "" {
			extra += "  /// " + strings.ReplaceAll(r.Doc, "\n", " / ")
		}
		fmt.Fprintf(&b, "relation %s/%d %s%s\n", n, r.Arity, kinds[r.Kind], extra)
	}
	for _, c := range m.Checks {
		fmt.Fprintf(&b, "%s %s: %s(%s) tests %s\n", c.Mode, c.Name, c.Kind, ExprString(c.Expr), c.Rel)
	}
	for _, o := range m.Orders {
		fmt.Fprintf(&b, "order %s over %s\n", o.Name, o.Over)
	}
	for _, io := range m.IO {
		fmt.Fprintf(&b, "%s %s\n", io.Kind, io.Name)
	}
	for _, q := range m.Queries {
		var lits []string
		for _, l := range q.Body {
			lits = append(lits, literalText(l))
		}
		fmt.Fprintf(&b, "query %s\n", strings.Join(lits, ", "))
	}
	for _, r := range m.Rules {
		s := "rule " + ruleText(r)
		if r.Origin != "" {
			s += "  # " + r.Origin + ": " + r.OriginText
		}
		b.WriteString(s + "\n")
	}
	return b.String()
}

// TestGoldenFilesAreListed makes sure every .err and .out file belongs to a
// program, so that a renamed program does not leave a stale golden file.
func TestGoldenFilesAreListed(t *testing.T) {
	for _, ext := range []string{".err", ".out"} {
		files, err := fs.Glob(goldenFS, "testdata/golden/*"+ext)
		require.NoError(t, err)
		for _, f := range files {
			_, err := fs.Stat(goldenFS, strings.TrimSuffix(f, ext)+".dl")
			assert.NoError(t, err, "%s has no program", f)
			if ext == ".err" {
				assert.True(t, strings.HasPrefix(path.Base(f), "fail_"), "%s: only must-fail programs have .err files", f)
			}
		}
	}
}

// TestGoldenErrorsAreSorted checks the order of diagnostics: by file, then
// line, then column.
func TestGoldenErrorsAreSorted(t *testing.T) {
	files, _ := fs.Glob(goldenFS, "testdata/golden/fail_*.dl")
	for _, file := range files {
		prog, errs := Load(file, WithFS(goldenFS))
		if !errs.HasErrors() {
			_, errs = Analyze(prog)
		}
		sorted := append(source.List(nil), errs...)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Pos.Before(sorted[j].Pos) })
		assert.Equal(t, diagLines(sorted), diagLines(errs), file)
	}
}
