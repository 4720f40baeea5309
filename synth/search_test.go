package synth

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/testmodels"
	"github.com/ptxmm/ptxmm/litmus"
)

func fileModel(t *testing.T, file string) *checker.Model {
	t.Helper()
	m, err := loader.LoadFile(file)
	require.NoError(t, err)
	return m
}

// TestSearch runs the search over pairs of models, some that differ
// within the vocabulary and bounds and some that do not, and checks every
// test it reports on its own: it parses, the two models' verdicts on it
// differ, no instruction can be dropped with the models still disagreeing,
// and the tests come smallest first, none twice up to renaming.
func TestSearch(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	for _, tc := range []struct {
		name         string
		a, b         *checker.Model
		features     string
		scopes       string
		events       int
		wantSmallest int // the size of the first test; 0: no test
		wantAtLeast  int
	}{
		{"sc and no axiom", testmodels.Load(t, "sc", testmodels.SC), testmodels.Load(t, "candidates", testmodels.Candidates), "atom", "gpu", 3, 2, 3},
		{"sc and no axiom, no atomics", testmodels.Load(t, "sc", testmodels.SC), testmodels.Load(t, "candidates", testmodels.Candidates), "", "gpu", 3, 2, 2},
		// ISA 6.0 has no virtual aliases: a thread that reads x and then
		// writes it through another address cannot read its own write.
		{"spec.dl and ptx-v6.0 with aliases", spec, fileModel(t, "../variants/ptx-v6.0.dl"), "alias", "gpu", 2, 2, 2},
		// With fence.sc and no fence.acq_rel, a fence of the chain is
		// fence.sc (it was written fence.acq_rel, so no test was found).
		{"fence.sc not acq_rel, fence.sc alone", spec, fileModel(t, "../variants/fence-sc-not-acq-rel.dl"), "atom,fence.sc", "gpu", 4, 4, 2},
		{"identical models", spec, fileModel(t, "../spec.dl"), DefaultFeatures, "gpu", 4, 0, 0},
		{"identical small models", testmodels.Load(t, "sc", testmodels.SC), testmodels.Load(t, "sc2", testmodels.SC), "atom,fence.sc", "cta,gpu", 3, 0, 0},
		// The variants differ only with fences, atomics or aliases.
		{"ptx-v6.0 without aliases", spec, fileModel(t, "../variants/ptx-v6.0.dl"), "", "gpu", 3, 0, 0},
		{"data dependencies only where there are none", spec, fileModel(t, "../variants/nta-data-only.dl"), "fence.sc", "gpu", 3, 0, 0},
		// .cta scope read as the thread's own: two threads must share a
		// CTA, which only -scopes cta searches.
		{"cta scope as thread scope, threads sharing a CTA", spec, fileModel(t, "../testdata/synth/cta-scope-own-thread.dl"), "", "cta", 3, 3, 2},
		{"cta scope as thread scope, each thread in a CTA of its own", spec, fileModel(t, "../testdata/synth/cta-scope-own-thread.dl"), "", "gpu", 3, 0, 0},
		// Barriers that synchronize nothing: MP with a barrier between
		// the store and the load, in one CTA or one cluster.
		{"bar.sync without synchronization", spec, fileModel(t, "../testdata/synth/no-barrier-sync.dl"), "bar.sync", "gpu", 4, 4, 3},
		{"bar.sync without synchronization, no barriers", spec, fileModel(t, "../testdata/synth/no-barrier-sync.dl"), "atom,fence.sc", "cta,gpu", 3, 0, 0},
		{"barrier.cluster without synchronization", spec, fileModel(t, "../testdata/synth/no-cluster-barrier-sync.dl"), "barrier.cluster", "gpu", 4, 4, 3},
		{"identical models, every placement, barrier and proxy", spec, fileModel(t, "../spec.dl"), "bar.sync,barrier.cluster,fence.sc,surface", "cta,cluster", 3, 0, 0},
		// Proxy fences that carry nothing: a surface store, a proxy
		// fence and a generic load of the location, in one thread.
		{"proxy fences without effect", spec, fileModel(t, "../testdata/synth/no-proxy-fence.dl"), "surface,texture", "gpu", 3, 3, 4},
		{"proxy fences without effect, no proxies", spec, fileModel(t, "../testdata/synth/no-proxy-fence.dl"), "alias,fence.sc", "gpu", 3, 0, 0},
		// The asynchronous half: obs-one-step.dl's observation order
		// does not chain a bulk load's complete-tx through the arrive
		// that completes the phase (nor arrive-on operations through one
		// another), so a TMA load, a wait and a load of the copy's
		// destination separate it from spec.dl in three instructions.
		{"obs-one-step, asynchronous operations", spec, fileModel(t, "../variants/obs-one-step.dl"), "async", "gpu", 3, 3, 2},
		{"obs-one-step, no asynchronous operations", spec, fileModel(t, "../variants/obs-one-step.dl"), "fence.sc", "cta,gpu", 3, 0, 0},
		// mbarriers that synchronize nothing: the TMA load again, and MP
		// through a release arrive and an acquire wait.
		{"mbarriers without synchronization", spec, fileModel(t, "../testdata/synth/no-mbarrier-sync.dl"), "async", "gpu", 4, 3, 2},
		{"mbarriers without synchronization, no asynchronous operations", spec, fileModel(t, "../testdata/synth/no-mbarrier-sync.dl"), "bar.sync,fence.sc", "cta,gpu", 3, 0, 0},
		{"identical models, asynchronous operations", spec, fileModel(t, "../spec.dl"), "async,fence.sc", "cta,gpu", 4, 0, 0},
		{"identical small models, asynchronous operations", testmodels.Load(t, "sc", testmodels.SC), testmodels.Load(t, "sc2", testmodels.SC), "async", "gpu", 3, 0, 0},
		// Beyond -vocab async's pairs (async2.go), each item with a
		// variant only it separates. Two arrivals that do not chain: a
		// wait that sees the phase complete misses the release of the
		// arrival before the last, in four instructions (a bulk load and
		// an arrive alone in its thread complete one phase).
		{"arrivals unchained, two arrivals", spec, fileModel(t, "../testdata/synth/mbarrier-arrivals-unchained.dl"), "mbarrier.two", "gpu", 4, 4, 2},
		{"arrivals unchained, one arrival", spec, fileModel(t, "../testdata/synth/mbarrier-arrivals-unchained.dl"), "async", "gpu", 4, 0, 0},
		// wait_group that does not wait for a bulk store: the store
		// reads a write its thread makes after the wait.
		{"bulk stores not waited for", spec, fileModel(t, "../testdata/synth/bulk-store-no-wait.dl"), "bulk.store", "gpu", 3, 2, 1},
		{"bulk stores not waited for, no bulk stores", spec, fileModel(t, "../testdata/synth/bulk-store-no-wait.dl"), "async", "gpu", 4, 0, 0},
		// fence.proxy.async that orders nothing: a generic store, the
		// fence and a bulk store of the location, in one thread.
		{"fence.proxy.async without effect", spec, fileModel(t, "../testdata/synth/no-async-proxy-fence.dl"), "bulk.store,fence.proxy.async", "gpu", 3, 3, 1},
		{"fence.proxy.async without effect, no fence.proxy.async", spec, fileModel(t, "../testdata/synth/no-async-proxy-fence.dl"), "async,bulk.store", "gpu", 4, 0, 0},
		// mbarriers that synchronize one CTA only: MP through a remote
		// release arrive at cluster scope.
		{"mbarriers in one CTA only, remote arrives", spec, fileModel(t, "../testdata/synth/mbarrier-sync-in-cta.dl"), "mbarrier.remote", "gpu", 4, 4, 1},
		{"mbarriers in one CTA only, local arrives", spec, fileModel(t, "../testdata/synth/mbarrier-sync-in-cta.dl"), "async,barrier.cluster", "cluster", 4, 0, 0},
		{"identical models, every asynchronous item", spec, fileModel(t, "../spec.dl"), "mbarrier.two,mbarrier.remote,bulk.store,fence.proxy.async", "gpu", 4, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ParseVocabulary(tc.features, tc.scopes)
			require.NoError(t, err)
			rep := Search(context.Background(), Options{A: tc.a, B: tc.b, Vocabulary: v,
				Bounds: Bounds{Events: tc.events, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
			require.NoError(t, rep.Err)
			require.NoError(t, rep.Stopped)
			assert.Empty(t, rep.Unconfirmed)
			assert.Empty(t, rep.NotMonotone)
			assert.Equal(t, tc.events, rep.Complete)
			// Every program checked is counted once, under one purpose.
			c := rep.Checked
			assert.Equal(t, rep.Programs, c.Corners+c.Probes+c.Removals)
			if tc.wantSmallest == 0 {
				assert.Empty(t, rep.Tests)
				return
			}
			require.GreaterOrEqual(t, len(rep.Tests), tc.wantAtLeast)
			// A separating program's removals are smaller programs, which
			// no point of its lattice is.
			assert.Positive(t, c.Removals)
			assert.Equal(t, tc.wantSmallest, rep.Tests[0].Size)
			assert.True(t, sort.SliceIsSorted(rep.Tests, func(i, j int) bool { return rep.Tests[i].Size < rep.Tests[j].Size }))
			seen := map[string]bool{}
			for _, f := range rep.Tests {
				text := f.Test.Litmus()
				key := canonical(f.Test)
				assert.False(t, seen[key], "a test twice up to renaming:\n%s", text)
				seen[key] = true
				assert.LessOrEqual(t, f.Size, tc.events)
				lt, err := litmus.Parse(f.Test.Name+".litmus", []byte(text), litmus.FormatHerd)
				require.NoError(t, err, text)
				rs := checker.CheckAll([]*checker.Model{tc.a, tc.b}, lt[0], checker.DefaultOptions())
				require.NoError(t, rs[0].Err)
				require.NoError(t, rs[1].Err)
				assert.NotEqual(t, rs[0].Verdict, rs[1].Verdict, "the models agree on\n%s", text)
				assert.Equal(t, rs[0].Verdict, f.Diff.A.Verdict)
				assert.Equal(t, rs[1].Verdict, f.Diff.B.Verdict)
				ev := &evaluator{ctx: context.Background(), models: []*checker.Model{tc.a, tc.b}, opts: checker.DefaultOptions(),
					cache: map[string]*outcomes{}, evals: &atomic.Int64{}}
				for th, thr := range f.Test.Threads {
					for k := range thr.Ops {
						o := ev.outcomes(without(f.Test, th, k))
						assert.False(t, o.err == nil && o.separates(), "dropping P%d's instruction %d still separates\n%s", th, k, text)
					}
				}
			}
		})
	}
}

// TestSearchUndefined checks that an outcome the models disagree on in a
// test that both find undefined is counted, not reported as a test the
// checker does not confirm: with a bulk load whose issuing thread reads
// the destination without waiting, every such test races under both
// models (obs-one-step.dl, up to 5 instructions).
func TestSearchUndefined(t *testing.T) {
	if testing.Short() {
		t.Skip("a search up to 5 instructions")
	}
	v, err := ParseVocabulary("async", "gpu")
	require.NoError(t, err)
	rep := Search(context.Background(), Options{A: fileModel(t, "../spec.dl"), B: fileModel(t, "../variants/obs-one-step.dl"), Vocabulary: v,
		Bounds: Bounds{Events: 5, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
	require.NoError(t, rep.Err)
	assert.Empty(t, rep.Unconfirmed)
	assert.Positive(t, rep.Undefined)
	assert.NotEmpty(t, rep.Tests)
}

// TestSearchStops checks that a search whose context ends says so and
// keeps what it found.
func TestSearchStops(t *testing.T) {
	v, err := ParseVocabulary("atom", "gpu")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := Search(ctx, Options{A: testmodels.Load(t, "sc", testmodels.SC), B: testmodels.Load(t, "candidates", testmodels.Candidates), Vocabulary: v,
		Bounds: Bounds{Events: 4, Threads: 2, Locations: 2}, Check: checker.DefaultOptions()})
	assert.ErrorIs(t, rep.Stopped, context.Canceled)
	assert.Less(t, rep.Complete, 4)
}

// TestSearchLimit checks that a check that hits a limit stops the search
// with the limit's error.
func TestSearchLimit(t *testing.T) {
	v, err := ParseVocabulary("", "gpu")
	require.NoError(t, err)
	opts := checker.DefaultOptions()
	opts.MaxCandidates = 1
	rep := Search(context.Background(), Options{A: testmodels.Load(t, "sc", testmodels.SC), B: testmodels.Load(t, "candidates", testmodels.Candidates), Vocabulary: v,
		Bounds: Bounds{Events: 3, Threads: 2, Locations: 2}, Check: opts})
	require.Error(t, rep.Err)
	assert.Contains(t, rep.Err.Error(), "-max-candidates")
}

// TestSearchThinAir checks that differences only executions out of thin
// air show are counted, once per program, and yield no test of their own:
// without No-Thin-Air, LB with two data dependencies separates the models
// in an execution whose values come from nowhere.
func TestSearchThinAir(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "no-oota.dl")
	require.NoError(t, os.WriteFile(file, []byte(".include \""+filepath.Join(root, "spec.dl")+"\"\n.uncheck no_thin_air\n"), 0o644))
	v, err := ParseVocabulary("data", "gpu")
	require.NoError(t, err)
	rep := Search(context.Background(), Options{A: fileModel(t, "../spec.dl"), B: fileModel(t, file), Vocabulary: v,
		Bounds: Bounds{Events: 4, Threads: 2, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
	require.NoError(t, rep.Err)
	assert.Positive(t, rep.ThinAir)
	assert.LessOrEqual(t, rep.ThinAir, rep.Programs)
	assert.Empty(t, rep.Tests, "with data dependencies only, every separating execution is out of thin air")
	assert.Empty(t, rep.Unconfirmed)
}

// TestSearchStreams checks that tests are handed out as they are found, in
// an order that does not depend on the workers: the first before the
// search of its size ends, and the same tests under the same names with
// one worker and with three.
func TestSearchStreams(t *testing.T) {
	v, err := ParseVocabulary("atom", "gpu")
	require.NoError(t, err)
	run := func(workers int) (names, texts []string, early bool) {
		firstSize := 0
		rep := Search(context.Background(), Options{A: testmodels.Load(t, "sc", testmodels.SC), B: testmodels.Load(t, "candidates", testmodels.Candidates),
			Vocabulary: v, Bounds: Bounds{Events: 3, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: workers,
			Progress: func(p Progress) {
				// Shapes of the first test's size were left to search
				// after it was handed out.
				if p.Size == firstSize && (p.Listing || p.Done < p.Total) {
					early = true
				}
			},
			Found: func(size int, fs []*Found) {
				if firstSize == 0 {
					firstSize = size
				}
				for _, f := range fs {
					assert.Equal(t, size, f.Size)
					names = append(names, f.Test.Name)
					texts = append(texts, f.Test.Litmus())
				}
			}})
		require.NoError(t, rep.Err)
		require.Len(t, names, len(rep.Tests))
		return names, texts, early
	}
	names1, texts1, early := run(1)
	require.NotEmpty(t, names1)
	assert.True(t, early, "the first test waited for the whole size to be searched")
	names3, texts3, _ := run(3)
	assert.Equal(t, names1, names3)
	assert.Equal(t, texts1, texts3)
}
