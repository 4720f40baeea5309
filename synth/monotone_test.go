package synth

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/program"
)

// TestMonotoneSplit checks which chains the search cuts, for pairs of
// models: none where both models are monotone (spec.dl, and variants that
// only weaken or redefine what strengthening adds), the fence chain where
// fence.sc is no release fence, and the load's order between relaxed and
// acquire where an acquire load is not strong.
func TestMonotoneSplit(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	sk := &skeleton{threads: [][]slot{
		{ld(0), {kind: program.Fence}, st(1)},
		{{kind: program.RMW, loc: 1}, st(0)},
	}, nlocs: 2}
	for _, tc := range []struct {
		name   string
		b      *checker.Model
		scopes string
		// want lists the cut dimensions: thread, position and the
		// values of each part.
		want []string
	}{
		{"spec.dl", fileModel(t, "../spec.dl"), "gpu", nil},
		// A wider scope takes the event out of CTA, and incl's rules
		// read CTA: the scopes' inclusion keeps the chain whole.
		{"spec.dl, every scope", fileModel(t, "../spec.dl"), "cta,cluster,gpu,sys", nil},
		{"obs-one-step", fileModel(t, "../variants/obs-one-step.dl"), "gpu", nil},
		{"nta-data-only", fileModel(t, "../variants/nta-data-only.dl"), "gpu", nil},
		{"fence-sc-not-acq-rel", fileModel(t, "../variants/fence-sc-not-acq-rel.dl"), "gpu",
			[]string{"0.1 " + dim{kind: dimSem, sems: []program.Sem{program.AcqRel}}.values(), "0.1 " + dim{kind: dimSem, sems: []program.Sem{program.SC}}.values()}},
		{"acquire-not-strong", fileModel(t, "../testdata/synth/acquire-not-strong.dl"), "gpu",
			// The read-modify-write's acquire dimension too.
			[]string{"0.0 " + dim{kind: dimSem, sems: []program.Sem{program.Weak, program.Relaxed}}.values(), "0.0 " + dim{kind: dimSem, sems: []program.Sem{program.Acquire}}.values(),
				"1.0 " + dim{kind: dimAcq, bits: []bool{false}}.values(), "1.0 " + dim{kind: dimAcq, bits: []bool{true}}.values()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ParseVocabulary(DefaultFeatures, tc.scopes)
			require.NoError(t, err)
			ds := sk.dims(v)
			mo := newMonotonicity(Options{A: spec, B: tc.b, Vocabulary: v, Check: checker.DefaultOptions()})
			var got []string
			seen := map[string]bool{}
			for _, chain := range depChains(ds) {
				for _, d := range chain {
					parts := mo.parts(sk, d)
					if len(parts) == 1 {
						assert.Equal(t, d, parts[0])
						continue
					}
					for _, p := range parts {
						assert.True(t, p.cut)
						if s := string(rune('0'+p.thread)) + "." + string(rune('0'+p.pos)) + " " + p.values(); !seen[s] {
							seen[s] = true
							got = append(got, s)
						}
					}
				}
			}
			assert.Equal(t, tc.want, got)
			// The parts cover the lattice: every list of dimensions
			// split returns has one part of each dimension.
			for _, chain := range depChains(ds) {
				for _, cut := range mo.split(sk, chain) {
					assert.Len(t, cut, len(chain))
				}
			}
		})
	}
}

// TestLatticeCut shows why a non-monotone chain is cut: a model that
// allows an outcome at the stronger value of a dimension and forbids it at
// the weaker gives the same outcomes at a box's two corners, which the
// search takes for a box without a separating point; searched as two
// chains, the separating point is found.
func TestLatticeCut(t *testing.T) {
	ds := []dim{{kind: dimSem, sems: []program.Sem{program.AcqRel, program.SC}}, {kind: dimSem, sems: []program.Sem{program.Weak, program.Relaxed}}}
	// Model b allows "x" only with fence.sc and a weak access; model a
	// never does.
	run := func(ds []dim) []point {
		eval := func(p point) *outcomes {
			o := &outcomes{a: map[string]bool{"0": true}, b: map[string]bool{"0": true}}
			if ds[0].sems[p[0]] == program.SC && ds[1].sems[p[1]] == program.Weak {
				o.b["x"] = true
			}
			return o
		}
		l := &latticeSearch{ds: ds, eval: eval}
		return l.run()
	}
	assert.Empty(t, run(ds), "the corners agree: the whole box is pruned")
	var found []point
	for _, part := range []dim{ds[0].slice(0, 1), ds[0].slice(1, 2)} {
		for _, p := range run([]dim{part, ds[1]}) {
			found = append(found, p)
			assert.Equal(t, program.SC, part.sems[p[0]])
		}
	}
	assert.Equal(t, []point{{0, 0}}, found)
}

// TestSearchCutChain searches one shape, MP with a fence in the reader
// and an exchange in the writer, against fence-sc-not-acq-rel, where
// fence.sc is no release or acquire fence: the test with fence.sc in the
// reader (which spec.dl forbids and the variant allows) lies in a box
// that the search without the cut chain pruned (its corners agreed), and
// without a warning; the search with it finds it.
func TestSearchCutChain(t *testing.T) {
	v, err := ParseVocabulary("atom,fence.sc,fence.acq_rel", "gpu")
	require.NoError(t, err)
	o := Options{A: fileModel(t, "../spec.dl"), B: fileModel(t, "../variants/fence-sc-not-acq-rel.dl"), Vocabulary: v,
		Check: checker.DefaultOptions(), Workers: 1}
	sk := &skeleton{threads: [][]slot{
		{ld(0), {kind: program.Fence}, st(1)},
		{ld(1), {kind: program.RMW, loc: 0}},
	}, nlocs: 2}
	const want = "ld.relaxed.gpu r0, x | ld.weak r0, y                  ;\n" +
		"fence.sc.gpu         | atom.release.gpu.exch r1, x, 1 ;\n"
	has := func(fs []*Found) bool {
		for _, f := range fs {
			if strings.Contains(f.Test.Litmus(), want) {
				return true
			}
		}
		return false
	}
	s := newSearcher(context.Background(), o)
	fs := s.skeleton(sk)
	assert.True(t, has(fs), "no test with fence.sc in the reader")
	assert.Empty(t, s.notMonotone)
	assert.Empty(t, s.rep.Unconfirmed)
	for _, f := range fs {
		assert.True(t, f.Diff.VerdictsDiffer())
	}
	// The same search with the chain uncut.
	s = newSearcher(context.Background(), o)
	s.mono = nil
	assert.False(t, has(s.skeleton(sk)))
}
