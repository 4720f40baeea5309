package synth

import "github.com/ptxmm/ptxmm/program"

// The asynchronous operations (-vocab async) are mbarrier arrives and
// waits and bulk loads (TMA). A skeleton pairs them: each mbarrier has one
// producer, an arrive or a bulk load that arms it (arrive.expect_tx) and
// completes on it, and one wait, a test_wait that branches past the rest
// of its thread when it does not see the phase complete, in another thread
// of the producer's CTA. The pair is directed, like a release and an
// acquire: the arrive's order is a chain relaxed < release, the wait's
// relaxed < acquire (dims.go); a bulk load's arrive is a release and its
// complete-tx is the instruction's own. A bulk load writes a location in
// shared memory (one copy per CTA), so every thread that accesses it runs
// in its CTA.

// access reports whether a slot of kind k accesses a location of the
// test: a load, store or read-modify-write, or a bulk load's write.
func access(k program.Kind) bool { return k.Memory() || bulkKind(k) }

// isMbar reports whether k is an mbarrier arrive or wait.
func isMbar(k program.Kind) bool { return k == program.MbarArrive || k == program.MbarWait }

// asyncKind reports whether k is an asynchronous operation of the
// vocabulary: an mbarrier arrive or wait, or a bulk load.
func asyncKind(k program.Kind) bool { return isMbar(k) || k == program.BulkLoad }

// producer reports whether a slot completes a phase of its mbarrier: an
// arrive, or a bulk load.
func producer(k program.Kind) bool { return k == program.MbarArrive || k == program.BulkLoad }

// mbarriers pairs the producers of a skeleton's threads with its waits,
// one mbarrier per pair, the two of a pair in different threads, and goes
// on with each pairing (mbarriers are numbered by producer, in thread
// order; canonicalKey renames them).
func (e *enumerator) mbarriers(th [][]slot, nlocs int) bool {
	var prods, waits [][2]int
	for t, ss := range th {
		for k, s := range ss {
			switch {
			case producer(s.kind):
				prods = append(prods, [2]int{t, k})
			case s.kind == program.MbarWait:
				waits = append(waits, [2]int{t, k})
			}
		}
	}
	if e.v.TwoArrivals && len(waits) > 0 {
		return e.pairMbars(th, nlocs, prods, waits)
	}
	if len(prods) != len(waits) {
		return true
	}
	if len(prods) == 0 {
		return e.finish(th, nlocs)
	}
	for i, p := range prods {
		th[p[0]][p[1]].bar = i
	}
	used := make([]bool, len(waits))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(prods) {
			return e.finish(th, nlocs)
		}
		for j, w := range waits {
			if used[j] || w[0] == prods[i][0] {
				continue
			}
			used[j] = true
			th[w[0]][w[1]].bar = i
			ok := rec(i + 1)
			used[j] = false
			if !ok {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// mbarsMeet reports whether a placement lets each pair of an mbarrier
// meet: its producer and its wait run in one CTA (or, with remote, an
// arrive runs in another CTA of the wait's cluster), and every thread
// that accesses a bulk load's or a bulk store's location runs in its CTA.
func mbarsMeet(th [][]slot, ps []program.Place, remote bool) bool {
	waitThread := map[int]int{}
	bulkThread := map[int]int{}
	any := false
	for t, ss := range th {
		for _, s := range ss {
			if s.kind == program.MbarWait {
				waitThread[s.bar] = t
				any = true
			}
			if bulkKind(s.kind) {
				bulkThread[s.loc] = t
				any = true
			}
		}
	}
	if !any {
		return true
	}
	if ps == nil {
		return false
	}
	for t, ss := range th {
		for _, s := range ss {
			if producer(s.kind) {
				w := waitThread[s.bar]
				meet := sameCTA(ps, t, w) || (remote && s.kind == program.MbarArrive && sameCluster(ps[t], ps[w]))
				if !meet {
					return false
				}
			}
			if u, ok := bulkThread[s.loc]; ok && access(s.kind) && !sameCTA(ps, t, u) {
				return false
			}
		}
	}
	return true
}

// mbarBetween reports whether a's thread completes a phase after a (an
// arrive after a, or a bulk load that is a or follows it) that b's thread
// (another) waits for before b: sequential consistency with mbarriers
// orders a before b.
func (s *skeleton) mbarBetween(a, b node) bool {
	if a.thread == b.thread {
		return false
	}
	for k, sl := range s.threads[a.thread] {
		if !producer(sl.kind) || k < a.pos || (k == a.pos && sl.kind != program.BulkLoad) {
			continue
		}
		for q, w := range s.threads[b.thread][:b.pos] {
			if w.kind == program.MbarWait && w.bar == sl.bar && q < b.pos {
				return true
			}
		}
	}
	return false
}
