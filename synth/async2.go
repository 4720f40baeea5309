package synth

import "github.com/ptxmm/ptxmm/program"

// The asynchronous operations beyond -vocab async's pairs: mbarriers that
// expect two arrivals (mbarrier.two), arrives from another CTA of the
// wait's cluster (mbarrier.remote), bulk stores (bulk.store) and
// fence.proxy.async.
//
// With mbarrier.two a wait takes one or two producers, each in a thread
// other than the wait's; the mbarrier expects as many arrivals, so its
// phase completes at the second, and a wait that sees it complete
// observes both through their chain (8.9.2). An arrive may then be the
// first instruction of its thread: it releases nothing of its own, but
// the phase waits for it.
//
// With mbarrier.remote an arrive may run in another CTA of its wait's
// cluster (the placement says which: mbarsMeet). It arrives on the wait's
// copy of the mbarrier through the address mapa gives, with scope .cta or
// .cluster (a chain, dims.go), and its wait is .cluster. A bulk load
// completes on the mbarrier of its own CTA, so it is never remote.
//
// A bulk store reads a location in shared memory through the async proxy
// and writes its value to a global location of its own (x_dst0, ...),
// whose final value the test observes; the thread commits and waits for
// it at once (cp.async.bulk.commit_group, cp.async.bulk.wait_group 0).
// Every thread that accesses its location runs in its CTA.
//
// fence.proxy.async is a fence of its own kind (no chain orders it), in
// shapes that have an access through the async proxy (fencesUseful).

// pairMbars pairs the producers of a skeleton's threads with its waits
// under mbarrier.two: each wait takes one or two producers of other
// threads, and the mbarriers are numbered by wait in thread order
// (canonicalKey renames them).
func (e *enumerator) pairMbars(th [][]slot, nlocs int, prods, waits [][2]int) bool {
	if len(prods) < len(waits) || len(prods) > 2*len(waits) {
		return true
	}
	for j, w := range waits {
		th[w[0]][w[1]].bar = j
	}
	count := make([]int, len(waits))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(prods) {
			for _, c := range count {
				if c == 0 {
					return true
				}
			}
			return e.finish(th, nlocs)
		}
		for j, w := range waits {
			if count[j] == 2 || w[0] == prods[i][0] {
				continue
			}
			count[j]++
			th[prods[i][0]][prods[i][1]].bar = j
			ok := rec(i + 1)
			count[j]--
			if !ok {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// waitThreads maps each mbarrier of a skeleton to the thread of its wait.
func waitThreads(th [][]slot) map[int]int {
	out := map[int]int{}
	for t, ss := range th {
		for _, s := range ss {
			if s.kind == program.MbarWait {
				out[s.bar] = t
			}
		}
	}
	return out
}

// sameCTA reports whether threads a and b of placement ps run in one CTA.
func sameCTA(ps []program.Place, a, b int) bool {
	return ps[a].GPU == ps[b].GPU && ps[a].CTA == ps[b].CTA
}

// remoteArrive reports whether the slot at thread t, position k of a
// skeleton is an arrive on the mbarrier of another CTA, its wait's. (Only
// mbarrier.remote places them so: mbarsMeet. The screen's samples of
// -vocab async place an arrive and its wait in two CTAs too, and build
// them as before, with mbarrier.remote off.)
func (s *skeleton) remoteArrive(t, k int) bool {
	sl := s.threads[t][k]
	if sl.kind != program.MbarArrive || s.places == nil {
		return false
	}
	w, ok := waitThreads(s.threads)[sl.bar]
	return ok && !sameCTA(s.places, t, w)
}

// remoteWait reports whether a wait has a remote arrive among its
// producers: it is then .cluster.
func (s *skeleton) remoteWait(t, k int) bool {
	sl := s.threads[t][k]
	if sl.kind != program.MbarWait || s.places == nil {
		return false
	}
	for u, ss := range s.threads {
		for _, p := range ss {
			if p.kind == program.MbarArrive && p.bar == sl.bar && !sameCTA(s.places, u, t) {
				return true
			}
		}
	}
	return false
}

// producerCounts counts the producers of each mbarrier: the arrivals its
// phase expects.
func producerCounts(th [][]slot) map[int]int {
	out := map[int]int{}
	for _, ss := range th {
		for _, s := range ss {
			if producer(s.kind) {
				out[s.bar]++
			}
		}
	}
	return out
}

// bulkKind reports whether a slot of kind k accesses a location in shared
// memory: a bulk load's destination or a bulk store's source.
func bulkKind(k program.Kind) bool { return k == program.BulkLoad || k == program.BulkStore }

// readsLoc reports whether a slot of kind k reads its location: a load, a
// read-modify-write, or a bulk store's source read.
func readsLoc(k program.Kind) bool { return k.Memory() && k.Reads() || k == program.BulkStore }

// asyncSamples builds the screen's samples of the features of async2.go
// that the vocabulary has (and, with mbarrier.two, a phase of two
// arrivals among featMbar's).
func (sc *screen) asyncSamples(f feature) []*program.Test {
	voc := sc.o.Vocabulary
	v := Vocabulary{Scopes: voc.Scopes, Async: voc.Async, TwoArrivals: voc.TwoArrivals, Remote: voc.Remote, BulkStore: voc.BulkStore, AsyncFence: voc.AsyncFence}
	r := func(loc int) slot { return slot{kind: program.Load, loc: loc} }
	w := func(loc int) slot { return slot{kind: program.Store, loc: loc} }
	arrive, wait := slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}
	store := slot{kind: program.BulkStore}
	fence := slot{kind: program.ProxyFence, proxy: program.Async}
	one := []program.Place{{Cluster: 0}, {Cluster: 0}, {Cluster: 0}}
	two := []program.Place{{Cluster: 0}, {CTA: 1, Cluster: 0}}
	type sample struct {
		th [][]slot
		ps []program.Place
	}
	var ss []sample
	switch {
	case f == featMbar && voc.TwoArrivals:
		ss = append(ss, sample{[][]slot{{w(0), w(1), arrive}, {arrive}, {wait, r(1), r(0)}}, one})
	case f == featRemote:
		ss = append(ss, sample{[][]slot{{w(0), w(1), arrive}, {wait, r(1), r(0)}}, two})
	case f == featBulkStore:
		ss = append(ss, sample{[][]slot{{w(0), store, w(1)}, {r(1), r(0), w(0)}}, one[:2]})
	case f == featAsyncFence:
		if voc.BulkStore {
			ss = append(ss, sample{[][]slot{{w(0), fence, store}, {w(1), r(1)}}, one[:2]})
		}
		if voc.Async {
			ss = append(ss, sample{[][]slot{{r(0), fence, {kind: program.BulkLoad}}, {wait, r(0)}}, one[:2]})
		}
	}
	var out []*program.Test
	for _, x := range ss {
		out = append(out, sampleTests(&skeleton{threads: x.th, nlocs: 2, places: x.ps}, v)...)
	}
	return out
}

// mbarPlaces are the placements of the monotonicity check's samples of an
// arrive and its wait: one CTA, and, with mbarrier.remote, two CTAs of
// one cluster (the arrive remote, with its scope chain).
func mbarPlaces(v Vocabulary) [][]program.Place {
	if v.Remote {
		return sharedPlaces()
	}
	return sharedPlaces()[:1]
}
