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
	// ancestors[s] is the set of strata s depends on, s excluded, as a bit
	// set over stratum indices.
	ancestors [][]uint64
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
	sp.ancestors = make([][]uint64, n)
	sp.negReads = make([][]relID, n)
	for _, s := range p.strata {
		anc := make([]uint64, words)
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

// isAncestor reports whether stratum s depends on stratum t.
func (sp *searchPlan) isAncestor(s, t int) bool {
	return sp.ancestors[s][t/64]&(1<<(uint(t)%64)) != 0
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
	if !in.dirty[s] && !in.anyDirtyAncestor(s) {
		return
	}
	err := in.guarded(nil, func() {
		for i := 0; i <= s; i++ {
			if in.dirty[i] && (i == s || in.p.search.isAncestor(s, i)) {
				in.runDirty(i)
			}
		}
	})
	if err != nil {
		in.err = err
	}
}

func (in *Instance) anyDirtyAncestor(s int) bool {
	for i := 0; i < s; i++ {
		if in.dirty[i] && in.p.search.isAncestor(s, i) {
			return true
		}
	}
	return false
}

// runDirty recomputes dirty stratum i and marks its readers dirty.
func (in *Instance) runDirty(i int) {
	s := in.p.strata[i]
	in.runStratum(s)
	in.dirty[i] = false
	in.runs[i]++
	for _, d := range s.readers {
		in.dirty[d] = true
	}
}

// runNeeded brings the strata the search tests up to date, leaving the
// others dirty.
func (in *Instance) runNeeded() {
	for i := range in.p.strata {
		if in.dirty[i] && in.p.search.needed[i] {
			in.runDirty(i)
		}
	}
}
