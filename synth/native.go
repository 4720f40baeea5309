package synth

import "github.com/ptxmm/ptxmm/program"

// This file decides, without a model, which skeletons can separate two
// models at all: those with an execution that sequential consistency
// forbids (every model allows the others) in which every access lies on a
// cycle of program order and communication (an access on no cycle could
// be removed without changing what either model says; the smallest tests
// have none).

// node is one memory access of a skeleton, as the cycles see it: a
// read-modify-write is one node that reads and writes.
type node struct {
	thread, pos, loc int
	reads, writes    bool
}

// critical reports whether some execution of the skeleton (a write for
// each read to read, an order of the writes to each location) has a cycle
// of program order, reads-from, coherence and from-reads through every
// access; barriers order the accesses before a barrier in one thread
// before those after it in the threads it meets, and an mbarrier the
// accesses before its arrive (a bulk load's write included) before those
// after its wait (sequential consistency with barriers and mbarriers).
func (s *skeleton) critical() bool {
	var nodes []node
	for t, th := range s.threads {
		for k, sl := range th {
			if access(sl.kind) {
				nodes = append(nodes, node{thread: t, pos: k, loc: sl.loc, reads: readsLoc(sl.kind), writes: sl.kind.Writes()})
			}
		}
	}
	n := len(nodes)
	if n > 16 {
		return true
	}
	var po [16]uint32
	for i := range nodes {
		for j := range nodes {
			if nodes[i].thread == nodes[j].thread && nodes[i].pos < nodes[j].pos {
				po[i] |= 1 << j
			}
			if s.meetBetween(nodes[i], nodes[j]) || s.mbarBetween(nodes[i], nodes[j]) {
				po[i] |= 1 << j
			}
		}
	}
	writes := make([][]int, s.nlocs)
	var readers []int
	for i, nd := range nodes {
		if nd.writes {
			writes[nd.loc] = append(writes[nd.loc], i)
		}
		if nd.reads {
			readers = append(readers, i)
		}
	}
	// src[r] is the write read r reads from, -1 for the initial value.
	src := make([]int, n)
	// rank[w] is write w's place in its location's coherence order.
	rank := make([]int, n)
	orders := make([][][]int, s.nlocs)
	for l := range writes {
		orders[l] = permutations(writes[l])
	}
	coPick := make([]int, s.nlocs)
	found := false
	var chooseCo func(l int)
	var chooseRf func(i int)
	chooseRf = func(i int) {
		if found {
			return
		}
		if i == len(readers) {
			chooseCo(0)
			return
		}
		r := readers[i]
		src[r] = -1
		chooseRf(i + 1)
		for _, w := range writes[nodes[r].loc] {
			if w != r {
				src[r] = w
				chooseRf(i + 1)
			}
		}
	}
	chooseCo = func(l int) {
		if found {
			return
		}
		if l == s.nlocs {
			found = allOnCycles(nodes, po[:n], src, rank, writes)
			return
		}
		for k, ord := range orders[l] {
			coPick[l] = k
			for pos, w := range ord {
				rank[w] = pos
			}
			chooseCo(l + 1)
		}
	}
	chooseRf(0)
	return found
}

// allOnCycles reports whether every access of the execution lies on a
// cycle of program order, reads-from, coherence and from-reads.
func allOnCycles(nodes []node, po []uint32, src, rank []int, writes [][]int) bool {
	n := len(nodes)
	var reach [16]uint32
	copy(reach[:], po)
	for i, nd := range nodes {
		if nd.reads && src[i] >= 0 {
			reach[src[i]] |= 1 << i
		}
		if nd.writes {
			for _, w := range writes[nd.loc] {
				if w != i && rank[w] > rank[i] {
					reach[i] |= 1 << w
				}
			}
		}
		if nd.reads {
			for _, w := range writes[nd.loc] {
				if w == i {
					continue
				}
				if src[i] < 0 || rank[w] > rank[src[i]] {
					reach[i] |= 1 << w
				}
			}
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if reach[i]&(1<<k) != 0 {
				reach[i] |= reach[k]
			}
		}
	}
	for i := 0; i < n; i++ {
		if reach[i]&(1<<i) == 0 {
			return false
		}
	}
	return true
}

// permutations lists the orders of xs.
func permutations(xs []int) [][]int {
	var out [][]int
	permute(len(xs), func(p []int) {
		o := make([]int, len(xs))
		for i, k := range p {
			o[i] = xs[k]
		}
		out = append(out, o)
	})
	return out
}

// meetBetween reports whether a barrier of a's thread that a precedes
// meets a barrier of b's thread (another) that precedes b: the k-th CTA
// barriers of two threads of one CTA meet, as do the k-th cluster barriers
// of two threads of one cluster.
func (s *skeleton) meetBetween(a, b node) bool {
	if a.thread == b.thread || s.places == nil {
		return false
	}
	pa, pb := s.places[a.thread], s.places[b.thread]
	for _, kind := range []program.Kind{program.Barrier, program.ClusterBarrier} {
		if kind == program.Barrier && (pa.GPU != pb.GPU || pa.CTA != pb.CTA) {
			continue
		}
		if kind == program.ClusterBarrier && !sameCluster(pa, pb) {
			continue
		}
		// The k-th barrier of b's thread before b, for every k at or
		// after the first barrier a's thread has after a.
		ka := countKind(s.threads[a.thread][:a.pos], kind)
		kb := countKind(s.threads[b.thread][:b.pos], kind)
		if countKind(s.threads[a.thread], kind) > ka && kb > ka {
			return true
		}
	}
	return false
}

// countKind counts the slots of a kind.
func countKind(ss []slot, k program.Kind) int {
	n := 0
	for _, s := range ss {
		if s.kind == k {
			n++
		}
	}
	return n
}
