package report

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// specOnce loads spec.dl as the command line loads the embedded model
// (marked Builtin), so that the logs are those users see.
var specOnce = sync.OnceValues(func() (*checker.Model, error) {
	m, err := loader.Load(loader.Source{Name: "spec.dl", FS: os.DirFS(".."), Builtin: true}, loader.Options{})
	if err != nil {
		return nil, err
	}
	return m.Model, nil
})

func spec(t *testing.T) *checker.Model {
	t.Helper()
	m, err := specOnce()
	require.NoError(t, err)
	return m
}

// parse parses a test from its text; the file name's extension picks the
// format. A .test template yields several instances.
func parse(t *testing.T, file, src string) []*litmus.Test {
	t.Helper()
	f, err := litmus.FormatForPath(file)
	require.NoError(t, err)
	tests, err := litmus.Parse(file, []byte(src), f)
	require.NoError(t, err)
	return tests
}

// checkSrc checks every instance of a test with spec.dl.
func checkSrc(t *testing.T, file, src string, opts checker.Options) []*checker.Result {
	t.Helper()
	var out []*checker.Result
	for _, tc := range parse(t, file, src) {
		out = append(out, spec(t).Check(tc, opts))
	}
	return out
}

func explainOpts() checker.Options {
	o := checker.DefaultOptions()
	o.Explain = true
	return o
}

var timeLine = regexp.MustCompile(`(?m)^Time (\S+) [0-9.]+$`)

// normalise replaces the varying seconds of Time lines by "T".
func normalise(s string) string { return timeLine.ReplaceAllString(s, "Time $1 T") }

// golden compares got with testdata/NAME.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
