package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// herdCSV has two verdict columns, as the dat3m corpus.
const herdCSV = `# test,model-a,model-b
A/MP.litmus,No,Ok
A/SB.litmus,Ok,Ok
B/Unrated.litmus,-,No
`

// TestCompareHerd: herd rows compare the verdict (Ok/No), unrated (-) rows
// only need the test checked; errors and mismatches fail with one line, and
// so do a test no row names and a row no test matches.
func TestCompareHerd(t *testing.T) {
	path := writeCSV(t, herdCSV)
	dir := filepath.Dir(path)
	mp := herdResult(filepath.Join(dir, "A", "MP.litmus"), "No")
	unrated := herdResult(filepath.Join(dir, "B", "Unrated.litmus"), "Ok")
	cases := []struct {
		name           string
		spec           string
		results        []*checker.Result
		passed, failed int
		out            string
	}{
		{
			name:    "first column",
			spec:    path,
			results: []*checker.Result{mp, herdResult(filepath.Join(dir, "A", "SB.litmus"), "No"), unrated},
			passed:  1, failed: 1,
			out: "MISMATCH A/SB.litmus: want Ok, got No\n",
		},
		{
			name: "second column",
			spec: path + ":2",
			results: []*checker.Result{mp, herdResult(filepath.Join(dir, "A", "SB.litmus"), "Ok"),
				herdResult(filepath.Join(dir, "B", "Unrated.litmus"), "No")},
			passed: 2, failed: 1,
			out: "MISMATCH A/MP.litmus: want Ok, got No\n",
		},
		{
			name: "an error fails",
			spec: path,
			results: []*checker.Result{
				{Test: herdResult(filepath.Join(dir, "A", "MP.litmus"), "").Test, Err: errors.New("limit reached; raise it with -timeout")},
				herdResult(filepath.Join(dir, "A", "SB.litmus"), "Ok"), unrated,
			},
			passed: 1, failed: 1,
			out: "MISMATCH A/MP.litmus: want No, got error: limit reached; raise it with -timeout\n",
		},
		{
			name:    "a test no row names fails",
			spec:    path,
			results: []*checker.Result{mp, herdResult(filepath.Join(dir, "A", "SB.litmus"), "Ok"), unrated, herdResult(filepath.Join(dir, "C", "Absent.litmus"), "Ok")},
			passed:  2, failed: 1,
			out: "UNEXPECTED C/Absent.litmus: no row of " + path + " names this test\n",
		},
		{
			name:    "rows no test matches fail, unrated ones too",
			spec:    path,
			results: []*checker.Result{mp},
			passed:  1, failed: 2,
			out: "NOT RUN A/SB.litmus (" + path + ":3): no test checked matches this row\n" +
				"NOT RUN B/Unrated.litmus (" + path + ":4): no test checked matches this row\n",
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

// TestCompareCSVInAnotherFolder: paths are relative to the CSV's folder, so
// a CSV that is not beside the tests matches none of them, and the
// comparison fails rather than passing with nothing compared.
func TestCompareCSVInAnotherFolder(t *testing.T) {
	tests := t.TempDir()
	path := writeCSV(t, "MP.litmus,No\n")
	var b bytes.Buffer
	passed, failed := Compare(&b, mustRead(t, path), []*checker.Result{herdResult(filepath.Join(tests, "MP.litmus"), "No")})
	assert.Zero(t, passed)
	assert.Equal(t, 2, failed)
	assert.Contains(t, b.String(), "UNEXPECTED ")
	assert.Contains(t, b.String(), "NOT RUN MP.litmus ("+path+":1)")
}

func mustRead(t *testing.T, spec string) *Expected {
	t.Helper()
	e, err := ReadExpected(spec)
	require.NoError(t, err)
	return e
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
// "file.test[K]" (or NVlabs' "file.test#K") row says fails. A .test file needs no row; an override row
// that no instance matches fails.
func TestCompareNV(t *testing.T) {
	tmplRow := "Tmpl.test#2,fails\n"
	cases := []struct {
		name           string
		csv            string
		result         func(dir string) *checker.Result
		passed, failed int
		out            string
	}{
		{
			name: "inline expectation: all hold",
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 1,
					assertion("a", litmus.AssertAlways, true),
					assertion("p", litmus.AssertSometimes, true),
					assertion("c", litmus.AssertCheck, false))
			},
			passed: 2,
		},
		{
			name: "inline expectation: a failing permit",
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 1,
					assertion("a", litmus.AssertAlways, true),
					assertion("p", litmus.AssertSometimes, false))
			},
			passed: 1, failed: 1,
			out: "MISMATCH nv/Tmpl.test[1] permit p: want holds\n",
		},
		{
			name: "override by base name: instance 2 must fail",
			csv:  tmplRow,
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 2, assertion("a", litmus.AssertAlways, false))
			},
			passed: 1,
		},
		{
			name: "override by the name ptxmm prints",
			csv:  "nv/Tmpl.test[2],fails\n",
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 2, assertion("a", litmus.AssertAlways, false))
			},
			passed: 1,
		},
		{
			name: "override by relative path",
			csv:  "nv/Tmpl.test#2,fails\n",
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 2, assertion("a", litmus.AssertAlways, false))
			},
			passed: 1,
		},
		{
			name: "override: holding is a mismatch",
			csv:  tmplRow,
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 2, assertion("a", litmus.AssertAlways, true))
			},
			failed: 1,
			out:    "MISMATCH nv/Tmpl.test[2] assert a: want fails\n",
		},
		{
			name: "override row not run",
			csv:  tmplRow,
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "nv", "Tmpl.test"), 1, assertion("a", litmus.AssertAlways, true))
			},
			passed: 1, failed: 1,
			out: "NOT RUN Tmpl.test[2] (CSV:1): no test checked matches this row\n",
		},
		{
			name: "instance 0 of a plain test",
			csv:  "Plain.test#0,holds\n",
			result: func(dir string) *checker.Result {
				return nvResult(filepath.Join(dir, "Plain.test"), 0, assertion("a", litmus.AssertAlways, true))
			},
			passed: 1,
		},
		{
			name: "an error fails once",
			result: func(dir string) *checker.Result {
				return &checker.Result{Test: &litmus.Test{File: filepath.Join(dir, "nv", "Tmpl.test"), Format: litmus.FormatNV, Instance: 3}, Err: errors.New("boom")}
			},
			failed: 1,
			out:    "MISMATCH nv/Tmpl.test[3]: error: boom\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeCSV(t, c.csv)
			var b bytes.Buffer
			passed, failed := Compare(&b, mustRead(t, path), []*checker.Result{c.result(filepath.Dir(path))})
			assert.Equal(t, c.passed, passed, "passed")
			assert.Equal(t, c.failed, failed, "failed")
			assert.Equal(t, c.out, strings.ReplaceAll(b.String(), path, "CSV"))
		})
	}
}

// TestCompareNVOverrideWithColumn: with a later column, override rows
// (two cells) still apply, their cells trimmed like any other. (Regression:
// " holds" in an override row read for column 2 did not count as holds.)
func TestCompareNVOverrideWithColumn(t *testing.T) {
	path := writeCSV(t, "# test,a,b\nTmpl.test#2,fails\nSpaced.test#1, holds \n  Spaced.test#2 ,fails\n")
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
		{"a row given twice", writeCSV(t, "A.litmus,Ok\n\nA.litmus,No\n"), ":3: A.litmus already has a row (line 1)"},
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
		{"No x,No x\n", "x.csv:1:6: a verdict is Ok, No, Undef or -, not \"No x\""},
		{"  a , b,  OK\n", "x.csv:1:7: a verdict is Ok, No, Undef or -, not \"b\""},
		{"x.litmus,- empty\n", "a verdict is Ok, No, Undef or -, not \"- empty\""},
		{"a.test#1,empty\n", "an override row says holds or fails, not \"empty\""},
	}
	for _, c := range cases {
		p := filepath.Join(dir, "x.csv")
		require.NoError(t, os.WriteFile(p, []byte(c.text), 0o644))
		_, err := ReadExpected(p)
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
	}
}

// TestCompareNoExecution: a verdict over no execution at all (no
// candidate, none the model allows, none meeting a .test file's
// restrictions) fails the comparison with its reason, unless the row says
// "empty"; a row saying "empty" fails a test that has executions. A test
// whose executions all hang is compared as any other.
func TestCompareNoExecution(t *testing.T) {
	path := writeCSV(t, "A.litmus,Ok\nB.litmus,No empty\nC.litmus,Ok empty\nH.litmus,No\nT.test[1],holds empty\n")
	dir := filepath.Dir(path)
	e, err := ReadExpected(path)
	require.NoError(t, err)
	none := &checker.EmptyReason{Kind: checker.EmptyForbidden, Text: "the model forbids all 4 candidate execution(s)"}
	vacuousOk := herdResult(filepath.Join(dir, "A.litmus"), "Ok")
	vacuousOk.Empty = none
	expectedNone := herdResult(filepath.Join(dir, "B.litmus"), "No")
	expectedNone.Empty = &checker.EmptyReason{Kind: checker.EmptyConstraints, Text: "no candidate execution"}
	notEmpty := herdResult(filepath.Join(dir, "C.litmus"), "Ok")
	notEmpty.States = []checker.State{{}}
	hang := herdResult(filepath.Join(dir, "H.litmus"), "No")
	hang.Empty = &checker.EmptyReason{Kind: checker.EmptyHang, Text: "every consistent execution hangs"}
	sane := nvResult(filepath.Join(dir, "T.test"), 1, assertion("a", litmus.AssertAlways, true))
	sane.Empty = &checker.EmptyReason{Kind: checker.EmptyRestrictions, Text: "no candidate execution meets the restrictions"}
	insane := nvResult(filepath.Join(dir, "U.test"), 1, assertion("a", litmus.AssertAlways, true))
	insane.Empty = sane.Empty

	var b bytes.Buffer
	passed, failed := Compare(&b, e, []*checker.Result{vacuousOk, expectedNone, notEmpty, hang, sane, insane})
	assert.Equal(t, 3, passed, b.String())
	assert.Equal(t, 3, failed, b.String())
	out := b.String()
	assert.Contains(t, out, "MISMATCH A.litmus: want Ok, got Ok over no execution: the model forbids all 4 candidate execution(s) (when no execution is expected, the row of expected.csv says so: \"Ok empty\")\n")
	assert.Contains(t, out, "MISMATCH C.litmus: want Ok over no execution, got Ok\n")
	assert.Contains(t, out, "MISMATCH U.test[1]: no execution: no candidate execution meets the restrictions (when no execution is expected, the row of expected.csv says so: \"holds empty\")\n")
}

// TestReadLongLines: a row longer than bufio's 64 KiB default is read as
// any other (an expected CSV's and a kinds file's); the scan used to stop
// there with "token too long", naming neither file nor line.
func TestReadLongLines(t *testing.T) {
	long := strings.Repeat("a", 70_000)
	dir := t.TempDir()
	cases := []struct {
		name, text string
		read       func(path string) (int, error)
	}{
		{"expected results", "A.litmus,Ok\n" + long + ".litmus,No\nB.litmus,No\n", func(p string) (int, error) {
			e, err := ReadExpected(p)
			if err != nil {
				return 0, err
			}
			return len(e.keys), nil
		}},
		{"kinds", "A Allowed\n" + long + " Forbidden\nB Required\n", func(p string) (int, error) {
			k, err := ReadKinds(p)
			if err != nil {
				return 0, err
			}
			return len(k.All()), nil
		}},
	}
	for _, c := range cases {
		p := filepath.Join(dir, "f.csv")
		require.NoError(t, os.WriteFile(p, []byte(c.text), 0o644))
		n, err := c.read(p)
		require.NoError(t, err, c.name)
		require.Equal(t, 3, n, c.name)
	}
}
