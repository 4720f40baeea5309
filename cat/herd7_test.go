package cat_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// herd7Result is what herd7 gave for one test under one group of models.
type herd7Result struct {
	path, verdict string
	states        []string
}

// readHerd7 reads a file of cat/testdata/herd7: its models, and herd7's
// result for each test.
func readHerd7(t *testing.T, file string) ([]string, []herd7Result) {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var models []string
	var out []herd7Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "models "):
			models = strings.Fields(line)[1:]
		default:
			cols := strings.Split(line, "\t")
			require.Len(t, cols, 3, "%s: %q", file, line)
			out = append(out, herd7Result{path: cols[0], verdict: cols[1], states: strings.Split(cols[2], " | ")})
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, models, file)
	return models, out
}

// normState writes a state of ptxmm's log as the record does: bindings
// sorted, "; " between them.
func normState(s string) string {
	var parts []string
	for _, b := range strings.Split(s, ";") {
		if b = strings.TrimSpace(b); b != "" {
			parts = append(parts, b)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// symbolic matches a state herd7 prints with a value it computed from
// nothing (S4): an out-of-thin-air value, which ptxmm's executions do not
// hold (docs/cat.md, "Compared with herd7").
var symbolic = regexp.MustCompile(`=S[0-9]+\b`)

// herd7Libdir is herd7's library: $PTXMM_HERDLIB (an installed
// herdtools7's herd/libdir, say), else the copy in
// ../shared/conformance/herd-libdir; the test skips when neither is there.
func herd7Libdir(t *testing.T) string {
	if dir := os.Getenv("PTXMM_HERDLIB"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "sc.cat")); err != nil {
			t.Fatalf("PTXMM_HERDLIB=%s holds no sc.cat: it should name herdtools7's herd/libdir", dir)
		}
		return dir
	}
	return herdLibdir(t)
}

// TestHerd7Recorded holds the models of herd7's library against herd7
// itself: cat/testdata/herd7 records herd7's results (herdtools7 7.57,
// built from source, run by cat/testdata/herdcompare/run.sh on the LISA
// ports of the shipped tests and of ../shared/conformance) and ptxmm must
// give the same final states and validation for every model and test.
// The one documented difference: where herd7 lists a state with a value
// out of thin air (Sn), ptxmm has no such execution, so that state is
// left out and the validation, which it may decide, is not compared.
// herd.cat and pretty.cat are not recorded: herd7 7.57 stops on them with
// a type error (docs/cat.md).
func TestHerd7Recorded(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 43 models on 68 tests; skipped with -short")
	}
	lib := herd7Libdir(t)
	files, err := filepath.Glob(filepath.Join("testdata", "herd7", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	_, sharedErr := os.Stat(filepath.Join("..", "..", "shared", "conformance"))
	nModels, nChecked, nThinAir := 0, 0, 0
	for _, file := range files {
		models, results := readHerd7(t, file)
		for _, name := range models {
			nModels++
			low, errs := cat.Load(name, cat.Options{LibDir: lib})
			require.False(t, errs.HasErrors(), "%s: %s", name, errs.Error())
			m, err := checker.BuildModel(name, low.Program, nil)
			require.NoError(t, err, name)
			for _, want := range results {
				path := filepath.Join("..", want.path)
				if strings.HasPrefix(want.path, "../shared/") && sharedErr != nil {
					continue // the shared corpora are not there
				}
				tests, err := litmus.ParseFile(path)
				require.NoError(t, err)
				require.Len(t, tests, 1, path)
				r := m.Check(tests[0], checker.DefaultOptions())
				require.NoError(t, r.Err, "%s under %s", path, name)
				var got []string
				for _, s := range r.States {
					got = append(got, normState(report.StateLine(r, s)))
				}
				sort.Strings(got)
				var herd []string
				for _, s := range want.states {
					if !symbolic.MatchString(s) {
						herd = append(herd, s)
					}
				}
				require.Equal(t, herd, got, "%s under %s: final states", want.path, name)
				if len(herd) == len(want.states) {
					require.Equal(t, want.verdict, r.Verdict, "%s under %s: validation", want.path, name)
				} else {
					nThinAir++
				}
				nChecked++
			}
		}
	}
	t.Logf("%d models, %d model-test pairs as herd7 gives them; %d with herd7's out-of-thin-air states left out", nModels, nChecked, nThinAir)
}
