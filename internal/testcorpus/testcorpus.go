// Package testcorpus reads folders of litmus tests for the tests and
// benchmarks of ptxmm's packages: the shipped examples, the shared
// conformance corpora and the performance suite are read the same way in
// several packages, and a test binary cannot import another package's
// test helpers.
package testcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
)

// Tree parses every file under root, its subfolders included, whose name
// ends with one of exts (".litmus", ".test"), in filepath.WalkDir's
// lexical order, and returns the tests they hold (every instance of a
// .test template). A folder that cannot be read or a file that does not
// parse fails tb.
func Tree(tb testing.TB, root string, exts ...string) []*litmus.Test {
	tb.Helper()
	var tests []*litmus.Test
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !hasSuffix(p, exts) {
			return err
		}
		ts, err := litmus.ParseFile(p)
		if err != nil {
			return err
		}
		tests = append(tests, ts...)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return tests
}

// Folder parses the files directly in dir (not its subfolders) whose name
// ends with ext, in filepath.Glob's sorted order. A file that does not
// parse fails tb; a folder without such files gives no tests.
func Folder(tb testing.TB, dir, ext string) []*litmus.Test {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil {
		tb.Fatal(err)
	}
	var tests []*litmus.Test
	for _, f := range files {
		ts, err := litmus.ParseFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		tests = append(tests, ts...)
	}
	return tests
}

func hasSuffix(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}
