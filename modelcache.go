package ptxmm

import (
	"crypto/sha256"
	"fmt"

	"github.com/dgraph-io/ristretto/v2"
)

// ModelCache keeps compiled models by their source text, for embedders that
// hand ptxmm a model as text again and again (one per query, say): loading
// and compiling spec.dl takes milliseconds, a cache hit microseconds
// (BenchmarkModelCache). It is safe for concurrent use. Models whose text
// includes other files are not cached, since the key covers only the text
// given.
type ModelCache struct {
	c *ristretto.Cache[string, *Model]
}

// NewModelCache returns a cache holding up to about maxModels models.
func NewModelCache(maxModels int64) (*ModelCache, error) {
	if maxModels < 1 {
		return nil, fmt.Errorf("model cache: maxModels must be at least 1, not %d", maxModels)
	}
	c, err := ristretto.NewCache(&ristretto.Config[string, *Model]{
		NumCounters: 10 * maxModels,
		MaxCost:     maxModels,
		BufferItems: 64,
		// Costs count models, not bytes.
		IgnoreInternalCost: true,
	})
	if err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	return &ModelCache{c: c}, nil
}

// LoadSource returns the compiled model of src (named name in messages),
// compiling it only when the cache does not hold it.
func (mc *ModelCache) LoadSource(name string, src []byte) (*Model, error) {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(src)
	key := string(h.Sum(nil))
	if m, ok := mc.c.Get(key); ok {
		return m, nil
	}
	m, err := LoadModelSource(name, src)
	if err != nil {
		return nil, err
	}
	if len(m.m.Syntax.Program.Files) == 1 {
		mc.c.Set(key, m, 1)
		mc.c.Wait()
	}
	return m, nil
}

// Close releases the cache's background goroutines.
func (mc *ModelCache) Close() { mc.c.Close() }
