package serve

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServerModelIsPinned: the server's own model stays compiled however
// many other models pass through a model cache too small to hold it,
// so that its requests never wait for a checking slot to compile it.
func TestServerModelIsPinned(t *testing.T) {
	s, _ := newTestServer(t, func(c *Config) { c.CacheBytes = 2 << 20 })
	own, ok := s.models.Cached(s.loaderInput(s.cfg.Model))
	require.True(t, ok, "the server's model is compiled when the server starts")
	for i := range 8 {
		other := ModelSource{Name: "other.dl", Text: fmt.Sprintf(".decl r%d(x)\n", i)}
		_, err := direct(s, func(c *apiCall) (*compiled, error) { return s.model(c, other) })
		require.NoError(t, err)
		got, ok := s.models.Cached(s.loaderInput(s.cfg.Model))
		require.True(t, ok, "the server's model was evicted after %d other models", i+1)
		require.Same(t, own, got)
	}
}
