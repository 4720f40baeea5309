package rules

// runStratum recomputes one stratum from scratch.
func (in *Instance) runStratum(s *stratum) {
	in.intr.tick(strataWork)
	in.cur = s.index
	for _, r := range s.rels {
		in.stores[r].clear()
		in.versions[r]++
	}
	switch {
	case s.closure != nil && !in.prov.recording:
		in.runClosure(s.closure)
	case !s.recursive || in.recursionIdle(s):
		if in.n <= flatMaxAtoms && !in.prov.recording && in.trace == nil {
			in.runFlatStratum(s)
			break
		}
		for k, rp := range s.rules {
			in.evalRuleFull(s, k, in.stores[rp.head])
		}
	case in.p.options.naive:
		in.runNaive(s)
	default:
		in.runSemiNaive(s)
	}
}

// runNaive evaluates every rule on the full relations until nothing changes.
func (in *Instance) runNaive(s *stratum) {
	for {
		in.intr.tick(strataWork)
		for _, r := range s.rels {
			in.next[r].clear()
		}
		for _, rp := range s.rules {
			in.evalRuleInto(rp, -1, in.next[rp.head])
		}
		grew := false
		for _, r := range s.rels {
			if in.stores[r].unionWith(in.next[r]) {
				grew = true
			}
		}
		if !grew {
			return
		}
	}
}

// runSemiNaive evaluates a recursive stratum: the first round applies the
// rules that need no recursive tuple, and each later round applies every
// recursive rule once per recursive atom with that atom reading only the
// tuples new in the previous round.
func (in *Instance) runSemiNaive(s *stratum) {
	for _, r := range s.rels {
		in.next[r].clear()
	}
	for k, rp := range s.rules {
		if len(rp.recOccs) == 0 {
			in.evalRuleFull(s, k, in.next[rp.head])
		}
	}
	in.semiNaiveRounds(s, nil)
}

// semiNaiveRounds adds the tuples of the next relations of a recursive
// stratum to it and evaluates the recursive rules on what was new, round
// after round, until a round adds nothing. Each relation's new tuples of
// each round are passed to added, when it is set.
func (in *Instance) semiNaiveRounds(s *stratum, added func(r relID)) {
	for {
		grew := false
		for _, r := range s.rels {
			if in.absorb(r) {
				grew = true
				if added != nil {
					added(r)
				}
			}
			in.delta[r], in.next[r] = in.next[r], in.delta[r]
		}
		if !grew {
			return
		}
		in.intr.tick(strataWork)
		for _, r := range s.rels {
			in.next[r].clear()
		}
		for _, rp := range s.rules {
			for _, occ := range rp.recOccs {
				if in.delta[rp.litRel[occ]].isEmpty() {
					continue
				}
				in.evalRuleInto(rp, occ, in.next[rp.head])
			}
		}
	}
}

// absorb removes from next[r] the tuples stores[r] already holds, adds the
// rest to stores[r], and reports whether there were any: next[r] is then
// the delta of the next round. With the rows of next tracked, it is one
// pass over those rows, which also drops the rows that came out empty.
func (in *Instance) absorb(r relID) bool {
	return absorbStores(in, in.next[r], r)
}
