package rules

import (
	"context"

	"github.com/ptxmm/ptxmm/datalog"
)

// Reset returns the instance to the state NewInstance (or
// NewLimitedInstance, with limits l) left it in, over the same domain,
// keeping the memory it allocated: its relations, its scratch and its
// caches. A host that checks many small tests calls it between them
// instead of building a new instance for each, which cost a test of a
// handful of events more than evaluating its candidates.
//
// Every relation is emptied (the universe stays full) and every stratum is
// dirty. What the instance learned about the inputs it held (the payoffs of
// its shortcuts, the statistics of the forcing ways, the flags' bounds) is
// forgotten, so that evaluation takes the same course as in a new instance
// and finds the same results and witnesses. The caches that are keyed by a
// relation's version stay: every version moves on, which invalidates them.
// The varying relations given to SetVarying stay set.
func (in *Instance) Reset(l Limits) {
	_ = in.ResetContext(context.Background(), l) // fails only when ctx does
}

// ResetContext is Reset under a context, looked at while the relations of
// a big domain are emptied (gigabytes for a candidate of 10,000 events).
// Once ctx is done it returns ctx's error, and the instance, partly reset,
// must not be used again.
func (in *Instance) ResetContext(ctx context.Context, l Limits) error {
	// The stores of one and two columns are the block's, and none is
	// tracked; the universe is full again.
	if err := in.block.ClearContext(ctx); err != nil {
		return err
	}
	if in.p.rels[in.universe].kind == datalog.RelUniverse {
		in.stores[in.universe].set.Complement()
	}
	for _, r := range in.tupleRels {
		in.stores[r].clearAll()
	}
	// Only the relations of recursive strata have delta and next stores.
	for _, s := range in.p.strata {
		if !s.recursive {
			continue
		}
		if in.n >= pollComposeAtoms {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for _, r := range s.rels {
			in.delta[r].clearAll()
			in.next[r].clearAll()
		}
	}
	// Every relation but the universe is empty now, at its new version:
	// the emptiness cache says so, and the first questions of the next
	// test (which strata are quiet, which rules starved) need not look.
	for i := range in.versions {
		in.versions[i]++
		in.empty[i] = emptyCache{at: in.versions[i] + 1, is: true}
	}
	in.empty[in.universe] = emptyCache{}
	in.sched.forget(len(in.p.strata))
	clear(in.rowMark)
	in.cur = -1
	in.prov.forget()
	in.intr, in.err = interrupter{}, nil
	in.trace = nil
	in.bounds.forget()
	in.resetSearch()
	in.inc.forgetAll()
	in.keepQuietOverReset()
	in.mem = newMemory(in.p, in.n, l)
	return nil
}

// clearAll empties a store whatever its row list says: after an evaluation
// was stopped, a tracked store's rows may hold bits its list does not.
func (s store) clearAll() {
	switch {
	case s.set != nil:
		s.set.Clear()
	case s.rel != nil:
		s.rel.Clear()
		if s.track != nil {
			s.track.clearList()
		}
	case s.tup != nil:
		s.tup.Clear()
	}
}

// forget forgets what is known of the flags' bounds, keeping the varying
// relations; the orders' largest values are keyed by the versions of
// their pairs, which Reset moves on.
func (b *flagBounds) forget() {
	b.known = nil
	b.fixedEpoch++
}

// resetSearch forgets the order being searched and what the order search
// learned (the statistics of the ways), and empties its scratch marks,
// keeping its memory.
func (in *Instance) resetSearch() {
	in.search.searching = nil
	s := in.search.solve
	if s == nil {
		return
	}
	clear(s.ways)
	for i := range s.forcings {
		s.forcings[i] = forcingStat{active: s.forcings[i].active[:0], stale: true}
	}
	s.path, s.kept, s.forced = s.path[:0], s.kept[:0], s.forced[:0]
	if s.reach != nil {
		in.pool.putRel(s.reach)
		s.reach = nil
	}
	if s.done != nil {
		s.done.Clear()
	}
	if s.wayScratch.seen != nil {
		s.wayScratch.seen.Clear()
	}
}
