package serve

import (
	"fmt"

	"github.com/dgraph-io/ristretto/v2"
)

// resultCache keeps checked runs by key in two ristretto caches, one for
// small results and one for the rest, so that big results never push out
// small ones. ristretto picks its victims by how often their keys were
// read, and it counts reads through lossy buffers: under a stream of big
// distinct results (the load test's 18 MB runs of 250 stores), a small
// result read every 100 ms (MP's) was evicted now and then, and its next
// request waited seconds for a checking worker behind the big checks.
type resultCache struct {
	small, large *ristretto.Cache[string, *runEntry]
	// smallMax is the largest cost the small cache takes.
	smallMax int64
}

// smallShare is the part of the results' budget the small cache holds.
const smallShare = 8

// smallResultMax bounds what counts as a small result: a test of a few
// threads keeps tens to hundreds of kilobytes (MP: about 110 KB).
const smallResultMax = 1 << 20

// newResultCache returns a cache of results of budget bytes in all.
func newResultCache(budget int64) (*resultCache, error) {
	smallBudget := budget / smallShare
	newCache := func(maxCost int64) (*ristretto.Cache[string, *runEntry], error) {
		// About one counter per 64 KiB of budget: results take tens of
		// kilobytes and more.
		return ristretto.NewCache(&ristretto.Config[string, *runEntry]{
			NumCounters: max(maxCost>>16, 1000), MaxCost: maxCost, BufferItems: 64, IgnoreInternalCost: true})
	}
	small, err := newCache(smallBudget)
	if err != nil {
		return nil, fmt.Errorf("small results: %w", err)
	}
	large, err := newCache(budget - smallBudget)
	if err != nil {
		small.Close()
		return nil, fmt.Errorf("large results: %w", err)
	}
	// A small result takes at most a sixteenth of its cache, so that many
	// fit; in a tiny budget every result goes to the large cache.
	return &resultCache{small: small, large: large, smallMax: min(smallResultMax, smallBudget/16)}, nil
}

// Get returns the result kept under key.
func (c *resultCache) Get(key string) (*runEntry, bool) {
	if e, ok := c.small.Get(key); ok {
		return e, true
	}
	return c.large.Get(key)
}

// Set keeps e under key at the given cost, in the cache its size belongs
// to, and waits until a Get sees it (or the cache turned it away).
func (c *resultCache) Set(key string, e *runEntry, cost int64) {
	to := c.large
	if cost <= c.smallMax {
		to = c.small
	}
	to.Set(key, e, cost)
	to.Wait()
}

// Close releases both caches.
func (c *resultCache) Close() {
	c.small.Close()
	c.large.Close()
}
