package rules

import "github.com/ptxmm/ptxmm/relations"

// largestOrder returns the largest value order op can take with its pairs
// as they are now (the caller brings them up to date): their transitive
// closure without the identity. An order is kept transitively closed, so it
// may relate two events its pairs do not (a -> b and b -> c relate a and
// c, whether or not a and c form a pair); bounding by the pairs alone would
// miss those. The value is kept until the pairs change.
func (in *Instance) largestOrder(op *orderPlan) *relations.Rel {
	k := 0
	for k < len(in.p.orders) && in.p.orders[k] != op {
		k++
	}
	if in.bounds.largest == nil {
		in.bounds.largest = make([]largestCache, len(in.p.orders))
	}
	c := &in.bounds.largest[k]
	if at := in.versions[op.over] + 1; c.rel == nil || c.at != at {
		if c.rel == nil {
			c.rel = relations.NewRel(in.n)
		}
		c.rel.CopyFrom(in.stores[op.over].rel)
		c.rel.TransitiveClosure()
		for i := range in.n {
			c.rel.Remove(i, i)
		}
		c.at = at
	}
	return c.rel
}

// largestCache is largestOrder's value at version at-1 of the pairs.
type largestCache struct {
	at  uint64
	rel *relations.Rel
}
