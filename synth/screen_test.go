package synth

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/program"
)

// TestProgramFeatures checks that the features of each program of a
// skeleton are those the skeleton's features give for its point, with
// the order of each chain fence told apart, over every point of skeletons
// with every kind of instruction.
func TestProgramFeatures(t *testing.T) {
	v, err := ParseVocabulary(DefaultFeatures+",fence.acquire,fence.release,bar.sync,surface,async", "gpu")
	require.NoError(t, err)
	fence := slot{kind: program.Fence}
	for _, th := range [][][]slot{
		{{st(0), fence, st(1)}, {ld(1), {kind: program.RMW, loc: 0}}},
		{{ld(0), {kind: program.AliasFence}, {kind: program.Store, loc: 0, alias: true}}},
		{{ld(0), {kind: program.Fence, fence: program.Acquire}, st(1)}, {ld(1), {kind: program.Fence, fence: program.Release}, st(0)}},
		{{st(0), {kind: program.Barrier}, ld(1)}, {st(1), {kind: program.Barrier}, {kind: program.Load, loc: 0, proxy: program.Surface}}},
		{{{kind: program.Store, loc: 0, proxy: program.Surface}, {kind: program.ProxyFence, proxy: program.Surface}, ld(0)}},
		{{st(0), {kind: program.MbarArrive}, {kind: program.BulkLoad, loc: 1, bar: 1}}, {{kind: program.MbarWait}, ld(0), {kind: program.MbarWait, bar: 1}, ld(1)}},
	} {
		sk := &skeleton{threads: th, nlocs: 2}
		ds := sk.dims(v)
		var walk func(p point, i int)
		n := 0
		walk = func(p point, i int) {
			if i == len(ds) {
				n++
				// The skeleton's features at p, with featFence
				// replaced by the order each chain fence takes at p.
				want := sk.features(ds, p, p) &^ featFence
				for ti, ss := range sk.threads {
					for k, sl := range ss {
						if sl.kind != program.Fence || sl.fence != program.Weak {
							continue
						}
						sem := chainFences(v.Fences)[0]
						for di, d := range ds {
							if d.thread == ti && d.pos == k && d.kind == dimSem {
								sem = d.sems[p[di]]
							}
						}
						want |= fenceFeature(sem)
					}
				}
				got := programFeatures(sk.test(v, ds, p))
				assert.Equal(t, want, got, "%s at %v", sk.test(v, ds, p).Litmus(), p)
				return
			}
			for x := 0; x < ds[i].size(); x++ {
				walk(append(p, x), i+1)
			}
		}
		walk(nil, 0)
		assert.Positive(t, n)
	}
}

// TestAgree checks the programs the evaluator checks with one model only:
// identical models agree on every program; fence-sc-not-acq-rel.dl, which
// reads fence.sc as no release or acquire fence, agrees with spec.dl where
// every fence is fence.acq_rel and not where one is fence.sc; and
// nta-data-only.dl where no access has a control dependency. On every
// program of SB with fences and of LB where the screen says the models
// agree, both are checked and their outcomes compared.
func TestAgree(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	v, err := ParseVocabulary(DefaultFeatures, "gpu")
	require.NoError(t, err)
	mp := &skeleton{threads: [][]slot{{st(0), {kind: program.Fence}, st(1)}, {ld(1), {kind: program.Fence}, ld(0)}}, nlocs: 2}
	sb := &skeleton{threads: [][]slot{{st(0), {kind: program.Fence}, ld(1)}, {st(1), {kind: program.Fence}, ld(0)}}, nlocs: 2}
	lb := &skeleton{threads: [][]slot{{ld(0), st(1)}, {ld(1), st(0)}}, nlocs: 2}
	ds := mp.dims(v)
	weakest := mp.test(v, ds, make(point, len(ds)))
	top := make(point, len(ds))
	for i, d := range ds {
		top[i] = d.size() - 1
	}
	strongest := mp.test(v, ds, top)
	lbds := lb.dims(v)
	ctrl := make(point, len(lbds))
	for i, d := range lbds {
		if d.kind == dimDep {
			ctrl[i] = d.size() - 1
		}
	}
	lbCtrl := lb.test(v, lbds, ctrl)
	require.Contains(t, lbCtrl.Litmus(), "bne")
	for _, tc := range []struct {
		variant                   string
		weakest, strongest, lbCtl bool
	}{
		{"../spec.dl", true, true, true},
		{"../variants/fence-sc-not-acq-rel.dl", true, false, true},
		// The strongest MP has a control dependency.
		{"../variants/nta-data-only.dl", true, false, false},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			o := Options{A: spec, B: fileModel(t, tc.variant), Vocabulary: v, Check: checker.DefaultOptions()}
			sc := newScreen(o)
			assert.Equal(t, tc.weakest, sc.agree(weakest), weakest.Litmus())
			assert.Equal(t, tc.strongest, sc.agree(strongest), strongest.Litmus())
			assert.Equal(t, tc.lbCtl, sc.agree(lbCtrl), lbCtrl.Litmus())
			if testing.Short() {
				return
			}
			// Where the screen says the models agree, they do.
			ev := &evaluator{ctx: context.Background(), models: []*checker.Model{o.A, o.B}, opts: o.Check,
				cache: map[string]*outcomes{}, evals: &atomic.Int64{}}
			agreed := 0
			for _, sk := range []*skeleton{sb, lb} {
				ds := sk.dims(v)
				var walk func(p point)
				walk = func(p point) {
					if len(p) < len(ds) {
						for x := 0; x < ds[len(p)].size(); x++ {
							walk(append(p, x))
						}
						return
					}
					prog := sk.test(v, ds, p)
					if !sc.agree(prog) {
						return
					}
					agreed++
					out := ev.outcomes(prog)
					require.NoError(t, out.err)
					assert.False(t, out.separates(), "the screen says the models agree, and they do not, on\n%s", prog.Litmus())
				}
				walk(nil)
			}
			assert.Positive(t, agreed)
		})
	}
}
