package ptxmm

import (
	"io/fs"

	"github.com/ptxmm/ptxmm/internal/loader"
)

// ModelCache keeps compiled models for embedders that load the same model
// again and again (one per query, say): loading and compiling spec.dl takes
// milliseconds, a cache hit microseconds (BenchmarkModelCache). A model is
// found by its source (text, or file name and where it is read from) and
// load options, and taken from the cache only when every file it was read
// from — its own file, each include, each include folder searched in vain
// — still holds what it held: edit an include and the next load reads it
// again. ptxmm serve caches its models the same way. It is safe for
// concurrent use.
type ModelCache struct {
	c *loader.Cache[*Model]
}

// NewModelCache returns a cache holding up to about maxModels models.
func NewModelCache(maxModels int64) (*ModelCache, error) {
	c, err := loader.NewCache(maxModels, func(m *loader.Model) *Model { return newModel(m.Model) })
	if err != nil {
		return nil, err
	}
	return &ModelCache{c: c}, nil
}

func (mc *ModelCache) load(src loader.Source, opts []LoadOption) (*Model, error) {
	return mc.c.Load(src, loadOptions(opts))
}

// Load is LoadModel through the cache.
func (mc *ModelCache) Load(path string, opts ...LoadOption) (*Model, error) {
	return mc.load(loader.Source{Name: path}, opts)
}

// LoadFS is LoadModelFS through the cache.
func (mc *ModelCache) LoadFS(fsys fs.FS, name string, opts ...LoadOption) (*Model, error) {
	return mc.load(loader.Source{Name: name, FS: fsys}, opts)
}

// LoadSource is LoadModelSource through the cache.
func (mc *ModelCache) LoadSource(name string, src []byte, opts ...LoadOption) (*Model, error) {
	return mc.load(loader.Source{Name: name, Text: nonNil(src)}, opts)
}

// Close releases the cache's background goroutines.
func (mc *ModelCache) Close() { mc.c.Close() }
