package synth

import (
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// slot is one instruction of a skeleton: what it does, where, and
// through which of its location's addresses; its memory order, scope and
// dependency are chosen later (dims.go). A fence of a chain (acq_rel,
// sc) has fence 0; fence.acquire and fence.release are fences of their
// own (fence Acquire, Release), which no chain orders.
type slot struct {
	kind  program.Kind
	fence program.Sem
	loc   int
	alias bool
	// proxy is the proxy of an access through a proxy's reference of its
	// location, or of a proxy fence.
	proxy program.Proxy
	// bar is the mbarrier of an arrive, a wait or a bulk load (async.go).
	bar int
}

// skeleton is the shape of a test: its threads' instructions without
// their memory orders and scopes, and where the threads run (places: nil
// for each thread in a CTA of its own on GPU 0).
type skeleton struct {
	threads [][]slot
	places  []program.Place
	nlocs   int
	key     string
	// leftOut says the skeleton's location assignment was judged, for
	// all its alias variants at once, to hold no separating program
	// (ownprefix.go).
	leftOut bool
}

// size counts the skeleton's instructions.
func (s *skeleton) size() int {
	n := 0
	for _, th := range s.threads {
		n += len(th)
	}
	return n
}

// Bounds limit the shapes enumerated.
type Bounds struct {
	Events, Threads, Locations int
}

// code spells a slot's kind in a skeleton's key.
func (s slot) code() byte {
	switch s.kind {
	case program.Load:
		return 'R'
	case program.Store:
		return 'W'
	case program.RMW:
		return 'U'
	case program.AliasFence:
		return 'A'
	case program.Barrier:
		return 'B'
	case program.ProxyFence:
		if s.proxy == program.Async {
			return 'P'
		}
		return "?STK"[s.proxy]
	case program.ClusterBarrier:
		return 'C'
	case program.MbarArrive:
		return 'M'
	case program.MbarWait:
		return 'V'
	case program.BulkLoad:
		return 'T'
	case program.BulkStore:
		return 'O'
	}
	switch s.fence {
	case program.Acquire:
		return 'Q'
	case program.Release:
		return 'L'
	}
	return 'F'
}

// skeletons calls yield with every skeleton of exactly n instructions
// within the bounds and the vocabulary that the shape rules admit, each
// once up to the renaming of threads and locations, until yield returns
// false. The rules: a fence sits between two accesses of its thread and
// next to no other fence; every location is accessed twice or more and
// written at least once; every thread of a test of several accesses a
// location another thread accesses; a barrier is next to no fence and no
// barrier of its kind, and meets the barriers of other threads
// (barriersMeet).
func skeletons(n int, b Bounds, v Vocabulary, yield func(*skeleton) bool) bool {
	return skeletonsOrdered(n, b, v, false, yield)
}

// skeletonsOrdered is skeletons, with the shapes of one thread listed
// last rather than first when oneThreadLast is set.
func skeletonsOrdered(n int, b Bounds, v Vocabulary, oneThreadLast bool, yield func(*skeleton) bool) bool {
	return skeletonsJudged(n, b, v, oneThreadLast, nil, yield)
}

// skeletonsJudged is skeletonsOrdered, with each location assignment of
// the threads' kinds passed to judge (when not nil) before its alias
// variants are listed: the skeletons of an assignment judge leaves out
// are listed with leftOut set where all their accesses are generic.
func skeletonsJudged(n int, b Bounds, v Vocabulary, oneThreadLast bool, judge func(th [][]slot, nlocs int) bool, yield func(*skeleton) bool) bool {
	kinds := []slot{{kind: program.Load}, {kind: program.Store}}
	if v.RMW {
		kinds = append(kinds, slot{kind: program.RMW})
	}
	if len(chainFences(v.Fences)) > 0 {
		kinds = append(kinds, slot{kind: program.Fence})
	}
	for _, f := range []program.Sem{program.Acquire, program.Release} {
		if hasSem(v.Fences, f) {
			kinds = append(kinds, slot{kind: program.Fence, fence: f})
		}
	}
	if v.Alias {
		kinds = append(kinds, slot{kind: program.AliasFence})
	}
	if v.Barrier {
		kinds = append(kinds, slot{kind: program.Barrier})
	}
	if v.ClusterBarrier {
		kinds = append(kinds, slot{kind: program.ClusterBarrier})
	}
	for _, p := range v.Proxies {
		kinds = append(kinds, slot{kind: program.ProxyFence, proxy: p})
	}
	if v.Async {
		kinds = append(kinds, slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}, slot{kind: program.BulkLoad})
	}
	if v.BulkStore {
		kinds = append(kinds, slot{kind: program.BulkStore})
	}
	if v.AsyncFence {
		kinds = append(kinds, slot{kind: program.ProxyFence, proxy: program.Async})
	}
	seqs := map[int][][]slot{}
	for l := 1; l <= n; l++ {
		seqs[l] = kindSequences(l, kinds, v.TwoArrivals)
	}
	seen := map[string]bool{}
	e := &enumerator{n: n, b: b, v: v, seqs: seqs, seen: seen, yield: yield, judge: judge}
	parts := partitions(n, b.Threads)
	if oneThreadLast && len(parts) > 1 && len(parts[0]) == 1 {
		parts = append(parts[1:], parts[0])
	}
	for _, sizes := range parts {
		if !e.threadsOf(sizes, nil, 0) {
			return false
		}
	}
	return true
}

// enumerator carries the state of skeletons.
type enumerator struct {
	n     int
	b     Bounds
	v     Vocabulary
	seqs  map[int][][]slot
	seen  map[string]bool
	yield func(*skeleton) bool
	// judge, when not nil, judges each location assignment; out is its
	// verdict on the assignment being listed.
	judge func(th [][]slot, nlocs int) bool
	out   bool
}

// partitions lists the ways to split n instructions among at most
// maxThreads threads, largest first.
func partitions(n, maxThreads int) [][]int {
	var out [][]int
	var rec func(rem, most int, cur []int)
	rec = func(rem, most int, cur []int) {
		if rem == 0 {
			out = append(out, append([]int(nil), cur...))
			return
		}
		if len(cur) == maxThreads {
			return
		}
		for p := min(rem, most); p >= 1; p-- {
			rec(rem-p, p, append(cur, p))
		}
	}
	rec(n, n, nil)
	return out
}

// kindSequences lists the sequences of l kinds whose fences each sit
// between two accesses, next to no other fence, and whose barriers each
// sit anywhere but next to a fence or a barrier of their kind. An arrive
// may be first only where a phase may wait for two (firstArrive).
func kindSequences(l int, kinds []slot, firstArrive bool) [][]slot {
	var out [][]slot
	cur := make([]slot, l)
	var rec func(i int)
	rec = func(i int) {
		if i == l {
			out = append(out, append([]slot(nil), cur...))
			return
		}
		for _, k := range kinds {
			if isMbar(k.kind) {
				// An arrive after something to release, a wait before
				// something to acquire, neither next to a fence.
				if (k.kind == program.MbarArrive && i == 0 && !firstArrive) || (k.kind == program.MbarWait && i == l-1) || (i > 0 && isFence(cur[i-1].kind)) {
					continue
				}
				cur[i] = k
				rec(i + 1)
				continue
			}
			if k.kind.Barrier() {
				if i > 0 && (cur[i-1].kind == k.kind || isFence(cur[i-1].kind)) {
					continue
				}
				cur[i] = k
				rec(i + 1)
				continue
			}
			fence := !access(k.kind)
			if fence && (i == 0 || i == l-1 || !access(cur[i-1].kind)) {
				continue
			}
			cur[i] = k
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// threadsOf picks each thread's kinds; threads of equal size take
// sequences in order (any skeleton has such a renaming of its threads).
func (e *enumerator) threadsOf(sizes []int, picked []int, i int) bool {
	if i == len(sizes) {
		var th [][]slot
		for k, idx := range picked {
			th = append(th, append([]slot(nil), e.seqs[sizes[k]][idx]...))
		}
		return e.locations(th)
	}
	start := 0
	if i > 0 && sizes[i] == sizes[i-1] {
		start = picked[i-1]
	}
	for idx := start; idx < len(e.seqs[sizes[i]]); idx++ {
		if !e.threadsOf(sizes, append(picked, idx), i+1) {
			return false
		}
	}
	return true
}

// memSlots lists the positions of the memory accesses, thread by thread.
func memSlots(th [][]slot) [][2]int {
	var out [][2]int
	for t, ss := range th {
		for k, s := range ss {
			if access(s.kind) {
				out = append(out, [2]int{t, k})
			}
		}
	}
	return out
}

// locations gives the accesses locations, numbered in order of first use.
func (e *enumerator) locations(th [][]slot) bool {
	mem := memSlots(th)
	var rec func(i, used int) bool
	rec = func(i, used int) bool {
		if i == len(mem) {
			if !communicates(th, used) {
				return true
			}
			e.out = e.judge != nil && e.judge(th, used)
			return e.aliases(th, mem, used, 0)
		}
		for l := 0; l <= used && l < e.b.Locations; l++ {
			th[mem[i][0]][mem[i][1]].loc = l
			u := used
			if l == used {
				u++
			}
			if !rec(i+1, u) {
				return false
			}
		}
		return true
	}
	return rec(0, 0)
}

// communicates reports whether every location is accessed twice or more
// and written, and every thread (of several) shares a location or a
// barrier with another.
func communicates(th [][]slot, nlocs int) bool {
	count := make([]int, nlocs)
	written := make([]bool, nlocs)
	users := make([]uint32, nlocs)
	for t, ss := range th {
		for _, s := range ss {
			if access(s.kind) {
				count[s.loc]++
				written[s.loc] = written[s.loc] || s.kind.Writes()
				users[s.loc] |= 1 << t
			}
		}
	}
	for l := range count {
		if count[l] < 2 || !written[l] {
			return false
		}
	}
	if len(th) == 1 {
		return true
	}
	for t, ss := range th {
		shares := false
		for _, s := range ss {
			// A barrier meets other threads (barriersMeet sees to it),
			// and an mbarrier pairs two threads (mbarriers).
			if (access(s.kind) && users[s.loc]&^(1<<t) != 0) || s.kind.Barrier() || isMbar(s.kind) {
				shares = true
			}
		}
		if !shares {
			return false
		}
	}
	return true
}

// aliases chooses the address each access uses: its location's first
// address; its second (with the alias vocabulary), for any but the first
// generic access of each location in thread order; or its reference in a
// proxy of the vocabulary. A proxy fence comes only with accesses through
// its proxy, the alias fence only with second addresses.
func (e *enumerator) aliases(th [][]slot, mem [][2]int, nlocs, i int) bool {
	if i == len(mem) {
		if !fencesUseful(th) {
			return true
		}
		return e.mbarriers(th, nlocs)
	}
	t, k := mem[i][0], mem[i][1]
	first := true
	for _, p := range mem[:i] {
		if q := th[p[0]][p[1]]; q.loc == th[t][k].loc && q.proxy == program.Generic {
			first = false
		}
	}
	th[t][k].alias, th[t][k].proxy = false, program.Generic
	if !e.finish2(th, mem, nlocs, i) {
		return false
	}
	if bulkKind(th[t][k].kind) {
		// A bulk load writes its location's shared-memory address, a
		// bulk store reads it.
		return true
	}
	if e.v.Alias && !first {
		th[t][k].alias = true
		ok := e.finish2(th, mem, nlocs, i)
		th[t][k].alias = false
		if !ok {
			return false
		}
	}
	for _, p := range e.v.Proxies {
		if !proxyAccess(th[t][k].kind, p) {
			continue
		}
		th[t][k].proxy = p
		ok := e.finish2(th, mem, nlocs, i)
		th[t][k].proxy = program.Generic
		if !ok {
			return false
		}
	}
	return true
}

// finish2 goes on to the next access.
func (e *enumerator) finish2(th [][]slot, mem [][2]int, nlocs, i int) bool {
	return e.aliases(th, mem, nlocs, i+1)
}

// fencesUseful reports whether a skeleton with an alias fence also uses
// a second address, and one with a proxy fence an access through its
// proxy.
func fencesUseful(th [][]slot) bool {
	fence, second := false, false
	var fenced, used [program.Async + 1]bool
	for _, ss := range th {
		for _, s := range ss {
			fence = fence || s.kind == program.AliasFence
			second = second || s.alias
			switch {
			case s.kind == program.ProxyFence:
				fenced[s.proxy] = true
			case s.kind.Memory():
				used[s.proxy] = true
			case bulkKind(s.kind):
				used[program.Async] = true
			}
		}
	}
	for p := range fenced {
		if fenced[p] && !used[p] {
			return false
		}
	}
	return second || !fence
}

// finish keeps a skeleton once in each placement its barriers allow: the
// first time its canonical key is met.
func (e *enumerator) finish(th [][]slot, nlocs int) bool {
	for _, ps := range placements(len(th), e.v) {
		if !barriersMeet(th, ps) || !mbarsMeet(th, ps, e.v.Remote) {
			continue
		}
		sk := &skeleton{threads: th, places: ps, nlocs: nlocs}
		sk.key = canonicalKey(th, ps)
		if e.seen[sk.key] {
			continue
		}
		e.seen[sk.key] = true
		c := sk.clone()
		c.leftOut = e.out && allGeneric(th)
		if !e.yield(c) {
			return false
		}
	}
	return true
}

// allGeneric reports whether every access of the threads uses its
// location's generic addresses (no proxy's reference).
func allGeneric(th [][]slot) bool {
	for _, ss := range th {
		for _, s := range ss {
			if s.proxy != program.Generic {
				return false
			}
		}
	}
	return true
}

// isFence reports whether k is a fence (of memory or of a proxy).
func isFence(k program.Kind) bool {
	return k == program.Fence || k == program.AliasFence || k == program.ProxyFence
}

// nearestRead is the index of the last read before position k of a
// thread, or -1.
func nearestRead(ss []slot, k int) int {
	for j := k - 1; j >= 0; j-- {
		// A wait's register says only whether a phase completed: no
		// dependency is taken on it.
		if ss[j].kind.Reads() && ss[j].kind != program.MbarWait {
			return j
		}
	}
	return -1
}

// clone copies a skeleton the enumeration will go on modifying.
func (s *skeleton) clone() *skeleton {
	c := &skeleton{nlocs: s.nlocs, key: s.key, places: s.places}
	for _, th := range s.threads {
		c.threads = append(c.threads, append([]slot(nil), th...))
	}
	return c
}

// canonicalKey spells a skeleton so that two skeletons get the same key
// exactly when they differ by a renaming of threads and locations (and of
// the CTAs, clusters and GPUs of their placement, ps, when not nil): the
// least spelling over the orders of the threads, locations numbered in
// order of first use.
func canonicalKey(th [][]slot, ps []program.Place) string {
	best := ""
	permute(len(th), func(order []int) {
		var b strings.Builder
		var places *placeSpeller
		if ps != nil {
			places = newPlaceSpeller()
		}
		ren := map[int]byte{}
		bars := map[int]byte{}
		// A location's first generic access in this order names its
		// first address: the others are spelt relative to it.
		firstAlias := map[int]bool{}
		for i, t := range order {
			if i > 0 {
				b.WriteByte('|')
			}
			if ps != nil {
				places.spell(&b, ps[t])
			}
			for _, s := range th[t] {
				b.WriteByte(s.code())
				if asyncKind(s.kind) {
					if _, ok := bars[s.bar]; !ok {
						bars[s.bar] = byte('0' + len(bars))
					}
					b.WriteByte('#')
					b.WriteByte(bars[s.bar])
				}
				if access(s.kind) {
					if _, ok := ren[s.loc]; !ok {
						ren[s.loc] = byte('0' + len(ren))
					}
					b.WriteByte(ren[s.loc])
					if s.proxy != program.Generic {
						b.WriteString("~" + s.proxy.String())
						continue
					}
					if _, ok := firstAlias[s.loc]; !ok {
						firstAlias[s.loc] = s.alias
					}
					if s.alias != firstAlias[s.loc] {
						b.WriteByte('\'')
					}
				}
			}
		}
		if k := b.String(); best == "" || k < best {
			best = k
		}
	})
	return best
}

// permute calls f with every order of 0..n-1.
func permute(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}
