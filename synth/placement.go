package synth

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Where the threads of a test run matters only where the vocabulary can
// tell it: a .cta scope makes two threads of one CTA morally strong and not
// two of different CTAs, a CTA barrier meets only the threads of its CTA,
// and so on. So the placements searched are the partitions the vocabulary
// can tell apart: threads grouped into CTAs (with .cta scope or bar.sync),
// CTAs into clusters (with .cluster scope or barrier.cluster), clusters
// onto GPUs (with .sys scope); without any of these, each thread runs in a
// CTA of its own on one GPU, as ever. A placement is part of a skeleton,
// like the addresses its accesses use: moving a thread changes which
// scopes include it, which is no step up or down in one chain.

// placements lists the placements of n threads the vocabulary tells
// apart: nil alone (each thread in a CTA of its own, in a cluster of its
// own, on GPU 0) when it tells none.
func placements(n int, v Vocabulary) [][]program.Place {
	if !v.shareCTA() && !v.shareCluster() && !v.multiGPU() {
		return [][]program.Place{nil}
	}
	discrete := make([]int, n)
	for i := range discrete {
		discrete[i] = i
	}
	ctas := [][]int{discrete}
	if v.shareCTA() {
		ctas = partitionsOf(n)
	}
	var out [][]program.Place
	for _, cta := range ctas {
		nctas := blocks(cta)
		clusters := [][]int{identity(nctas)}
		if v.shareCluster() {
			clusters = partitionsOf(nctas)
		}
		for _, clu := range clusters {
			nclus := blocks(clu)
			gpus := [][]int{make([]int, nclus)}
			if v.multiGPU() {
				gpus = partitionsOf(nclus)
			}
			for _, gpu := range gpus {
				ps := make([]program.Place, n)
				for t := range ps {
					c := clu[cta[t]]
					ps[t] = program.Place{CTA: cta[t], Cluster: -1, GPU: gpu[c]}
					if v.shareCluster() {
						ps[t].Cluster = c
					}
				}
				out = append(out, ps)
			}
		}
	}
	return out
}

// partitionsOf lists the partitions of n items as restricted growth
// strings: item i's block, blocks numbered in order of first use.
func partitionsOf(n int) [][]int {
	var out [][]int
	cur := make([]int, n)
	var rec func(i, used int)
	rec = func(i, used int) {
		if i == n {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for b := 0; b <= used; b++ {
			cur[i] = b
			u := used
			if b == used {
				u++
			}
			rec(i+1, u)
		}
	}
	if n == 0 {
		return [][]int{nil}
	}
	rec(0, 0)
	return out
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// blocks counts the blocks of a restricted growth string.
func blocks(rgs []int) int {
	n := 0
	for _, b := range rgs {
		n = max(n, b+1)
	}
	return n
}

// barriersMeet reports whether the barriers of a skeleton's threads meet
// under a placement: the threads of a CTA that have CTA barriers have
// the same number of them, and are two or more (a barrier a thread meets
// alone orders nothing its program order does not); every thread of a
// cluster in which one has cluster barriers has the same number of them
// (a thread without one would have exited, and the barrier would wait for
// its exit), and the cluster has two threads or more.
func barriersMeet(th [][]slot, ps []program.Place) bool {
	bars := make([]int, len(th))
	cbars := make([]int, len(th))
	any := false
	for t, ss := range th {
		for _, s := range ss {
			switch s.kind {
			case program.Barrier:
				bars[t]++
				any = true
			case program.ClusterBarrier:
				cbars[t]++
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
	for t := range th {
		mates, cmates := 0, 0
		for u := range th {
			if ps[u].GPU != ps[t].GPU {
				continue
			}
			if bars[t] > 0 && ps[u].CTA == ps[t].CTA && bars[u] > 0 {
				if bars[u] != bars[t] {
					return false
				}
				mates++
			}
			if sameCluster(ps[t], ps[u]) {
				if cbars[u] != cbars[t] {
					return false
				}
				cmates++
			}
		}
		if (bars[t] > 0 && mates < 2) || (cbars[t] > 0 && cmates < 2) {
			return false
		}
	}
	return true
}

// sameCluster reports whether two placed threads share a cluster (a
// thread placed in no named cluster is in its CTA's own).
func sameCluster(a, b program.Place) bool {
	if a.GPU != b.GPU {
		return false
	}
	if a.Cluster < 0 || b.Cluster < 0 {
		return a.CTA == b.CTA
	}
	return a.Cluster == b.Cluster
}

// placeSpeller spells the placements of threads met in some order, each
// GPU, cluster and CTA numbered in order of first use, so that two
// placements differing by a renaming of these spell the same.
type placeSpeller struct {
	gpus, clusters, ctas map[int]int
}

func newPlaceSpeller() *placeSpeller {
	return &placeSpeller{gpus: map[int]int{}, clusters: map[int]int{}, ctas: map[int]int{}}
}

func renumber(m map[int]int, k int) int {
	if n, ok := m[k]; ok {
		return n
	}
	m[k] = len(m)
	return m[k]
}

// spell writes a thread's placement.
func (s *placeSpeller) spell(b *strings.Builder, p program.Place) {
	clu := -1
	if p.Cluster >= 0 {
		clu = renumber(s.clusters, p.GPU<<16|p.Cluster)
	}
	fmt.Fprintf(b, "<%d.%d.%d>", renumber(s.gpus, p.GPU), clu, renumber(s.ctas, p.GPU<<16|p.CTA))
}
