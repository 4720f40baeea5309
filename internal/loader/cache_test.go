package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPinnedModelStays: a pinned model survives a stream of other models
// through a cache that holds one, is read again when its file changes and
// stays pinned then; a model that fails to load is an error, not a pin.
func TestPinnedModelStays(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.dl")
	require.NoError(t, os.WriteFile(file, []byte(".decl a(x)\n"), 0o644))
	c, err := NewCache(1, func(m *Model) *Model { return m })
	require.NoError(t, err)
	defer c.Close()

	src := Source{Name: file}
	pinned, err := c.Pin(src, Options{})
	require.NoError(t, err)
	for i := range 50 {
		other := Source{Name: "o.dl", Text: fmt.Appendf(nil, ".decl r%d(x)\n", i)}
		_, err := c.Load(other, Options{})
		require.NoError(t, err)
		got, ok := c.Cached(src, Options{})
		require.True(t, ok, "the pinned model was evicted after %d other models", i+1)
		require.Same(t, pinned, got)
	}

	require.NoError(t, os.WriteFile(file, []byte(".decl b(x)\n"), 0o644))
	_, ok := c.Cached(src, Options{})
	assert.False(t, ok, "a changed file must not be a hit")
	again, err := c.Load(src, Options{})
	require.NoError(t, err)
	require.NotSame(t, pinned, again)
	require.NotNil(t, again.Syntax.Relation("b"))
	for i := range 5 {
		_, err := c.Load(Source{Name: "p.dl", Text: fmt.Appendf(nil, ".decl s%d(x)\n", i)}, Options{})
		require.NoError(t, err)
	}
	got, ok := c.Cached(src, Options{})
	require.True(t, ok, "the model read again must stay pinned")
	require.Same(t, again, got)

	_, err = c.Pin(Source{Name: "bad.dl", Text: []byte(".decl\n")}, Options{})
	require.Error(t, err)
	_, ok = c.Cached(Source{Name: "bad.dl", Text: []byte(".decl\n")}, Options{})
	assert.False(t, ok)
}
