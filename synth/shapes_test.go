package synth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/program"
)

func TestParseVocabulary(t *testing.T) {
	for _, tc := range []struct {
		features, scopes string
		want             Vocabulary
		err              string
	}{
		{"", "gpu", Vocabulary{Scopes: []program.Scope{program.GPU}}, ""},
		{"atom, fence.sc,alias", "sys,cta,cta", Vocabulary{Scopes: []program.Scope{program.CTA, program.Sys}, RMW: true,
			Fences: []program.Sem{program.SC}, Alias: true}, ""},
		{"fence.sc,fence.acquire,data,ctrl", "cluster", Vocabulary{Scopes: []program.Scope{program.Cluster},
			Fences: []program.Sem{program.Acquire, program.SC}, Deps: []program.Dep{program.Data, program.Ctrl}}, ""},
		{"bar.sync,barrier.cluster", "gpu", Vocabulary{Scopes: []program.Scope{program.GPU}, Barrier: true, ClusterBarrier: true}, ""},
		{"constant,surface,constant", "gpu", Vocabulary{Scopes: []program.Scope{program.GPU}, Proxies: []program.Proxy{program.Surface, program.Constant}}, ""},
		{"async", "gpu", Vocabulary{Scopes: []program.Scope{program.GPU}, Async: true}, ""},
		{"mbarrier.two,mbarrier.remote,bulk.store,fence.proxy.async", "gpu", Vocabulary{Scopes: []program.Scope{program.GPU}, Async: true,
			TwoArrivals: true, Remote: true, BulkStore: true, AsyncFence: true}, ""},
		{"atomics", "gpu", Vocabulary{}, "-vocab atomics: unknown feature"},
		{"", "", Vocabulary{}, "-scopes: give at least one scope"},
		{"", "warp", Vocabulary{}, "-scopes:"},
	} {
		v, err := ParseVocabulary(tc.features, tc.scopes)
		if tc.err != "" {
			require.Error(t, err, "%q %q", tc.features, tc.scopes)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.want, v, "%q %q", tc.features, tc.scopes)
	}
}

func ld(loc int) slot { return slot{kind: program.Load, loc: loc} }
func st(loc int) slot { return slot{kind: program.Store, loc: loc} }

// TestCanonicalKey checks that renaming threads and locations keeps a
// skeleton's key, and that different shapes get different keys.
func TestCanonicalKey(t *testing.T) {
	mp := [][]slot{{st(0), st(1)}, {ld(1), ld(0)}}
	for _, tc := range []struct {
		name  string
		th    [][]slot
		equal bool
	}{
		{"threads swapped", [][]slot{{ld(1), ld(0)}, {st(0), st(1)}}, true},
		{"locations swapped", [][]slot{{st(1), st(0)}, {ld(0), ld(1)}}, true},
		{"both", [][]slot{{ld(0), ld(1)}, {st(1), st(0)}}, true},
		{"the reads in the other order", [][]slot{{st(0), st(1)}, {ld(0), ld(1)}}, false},
		{"one location", [][]slot{{st(0), st(0)}, {ld(0), ld(0)}}, false},
		{"an alias", [][]slot{{st(0), st(1)}, {ld(1), {kind: program.Load, loc: 0, alias: true}}}, false},
		{"a surface load", [][]slot{{st(0), st(1)}, {ld(1), {kind: program.Load, loc: 0, proxy: program.Surface}}}, false},
	} {
		assert.Equal(t, tc.equal, canonicalKey(mp, nil) == canonicalKey(tc.th, nil), tc.name)
	}
	// A location's second address is spelt relative to its first generic
	// access: an access through a proxy comes before it here.
	surf := slot{kind: program.Load, loc: 0, proxy: program.Surface}
	second := slot{kind: program.Store, loc: 0, alias: true}
	assert.Equal(t, canonicalKey([][]slot{{surf, st(0), second}}, nil), canonicalKey([][]slot{{surf, second, st(0)}}, nil))
	assert.NotEqual(t, canonicalKey([][]slot{{surf, st(0)}}, nil), canonicalKey([][]slot{{ld(0), st(0)}}, nil))
	// mbarriers are renamed like locations, and which wait pairs with
	// which producer is part of the shape.
	arrive := func(b int) slot { return slot{kind: program.MbarArrive, bar: b} }
	wait := func(b int) slot { return slot{kind: program.MbarWait, bar: b} }
	pairs := func(a, b int) [][]slot {
		return [][]slot{{st(0), arrive(0), st(1), arrive(1)}, {wait(a), ld(1)}, {wait(b), ld(0)}}
	}
	renamed := [][]slot{{st(0), arrive(1), st(1), arrive(0)}, {wait(1), ld(1)}, {wait(0), ld(0)}}
	assert.Equal(t, canonicalKey(pairs(0, 1), nil), canonicalKey(renamed, nil))
	assert.NotEqual(t, canonicalKey(pairs(0, 1), nil), canonicalKey(pairs(1, 0), nil))
}

// TestCanonicalWaits checks that the spelling of a found test tells
// apart its mbarrier pairs and what its waits saw.
func TestCanonicalWaits(t *testing.T) {
	v, err := ParseVocabulary("async", "gpu")
	require.NoError(t, err)
	arrive := func(b int) slot { return slot{kind: program.MbarArrive, bar: b} }
	wait := func(b int) slot { return slot{kind: program.MbarWait, bar: b} }
	one := []program.Place{{Cluster: -1}, {Cluster: -1}, {Cluster: -1}}
	build := func(a, b int, sawFirst int64) string {
		sk := &skeleton{threads: [][]slot{{st(0), arrive(0), st(1), arrive(1)}, {wait(a), ld(1)}, {wait(b), ld(0)}}, nlocs: 2, places: one}
		ds := sk.dims(v)
		p := sk.test(v, ds, make(point, len(ds)))
		p.Observe = nil
		p.Pins = []program.Pin{{Thread: 1, Op: 0, Value: sawFirst}, {Thread: 1, Op: 1, Value: 0}}
		return canonical(p)
	}
	assert.NotEqual(t, build(0, 1, 1), build(0, 1, 0), "a wait that saw its phase complete and one that did not")
	assert.NotEqual(t, build(0, 1, 1), build(1, 0, 1), "two pairings")
	assert.Equal(t, build(0, 1, 1), build(0, 1, 1))
}

// TestSkeletonsOnce checks that the enumeration meets no shape twice up
// to renaming and that its shapes obey its rules, and counts the shapes of
// loads and stores, which are few enough to count by hand at 2 and 3
// instructions.
func TestSkeletonsOnce(t *testing.T) {
	plain, err := ParseVocabulary("", "gpu")
	require.NoError(t, err)
	all, err := ParseVocabulary(DefaultFeatures+",fence.acquire,fence.release", "cta,gpu")
	require.NoError(t, err)
	placed, err := ParseVocabulary("fence.sc,bar.sync,barrier.cluster", "cta,cluster,sys")
	require.NoError(t, err)
	proxies, err := ParseVocabulary("alias,surface,texture,constant", "gpu")
	require.NoError(t, err)
	async, err := ParseVocabulary("async,fence.sc", "gpu")
	require.NoError(t, err)
	more, err := ParseVocabulary("mbarrier.two,mbarrier.remote,bulk.store,fence.proxy.async", "gpu")
	require.NoError(t, err)
	for _, tc := range []struct {
		v     Vocabulary
		n     int
		count int // 0: not counted
	}{
		// W x; W x | W x; R x | R x; W x | W x || W x | W x || R x
		// (two threads of one access each: W|W and W|R).
		{plain, 2, 5},
		{plain, 3, 0},
		{plain, 4, 0},
		{all, 4, 0},
		{placed, 3, 0},
		{placed, 4, 0},
		{proxies, 3, 0},
		{async, 3, 0},
		{async, 4, 0},
		{more, 3, 0},
		{more, 4, 0},
	} {
		seen := map[string]bool{}
		count := 0
		// What the items of async2.go add, seen at least once each.
		var twice, remote, stored, fenced bool
		skeletons(tc.n, Bounds{Events: tc.n, Threads: 4, Locations: 3}, tc.v, func(sk *skeleton) bool {
			count++
			require.False(t, seen[sk.key], "twice: %s", sk.key)
			seen[sk.key] = true
			assert.Equal(t, tc.n, sk.size())
			assert.Equal(t, sk.key, canonicalKey(sk.threads, sk.places))
			assert.True(t, barriersMeet(sk.threads, sk.places), "barriers that do not meet: %s", sk.key)
			assert.True(t, fencesUseful(sk.threads), "a proxy fence without its proxy: %s", sk.key)
			assert.True(t, mbarsMeet(sk.threads, sk.places, tc.v.Remote), "an mbarrier's pair in two CTAs: %s", sk.key)
			pairs := map[int][2]int{} // producers and waits per mbarrier
			for ti, th := range sk.threads {
				for _, s := range th {
					switch {
					case producer(s.kind):
						pairs[s.bar] = [2]int{pairs[s.bar][0] + 1, pairs[s.bar][1]}
					case s.kind == program.MbarWait:
						pairs[s.bar] = [2]int{pairs[s.bar][0], pairs[s.bar][1] + 1}
						for _, o := range th {
							assert.False(t, producer(o.kind) && o.bar == s.bar, "an mbarrier's pair in one thread (P%d): %s", ti, sk.key)
						}
					}
				}
			}
			for b, n := range pairs {
				if tc.v.TwoArrivals && n == [2]int{2, 1} {
					twice = true
					continue
				}
				assert.Equal(t, [2]int{1, 1}, n, "mbarrier %d: producers and waits: %s", b, sk.key)
			}
			for ti, th := range sk.threads {
				for k, s := range th {
					remote = remote || sk.remoteArrive(ti, k)
					stored = stored || s.kind == program.BulkStore
					fenced = fenced || (s.kind == program.ProxyFence && s.proxy == program.Async)
				}
			}
			for _, th := range sk.threads {
				for _, s := range th {
					if s.kind.Memory() && s.proxy != program.Generic {
						assert.True(t, proxyAccess(s.kind, s.proxy) && !s.alias, "kind %d through %s: %s", s.kind, s.proxy, sk.key)
					}
				}
			}
			for _, th := range sk.threads {
				for k, s := range th {
					if s.kind.Barrier() {
						assert.False(t, k > 0 && (th[k-1].kind == s.kind || isFence(th[k-1].kind)), "barrier after a fence or its kind: %s", sk.key)
						continue
					}
					if isMbar(s.kind) {
						assert.False(t, k > 0 && isFence(th[k-1].kind), "mbarrier operation after a fence: %s", sk.key)
						assert.False(t, s.kind == program.MbarArrive && k == 0 && !tc.v.TwoArrivals, "arrive first: %s", sk.key)
						assert.False(t, s.kind == program.MbarWait && k == len(th)-1, "wait last: %s", sk.key)
						continue
					}
					if !access(s.kind) {
						assert.True(t, k > 0 && k < len(th)-1 && access(th[k-1].kind) && access(th[k+1].kind), "fence not between accesses: %s", sk.key)
					}
				}
			}
			return true
		})
		if tc.count > 0 {
			assert.Equal(t, tc.count, count, "shapes of %d instructions", tc.n)
		}
		assert.NotZero(t, count)
		// Two arrivals take four instructions (a bulk load | arrive |
		// wait; ld), a remote arrive four (st; arrive | wait; ld).
		assert.Equal(t, tc.v.TwoArrivals && tc.n >= 4, twice, "a phase of two arrivals, %d instructions", tc.n)
		assert.Equal(t, tc.v.Remote && tc.n >= 4, remote, "a remote arrive, %d instructions", tc.n)
		assert.Equal(t, tc.v.BulkStore, stored, "a bulk store, %d instructions", tc.n)
		assert.Equal(t, tc.v.AsyncFence, fenced, "fence.proxy.async, %d instructions", tc.n)
	}
}

// TestPlacements counts the placements each vocabulary searches and
// checks that renaming threads with their CTAs, clusters and GPUs keeps a
// skeleton's key.
func TestPlacements(t *testing.T) {
	for _, tc := range []struct {
		features, scopes string
		threads, count   int
	}{
		{"", "gpu", 3, 1},
		{"", "cta,gpu", 3, 5}, // the partitions of 3 threads into CTAs
		{"bar.sync", "gpu", 2, 2},
		{"", "cluster", 2, 2},     // CTAs of their own, in one cluster or two
		{"", "cta,cluster", 2, 3}, // one CTA; two CTAs in one cluster; two clusters
		{"", "cta,cluster,sys", 2, 4},
		{"", "sys", 3, 5},
	} {
		v, err := ParseVocabulary(tc.features, tc.scopes)
		require.NoError(t, err)
		assert.Len(t, placements(tc.threads, v), tc.count, "%q %q", tc.features, tc.scopes)
	}
	mp := [][]slot{{st(0), st(1)}, {ld(1), ld(0)}, {ld(0)}}
	one := []program.Place{{CTA: 0, Cluster: -1}, {CTA: 0, Cluster: -1}, {CTA: 1, Cluster: -1}}
	for _, tc := range []struct {
		name  string
		th    [][]slot
		ps    []program.Place
		equal bool
	}{
		{"CTAs renamed", mp, []program.Place{{CTA: 5, Cluster: -1}, {CTA: 5, Cluster: -1}, {CTA: 2, Cluster: -1}}, true},
		{"threads swapped with their places", [][]slot{{ld(0)}, {ld(1), ld(0)}, {st(0), st(1)}},
			[]program.Place{{CTA: 1, Cluster: -1}, {CTA: 0, Cluster: -1}, {CTA: 0, Cluster: -1}}, true},
		{"another thread shares the CTA", mp, []program.Place{{CTA: 0, Cluster: -1}, {CTA: 1, Cluster: -1}, {CTA: 0, Cluster: -1}}, false},
		{"every thread in a CTA of its own", mp, nil, false},
	} {
		assert.Equal(t, tc.equal, canonicalKey(mp, one) == canonicalKey(tc.th, tc.ps), tc.name)
	}
}

// TestBarriersMeet checks which placements let a skeleton's barriers meet.
func TestBarriersMeet(t *testing.T) {
	bar := slot{kind: program.Barrier}
	cbar := slot{kind: program.ClusterBarrier}
	oneCTA := []program.Place{{Cluster: -1}, {Cluster: -1}}
	twoCTAs := []program.Place{{Cluster: -1}, {CTA: 1, Cluster: -1}}
	oneCluster := []program.Place{{Cluster: 0}, {CTA: 1, Cluster: 0}}
	for _, tc := range []struct {
		name string
		th   [][]slot
		ps   []program.Place
		want bool
	}{
		{"MP with bar.sync in one CTA", [][]slot{{st(0), bar}, {bar, ld(0)}}, oneCTA, true},
		{"in two CTAs", [][]slot{{st(0), bar}, {bar, ld(0)}}, twoCTAs, false},
		{"each thread in a CTA of its own", [][]slot{{st(0), bar}, {bar, ld(0)}}, nil, false},
		{"one barrier against two", [][]slot{{st(0), bar}, {bar, ld(0), bar}}, oneCTA, false},
		{"a barrier in one thread only", [][]slot{{st(0), bar}, {ld(0)}}, oneCTA, false},
		{"no barrier", [][]slot{{st(0)}, {ld(0)}}, nil, true},
		{"barrier.cluster in one cluster", [][]slot{{st(0), cbar}, {cbar, ld(0)}}, oneCluster, true},
		{"barrier.cluster in one CTA", [][]slot{{st(0), cbar}, {cbar, ld(0)}}, oneCTA, true},
		{"barrier.cluster in two clusters", [][]slot{{st(0), cbar}, {cbar, ld(0)}}, twoCTAs, false},
		// A thread of the cluster without the barrier would have exited.
		{"barrier.cluster and a thread without", [][]slot{{st(0), cbar}, {cbar, ld(0)}, {ld(0)}},
			[]program.Place{{Cluster: 0}, {CTA: 1, Cluster: 0}, {CTA: 2, Cluster: 0}}, false},
	} {
		assert.Equal(t, tc.want, barriersMeet(tc.th, tc.ps), tc.name)
	}
}

// TestCritical checks the shapes that sequential consistency alone
// already decides.
func TestCritical(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   [][]slot
		want bool
	}{
		{"MP", [][]slot{{st(0), st(1)}, {ld(1), ld(0)}}, true},
		{"SB", [][]slot{{st(0), ld(1)}, {st(1), ld(0)}}, true},
		{"a write then a read of it", [][]slot{{st(0), ld(0)}}, true},
		{"a read then a write", [][]slot{{ld(0), st(0)}}, true},
		{"MP with a third read", [][]slot{{st(0), st(1)}, {ld(1), ld(0), ld(0)}}, true},
		// Coherence against program order: x ends as the first write.
		{"two stores, one thread", [][]slot{{st(0), st(0)}}, true},
		// The store to y is on no cycle: nothing reads it.
		{"a store to a location no one reads", [][]slot{{st(0), st(1)}, {ld(0)}}, false},
		{"two stores to two locations", [][]slot{{st(0)}, {st(1)}}, false},
	} {
		sk := &skeleton{threads: tc.th, nlocs: 2}
		assert.Equal(t, tc.want, sk.critical(), tc.name)
	}
	// A barrier orders the accesses before it in one thread before those
	// after it in the threads it meets.
	bar := slot{kind: program.Barrier}
	oneCTA := []program.Place{{Cluster: -1}, {Cluster: -1}}
	for _, tc := range []struct {
		name string
		th   [][]slot
		want bool
	}{
		{"MP with bar.sync", [][]slot{{st(0), bar}, {bar, ld(0)}}, true},
		{"two stores across bar.sync", [][]slot{{st(0), bar}, {bar, st(0)}}, true},
		{"a load and a store both before it", [][]slot{{ld(0), bar}, {st(0), bar}}, false},
	} {
		sk := &skeleton{threads: tc.th, nlocs: 1, places: oneCTA}
		assert.Equal(t, tc.want, sk.critical(), tc.name)
	}
	// An mbarrier orders the accesses before its arrive (a bulk load's
	// write included) before those after its wait, one way only.
	arrive, wait, bulk := slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}, slot{kind: program.BulkLoad}
	for _, tc := range []struct {
		name string
		th   [][]slot
		want bool
	}{
		{"MP through an mbarrier", [][]slot{{st(0), arrive}, {wait, ld(0)}}, true},
		{"a TMA load, a wait and a load", [][]slot{{bulk}, {wait, ld(0)}}, true},
		{"a TMA load, a wait and a store", [][]slot{{bulk}, {wait, st(0)}}, true},
		{"a wait before a load that reads the arrive's thread's later store", [][]slot{{arrive, st(0)}, {wait, ld(0)}}, false},
		{"a load before the wait", [][]slot{{st(0), arrive}, {ld(0), wait}}, false},
	} {
		sk := &skeleton{threads: tc.th, nlocs: 1, places: oneCTA}
		assert.Equal(t, tc.want, sk.critical(), tc.name)
	}
}

// TestWithout checks that removing an instruction keeps the test's
// dependencies and observed registers pointing at the same instructions.
func TestWithout(t *testing.T) {
	v, err := ParseVocabulary("ctrl,data", "gpu")
	require.NoError(t, err)
	sk := &skeleton{threads: [][]slot{{ld(0), ld(1), st(1)}, {st(0)}}, nlocs: 2}
	ds := sk.dims(v)
	p := make(point, len(ds))
	for i, d := range ds {
		if d.kind == dimDep && d.pos == 2 {
			p[i] = 1 // a data dependency of the store on the read of y
		}
	}
	test := sk.test(v, ds, p)
	require.Equal(t, program.Data, test.Threads[0].Ops[2].Dep)
	require.Equal(t, 1, test.Threads[0].Ops[2].From)

	w := without(test, 0, 0)
	require.Len(t, w.Threads, 2)
	assert.Equal(t, program.Data, w.Threads[0].Ops[1].Dep)
	assert.Equal(t, 0, w.Threads[0].Ops[1].From)
	assert.Equal(t, []program.Pin{{Thread: 0, Op: 0}}, w.Observe)

	w = without(test, 0, 1)
	assert.Equal(t, program.NoDep, w.Threads[0].Ops[1].Dep)

	w = without(test, 1, 0)
	require.Len(t, w.Threads, 1)
	_, err = w.Parse()
	assert.NoError(t, err)
}

// TestDepChains checks that a dimension offering both dependencies is
// split into two chains, each from none, and others are kept.
func TestDepChains(t *testing.T) {
	both := dim{kind: dimDep, deps: []program.Dep{program.NoDep, program.Data, program.Ctrl}}
	ctrl := dim{kind: dimDep, deps: []program.Dep{program.NoDep, program.Ctrl}}
	sem := dim{kind: dimSem, sems: []program.Sem{program.Weak, program.Relaxed}}
	for _, tc := range []struct {
		name string
		ds   []dim
		want [][][]program.Dep // per chain, the deps of each dep dimension
	}{
		{"no dependency", []dim{sem}, [][][]program.Dep{nil}},
		{"control only", []dim{sem, ctrl}, [][][]program.Dep{{{program.NoDep, program.Ctrl}}}},
		{"both", []dim{both, sem}, [][][]program.Dep{{{program.NoDep, program.Data}}, {{program.NoDep, program.Ctrl}}}},
		{"two accesses with both", []dim{both, both}, [][][]program.Dep{
			{{program.NoDep, program.Data}, {program.NoDep, program.Data}},
			{{program.NoDep, program.Data}, {program.NoDep, program.Ctrl}},
			{{program.NoDep, program.Ctrl}, {program.NoDep, program.Data}},
			{{program.NoDep, program.Ctrl}, {program.NoDep, program.Ctrl}},
		}},
	} {
		chains := depChains(tc.ds)
		var got [][][]program.Dep
		for _, c := range chains {
			assert.Len(t, c, len(tc.ds), tc.name)
			var deps [][]program.Dep
			for _, d := range c {
				if d.kind == dimDep {
					deps = append(deps, d.deps)
				}
			}
			got = append(got, deps)
		}
		assert.Equal(t, tc.want, got, tc.name)
	}
}
