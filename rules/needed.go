package rules

import "github.com/ptxmm/ptxmm/datalog"

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
	if !in.dirty.has(s) && in.dirty.nextIn(anc, 0) < 0 {
		return
	}
	err := in.guarded(nil, func() {
		// Running an ancestor marks its readers, later strata, dirty: the
		// scan goes on from there.
		for i := in.dirty.nextIn(anc, 0); i >= 0; i = in.dirty.nextIn(anc, i+1) {
			in.runDirty(i)
		}
		if in.dirty.has(s) {
			in.runDirty(s)
		}
	})
	if err != nil {
		in.err = err
	}
}

// runDirty recomputes dirty stratum i and marks its readers dirty.
func (in *Instance) runDirty(i int) {
	s := in.p.strata[i]
	if in.derivesNothing(s) {
		// Its relations stay empty whatever it reads (a test without
		// tensor memory, say, leaves every tcgen05 stratum so): running
		// it would only clear them, and when they are empty already its
		// readers have nothing new to read from it.
		in.tick(strataWork)
		in.dirty.unset(i)
		in.runs[i]++
		changed := false
		for _, r := range s.rels {
			if !in.stores[r].isEmpty() {
				in.stores[r].clear()
				in.versions[r]++
				changed = true
			}
		}
		if changed {
			for _, d := range s.readers {
				in.dirty.set(d)
			}
		}
		return
	}
	in.runStratum(s)
	in.dirty.unset(i)
	in.runs[i]++
	for _, d := range s.readers {
		in.dirty.set(d)
	}
}

// derivesNothing reports whether stratum s derives no tuple from the
// relations before it as they are: each rule that starts its evaluation
// (one reading no relation of s itself, which are all empty before it
// derives anything) has a positive atom over an empty relation.
func (in *Instance) derivesNothing(s *stratum) bool {
	in.cur = s.index
	for _, rp := range s.rules {
		if len(rp.recOccs) > 0 {
			continue
		}
		empty := false
		for _, r := range rp.positive {
			if in.p.rels[r].stratum < s.index && in.emptyRel(r) {
				empty = true
				break
			}
		}
		if !empty {
			return false
		}
	}
	return true
}

// runNeeded brings the strata the search tests up to date, leaving the
// others dirty.
func (in *Instance) runNeeded() {
	needed := in.p.search.neededBits
	for i := in.dirty.nextIn(needed, 0); i >= 0; i = in.dirty.nextIn(needed, i+1) {
		in.runDirty(i)
	}
}
