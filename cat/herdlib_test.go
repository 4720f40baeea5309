package cat_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// herdLibdir locates herd7's library (../shared/conformance/herd-libdir,
// read in place, never copied), skipping when it is absent.
func herdLibdir(t *testing.T) string {
	return sharedConformance(t, "herd-libdir", "sc.cat", "herd7's library")
}

// archIndependent are the models of herd7's library that read only names
// every test has; on PTX tests they give herd7's state sets.
var archIndependent = []string{"sc.cat", "minimal.cat", "uniproc.cat", "mini.cat", "naked.cat", "minimalcat.cat",
	"sccat.cat", "uniproccat.cat", "coscat.cat", "uni.cat", "uniproc+sca.cat", "cos.cat", "cross.cat", "fences.cat"}

// TestHerdLibrary: each of the 87 models of herd7's library parses and
// lowers, the only error being, for the models of other architectures,
// the one that lists the names ptxmm does not supply (their fences,
// page-table events, ...); the architecture-independent ones compile.
func TestHerdLibrary(t *testing.T) {
	dir := herdLibdir(t)
	models, err := filepath.Glob(filepath.Join(dir, "*.cat"))
	require.NoError(t, err)
	require.Len(t, models, 87)
	opts := cat.Options{LibDir: dir}
	var loaded []string
	for _, path := range models {
		name := filepath.Base(path)
		low, errs := cat.Load(path, opts)
		if errs.HasErrors() {
			require.Len(t, errs.Errors(), 1, "%s: %s", name, errs.Error())
			require.Contains(t, errs.Errors()[0].Msg, "neither it nor ptxmm binds", name)
			continue
		}
		_, err := checker.BuildModel(path, low.Program, nil)
		require.NoError(t, err, name)
		loaded = append(loaded, name)
	}
	sort.Strings(loaded)
	for _, m := range archIndependent {
		require.Contains(t, loaded, m)
	}
	t.Logf("%d of 87 models compile; the others miss names of their architectures", len(loaded))
}

// TestHerdLibraryVerdicts: herd7's architecture-independent models give
// the verdicts of their definitions on the shipped tests: sc.cat forbids
// every non-sequentially-consistent outcome (CoRR's, SB's, ...) and keeps
// atomics atomic (Atomicity1's forall holds), minimal.cat allows every
// outcome of some coherence and reads-from (a load may miss its own
// thread's store: CoWR+alias's forall fails), uniproc.cat forbids only
// what breaks coherence per location (CoRR) and leaves atomicity alone.
func TestHerdLibraryVerdicts(t *testing.T) {
	dir := herdLibdir(t)
	want := map[string]map[string]string{
		"MP.litmus":              {"sc.cat": "No", "minimal.cat": "Ok", "uniproc.cat": "Ok"},
		"SB+fence.sc.litmus":     {"sc.cat": "No", "minimal.cat": "Ok", "uniproc.cat": "Ok"},
		"LB.litmus":              {"sc.cat": "Ok", "minimal.cat": "Ok", "uniproc.cat": "Ok"},
		"IRIW+fence.sc.litmus":   {"sc.cat": "No", "minimal.cat": "Ok", "uniproc.cat": "Ok"},
		"CoRR.litmus":            {"sc.cat": "No", "minimal.cat": "Ok", "uniproc.cat": "No"},
		"CoWR+alias.litmus":      {"sc.cat": "Ok", "minimal.cat": "No", "uniproc.cat": "Ok"},
		"Atomicity1.litmus":      {"sc.cat": "Ok", "minimal.cat": "No", "uniproc.cat": "No"},
		"ReleasePattern2.litmus": {"sc.cat": "No", "minimal.cat": "Ok", "uniproc.cat": "Ok"},
	}
	opts := cat.Options{LibDir: dir}
	for _, model := range []string{"sc.cat", "minimal.cat", "uniproc.cat"} {
		low, errs := cat.Load(model, opts)
		require.False(t, errs.HasErrors(), errs.Error())
		m, err := checker.BuildModel(model, low.Program, nil)
		require.NoError(t, err)
		for test, verdicts := range want {
			tests, err := litmus.ParseFile(filepath.Join("..", "examples", test))
			require.NoError(t, err)
			r := m.Check(tests[0], checker.DefaultOptions())
			require.NoError(t, r.Err, test)
			require.Equal(t, verdicts[model], r.Verdict, "%s under %s", test, model)
			if strings.HasPrefix(test, "MP") {
				require.NotEmpty(t, r.States)
			}
		}
	}
}
