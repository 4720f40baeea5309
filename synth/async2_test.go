package synth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/program"
)

// TestAsyncItemsText checks the programs the items of async2.go make: a
// phase of two arrivals, a remote arrive through mapa to its wait's CTA
// with a .cluster wait, and a bulk store whose destination is observed.
func TestAsyncItemsText(t *testing.T) {
	v, err := ParseVocabulary("mbarrier.two,mbarrier.remote,bulk.store,fence.proxy.async", "gpu")
	require.NoError(t, err)
	arrive, wait := slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}
	for _, tc := range []struct {
		name   string
		sk     *skeleton
		want   []string
		absent []string
	}{
		{"two arrivals", &skeleton{threads: [][]slot{{st(0), arrive}, {arrive}, {wait, ld(0)}}, nlocs: 1,
			places: []program.Place{{Cluster: -1}, {Cluster: -1}, {Cluster: -1}}},
			[]string{"mb0 @ mbarrier 2;", "mbarrier.arrive.relaxed.cta mb0", "mbarrier.test_wait.relaxed.cta r0, mb0"}, []string{"mapa"}},
		{"remote arrive", &skeleton{threads: [][]slot{{st(0), arrive}, {wait, ld(0)}}, nlocs: 1,
			places: []program.Place{{CTA: 1, Cluster: 0}, {CTA: 0, Cluster: 0}}},
			[]string{"mb0 @ mbarrier 1;", "mapa.shared::cluster ra1, mb0, 0", "mbarrier.arrive.relaxed.cta.shared::cluster _, [ra1]",
				"mbarrier.test_wait.relaxed.cluster r0, mb0"}, nil},
		{"bulk store after fence.proxy.async", &skeleton{threads: [][]slot{{st(0), {kind: program.ProxyFence, proxy: program.Async}, {kind: program.BulkStore}}}, nlocs: 1},
			[]string{"x @ shared = 0; x_dst0=0;", "fence.proxy.async", "cp.async.bulk.global.shared::cta.bulk_group x_dst0, x, 16",
				"cp.async.bulk.wait_group 0", "locations [x_dst0;]"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := tc.sk.dims(v)
			text := tc.sk.test(v, ds, make(point, len(ds))).Litmus()
			for _, w := range tc.want {
				assert.Contains(t, text, w)
			}
			for _, w := range tc.absent {
				assert.NotContains(t, text, w)
			}
			_, err := tc.sk.test(v, ds, make(point, len(ds))).Parse()
			assert.NoError(t, err, text)
		})
	}
}

// TestRemoteArriveScope checks that a remote arrive's scope is a chain
// (.cta < .cluster) and a local arrive has none.
func TestRemoteArriveScope(t *testing.T) {
	v, err := ParseVocabulary("mbarrier.remote", "gpu")
	require.NoError(t, err)
	arrive, wait := slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}
	th := [][]slot{{st(0), arrive}, {wait, ld(0)}}
	scopes := func(ps []program.Place) [][]program.Scope {
		var out [][]program.Scope
		for _, d := range (&skeleton{threads: th, nlocs: 1, places: ps}).dims(v) {
			if d.kind == dimScope && d.thread == 0 && d.pos == 1 {
				out = append(out, d.scopes)
			}
		}
		return out
	}
	assert.Equal(t, [][]program.Scope{{program.CTA, program.Cluster}}, scopes([]program.Place{{CTA: 1, Cluster: 0}, {Cluster: 0}}))
	assert.Empty(t, scopes([]program.Place{{Cluster: 0}, {Cluster: 0}}))
	// Without mbarrier.remote an arrive never leaves its wait's CTA.
	assert.False(t, mbarsMeet(th, []program.Place{{CTA: 1, Cluster: 0}, {Cluster: 0}}, false))
	assert.True(t, mbarsMeet(th, []program.Place{{CTA: 1, Cluster: 0}, {Cluster: 0}}, true))
	assert.False(t, mbarsMeet(th, []program.Place{{CTA: 1, Cluster: 1}, {Cluster: 0}}, true), "two clusters")
	// A bulk load completes on its own CTA's mbarrier: never remote.
	bulk := [][]slot{{st(1), {kind: program.BulkLoad}}, {wait, ld(0), ld(1)}}
	assert.False(t, mbarsMeet(bulk, []program.Place{{CTA: 1, Cluster: 0}, {Cluster: 0}}, true))
}

// TestCanonicalBulkStores checks that a bulk store's observed
// destination is part of a test's canonical spelling: two outcomes of one
// program that differ only in the value the store read are two tests.
func TestCanonicalBulkStores(t *testing.T) {
	v, err := ParseVocabulary("bulk.store", "gpu")
	require.NoError(t, err)
	sk := &skeleton{threads: [][]slot{{{kind: program.BulkStore}, st(0)}}, nlocs: 1}
	ds := sk.dims(v)
	base := sk.test(v, ds, make(point, len(ds)))
	pinned := func(val int64) string {
		p := *base
		p.Observe = nil
		p.Pins = []program.Pin{{Thread: -1, Addr: base.Threads[0].Ops[0].Dst, Value: val}}
		return canonical(&p)
	}
	assert.NotEqual(t, pinned(0), pinned(1))
	assert.True(t, strings.Contains(pinned(1), "s0.0=1"), pinned(1))
}

// TestMonotoneAsyncItems checks that the monotonicity check samples the
// chains of async2.go's items validly, so that spec.dl cuts none of them
// (a chain without a valid sample would be cut: sound, but slower): a
// remote arrive's order and scope, its .cluster wait's order, and the
// arrives of a phase of two.
func TestMonotoneAsyncItems(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	v, err := ParseVocabulary("mbarrier.two,mbarrier.remote,bulk.store,fence.proxy.async", "gpu")
	require.NoError(t, err)
	arrive, wait := slot{kind: program.MbarArrive}, slot{kind: program.MbarWait}
	mo := newMonotonicity(Options{A: spec, B: fileModel(t, "../spec.dl"), Vocabulary: v, Check: checker.DefaultOptions()})
	for _, sk := range []*skeleton{
		{threads: [][]slot{{st(0), arrive}, {wait, ld(0)}}, nlocs: 1, places: []program.Place{{CTA: 1, Cluster: 0}, {Cluster: 0}}},
		{threads: [][]slot{{st(0), arrive}, {arrive}, {wait, ld(0)}}, nlocs: 1, places: []program.Place{{Cluster: -1}, {Cluster: -1}, {Cluster: -1}}},
		{threads: [][]slot{{st(0), {kind: program.ProxyFence, proxy: program.Async}, {kind: program.BulkStore}}}, nlocs: 1},
	} {
		ds := sk.dims(v)
		require.NotEmpty(t, ds)
		for _, d := range ds {
			assert.Len(t, mo.parts(sk, d), 1, "cut: thread %d, position %d, %s", d.thread, d.pos, d.values())
			// A step without samples would be judged on nothing.
			for st := 0; st+1 < d.size(); st++ {
				assert.NotEmpty(t, stepSamples(v, sk.threads[d.thread][d.pos], d, st), "no sample: thread %d, position %d, %s", d.thread, d.pos, d.values())
			}
		}
	}
}
