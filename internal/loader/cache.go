package loader

import (
	"fmt"

	"github.com/dgraph-io/ristretto/v2"
)

// Cache keeps compiled models for hosts that load the same model again and
// again (a server, an embedder handing the model text per query): loading
// and compiling spec.dl takes milliseconds, a hit microseconds. Its key is
// the source and the options; a hit is taken only when every file the
// model was read from (its includes, and the model's own file) still holds
// what it held, and every name an include was looked for in vain is still
// absent, so an edited include is read again. Each model is kept with the
// host's value made from it (V: the embedding API's model, say), which a
// hit returns. It is safe for concurrent use.
type Cache[V any] struct {
	c    *ristretto.Cache[string, *entry[V]]
	wrap func(*Model) V
	// cost is what a model counts for against the cache's size.
	cost func(*Model) int64
}

type entry[V any] struct {
	m *Model
	v V
}

// NewCache returns a cache holding up to about maxModels models, each
// kept with wrap's value.
func NewCache[V any](maxModels int64, wrap func(*Model) V) (*Cache[V], error) {
	if maxModels < 1 {
		return nil, fmt.Errorf("model cache: it must hold at least 1 model, not %d", maxModels)
	}
	c, err := ristretto.NewCache(&ristretto.Config[string, *entry[V]]{
		NumCounters: 10 * maxModels,
		MaxCost:     maxModels,
		BufferItems: 64,
		// Costs count models, not bytes.
		IgnoreInternalCost: true,
	})
	if err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	return &Cache[V]{c: c, wrap: wrap, cost: func(*Model) int64 { return 1 }}, nil
}

// NewSizedCache returns a cache holding models of at most maxBytes
// together, each counted at size(model) bytes (a server bounds its memory
// so), and kept with wrap's value.
func NewSizedCache[V any](maxBytes int64, wrap func(*Model) V, size func(*Model) int64) (*Cache[V], error) {
	if maxBytes < 1 {
		return nil, fmt.Errorf("model cache: it must hold at least 1 byte, not %d", maxBytes)
	}
	c, err := ristretto.NewCache(&ristretto.Config[string, *entry[V]]{
		// About one counter per 64 KiB: a compiled model takes about a
		// megabyte.
		NumCounters: max(maxBytes>>16, 1000),
		MaxCost:     maxBytes,
		BufferItems: 64,
		// Costs are the caller's estimates of what a model keeps.
		IgnoreInternalCost: true,
	})
	if err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	return &Cache[V]{c: c, wrap: wrap, cost: size}, nil
}

// Cached returns the value of the model Load would read when the cache
// holds it and the files read are unchanged, without loading it otherwise.
func (c *Cache[V]) Cached(src Source, opts Options) (V, bool) {
	if e, ok := c.c.Get(key(src, opts)); ok && unchanged(e.m, src, opts) {
		return e.v, true
	}
	var zero V
	return zero, false
}

// Load returns the value of the model Load would read, from the cache when
// the source, the options and the files read are unchanged.
func (c *Cache[V]) Load(src Source, opts Options) (V, error) {
	k := key(src, opts)
	if e, ok := c.c.Get(k); ok && unchanged(e.m, src, opts) {
		return e.v, nil
	}
	m, err := Load(src, opts)
	if err != nil {
		var zero V
		return zero, err
	}
	e := &entry[V]{m: m, v: c.wrap(m)}
	c.c.Set(k, e, c.cost(m))
	c.c.Wait()
	return e.v, nil
}

// Close releases the cache's background goroutines.
func (c *Cache[V]) Close() { c.c.Close() }
