package synth

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// TestDeriveVocabulary checks which opt-in parts the default vocabulary
// gains for each variant: async for obs-one-step, whose obs drops spec.dl's
// mbar_rf (a relation only mbarrier operations fill), and none for the
// others: fence-sc-not-acq-rel differs on fences the default has,
// nta-data-only's axiom reads dependencies a wait's branch only repeats,
// and ptx-v6.0 differs on loads and stores already. no-barrier-sync's sync
// drops spec.dl's barrier synchronization: bar.sync joins. The variants of
// testdata/synth that only the asynchronous items separate get them.
func TestDeriveVocabulary(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	def, err := ParseVocabulary(DefaultFeatures, "gpu")
	require.NoError(t, err)
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"../variants/obs-one-step.dl", []string{"async"}},
		{"../variants/fence-sc-not-acq-rel.dl", nil},
		{"../variants/nta-data-only.dl", nil},
		{"../variants/ptx-v6.0.dl", nil},
		{"../variants/no-sc-per-location.dl", nil},
		{"../variants/causality-alloy.dl", nil},
		{"../testdata/synth/no-barrier-sync.dl", []string{"bar.sync"}},
		{"../testdata/synth/no-cluster-barrier-sync.dl", []string{"barrier.cluster"}},
		// Its to_generic and from_generic read proxy_fence_of, which the
		// default's fence.proxy.alias fills already.
		{"../testdata/synth/no-proxy-fence.dl", nil},
		{"../testdata/synth/acquire-not-strong.dl", nil},
		{"../testdata/synth/cta-scope-own-thread.dl", []string{"async"}},
		{"../testdata/synth/no-mbarrier-sync.dl", []string{"async"}},
		// Two arrivals, remote arrives and fence.proxy.async fill no
		// input their base parts do not: they join where a sample of
		// theirs tells the models apart and none of the base's does.
		{"../testdata/synth/mbarrier-arrivals-unchained.dl", []string{"async", "mbarrier.two"}},
		{"../testdata/synth/mbarrier-sync-in-cta.dl", []string{"async", "mbarrier.remote"}},
		{"../testdata/synth/no-async-proxy-fence.dl", []string{"async", "bulk.store", "fence.proxy.async"}},
		// A bulk store's samples separate it already: no fence.
		{"../testdata/synth/bulk-store-no-wait.dl", []string{"bulk.store"}},
		{"../spec.dl", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			v, added := DeriveVocabulary(spec, fileModel(t, tc.file), def, checker.DefaultOptions())
			assert.Equal(t, tc.want, added)
			want := def
			for _, p := range optParts {
				for _, n := range tc.want {
					if p.name == n {
						p.add(&want)
					}
				}
			}
			assert.Equal(t, want, v)
		})
	}
}

// TestNeverFilled samples every feature of the whole vocabulary (every
// opt-in part, every async item, every scope) and checks that the inputs
// of spec.dl no sample fills are those neverFilled lists: DeriveVocabulary
// decides from it that no part can join without sampling the parts, which
// holds only while no part fills one of them.
func TestNeverFilled(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	var all []string
	for _, f := range features {
		all = append(all, f.name)
	}
	v, err := ParseVocabulary(strings.Join(all, ","), "cta,cluster,gpu,sys")
	require.NoError(t, err)
	sc := newPlainScreen(Options{A: spec, B: spec, Vocabulary: v, Check: checker.DefaultOptions()})
	filled := map[string]bool{}
	for in := range sc.base {
		filled[in] = true
	}
	// Every bit a feature may be (those that are none sample nothing).
	for i := 0; i < 32; i++ {
		for in := range sc.filled(sc.samples(feature(1) << i)) {
			filled[in] = true
		}
	}
	var never, listed []string
	for _, in := range sc.all {
		if !filled[in] {
			never = append(never, in)
		}
	}
	for in := range neverFilled {
		listed = append(listed, in)
	}
	sort.Strings(never)
	sort.Strings(listed)
	assert.Equal(t, never, listed, "update neverFilled (synth/derive.go) with what a new vocabulary item fills")
}

// TestSearchFirst checks that trying a part's shapes first finds the same
// tests, with those that use the part first within each size:
// nta-data-only is separated at four instructions by load buffering with
// control dependencies, and through two mbarriers, whose waits branch.
func TestSearchFirst(t *testing.T) {
	spec, nta := fileModel(t, "../spec.dl"), fileModel(t, "../variants/nta-data-only.dl")
	v, err := ParseVocabulary("ctrl,async", "gpu")
	require.NoError(t, err)
	run := func(first []string) []*Found {
		rep := Search(context.Background(), Options{A: spec, B: nta, Vocabulary: v, First: first,
			Bounds: Bounds{Events: 4, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
		require.NoError(t, rep.Err)
		require.Empty(t, rep.Unconfirmed)
		return rep.Tests
	}
	plain, first := run(nil), run([]string{"async"})
	require.NotEmpty(t, first)
	texts := func(fs []*Found) []string {
		var out []string
		for _, f := range fs {
			// Names follow the order; the tests themselves do not.
			_, body, _ := strings.Cut(f.Test.Litmus(), "\n")
			out = append(out, body)
		}
		sort.Strings(out)
		return out
	}
	assert.Equal(t, texts(plain), texts(first))
	usesAsync := func(f *Found) bool { return programFeatures(f.Test)&(featMbar|featBulk) != 0 }
	for i := 1; i < len(first); i++ {
		if first[i].Size == first[i-1].Size && usesAsync(first[i]) {
			assert.True(t, usesAsync(first[i-1]), "%s uses async and comes after %s, which does not", first[i].Test.Name, first[i-1].Test.Name)
		}
	}
	assert.True(t, usesAsync(first[0]))
	assert.False(t, usesAsync(plain[0]), "the test would not tell the orders apart")
}

// TestOneThreadLast checks that listing the shapes of one thread last
// lists the same shapes, the others in their order and then those of one
// thread in theirs.
func TestOneThreadLast(t *testing.T) {
	v, err := ParseVocabulary(DefaultFeatures, "gpu")
	require.NoError(t, err)
	b := Bounds{Events: 4, Threads: 3, Locations: 2}
	list := func(last bool) []*skeleton {
		var out []*skeleton
		skeletonsOrdered(4, b, v, last, func(sk *skeleton) bool { out = append(out, sk); return true })
		return out
	}
	keys := func(sks []*skeleton, one bool) []string {
		var out []string
		for _, sk := range sks {
			if (len(sk.threads) == 1) == one {
				out = append(out, sk.key)
			}
		}
		return out
	}
	before, after := list(false), list(true)
	require.Len(t, after, len(before))
	assert.Equal(t, keys(before, false), keys(after, false))
	assert.Equal(t, keys(before, true), keys(after, true))
	require.NotEmpty(t, keys(before, true))
	assert.Len(t, before[0].threads, 1)
	seenOne := false
	for _, sk := range after {
		if len(sk.threads) == 1 {
			seenOne = true
		} else {
			assert.False(t, seenOne, "a shape of several threads after one of one thread")
		}
	}
}
