package litmus

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conformanceDir returns the shared third-party corpus, which the tests
// only read (it may not be copied into the repository), or skips.
func conformanceDir(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "conformance", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared conformance corpus not found at %s; skipping", dir)
	}
	return dir
}

// corpusFiles lists the files under dir with the given extension.
func corpusFiles(t *testing.T, dir, ext string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ext) {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files, "no %s files under %s", ext, dir)
	return files
}

// templateRows counts the table rows of a .test template the way the
// conformance scorer does: lines after $$ that hold a '|'. It returns 0
// for a file that is not a template.
func templateRows(src []byte) int {
	_, table, ok := bytes.Cut(src, []byte("$$"))
	if !ok {
		return 0
	}
	n := 0
	for _, line := range strings.Split(string(table), "\n") {
		if strings.Contains(line, "|") {
			n++
		}
	}
	return n
}

// checkLabelsResolve asserts that every branch of every thread targets a
// label of that thread.
func checkLabelsResolve(t *testing.T, test *Test) {
	t.Helper()
	for _, th := range test.Threads {
		labels := map[string]bool{}
		for _, in := range th.Instrs {
			if in.Op == OpLabel {
				labels[in.Label] = true
			}
		}
		for _, in := range th.Instrs {
			if in.Op == OpBranch || in.Op == OpGoto {
				assert.True(t, labels[in.Label], "%s: branch %q of %s has no target", test.Name, in.Text, th.Name)
			}
		}
	}
}

func TestConformanceHerd(t *testing.T) {
	dir := conformanceDir(t, "dat3m")
	for _, path := range corpusFiles(t, dir, ".litmus") {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			tests, err := ParseFile(path)
			require.NoError(t, err)
			require.Len(t, tests, 1)
			test := tests[0]
			assert.Equal(t, FormatHerd, test.Format)
			assert.Equal(t, 0, test.Instance)
			assert.NotEmpty(t, test.Name)
			assert.NotEmpty(t, test.Threads)
			require.NotNil(t, test.Condition)
			assert.NotNil(t, test.Condition.Expr)
			assert.Empty(t, test.Assertions)
			checkLabelsResolve(t, test)
		})
	}
}

func TestConformanceNV(t *testing.T) {
	dir := conformanceDir(t, "nvlabs")
	for _, path := range corpusFiles(t, dir, ".test") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			tests, err := ParseFile(path)
			require.NoError(t, err)
			if rows := templateRows(src); rows > 0 {
				require.Len(t, tests, rows, "one instance per table row")
				for i, test := range tests {
					assert.Equal(t, i+1, test.Instance)
				}
			} else {
				require.Len(t, tests, 1)
				assert.Equal(t, 0, tests[0].Instance)
			}
			for _, test := range tests {
				assert.Equal(t, FormatNV, test.Format)
				assert.NotEmpty(t, test.Threads)
				assert.NotEmpty(t, test.Assertions)
				assert.Nil(t, test.Condition)
				checkLabelsResolve(t, test)
			}
		})
	}
}
