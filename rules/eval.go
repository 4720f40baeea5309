package rules

// runStratum recomputes one stratum from scratch.
func (in *Instance) runStratum(s *stratum) {
	for _, r := range s.rels {
		in.stores[r].clear()
	}
	switch {
	case s.closure != nil && in.record == nil:
		in.runClosure(s.closure)
	case !s.recursive:
		for _, rp := range s.rules {
			in.evalRuleInto(rp, -1, in.stores[rp.head])
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
	for _, rp := range s.rules {
		if len(rp.recOccs) == 0 {
			in.evalRuleInto(rp, -1, in.stores[rp.head])
		}
	}
	for _, r := range s.rels {
		in.delta[r].copyFrom(in.stores[r])
	}
	for {
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
		grew := false
		for _, r := range s.rels {
			in.next[r].differenceWith(in.stores[r])
			if !in.next[r].isEmpty() {
				in.stores[r].unionWith(in.next[r])
				grew = true
			}
			in.delta[r], in.next[r] = in.next[r], in.delta[r]
		}
		if !grew {
			return
		}
	}
}
