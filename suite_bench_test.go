package ptxmm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
)

// suiteTests parses the small-test suite of ../shared/perf/suite-ptx (243
// classic shapes, the suite issue 33 compares with herd7).
func suiteTests(b *testing.B) []*litmus.Test {
	b.Helper()
	dir := filepath.Join("..", "shared", "perf", "suite-ptx")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("small-test suite not found at %s", dir)
	}
	tests := testcorpus.Folder(b, dir, ".litmus")
	if len(tests) == 0 {
		b.Fatalf("no tests in %s", dir)
	}
	return tests
}

// BenchmarkSuite checks the 243 small tests once per iteration on one
// core, with the model compiled once: the per-test cost the command line
// pays after it has started.
func BenchmarkSuite(b *testing.B) {
	checkEach(b, suiteTests(b))
}
