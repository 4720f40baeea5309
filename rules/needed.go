package rules

import (
	"math/bits"
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
)

// The order search evaluates only what it tests: the strata the checks and
// the orders' pairs depend on. The others (the flags' and whatever no check
// reads) are left dirty while it runs and computed when something reads
// them: Run, or a read of one of their relations (freshen), which computes
// the relation's own dirty ancestors and nothing else.

// searchPlan is what the compiler works out for the order search.
type searchPlan struct {
	// needed[s] is set for the strata a check or an order's pairs depend on.
	needed []bool
	// ancestors[s] is the set of strata s depends on, s excluded.
	ancestors []strataBits
	// neededBits holds the needed strata.
	neededBits strataBits
	// negReads[s] lists the relations s's rules read through a negation.
	negReads [][]relID
	// neededReaders[r] and deferredReaders[r] split the strata reading
	// relation r (Program.readers) into needed ones and the others.
	neededReaders, deferredReaders [][]int
}

// planSearch fills p.search.
func (p *Program) planSearch() {
	sp := &p.search
	n := len(p.strata)
	words := (n + 63) / 64
	sp.ancestors = make([]strataBits, n)
	sp.negReads = make([][]relID, n)
	for _, s := range p.strata {
		anc := make(strataBits, words)
		for _, r := range s.reads {
			if t := p.rels[r].stratum; t >= 0 {
				anc[t/64] |= 1 << (uint(t) % 64)
				for k, x := range sp.ancestors[t] {
					anc[k] |= x
				}
			}
		}
		sp.ancestors[s.index] = anc
		seen := map[relID]bool{}
		for _, rp := range s.rules {
			for i, b := range rp.bodyRels {
				if rp.bodyNeg[i] && !seen[b] {
					seen[b] = true
					sp.negReads[s.index] = append(sp.negReads[s.index], b)
				}
			}
		}
	}
	sp.needed = make([]bool, n)
	mark := func(r relID) {
		if t := p.rels[r].stratum; t >= 0 {
			sp.needed[t] = true
			for u := range sp.needed {
				if sp.ancestors[t][u/64]&(1<<(uint(u)%64)) != 0 {
					sp.needed[u] = true
				}
			}
		}
	}
	for _, c := range p.checks {
		mark(c.rel)
	}
	for _, op := range p.orders {
		mark(op.over)
	}
	sp.neededBits = newStrataBits(n)
	for i, nd := range sp.needed {
		if nd {
			sp.neededBits.set(i)
		}
	}
	sp.neededReaders = make([][]int, len(p.rels))
	sp.deferredReaders = make([][]int, len(p.rels))
	for r, readers := range p.readers {
		for _, s := range readers {
			if sp.needed[s] {
				sp.neededReaders[r] = append(sp.neededReaders[r], s)
			} else {
				sp.deferredReaders[r] = append(sp.deferredReaders[r], s)
			}
		}
	}
}

// freshen brings relation r up to date: it computes r's stratum and its
// ancestors where they are dirty, leaving every other stratum as it is.
func (in *Instance) freshen(r relID) {
	if in.inc.ckptPending || len(in.inc.staged) > 0 {
		if err := in.guarded(nil, in.settle); err != nil {
			in.err = err
			return
		}
	}
	s := in.p.rels[r].stratum
	if s < 0 || in.p.rels[r].kind != datalog.RelDerived {
		return
	}
	anc := in.p.search.ancestors[s]
	if !in.sched.dirty.has(s) && in.sched.dirty.nextIn(anc, 0) < 0 {
		return
	}
	err := in.guarded(nil, func() {
		// Running an ancestor marks its readers, later strata, dirty: the
		// scan goes on from there.
		for i := in.sched.dirty.nextIn(anc, 0); i >= 0; i = in.sched.dirty.nextIn(anc, i+1) {
			in.runDirty(i)
		}
		if in.sched.dirty.has(s) {
			in.runDirty(s)
		}
	})
	if err != nil {
		in.err = err
	}
}

// runDirty recomputes dirty stratum i and marks its readers dirty, unless
// it holds what it held before.
func (in *Instance) runDirty(i int) {
	if in.flatStrata != nil && in.flatStrata.has(i) && !in.prov.recording && in.trace == nil {
		in.runDirtyFlat(i)
		return
	}
	s := in.p.strata[i]
	changed := true
	if in.derivesNothingWorth(i) && in.derivesNothing(s) {
		// Its relations stay empty whatever it reads (a test without
		// tensor memory, say, leaves every tcgen05 stratum so): running
		// it would only clear them.
		in.sched.nothing.hit(i)
		in.intr.tick(strataWork)
		changed = in.clearStratum(s)
	} else {
		cutoff := !in.prov.recording && in.sched.readersClean(s) && in.cutoffWorth(i)
		if cutoff {
			for k, r := range s.rels {
				in.beforeStore(k, in.p.rels[r].arity).copyFrom(in.stores[r])
			}
		}
		in.runStratum(s)
		if cutoff && in.unchanged(s) {
			// A new reads-from pair often changes nothing downstream
			// of some strata.
			in.sched.cutoff.hit(i)
			changed = false
		}
	}
	in.sched.ran(s, changed)
	if in.quiet.known && in.quiet.dead.has(i) {
		in.markQuiet(i)
	}
}

// runDirtyFlat is runDirty for a stratum of flatStrata. The test for
// strata that derive nothing is there the starvation test of each rule,
// which the run makes anyway: it is made first, always (counted as a try
// of the shortcut), and its answers serve the run, which evaluates the
// live rules alone. Their starvation cannot change meanwhile: they read
// no relation of the stratum.
func (in *Instance) runDirtyFlat(i int) {
	s := in.p.strata[i]
	in.cur = i
	var live uint64
	// The rules the empty inputs starve for the whole test are passed
	// over: found once per set of empty inputs (quiet_plans.go).
	rest := uint64(1)<<uint(len(s.rules)) - 1 // flat strata have at most 64 rules
	if len(s.rules) == 64 {
		rest = ^uint64(0)
	}
	if known := in.quiet.starvedNow; known != nil {
		rest &^= known[i]
	}
	for ; rest != 0; rest &= rest - 1 {
		k := bits.TrailingZeros64(rest)
		rp := s.rules[k]
		// starterStarved, written out: a call per rule is a good part of
		// the test's cost.
		starved := false
		for _, r := range rp.positive {
			c := &in.empty[r]
			if v := in.versions[r] + 1; c.at != v {
				c.at, c.is = v, in.stores[r].isEmpty()
			}
			if c.is {
				starved = true
				break
			}
		}
		if !starved {
			live |= 1 << uint(k)
		}
	}
	in.sched.nothing.tries[i]++
	changed := true
	if live == 0 {
		in.sched.nothing.hit(i)
		in.intr.tick(strataWork)
		changed = in.clearStratum(s)
	} else if k := bits.TrailingZeros64(live); live&(live-1) == 0 && len(s.rels) == 1 && s.rules[k].join == nil && in.stores[s.rels[0]].track == nil {
		changed = in.runOneFlat(i, s, k)
	} else {
		cutoff := in.sched.readersClean(s) && in.cutoffWorth(i)
		if cutoff {
			for k, r := range s.rels {
				in.beforeStore(k, in.p.rels[r].arity).copyFrom(in.stores[r])
			}
		}
		in.intr.tick(strataWork)
		for _, r := range s.rels {
			in.stores[r].clear()
			in.versions[r]++
		}
		// The first rule to run adds to an empty relation where the
		// stratum defines one.
		fresh := len(s.rels) == 1
		for ; live != 0; live &= live - 1 {
			k := bits.TrailingZeros64(live)
			rp := s.rules[k]
			if rp.join == nil {
				in.runFlat(s, k, rp, &in.stores[rp.head], fresh)
				fresh = false
			} else {
				fresh = false
				in.evalRuleFull(s, k, in.stores[rp.head])
			}
		}
		if cutoff && in.unchanged(s) {
			in.sched.cutoff.hit(i)
			changed = false
		}
	}
	in.sched.ran(s, changed)
	if in.quiet.known && in.quiet.dead.has(i) {
		in.markQuiet(i)
	}
}

// runOneFlat is runDirtyFlat's run of stratum i, s, of one relation, one
// of whose rules, k, is not starved (flat, its relation untracked): that
// rule's tuples are the relation's. The cutoff compares them with those
// the relation holds before copying them in, rather than keeping a copy
// of the relation to compare it with afterwards (the copy, the clear and
// the comparison cost a small test's stratum as much as its rule). It
// reports whether the relation may have changed, with the cutoff's
// payoffs and the relation's version as runDirtyFlat keeps them.
func (in *Instance) runOneFlat(i int, s *stratum, k int) bool {
	cutoff := in.sched.readersClean(s) && in.cutoffWorth(i)
	in.intr.tick(strataWork)
	r := s.rels[0]
	in.versions[r]++
	fr := in.evalFlat(s, k)
	st := &in.stores[r]
	if fr.set != nil {
		if cutoff && st.set.Equal(fr.set) {
			in.sched.cutoff.hit(i)
			return false
		}
		st.set.CopyFrom(fr.set)
		return true
	}
	if cutoff && st.rel.Equal(fr.rel) {
		in.sched.cutoff.hit(i)
		return false
	}
	st.rel.CopyFrom(fr.rel)
	return true
}

// flatStrataOf returns the strata runDirtyFlat computes on a domain of n
// atoms: those evaluated flat (n is at most flatMaxAtoms) whose rules, at
// most 64, all start them (the stratum is not recursive), and that are not
// closures; nil when there are none.
func flatStrataOf(p *Program, n int) strataBits {
	if n > flatMaxAtoms {
		return nil
	}
	b := newStrataBits(len(p.strata))
	for i, s := range p.strata {
		if !s.recursive && s.closure == nil && len(s.rules) <= 64 && len(s.starters) == len(s.rules) {
			b.set(i)
		}
	}
	return b
}

// clearStratum empties the relations of stratum s and reports whether any
// held tuples. A relation the emptiness cache knows empty at its version
// is not looked at: a stratum that derives nothing is cleared at every
// run, and its relations were empty the run before.
func (in *Instance) clearStratum(s *stratum) bool {
	changed := false
	for _, r := range s.rels {
		c := &in.empty[r]
		if c.is && c.at == in.versions[r]+1 {
			continue
		}
		if !in.stores[r].isEmpty() {
			in.stores[r].clear()
			in.versions[r]++
			changed = true
		}
		c.at, c.is = in.versions[r]+1, true
	}
	return changed
}

// cutoffWorth reports whether to compare stratum i's relations before and
// after it is recomputed, which spares its readers when they are the same
// and costs a copy of them. Only on domains small enough for a copy of
// every relation to cost little memory (those on which rows are not
// tracked either).
func (in *Instance) cutoffWorth(i int) bool {
	return in.n < in.p.options.trackMinAtoms && in.sched.cutoff.worth(i, in.sched.runs[i])
}

// derivesNothingWorth reports whether to test whether stratum i derives
// nothing before running it: the test spares the run of a stratum over
// empty inputs, and is wasted on one whose inputs are never empty.
func (in *Instance) derivesNothingWorth(i int) bool {
	return in.sched.nothing.worth(i, in.sched.runs[i])
}

// beforeStore returns the store that keeps the tuples of the k-th relation
// of a stratum, of arity ar, from before the stratum is recomputed. The
// stores are shared by all strata, one per position and arity, allocated
// on first use: only one stratum is recomputed at a time.
func (in *Instance) beforeStore(k, ar int) store {
	for len(in.sched.before) <= k {
		in.sched.before = append(in.sched.before, nil)
	}
	for _, st := range in.sched.before[k] {
		if st.arity == ar {
			return st
		}
	}
	st := in.accountedStore(ar, false)
	in.sched.before[k] = append(in.sched.before[k], st)
	return st
}

// unchanged reports whether every relation of stratum s holds what it held
// before it was recomputed (beforeStore).
func (in *Instance) unchanged(s *stratum) bool {
	for k, r := range s.rels {
		if !in.beforeStore(k, in.p.rels[r].arity).equal(in.stores[r]) {
			return false
		}
	}
	return true
}

// derivesNothing reports whether stratum s derives no tuple from the
// relations before it as they are: each rule that starts its evaluation
// (one reading no relation of s itself, which are all empty before it
// derives anything) has a positive atom over an empty relation. The empty
// relation found for each rule is kept with its version as the rule's
// witness: while the witnesses of every rule are at the versions they were
// empty at, the stratum still derives nothing, which is one comparison
// per rule; a stratum over tensor memory in a test without any is asked
// this at every candidate.
func (in *Instance) derivesNothing(s *stratum) bool {
	in.cur = s.index
	ws := in.sched.witnesses[s.witnessAt : s.witnessAt+len(s.starters)]
	still := true
	for _, w := range ws {
		if w.at == 0 || in.versions[w.rel]+1 != w.at {
			still = false
			break
		}
	}
	if still {
		return true
	}
	for j, rp := range s.starters {
		r, ok := in.starterStarvedBy(rp)
		if !ok {
			return false
		}
		ws[j] = witness{rel: r, at: in.versions[r] + 1}
	}
	return true
}

// starterStarvedBy is starvedBy for a starting rule of the stratum being
// evaluated: reading no relation of its own stratum, every relation of its
// positive atoms is of an earlier one (or an input), and its emptiness is
// kept by version (emptyRel).
func (in *Instance) starterStarvedBy(rp *rulePlan) (relID, bool) {
	for _, r := range rp.positive {
		c := &in.empty[r]
		if v := in.versions[r] + 1; c.at != v {
			c.at, c.is = v, in.stores[r].isEmpty()
		}
		if c.is {
			return r, true
		}
	}
	return 0, false
}

// starterStarved is starterStarvedBy's answer alone, for the evaluation's
// loops.
func (in *Instance) starterStarved(rp *rulePlan) bool {
	for _, r := range rp.positive {
		c := &in.empty[r]
		if v := in.versions[r] + 1; c.at != v {
			c.at, c.is = v, in.stores[r].isEmpty()
		}
		if c.is {
			return true
		}
	}
	return false
}

// recursionIdle reports whether no rule of recursive stratum s that reads
// the stratum's own relations can derive anything: one pass over the other
// rules then computes the stratum, with no semi-naive rounds. A rule
// derives nothing when it has a positive atom over an empty relation of an
// earlier stratum, or over one of s that only such rules derive; in
// observation order, obs = (ms & rf) | (obs ; rmw ; obs), a test without
// read-modify-writes leaves both recursive rules so.
func (in *Instance) recursionIdle(s *stratum) bool {
	var buf [8]relID
	live := buf[:0] // the relations of s that some rule may derive
	feeds := func(rp *rulePlan) bool {
		if in.starved(rp, s.index) {
			return false
		}
		for _, occ := range rp.recOccs {
			if !slices.Contains(live, rp.litRel[occ]) {
				return false
			}
		}
		return true
	}
	for grew := true; grew; {
		grew = false
		for _, rp := range s.rules {
			if !slices.Contains(live, rp.head) && feeds(rp) {
				live = append(live, rp.head)
				grew = true
			}
		}
	}
	for _, rp := range s.rules {
		if len(rp.recOccs) > 0 && feeds(rp) {
			return false
		}
	}
	return true
}

// starved reports whether rule rp of stratum i has a positive atom over an
// empty relation of an earlier stratum, and so derives nothing.
func (in *Instance) starved(rp *rulePlan, i int) bool {
	_, ok := in.starvedBy(rp, i)
	return ok
}

// starvedBy returns a positive atom's relation that starves rule rp of
// stratum i: an empty one of an earlier stratum.
func (in *Instance) starvedBy(rp *rulePlan, i int) (relID, bool) {
	for _, r := range rp.positive {
		if int(in.p.stratumOf[r]) < i && in.emptyRel(r) {
			return r, true
		}
	}
	return 0, false
}

// runNeeded brings the strata the search tests up to date, leaving the
// others dirty.
func (in *Instance) runNeeded() {
	visit := in.quietSkip(true)
	for i := in.sched.dirty.nextIn(visit, 0); i >= 0; i = in.sched.dirty.nextIn(visit, i+1) {
		in.runDirty(i)
	}
	in.passQuiet(in.p.search.neededBits)
}
