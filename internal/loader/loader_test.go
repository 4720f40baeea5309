package loader

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var lib = fstest.MapFS{
	"spec.dl":        {Data: []byte(".decl W(a: event)\n.input W\n.decl e(a: event)\ne(X) :- W(X).\n.check none: empty(e)\n")},
	"variants/v1.dl": {Data: []byte(".include \"../spec.dl\"\n.recheck none: empty(e & e)\n")},
	"variants/v2.dl": {Data: []byte(".include \"../spec.dl\"\n.decl f(a: event)\nf(X) :- e(X).\n")},
	"cat/m.cat":      {Data: []byte("\"m\"\ninclude \"base.cat\"\nacyclic po as order\n")},
	"cat/base.cat":   {Data: []byte("let x = po\n")},
}

// TestLoadSources: a model loads from a file system (a variant's include
// of ../spec.dl, a cat model and its include), from text, and through a
// reader of the host's; the files read are recorded.
func TestLoadSources(t *testing.T) {
	m, err := Load(Source{Name: "variants/v1.dl", FS: lib}, Options{})
	require.NoError(t, err)
	assert.Equal(t, "variants/v1.dl", m.Name)
	assert.Len(t, m.Files, 2)

	c, err := Load(Source{Name: "cat/m.cat", FS: lib}, Options{})
	require.NoError(t, err)
	assert.NotEmpty(t, c.Program.Checks())
	assert.Contains(t, c.Files, "cat/base.cat")

	src, err := VariantSource(lib, "v1", "v2")
	require.NoError(t, err)
	both, err := Load(src, Options{})
	require.NoError(t, err)
	assert.Equal(t, "spec.dl+v1+v2", both.Name)
	assert.NotNil(t, both.Syntax.Relation("f"))
	_, err = VariantSource(lib, "v3")
	require.EqualError(t, err, "no variant v3: the variants of the embedded model are v1, v2")

	var read []string
	confined, err := Load(Source{Name: "model.dl", Text: []byte(".include \"spec.dl\"\n")}, Options{Read: func(name string) ([]byte, error) {
		read = append(read, name)
		return lib.ReadFile(name)
	}})
	require.NoError(t, err)
	assert.Equal(t, []string{"spec.dl"}, read)
	assert.NotEqual(t, m.Digest, confined.Digest)
}

// TestLoadExtraAndUnchecked: extra items get their heads declared; a
// check is left out by name.
func TestLoadExtraAndUnchecked(t *testing.T) {
	m, err := Load(Source{Name: "spec.dl", FS: lib}, Options{Extra: []string{"g(X) :- e(X).", ".check g_none: empty(g)"}, Unchecked: []string{"none"}})
	require.NoError(t, err)
	var names []string
	for _, c := range m.Program.Checks() {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"g_none"}, names)
	assert.Contains(t, m.Syntax.Program.Files, "input#1.decl")

	_, err = Load(Source{Name: "spec.dl", FS: lib}, Options{Extra: []string{"h(X) :- nonesuch(X)."}})
	require.ErrorContains(t, err, "input#1:1:")
}

// TestCacheRereadsChangedFiles: a hit needs every file read to hold what
// it held and every include searched in vain to be still absent.
func TestCacheRereadsChangedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("m.dl", ".include \"inc.dl\"\n")
	write("lib/inc.dl", ".decl a(x)\n")
	c, err := NewCache(2, func(m *Model) *Model { return m })
	require.NoError(t, err)
	defer c.Close()
	src, opts := Source{Name: filepath.Join(dir, "m.dl")}, Options{IncludeDirs: []string{filepath.Join(dir, "lib")}}
	a, err := c.Load(src, opts)
	require.NoError(t, err)
	require.Contains(t, a.Files, filepath.Join(dir, "inc.dl"))
	assert.True(t, a.Files[filepath.Join(dir, "inc.dl")].Absent)
	b, err := c.Load(src, opts)
	require.NoError(t, err)
	require.Same(t, a, b)

	write("lib/inc.dl", ".decl b(x)\n")
	b, err = c.Load(src, opts)
	require.NoError(t, err)
	require.NotSame(t, a, b)
	require.NotNil(t, b.Syntax.Relation("b"))

	write("inc.dl", ".decl c(x)\n")
	d, err := c.Load(src, opts)
	require.NoError(t, err)
	require.NotNil(t, d.Syntax.Relation("c"))

	_, err = NewCache(0, func(m *Model) *Model { return m })
	require.Error(t, err)
}

// TestLoadBuiltin: only the embedded model as shipped is marked Builtin,
// on which the termination of loops that write relies; items added or
// checks left out, a text, a variant or a host's reader unmark it.
func TestLoadBuiltin(t *testing.T) {
	builtin := Source{Name: "spec.dl", FS: lib, Builtin: true}
	cases := []struct {
		name string
		src  Source
		opts Options
		want bool
	}{
		{"shipped", builtin, Options{}, true},
		{"not said", Source{Name: "spec.dl", FS: lib}, Options{}, false},
		{"extra", builtin, Options{Extra: []string{"g(X) :- e(X)."}}, false},
		{"unchecked", builtin, Options{Unchecked: []string{"none"}}, false},
		{"text", Source{Name: "spec.dl", FS: lib, Text: []byte(".decl W(a: event)\n.input W\n"), Builtin: true}, Options{}, false},
		{"read", builtin, Options{Read: lib.ReadFile}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Load(c.src, c.opts)
			require.NoError(t, err)
			assert.Equal(t, c.want, m.Builtin)
		})
	}
	a, err := Load(builtin, Options{})
	require.NoError(t, err)
	b, err := Load(Source{Name: "spec.dl", FS: lib}, Options{})
	require.NoError(t, err)
	assert.NotEqual(t, a.Digest, b.Digest, "a cache must not hand one for the other")
}
