package ptxmm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
)

// suiteTests parses the small-test suite of ../shared/perf/suite-ptx (243
// classic shapes, the suite issue 33 compares with herd7).
func suiteTests(b *testing.B) []*litmus.Test {
	b.Helper()
	dir := filepath.Join("..", "shared", "perf", "suite-ptx")
	files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil || len(files) == 0 {
		if _, serr := os.Stat(dir); serr != nil {
			b.Skipf("small-test suite not found at %s", dir)
		}
		b.Fatalf("no tests in %s: %v", dir, err)
	}
	var tests []*litmus.Test
	for _, f := range files {
		ts, err := litmus.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		tests = append(tests, ts...)
	}
	return tests
}

// BenchmarkSuite checks the 243 small tests once per iteration on one
// core, with the model compiled once: the per-test cost the command line
// pays after it has started.
func BenchmarkSuite(b *testing.B) {
	checkEach(b, suiteTests(b))
}
