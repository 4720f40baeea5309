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
	} {
		assert.Equal(t, tc.equal, canonicalKey(mp) == canonicalKey(tc.th), tc.name)
	}
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
	} {
		seen := map[string]bool{}
		count := 0
		skeletons(tc.n, Bounds{Events: tc.n, Threads: 4, Locations: 3}, tc.v, func(sk *skeleton) bool {
			count++
			require.False(t, seen[sk.key], "twice: %s", sk.key)
			seen[sk.key] = true
			assert.Equal(t, tc.n, sk.size())
			assert.Equal(t, sk.key, canonicalKey(sk.threads))
			for _, th := range sk.threads {
				for k, s := range th {
					if !s.kind.Memory() {
						assert.True(t, k > 0 && k < len(th)-1 && th[k-1].kind.Memory() && th[k+1].kind.Memory(), "fence not between accesses: %s", sk.key)
					}
				}
			}
			return true
		})
		if tc.count > 0 {
			assert.Equal(t, tc.count, count, "shapes of %d instructions", tc.n)
		}
		assert.NotZero(t, count)
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
