package checker

import (
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/litmus"
)

var specOnce = sync.OnceValues(func() (*Model, error) {
	return loadFile(filepath.Join("..", "spec.dl"))
})

// loadFile loads a .dl model file as the loader does (package
// internal/loader, which imports this one).
func loadFile(file string) (*Model, error) {
	prog, errs := datalog.Load(file)
	if errs.HasErrors() {
		return nil, errs
	}
	return BuildModel(file, prog, nil)
}

// spec returns the project's model, loaded once per test binary.
func spec(t *testing.T) *Model {
	t.Helper()
	m, err := specOnce()
	require.NoError(t, err)
	return m
}

// loadModel loads a model file relative to the package directory.
func loadModel(t *testing.T, parts ...string) *Model {
	t.Helper()
	m, err := loadFile(filepath.Join(parts...))
	require.NoError(t, err)
	return m
}

func herd(t *testing.T, src string) *litmus.Test {
	t.Helper()
	tc, err := litmus.ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	return tc
}

// nvAll parses every instance of an NV-format test.
func nvAll(t *testing.T, src string) []*litmus.Test {
	t.Helper()
	tests, err := litmus.ParseNV("t.test", []byte(src))
	require.NoError(t, err)
	return tests
}

func nv(t *testing.T, src string) *litmus.Test {
	t.Helper()
	tests := nvAll(t, src)
	require.Len(t, tests, 1)
	return tests[0]
}

// check checks a test with the default options and no error.
func check(t *testing.T, m *Model, tc *litmus.Test) *Result {
	t.Helper()
	r := m.Check(tc, DefaultOptions())
	require.NoError(t, r.Err)
	return r
}

// states formats a result's final states, sorted.
func states(r *Result) []string {
	var out []string
	for _, s := range r.States {
		out = append(out, FormatState(r.Test, r.Layout, r.Observables, s))
	}
	sort.Strings(out)
	return out
}

// failureNames lists the names of the failed checks.
func failureNames(f Forbidden) []string {
	var out []string
	for _, c := range f.Failures {
		out = append(out, c.Name)
	}
	return out
}
