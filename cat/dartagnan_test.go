package cat_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// sharedDat3m locates ../shared/conformance/dat3m next to the repository,
// skipping when it is absent (its models and tests are read in place,
// never copied).
func sharedDat3m(t *testing.T) string {
	return sharedConformance(t, "dat3m", "cat", "Dartagnan's models")
}

// sharedConformance locates ../shared/conformance/SUB next to the
// repository, skipping (with what is missing) when MARKER is not in it.
func sharedConformance(t *testing.T, sub, marker, what string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "conformance", sub)
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		t.Skipf("%s not found at %s; skipping", what, dir)
	}
	return dir
}

// TestDartagnanModels reads Dartagnan's two published PTX models directly
// and checks that each gives its column of the corpus's expected verdicts.
func TestDartagnanModels(t *testing.T) {
	dir := sharedDat3m(t)
	for _, c := range []struct {
		model  string
		column int
	}{{"ptx-v7.5.cat", 1}, {"ptx-v6.0.cat", 2}} {
		t.Run(c.model, func(t *testing.T) {
			m, err := loader.LoadFile(filepath.Join(dir, "cat", c.model))
			require.NoError(t, err)
			var results []*checker.Result
			err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".litmus") {
					return err
				}
				tests, err := litmus.ParseFile(p)
				require.NoError(t, err)
				for _, tc := range tests {
					r := m.Check(tc, checker.DefaultOptions())
					require.NoError(t, r.Err, tc.Name)
					results = append(results, r)
				}
				return nil
			})
			require.NoError(t, err)
			exp, err := report.ReadExpected(filepath.Join(dir, "expected.csv") + ":" + string(rune('0'+c.column)))
			require.NoError(t, err)
			var out bytes.Buffer
			passed, failed := report.Compare(&out, exp, results)
			require.Zero(t, failed, out.String())
			require.Greater(t, passed, 90)
		})
	}
}
