package synth

// A skeleton's location assignment is judged once for all the ways its
// accesses may take their location's second address (the alias
// variants): the nodes of the assignment say, of each access that may
// take either address, that it takes one of the two (pnode.anyAlias), so
// the spreading of vaddr and gaddr over them holds what every variant's
// does (ownprune.go input, ownexec.go input), and the features are every
// variant's together (with featAlias). Every input of every execution of
// every variant lies within the assignment's graphs, and the plans of a
// wider feature set assume fewer inputs empty, so ownprune.go's argument
// holds for all the variants at once: where the judgement leaves the
// assignment out, no variant has a separating program. Its skeletons are
// listed and counted as before, but not judged one by one (the search
// counts them in Report.OwnPruned). TestOwnPruneCovers checks the
// assignment's spreading against the catalog, TestOwnPruneAgrees the
// tests found with it against the search without pruning.
//
// The assignment's graphs are coarser than a variant's (vaddr surely
// holds only an instruction with itself where either address may be
// taken), so some assignments are kept whose variants are each left
// out; judging assignments is turned off where it leaves out fewer
// skeletons than it judges assignments (ownPrune.judge).

// prefixNodes spells the events of a skeleton whose accesses all use
// their location's first address, with every access that the listing may
// give the second address (aliases: any generic access of the
// vocabulary's alias feature but its location's first in thread order)
// marked as taking either; ok is false where eventNodes cannot spell the
// skeleton, and alias says whether some access may take either.
func prefixNodes(sk *skeleton, v Vocabulary) (ns []pnode, alias, ok bool) {
	ns, ok = eventNodes(sk)
	if !ok || !v.Alias {
		return ns, false, ok
	}
	seen := make([]bool, sk.nlocs)
	for i := range ns {
		n := &ns[i]
		if n.iw || n.loc < 0 {
			continue
		}
		// An atom's write follows its read: the same access.
		if i > 0 && ns[i-1].thread == n.thread && ns[i-1].slot == n.slot {
			n.anyAlias = ns[i-1].anyAlias
			continue
		}
		if seen[n.loc] {
			n.anyAlias, alias = true, true
		}
		seen[n.loc] = true
	}
	return ns, alias, true
}

// prefixSize is the least size whose location assignments are judged.
// Below it, every skeleton is judged on its own: which axioms of the
// allowing model the judgement evaluates is learnt from the smaller
// sizes (ownPrune.use), and an axiom that only the precise addresses of
// one variant let fire would, with the small sizes' skeletons left out
// by their assignments, never be learnt (the search up to 4 instructions
// of causality-alloy then checked ten times the programs).
const prefixSize = 4

// prefixJudge returns the judgement of location assignments for the
// listing of the skeletons of n instructions (nil where it does not
// apply: below prefixSize, where the pruning is off or does not apply to
// the models, the vocabulary has no second addresses, or it places
// threads in more than one way, which the assignment's nodes do not
// spell). Verdicts are kept by assignment, so that a listing in two
// passes (Options.First) judges each once.
func (s *searcher) prefixJudge(n int) func(th [][]slot, nlocs int) bool {
	v := s.o.Vocabulary
	from := s.o.prefixFrom
	if from == 0 {
		from = prefixSize
	}
	if n < from || s.o.noOwnPrune || !v.Alias || v.shareCTA() || v.shareCluster() || v.multiGPU() {
		return nil
	}
	op := s.ownPrune()
	if op == nil || op.off || op.prefixOff {
		return nil
	}
	verdicts := map[string]bool{}
	var key []byte
	return func(th [][]slot, nlocs int) bool {
		key = key[:0]
		for _, ss := range th {
			key = append(key, '|')
			for _, sl := range ss {
				key = append(key, sl.code(), byte('0'+sl.loc))
			}
		}
		if out, ok := verdicts[string(key)]; ok {
			return out
		}
		sk := &skeleton{threads: th, nlocs: nlocs}
		out := false
		if sk.critical() {
			fs := sk.features(sk.dims(v), nil, nil) | featAlias
			if ns, alias, ok := prefixNodes(sk, v); ok && alias && s.screen.separable(fs) {
				op.prefixTried.Add(1)
				out = op.prunesNodes(ns, nil, fs)
			}
		}
		verdicts[string(key)] = out
		return out
	}
}

// leftOut reports whether sk's location assignment was left out
// (prefixJudge), counting it as a skeleton judged and left out.
func (op *ownPrune) leftOut(sk *skeleton) bool {
	if op == nil || op.off || !sk.leftOut {
		return false
	}
	op.tried.Add(1)
	op.left.Add(1)
	op.prefixLeft.Add(1)
	return true
}
