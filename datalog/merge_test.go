package datalog_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
	"github.com/stretchr/testify/require"
)

func analyzed(t *testing.T, file, src string) *datalog.Model {
	t.Helper()
	var prog *datalog.Program
	var errs interface{ HasErrors() bool }
	if src == "" {
		p, e := datalog.Load(file)
		prog, errs = p, e
	} else {
		p, e := datalog.LoadSource(file, src)
		prog, errs = p, e
	}
	require.False(t, errs.HasErrors(), "%s: %v", file, errs)
	m, aerrs := datalog.Analyze(prog)
	require.False(t, aerrs.HasErrors(), "%s: %s", file, aerrs.Quoted())
	return m
}

func compiled(t *testing.T, m *datalog.Model) *rules.Program {
	t.Helper()
	p, errs := rules.Compile(m)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	return p
}

// TestMergeShipped merges spec.dl with itself and with each shipped
// variant: the merge of a model with itself copies nothing and shares
// every check; a variant's merge copies what its edits change and what
// reads it, keeps the orders where the edits leave them, and compiles.
func TestMergeShipped(t *testing.T) {
	spec := analyzed(t, "../spec.dl", "")
	cases := []struct {
		variant      string
		copied       bool
		onlyA, onlyB []string
		ordersDiffer bool
	}{
		{variant: "spec.dl", copied: false},
		{variant: "causality-alloy", copied: true, onlyA: []string{"causality"}, onlyB: []string{"b$causality"}},
		{variant: "no-sc-per-location", copied: false, onlyA: []string{"sc_per_location"}},
		{variant: "nta-data-only", copied: true, onlyA: []string{"no_thin_air"}, onlyB: []string{"b$no_thin_air"}},
		{variant: "fence-sc-not-acq-rel", copied: true},
		{variant: "obs-one-step", copied: true},
		{variant: "ptx-v6.0", copied: true, ordersDiffer: true},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			b := spec
			if c.variant != "spec.dl" {
				b = analyzed(t, filepath.Join("..", "variants", c.variant+".dl"), "")
			}
			m := datalog.Merge(spec, b)
			require.Equal(t, c.copied, m.Copied > 0, "copied %d", m.Copied)
			if c.onlyA != nil {
				require.Equal(t, c.onlyA, m.OnlyA)
			}
			if c.onlyB != nil || !c.copied {
				require.Equal(t, c.onlyB, m.OnlyB)
			}
			require.Equal(t, c.ordersDiffer, m.OrdersDiffer != "", m.OrdersDiffer)
			require.Len(t, m.Model.Checks, len(spec.Checks)+len(m.OnlyB))
			require.Len(t, m.Shared, len(spec.Checks)-len(m.OnlyA))
			if c.variant == "spec.dl" {
				require.Equal(t, len(spec.Names), len(m.Model.Names))
				require.Equal(t, len(spec.Rules), len(m.Model.Rules))
			}
			for _, n := range b.Names {
				require.Contains(t, m.Model.Relations, m.Rename[n], n)
			}
			if c.variant == "nta-data-only" {
				// No-Thin-Air reads no order: a candidate's verdict on
				// it needs no order search.
				require.True(t, m.OrderFree["no_thin_air"] && m.OrderFree["b$no_thin_air"])
			}
			if c.variant == "causality-alloy" {
				require.False(t, m.OrderFree["causality"] || m.OrderFree["b$causality"])
			}
			compiled(t, m.Model)
			compiled(t, m.WithChecks(m.Shared))
			t.Logf("%s: %d of %d relations copied; checks shared %d, only A %v, only B %v",
				c.variant, m.Copied, len(b.Names), len(m.Shared), m.OnlyA, m.OnlyB)
		})
	}
}

// TestMergeEvaluates evaluates two models and their merge on random inputs:
// every relation of the second model has, under its name in the merge,
// the tuples it has alone, and so has every relation of the first.
func TestMergeEvaluates(t *testing.T) {
	pairs := []struct{ name, a, b string }{
		{"identical", mergeBase, mergeBase},
		{"one rule differs", mergeBase, mergeBase + `.redefine hb = po | rf`},
		{"a recursive relation differs", mergeBase, mergeBase + `.redefine reach = (po | rf)+`},
		{"a check differs", mergeBase, mergeBase + `.recheck acyc: acyclic(hb | po)`},
		{"renamed but the same", mergeBase, strings.NewReplacer("po | sync", "synchronizes | po", "sync", "synchronizes",
			"hb", "happens", "reach", "closure").Replace(mergeBase)},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			a := analyzed(t, "a.dl", p.a)
			b := analyzed(t, "b.dl", p.b)
			m := datalog.Merge(a, b)
			pa, pb, pm := compiled(t, a), compiled(t, b), compiled(t, m.Model)
			if p.name == "identical" || p.name == "renamed but the same" {
				require.Zero(t, m.Copied)
				require.Empty(t, m.OnlyB)
			} else {
				require.NotZero(t, len(m.OnlyB))
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for round := 0; round < 30; round++ {
				n := 2 + rng.IntN(5)
				ins := map[string]*relations.Rel{"po": randRel(rng, n), "rf": randRel(rng, n)}
				mset := relations.NewSet(n)
				for i := 0; i < n; i++ {
					if rng.IntN(2) == 0 {
						mset.Add(i)
					}
				}
				run := func(p *rules.Program) *rules.Instance {
					dom := rules.NewDomain()
					for i := 0; i < n; i++ {
						dom.Intern(rules.Value{Kind: rules.KindHost, Str: string(rune('a' + i))})
					}
					in := p.NewInstance(dom)
					for name, r := range ins {
						require.NoError(t, in.SetRel(name, r))
					}
					require.NoError(t, in.SetSet("M", mset))
					in.Run()
					require.NoError(t, in.Err())
					return in
				}
				ia, ib, im := run(pa), run(pb), run(pm)
				for _, pair := range []struct {
					in    *rules.Instance
					names []string
					to    func(string) string
				}{
					{ia, a.Names, func(s string) string { return s }},
					{ib, b.Names, func(s string) string { return m.Rename[s] }},
				} {
					for _, name := range pair.names {
						r := a.Relations[name]
						if pair.in == ib {
							r = b.Relations[name]
						}
						if r.Kind == datalog.RelUniverse {
							continue
						}
						want, err := pair.in.Tuples(name)
						require.NoError(t, err)
						got, err := im.Tuples(pair.to(name))
						require.NoError(t, err)
						require.Equal(t, want.String(), got.String(), "%s (%s in the merge)", name, pair.to(name))
					}
				}
				held := func(in *rules.Instance) []string {
					var out []string
					for _, c := range in.Checks() {
						if c.Holds {
							out = append(out, c.Name)
						}
					}
					return out
				}
				hm := held(im)
				for _, c := range held(ia) {
					require.Contains(t, hm, c)
				}
				for _, c := range held(ib) {
					name := c
					if !slices.Contains(m.Shared, c) {
						name = datalog.MergePrefix + c
					}
					require.Contains(t, hm, name)
				}
			}
		})
	}
}

const mergeBase = `
.decl po(x: event, y: event)
.decl rf(x: event, y: event)
.decl M(x: event)
.input po, rf, M
let sync = rf & (M * M)
let hb = po | sync
let reach = hb+
.check acyc: acyclic(reach)
.check irr: irreflexive(po ; reach)
`

func randRel(rng *rand.Rand, n int) *relations.Rel {
	r := relations.NewRel(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if rng.IntN(3) == 0 {
				r.Add(i, j)
			}
		}
	}
	return r
}
