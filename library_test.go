package ptxmm_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// filesOnDisk lists a folder's files (below it too) that keep accepts,
// with slash-separated names, sorted.
func filesOnDisk(t *testing.T, root string, keep func(string) bool) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && keep(p) {
			out = append(out, filepath.ToSlash(p))
		}
		return err
	}))
	sort.Strings(out)
	return out
}

// TestLibrary: the embedded library holds every example test (subfolders
// included) and every variant of the source tree, and they load.
func TestLibrary(t *testing.T) {
	isTest := func(p string) bool { return strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test") }
	examples, err := ptxmm.LibraryExamples()
	require.NoError(t, err)
	require.Equal(t, filesOnDisk(t, "examples", isTest), examples)
	require.Contains(t, examples, "examples/MP.litmus")
	for _, p := range examples {
		src, err := fs.ReadFile(ptxmm.LibraryFS(), p)
		require.NoError(t, err)
		_, err = ptxmm.ParseTests(p, src)
		require.NoError(t, err, p)
	}

	models, err := ptxmm.LibraryModels()
	require.NoError(t, err)
	variants := filesOnDisk(t, "variants", func(p string) bool { return strings.HasSuffix(p, ".dl") })
	require.Equal(t, append([]string{"spec.dl"}, variants...), models)
	spec, err := fs.ReadFile(ptxmm.LibraryFS(), "spec.dl")
	require.NoError(t, err)
	onDisk, err := os.ReadFile("spec.dl")
	require.NoError(t, err)
	require.Equal(t, string(onDisk), string(spec))
}
