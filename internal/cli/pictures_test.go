package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// TestPictureFilesStayInTheFolder: a picture's file name comes from its
// test's name, made safe: "PTX ../../x" wrote ../../x.dot outside -o DIR,
// and two tests of one name overwrote each other's picture.
func TestPictureFilesStayInTheFolder(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "tests")
	test := func(dir, name string) string {
		p := filepath.Join(src, dir, "T.litmus")
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("PTX "+name+"\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.u32 x, 1 ;\nexists (x == 1)\n"), 0o644))
		return p
	}
	files := []string{test("a", "../../x"), test("b", "Dup"), test("c", "Dup"), test("d", "dup"), test("e", ".hidden")}
	out := filepath.Join(root, "out", "pics")
	cfg := CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Files: files,
		Pictures: Pictures{Mode: ShowAll, Dir: out}}
	var stdout, stderr bytes.Buffer
	require.Equal(t, ExitOK, Check(cfg, &stdout, &stderr), stderr.String())

	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	assert.Equal(t, []string{"Dup-2.dot", "Dup.dot", "_.._.._x.dot", "_.hidden.dot", "dup-3.dot"}, names)
	for _, outside := range []string{filepath.Join(root, "x.dot"), filepath.Join(root, "out", "x.dot")} {
		_, err := os.Stat(outside)
		assert.True(t, os.IsNotExist(err), "%s was written", outside)
	}
	assert.Contains(t, stderr.String(), "ptxmm: the picture of test Dup ("+files[2]+") is "+filepath.Join(out, "Dup-2.dot"))
	assert.Contains(t, stderr.String(), "ptxmm: the picture of test ../../x ("+files[0]+") is "+filepath.Join(out, "_.._.._x.dot"))
}
