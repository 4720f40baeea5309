package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// writeCSV writes an expected-results file into a fresh directory and
// returns its path.
func writeCSV(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "expected.csv")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// herdResult is a result for a herd test at file with the given verdict.
func herdResult(file, verdict string) *checker.Result {
	return &checker.Result{Test: &litmus.Test{File: file, Name: filepath.Base(file), Format: litmus.FormatHerd}, Verdict: verdict}
}

// nvResult is a result for instance k of a .test file with assertions
// given as kind and holds.
func nvResult(file string, k int, as ...checker.AssertionResult) *checker.Result {
	return &checker.Result{Test: &litmus.Test{File: file, Format: litmus.FormatNV, Instance: k}, Assertions: as}
}

func assertion(name string, kind litmus.AssertKind, holds bool) checker.AssertionResult {
	return checker.AssertionResult{Name: name, Kind: kind, Holds: holds}
}

const corpusCSV = `# test,model-a,model-b
A/MP.litmus,No,Ok
A/SB.litmus,Ok,Ok
B/Unrated.litmus,-,No
Tmpl.test#2,fails
Plain.test#0,holds
`

// TestCompareHerd: herd rows compare the verdict (Ok/No); unrated (-) and
// absent tests are not counted; errors and mismatches fail with one line.
func TestCompareHerd(t *testing.T) {
	path := writeCSV(t, corpusCSV)
	dir := filepath.Dir(path)
	cases := []struct {
		name           string
		spec           string
		results        []*checker.Result
		passed, failed int
		out            string
	}{
		{
			name: "first column",
			spec: path,
			results: []*checker.Result{
				herdResult(filepath.Join(dir, "A", "MP.litmus"), "No"),
				herdResult(filepath.Join(dir, "A", "SB.litmus"), "No"),
				herdResult(filepath.Join(dir, "B", "Unrated.litmus"), "Ok"),
				herdResult(filepath.Join(dir, "C", "Absent.litmus"), "Ok"),
			},
			passed: 1, failed: 1,
			out: "MISMATCH A/SB.litmus: want Ok, got No\n",
		},
		{
			name: "second column",
			spec: path + ":2",
			results: []*checker.Result{
				herdResult(filepath.Join(dir, "A", "MP.litmus"), "No"),
				herdResult(filepath.Join(dir, "A", "SB.litmus"), "Ok"),
				herdResult(filepath.Join(dir, "B", "Unrated.litmus"), "No"),
			},
			passed: 2, failed: 1,
			out: "MISMATCH A/MP.litmus: want Ok, got No\n",
		},
		{
			name: "an error fails",
			spec: path,
			results: []*checker.Result{
				{Test: herdResult(filepath.Join(dir, "A", "MP.litmus"), "").Test, Err: errors.New("limit reached; raise it with -timeout")},
			},
			passed: 0, failed: 1,
			out: "MISMATCH A/MP.litmus: want No, got error: limit reached; raise it with -timeout\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := ReadExpected(c.spec)
			require.NoError(t, err)
			var b bytes.Buffer
			passed, failed := Compare(&b, e, c.results)
			assert.Equal(t, c.passed, passed, "passed")
			assert.Equal(t, c.failed, failed, "failed")
			assert.Equal(t, c.out, b.String())
		})
	}
}

// TestCompareRelativePaths: a test named by a path relative to the working
// directory is found relative to the CSV's directory.
func TestCompareRelativePaths(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "exp.csv"), []byte("sub/T.litmus,Ok\n"), 0o644))
	t.Chdir(dir)
	e, err := ReadExpected("exp.csv")
	require.NoError(t, err)
	var b bytes.Buffer
	passed, failed := Compare(&b, e, []*checker.Result{herdResult(filepath.Join("sub", "T.litmus"), "Ok")})
	assert.Equal(t, 1, passed)
	assert.Zero(t, failed)
}

// TestCompareNV: a .test instance counts once per assert and permit (check
// commands are not compared); every one is expected to hold unless a
// "file.test#K" row says fails.
func TestCompareNV(t *testing.T) {
	path := writeCSV(t, corpusCSV)
	dir := filepath.Dir(path)
	tmpl := filepath.Join(dir, "nv", "Tmpl.test")
	e, err := ReadExpected(path)
	require.NoError(t, err)
	cases := []struct {
		name           string
		result         *checker.Result
		passed, failed int
		out            string
	}{
		{
			name: "inline expectation: all hold",
			result: nvResult(tmpl, 1,
				assertion("a", litmus.AssertAlways, true),
				assertion("p", litmus.AssertSometimes, true),
				assertion("c", litmus.AssertCheck, false)),
			passed: 2,
		},
		{
			name: "inline expectation: a failing permit",
			result: nvResult(tmpl, 1,
				assertion("a", litmus.AssertAlways, true),
				assertion("p", litmus.AssertSometimes, false)),
			passed: 1, failed: 1,
			out: "MISMATCH nv/Tmpl.test#1 permit p: want holds\n",
		},
		{
			name:   "override by base name: instance 2 must fail",
			result: nvResult(tmpl, 2, assertion("a", litmus.AssertAlways, false)),
			passed: 1,
		},
		{
			name:   "override: holding is a mismatch",
			result: nvResult(tmpl, 2, assertion("a", litmus.AssertAlways, true)),
			failed: 1,
			out:    "MISMATCH nv/Tmpl.test#2 assert a: want fails\n",
		},
		{
			name:   "instance 0 of a plain test",
			result: nvResult(filepath.Join(dir, "Plain.test"), 0, assertion("a", litmus.AssertAlways, true)),
			passed: 1,
		},
		{
			name:   "an error fails once",
			result: &checker.Result{Test: &litmus.Test{File: tmpl, Format: litmus.FormatNV, Instance: 3}, Err: errors.New("boom")},
			failed: 1,
			out:    "MISMATCH nv/Tmpl.test#3: error: boom\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			passed, failed := Compare(&b, e, []*checker.Result{c.result})
			assert.Equal(t, c.passed, passed, "passed")
			assert.Equal(t, c.failed, failed, "failed")
			assert.Equal(t, c.out, b.String())
		})
	}
}

// TestCompareNVOverrideWithColumn: with a later column, override rows
// (two cells) still apply, their cells trimmed like any other. (Regression:
// " holds" in an override row read for column 2 did not count as holds.)
func TestCompareNVOverrideWithColumn(t *testing.T) {
	path := writeCSV(t, corpusCSV+"Spaced.test#1, holds \n  Spaced.test#2 ,fails\n")
	dir := filepath.Dir(path)
	for _, spec := range []string{path, path + ":2"} {
		t.Run(filepath.Base(spec), func(t *testing.T) {
			e, err := ReadExpected(spec)
			require.NoError(t, err)
			var b bytes.Buffer
			passed, failed := Compare(&b, e, []*checker.Result{
				nvResult(filepath.Join(dir, "Tmpl.test"), 2, assertion("a", litmus.AssertAlways, false)),
				nvResult(filepath.Join(dir, "Spaced.test"), 1, assertion("a", litmus.AssertAlways, true)),
				nvResult(filepath.Join(dir, "Spaced.test"), 2, assertion("a", litmus.AssertSometimes, false)),
			})
			assert.Equal(t, 3, passed)
			assert.Zero(t, failed, b.String())
		})
	}
}

// TestReadExpectedErrors: malformed specs and files are errors that say
// where.
func TestReadExpectedErrors(t *testing.T) {
	short := writeCSV(t, "# header\nA.litmus,Ok\nB.litmus\n")
	cases := []struct {
		name string
		spec string
		want string
	}{
		{"too few columns", short, short + ":3: expected at least 2 columns"},
		{"column beyond the row", writeCSV(t, "A.litmus,Ok\n") + ":2", ":1: expected at least 3 columns"},
		{"column zero", short + ":0", "the column after ':' must be a number from 1"},
		{"column not a number", short + ":x", "the column after ':' must be a number from 1"},
		{"missing file", filepath.Join(t.TempDir(), "none.csv"), "cannot read expected results"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadExpected(c.spec)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestReadExpectedSkipsCommentsAndBlanks: comments and blank lines are not
// rows; cells are trimmed.
func TestReadExpectedSkipsCommentsAndBlanks(t *testing.T) {
	path := writeCSV(t, "\n# a comment, with commas\n\n  A.litmus , Ok  \n")
	e, err := ReadExpected(path)
	require.NoError(t, err)
	var b bytes.Buffer
	passed, failed := Compare(&b, e, []*checker.Result{herdResult(filepath.Join(filepath.Dir(path), "A.litmus"), "Ok")})
	assert.Equal(t, 1, passed)
	assert.Zero(t, failed)
}

func TestReadExpectedRejectsUnknownValues(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ text, want string }{
		{"a.test#1,fail\n", "an override row says holds or fails, not \"fail\""},
		{"x.litmus,OK\n", "x.csv:1:10: a verdict is Ok, No, Undef or -, not \"OK\""},
	}
	for _, c := range cases {
		p := filepath.Join(dir, "x.csv")
		require.NoError(t, os.WriteFile(p, []byte(c.text), 0o644))
		_, err := ReadExpected(p)
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
	}
}
