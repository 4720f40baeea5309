package serve

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// TestIncludeFS reads includes through the confined file system: the
// library's spec.dl and variants/ (read once, when the server starts)
// hold what the embedded files hold, a file of -include-dir shadows the
// library's, and every other name is refused with the reason.
func TestIncludeFS(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "variants"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "variants", "ptx-v6.0.dl"), []byte("// mine\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "own.dl"), []byte("// own\n"), 0o644))
	lib := ptxmm.LibraryFS()
	variants, err := fs.Glob(lib, "variants/*.dl")
	require.NoError(t, err)
	require.NotEmpty(t, variants)
	for _, withDir := range []bool{false, true} {
		folder := ""
		if withDir {
			folder = dir
		}
		inc, err := newIncludeFS(lib, folder)
		require.NoError(t, err)
		t.Cleanup(func() { inc.Close() })
		for _, name := range append([]string{"spec.dl"}, variants...) {
			want, err := fs.ReadFile(lib, name)
			require.NoError(t, err)
			if withDir && name == "variants/ptx-v6.0.dl" {
				want = []byte("// mine\n")
			}
			got, err := inc.ReadFile(name)
			require.NoError(t, err, name)
			assert.Equal(t, string(want), string(got), name)
		}
		cases := []struct{ name, err string }{
			{"own.dl", "no such file among the built-in spec.dl and variants/"},
			{"variants/none.dl", "no such file among"},
			{"examples/MP.litmus", "only .dl files can be included"},
			{"../spec.dl", "includes are confined to"},
			{"README.dl", "no such file among"},
		}
		for _, c := range cases {
			_, err := inc.ReadFile(c.name)
			if withDir && c.name == "own.dl" {
				assert.NoError(t, err, "a file of -include-dir")
				continue
			}
			require.Error(t, err, c.name)
			assert.Contains(t, err.Error(), c.err, c.name)
		}
	}
}
