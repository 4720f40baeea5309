package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestTreeAndFolder: Tree walks subfolders in lexical order and keeps only
// the names with the given endings; Folder reads one folder only.
func TestTreeAndFolder(t *testing.T) {
	dir := t.TempDir()
	for rel, name := range map[string]string{"b.litmus": "B", "a.litmus": "A", "sub/c.litmus": "C", "notes.txt": "N"} {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		text := fmt.Sprintf("PTX %s\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n", name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	names := func(tests []*litmus.Test) []string {
		var out []string
		for _, tc := range tests {
			out = append(out, tc.Name)
		}
		return out
	}
	cases := []struct {
		name  string
		tests []*litmus.Test
		want  []string
	}{
		{"tree", Tree(t, dir, ".litmus"), []string{"A", "B", "C"}},
		{"tree, two endings", Tree(t, dir, ".test", ".litmus"), []string{"A", "B", "C"}},
		{"tree, another ending", Tree(t, dir, ".test"), nil},
		{"folder", Folder(t, dir, ".litmus"), []string{"A", "B"}},
		{"folder without tests", Folder(t, filepath.Join(dir, "none"), ".litmus"), nil},
	}
	for _, c := range cases {
		require.Equal(t, c.want, names(c.tests), c.name)
	}
}
