package loader

import (
	"fmt"
	"sync"

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
	// pinned holds the models Pin was given, by key, outside ristretto:
	// ristretto chooses its victims by read counts it samples through
	// lossy buffers, so a stream of distinct models could evict the one
	// every request uses, whose next request would then wait for a
	// checking slot to compile it again.
	mu     sync.RWMutex
	pinned map[string]*entry[V]
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
	if e, ok := c.lookup(key(src, opts)); ok && unchanged(e.m, src, opts) {
		return e.v, true
	}
	var zero V
	return zero, false
}

// Load returns the value of the model Load would read, from the cache when
// the source, the options and the files read are unchanged.
func (c *Cache[V]) Load(src Source, opts Options) (V, error) {
	k := key(src, opts)
	if e, ok := c.lookup(k); ok && unchanged(e.m, src, opts) {
		return e.v, nil
	}
	m, err := Load(src, opts)
	if err != nil {
		var zero V
		return zero, err
	}
	e := &entry[V]{m: m, v: c.wrap(m)}
	if !c.repin(k, e) {
		c.c.Set(k, e, c.cost(m))
		c.c.Wait()
	}
	return e.v, nil
}

// Pin loads the model as Load does and keeps it for as long as the cache
// lives, whatever else is loaded: a host's own model (a server's -model)
// is read by most requests and must not be evicted by the others. A
// pinned model does not count against the cache's size; when the files it
// was read from change, the next Load reads it again and keeps the new
// model pinned in its place.
func (c *Cache[V]) Pin(src Source, opts Options) (V, error) {
	m, err := Load(src, opts)
	if err != nil {
		var zero V
		return zero, err
	}
	e := &entry[V]{m: m, v: c.wrap(m)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pinned == nil {
		c.pinned = map[string]*entry[V]{}
	}
	c.pinned[key(src, opts)] = e
	return e.v, nil
}

// lookup returns the entry kept under k, pinned or in ristretto.
func (c *Cache[V]) lookup(k string) (*entry[V], bool) {
	c.mu.RLock()
	e, pinned := c.pinned[k]
	c.mu.RUnlock()
	if pinned {
		return e, true
	}
	return c.c.Get(k)
}

// repin keeps e under k when k is pinned, and says whether it was.
func (c *Cache[V]) repin(k string, e *entry[V]) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pinned[k]; !ok {
		return false
	}
	c.pinned[k] = e
	return true
}

// Close releases the cache's background goroutines.
func (c *Cache[V]) Close() { c.c.Close() }
