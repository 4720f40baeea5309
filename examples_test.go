package ptxmm_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// checkDir checks every test of dir with the default model.
func checkDir(t *testing.T, dirs ...string) []*checker.Result {
	t.Helper()
	m := defaultChecker(t)
	var results []*checker.Result
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
				return err
			}
			tests, err := litmus.ParseFile(p)
			require.NoError(t, err, "parse %s", p)
			for _, tc := range tests {
				r := m.Check(tc, checker.DefaultOptions())
				require.NoError(t, r.Err, "check %s", tc.Name)
				results = append(results, r)
			}
			return nil
		})
		require.NoError(t, err)
	}
	return results
}

// TestExamples checks the project's own litmus tests against the verdicts
// argued in each test's comment (examples/expected.csv); .test files carry
// their expectations inline.
func TestExamples(t *testing.T) {
	results := checkDir(t, "examples")
	exp, err := report.ReadExpected("examples/expected.csv")
	require.NoError(t, err)
	var out bytes.Buffer
	passed, failed := report.Compare(&out, exp, results)
	require.Zero(t, failed, out.String())
	require.GreaterOrEqual(t, passed, 25)
}

// sharedConformance locates ../shared/conformance, skipping when it is absent.
func sharedConformance(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "shared", "conformance")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared conformance corpus not found at %s; skipping the outside check", dir)
	}
	return dir
}

// TestSharedConformance runs the third-party corpora in ../shared/conformance
// (read in place, never copied) and compares every verdict with theirs.
func TestSharedConformance(t *testing.T) {
	root := sharedConformance(t)
	for _, corpus := range []string{"dat3m", "nvlabs"} {
		t.Run(corpus, func(t *testing.T) {
			dir := filepath.Join(root, corpus)
			results := checkDir(t, dir)
			exp, err := report.ReadExpected(filepath.Join(dir, "expected.csv"))
			require.NoError(t, err)
			var out bytes.Buffer
			passed, failed := report.Compare(&out, exp, results)
			require.Zero(t, failed, out.String())
			require.Greater(t, passed, 0)
		})
	}
}

// TestExplainSharedCorpora checks with -explain over the shared corpora:
// every outcome a candidate reaches but the model forbids must come with
// its failing checks, each expanded into a chain of edges that starts and
// ends where the witness says.
func TestExplainSharedCorpora(t *testing.T) {
	root := sharedConformance(t)
	m := defaultChecker(t)
	opts := checker.DefaultOptions()
	opts.Explain = true
	forbidden := 0
	for _, corpus := range []string{"dat3m", "nvlabs"} {
		err := filepath.WalkDir(filepath.Join(root, corpus), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
				return err
			}
			tests, err := litmus.ParseFile(p)
			require.NoError(t, err)
			for _, tc := range tests {
				r := m.Check(tc, opts)
				require.NoError(t, r.Err, tc.Name)
				for _, f := range r.Forbidden {
					forbidden++
					require.NotEmpty(t, f.Failures, "%s: a forbidden outcome names its checks", tc.Name)
					for i, e := range f.Explanations {
						require.NotEmpty(t, e, "%s: %s has no explanation", tc.Name, f.Failures[i].Name)
						w := f.Failures[i].Witness
						require.Equal(t, w[0], e[0].From, "%s: the chain starts at the witness", tc.Name)
					}
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	require.Greater(t, forbidden, 100)
}
