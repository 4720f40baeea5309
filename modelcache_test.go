package ptxmm_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

func specSource(tb testing.TB) []byte {
	tb.Helper()
	src, err := fs.ReadFile(ptxmm.DefaultModelFS(), ptxmm.DefaultModelName)
	require.NoError(tb, err)
	return src
}

func TestModelCache(t *testing.T) {
	mc, err := ptxmm.NewModelCache(4)
	require.NoError(t, err)
	defer mc.Close()
	src := specSource(t)
	a, err := mc.LoadSource("spec.dl", src)
	require.NoError(t, err)
	b, err := mc.LoadSource("spec.dl", src)
	require.NoError(t, err)
	require.Same(t, a, b, "the second load is a cache hit")
	other, err := mc.LoadSource("spec.dl", append(append([]byte{}, src...), []byte("\n.uncheck sc_per_location\n")...))
	require.NoError(t, err)
	require.NotSame(t, a, other, "another text is another model")
	require.NotContains(t, other.Checks(), "sc_per_location")
	_, err = mc.LoadSource("bad.dl", []byte("let x = "))
	require.Error(t, err)
	_, err = ptxmm.NewModelCache(0)
	require.Error(t, err)
}

// TestModelCacheIncludes: the cache is keyed on what the model's files
// hold: editing an include, or adding a file an include folder search
// would now find first, reads the model again.
func TestModelCacheIncludes(t *testing.T) {
	mc, err := ptxmm.NewModelCache(4)
	require.NoError(t, err)
	defer mc.Close()
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("lib/base.dl", ".decl p(a: number)\n.check first: empty(p)\n")
	write("model.dl", ".include \"base.dl\"\n")
	load := func() *ptxmm.Model {
		m, err := mc.Load(filepath.Join(dir, "model.dl"), ptxmm.WithIncludeDirs(filepath.Join(dir, "lib")))
		require.NoError(t, err)
		return m
	}
	a := load()
	require.Same(t, a, load(), "nothing changed")
	require.Equal(t, []string{"first"}, a.Checks())

	write("lib/base.dl", ".decl p(a: number)\n.check second: empty(p)\n")
	b := load()
	require.NotSame(t, a, b, "the include changed")
	require.Equal(t, []string{"second"}, b.Checks())

	write("base.dl", ".decl p(a: number)\n.check third: empty(p)\n")
	c := load()
	require.Equal(t, []string{"third"}, c.Checks(), "a file next to the model now comes first")

	// The same text from another place with the same files is the same model.
	src, err := os.ReadFile(filepath.Join(dir, "model.dl"))
	require.NoError(t, err)
	d, err := mc.LoadSource(filepath.Join(dir, "model.dl"), src)
	require.NoError(t, err)
	require.Equal(t, []string{"third"}, d.Checks())
}

// TestModelConcurrency checks one model (and one cache) from many
// goroutines at once; run with -race.
func TestModelConcurrency(t *testing.T) {
	mc, err := ptxmm.NewModelCache(2)
	require.NoError(t, err)
	defer mc.Close()
	src := specSource(t)
	tests, err := ptxmm.ParseTests("MP.litmus", []byte(mp))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := mc.LoadSource("spec.dl", src)
			require.NoError(t, err)
			r := m.Check(tests[0])
			require.NoError(t, r.Err)
			require.Equal(t, "No", r.Verdict)
		}()
	}
	wg.Wait()
}

// BenchmarkModelCache compares compiling spec.dl from text with a cache hit,
// in one run.
func BenchmarkModelCache(b *testing.B) {
	src := specSource(b)
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ptxmm.LoadModelSource("spec.dl", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cache-hit", func(b *testing.B) {
		mc, err := ptxmm.NewModelCache(4)
		if err != nil {
			b.Fatal(err)
		}
		defer mc.Close()
		if _, err := mc.LoadSource("spec.dl", src); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := mc.LoadSource("spec.dl", src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
