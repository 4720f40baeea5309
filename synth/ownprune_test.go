package synth

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// TestOwnPruneAgrees runs the search with and without the pruning of
// skeletons by the flags' bounds (ownprune.go) over every shipped
// variant, and a variant without spec.dl's causality axiom (whose tests
// need the from-reads edges the bounds must keep), and requires the same
// tests, text for text, in the same order; where the pruning applies it
// must leave skeletons out and save checks, and where the models are not
// paired it must not run.
func TestOwnPruneAgrees(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	specPath, err := filepath.Abs("../spec.dl")
	require.NoError(t, err)
	noCausality := filepath.Join(t.TempDir(), "no-causality.dl")
	require.NoError(t, os.WriteFile(noCausality, []byte(".include \""+specPath+"\"\n.uncheck causality\n"), 0o644))
	for _, tc := range []struct {
		variant string
		vocab   string
		events  int
		prunes  bool // some skeleton is left out
		tests   bool // the search finds tests
		scopes  string
		// prefix: some skeleton is left out with its location
		// assignment (ownprefix.go)
		prefix bool
	}{
		{"causality-alloy", DefaultFeatures, 3, true, false, "", true},
		{"causality-alloy", "fence.sc,atom", 4, true, false, "", false},
		// Atoms of several scopes, in shared CTAs: incl from the
		// placement (ownguard.go).
		{"causality-alloy", "atom", 3, true, false, "cta,gpu", false},
		{noCausality, "atom,fence.sc", 3, true, true, "cta,cluster,gpu", false},
		{"no-sc-per-location", DefaultFeatures, 3, true, false, "", false},
		{"nta-data-only", DefaultFeatures, 3, true, true, "", true},
		{"nta-data-only", "ctrl,data,alias", 4, true, true, "", true},
		{"ptx-v6.0", DefaultFeatures, 2, false, true, "", false},
		{"fence-sc-not-acq-rel", DefaultFeatures, 3, false, false, "", false},
		{"obs-one-step", "async", 3, false, true, "", false},
		{noCausality, DefaultFeatures, 3, true, true, "", true},
		{noCausality, "atom,alias", 4, true, true, "", true},
	} {
		t.Run(filepath.Base(tc.variant)+"/"+tc.vocab+"/"+tc.scopes, func(t *testing.T) {
			if testing.Short() && tc.events > 3 {
				t.Skip("four instructions in -short")
			}
			file := tc.variant
			if !filepath.IsAbs(file) {
				file = filepath.Join("..", "variants", tc.variant+".dl")
			}
			variant := fileModel(t, file)
			scopes := tc.scopes
			if scopes == "" {
				scopes = "gpu"
			}
			v, err := ParseVocabulary(tc.vocab, scopes)
			require.NoError(t, err)
			// Location assignments are judged from the first size
			// (ownprefix.go), so that the small sizes exercise it.
			run := func(off bool) *Report {
				return Search(context.Background(), Options{A: spec, B: variant, Vocabulary: v, noOwnPrune: off, prefixFrom: 1,
					Bounds: Bounds{Events: tc.events, Threads: 3, Locations: 2}, Check: checker.DefaultOptions(), Workers: 2})
			}
			with, without := run(false), run(true)
			require.NoError(t, with.Err)
			require.NoError(t, without.Err)
			assert.Equal(t, texts(without), texts(with))
			assert.Equal(t, tc.tests, len(with.Tests) > 0)
			assert.Equal(t, without.ThinAir > 0, with.ThinAir > 0)
			assert.Equal(t, without.Undefined, with.Undefined)
			assert.Zero(t, without.OwnPruned)
			assert.Equal(t, tc.prefix, with.prefixLeft > 0)
			if tc.prunes {
				assert.Positive(t, with.OwnPruned)
				assert.Less(t, with.Programs, without.Programs)
			} else {
				assert.Zero(t, with.OwnPruned)
			}
		})
	}
}

// TestOwnPruneCovers checks how ownprune.go spreads the models' inputs
// over a skeleton's events against the catalog: for every skeleton of up
// to 3 instructions of the default vocabulary, at the weakest and the
// strongest point of each list of its dimensions, every candidate
// execution's events map to the skeleton's nodes, every tuple of every
// input lies within what pruneInstance.input and inputSet say it may hold
// (reads-from within the writes of its location in other instructions),
// and the sets said exact, and the pairs said sure, are what the catalog
// fills.
func TestOwnPruneCovers(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	a := newBoundAnalysis(spec.Syntax, map[string]bool{})
	inputs := spec.Syntax.Inputs()
	for _, tc := range []struct {
		features, scopes string
		size, short      int
	}{
		{DefaultFeatures, "gpu", 3, 2},
		// Every scope: threads share CTAs and clusters, or run on
		// other GPUs (scta, sclu, sgpu), and each instruction takes
		// one of four scopes (the profiles).
		{"atom,fence.sc,fence.acq_rel,fence.acquire,fence.release", "cta,cluster,gpu,sys", 2, 2},
	} {
		t.Run(tc.features+"/"+tc.scopes, func(t *testing.T) {
			v, err := ParseVocabulary(tc.features, tc.scopes)
			require.NoError(t, err)
			maxSize := tc.size
			if testing.Short() {
				maxSize = tc.short
			}
			checked := 0
			for n := 1; n <= maxSize; n++ {
				skeletons(n, Bounds{Events: n, Threads: 3, Locations: 2}, v, func(sk *skeleton) bool {
					ns, ok := eventNodes(sk)
					require.True(t, ok, sk.key)
					all := uint64(1)<<len(ns) - 1
					p := newPruneInstance(a, nil, ns, all, sk.places, v.Scopes)
					x := newExecEval(&relPlan{inputs: inputs}, p)
					// The nodes of its location assignment, judged
					// for all its alias variants (ownprefix.go),
					// must cover it too.
					pre := sk.clone()
					for _, th := range pre.threads {
						for k := range th {
							th[k].alias = false
						}
					}
					pns, _, ok := prefixNodes(pre, v)
					require.True(t, ok, sk.key)
					xp := newExecEval(&relPlan{inputs: inputs}, newPruneInstance(a, nil, pns, all, sk.places, v.Scopes))
					for _, ds := range depChains(sk.dims(v)) {
						lo, hi := make(point, len(ds)), make(point, len(ds))
						for i, d := range ds {
							hi[i] = d.size() - 1
						}
						for _, pt := range coverPoints(ds, lo, hi) {
							lt, err := parse(sk.test(v, ds, pt))
							require.NoError(t, err)
							cands, _ := spec.Candidates(lt, checker.DefaultOptions(), 0)
							require.NotEmpty(t, cands, sk.key)
							for _, c := range cands {
								require.NoError(t, spec.EachInputs([]checker.Candidate{c}, func(inst *rules.Instance) {
									coversInputs(t, sk, x, c.Execution, inst)
									coversInputs(t, sk, xp, c.Execution, inst)
								}))
								checked++
							}
						}
					}
					return true
				})
			}
			assert.Greater(t, checked, 100)
		})
	}
}

// coverPoints are the points of a lattice TestOwnPruneCovers checks:
// every one where there are at most 64 (so that each memory order and
// scope an instruction may take is met: the sets of orders and scopes
// are spread by what each instruction may take at any point), else the
// weakest and the strongest.
func coverPoints(ds []dim, lo, hi point) []point {
	total := 1
	for _, d := range ds {
		total *= d.size()
	}
	if total > 64 {
		return []point{lo, hi}
	}
	var out []point
	var rec func(i int, p point)
	rec = func(i int, p point) {
		if i == len(ds) {
			out = append(out, append(point(nil), p...))
			return
		}
		for x := 0; x < ds[i].size(); x++ {
			rec(i+1, append(p, x))
		}
	}
	rec(0, nil)
	return out
}

// coversInputs checks one candidate's inputs against the spreading.
func coversInputs(t *testing.T, sk *skeleton, x *execEval, ex *execution.Execution, inst *rules.Instance) {
	t.Helper()
	node := nodesOf(t, sk, x.p.ns, ex)
	p := x.p
	coversProfiles(t, sk, p, ex, inst, node)
	for k, name := range x.rp.inputs {
		rel := p.a.m.Relations[name]
		if rel.Arity == 1 {
			set, err := inst.Set(name)
			require.NoError(t, err)
			want := p.inputSet(name)
			var got uint64
			for e := range ex.Events {
				if set.Has(e) {
					got |= 1 << node[e]
				}
			}
			assert.Zero(t, got&^want.over, "%s: %s holds events spread outside it", sk.key, name)
			assert.Zero(t, want.under&^got, "%s: %s misses events said sure", sk.key, name)
			continue
		}
		r, err := inst.Rel(name)
		require.NoError(t, err)
		var iv ival
		if name == "rf" {
			over := p.input("rf")
			iv = ival{over: over, under: make(graph, len(over))}
		} else {
			iv = x.input(k)
		}
		got := make(graph, len(p.ns))
		for e := range ex.Events {
			for f := range ex.Events {
				if r.Has(e, f) {
					got[node[e]] |= 1 << node[f]
				}
			}
		}
		for i := range got {
			assert.Zero(t, got[i]&^iv.over[i], "%s: %s relates node %d to nodes spread outside it", sk.key, name, i)
			assert.Zero(t, iv.under[i]&^got[i], "%s: %s misses pairs of node %d said sure", sk.key, name, i)
		}
	}
}

// attributeNames are the sets of memory orders and scopes.
var attributeNames = []string{"RLX", "ACQ", "REL", "ACQ_REL", "SC", "CTA", "CLUSTER", "GPU", "SYS"}

// coversProfiles checks that each instruction's events take, together,
// one profile index of their nodes (ownprofile.go): some index k at
// which every node of the instruction is in exactly the sets of orders
// and scopes its events are in.
func coversProfiles(t *testing.T, sk *skeleton, p *pruneInstance, ex *execution.Execution, inst *rules.Instance, node []int) {
	t.Helper()
	in := make([]map[string]bool, len(p.ns))
	for i := range in {
		in[i] = map[string]bool{}
	}
	for _, name := range attributeNames {
		set, err := inst.Set(name)
		require.NoError(t, err)
		for e := range ex.Events {
			if set.Has(e) {
				in[node[e]][name] = true
			}
		}
	}
	for i, n := range p.ns {
		found := false
		for k := 0; k < p.nprof && !found; k++ {
			found = true
			for j, m := range p.ns {
				if j != i && (m.thread != n.thread || m.slot != n.slot || n.iw) {
					continue
				}
				for _, name := range attributeNames {
					want, _ := p.at(j, k).attribute(name)
					found = found && want == in[j][name]
				}
			}
		}
		assert.True(t, found, "%s: node %d's instruction takes orders and scopes %v, no profile index of %v", sk.key, i, in[i], p.prof[i])
	}
}

// nodesOf maps a candidate's events to the skeleton's nodes: initial
// writes by location, the other events by thread and instruction (the
// distinct steps of a thread, in order, are its instructions), a read
// and a write of an atom to its two nodes.
func nodesOf(t *testing.T, sk *skeleton, ns []pnode, ex *execution.Execution) []int {
	t.Helper()
	steps := map[int][]int{}
	for _, e := range ex.Events {
		if e.Thread >= 0 && !containsInt(steps[e.Thread], e.Step) {
			steps[e.Thread] = append(steps[e.Thread], e.Step)
		}
	}
	for th := range steps {
		sort.Ints(steps[th])
	}
	locOf := map[int]int{}
	node := make([]int, len(ex.Events))
	find := func(th, slot int, e execution.Event) int {
		for i, n := range ns {
			if n.thread != th || n.slot != slot {
				continue
			}
			switch e.Kind {
			case execution.KindRead:
				if n.r {
					return i
				}
			case execution.KindWrite:
				if n.w {
					return i
				}
			case execution.KindFence:
				if n.f {
					return i
				}
			case execution.KindProxyFence:
				if n.pf {
					return i
				}
			}
		}
		return -1
	}
	for i, e := range ex.Events {
		if e.Thread < 0 {
			continue
		}
		slot := indexOf(steps[e.Thread], e.Step)
		node[i] = find(e.Thread, slot, e)
		require.GreaterOrEqual(t, node[i], 0, "%s: event %d (%v of thread %d) has no node", sk.key, i, e.Kind, e.Thread)
		if ns[node[i]].loc >= 0 {
			locOf[e.Loc] = ns[node[i]].loc
		}
	}
	for i, e := range ex.Events {
		if e.Thread >= 0 {
			continue
		}
		l, ok := locOf[e.Loc]
		require.True(t, ok, "%s: an initial write of a location no thread accesses", sk.key)
		require.True(t, ns[l].iw && ns[l].loc == l)
		node[i] = l
	}
	return node
}

func containsInt(xs []int, x int) bool { return indexOf(xs, x) >= 0 }

func indexOf(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// TestBoundsOfFlags checks the bounds derived for the shipped paired
// variants' flags, in programs with every feature of the default
// vocabulary: what each flag's relation is made of.
func TestBoundsOfFlags(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	for _, tc := range []struct {
		variant string
		has     []string // kinds some alternative of the bound has
		hasNot  []string // kinds no alternative has
	}{
		{"causality-alloy", []string{"in:po", "in:rf", "ord:fence_sc"}, []string{"in:co", "in:fr", "ord:co_ms"}},
		{"nta-data-only", []string{"in:ctrl", "in:data", "in:rf"}, []string{"in:po", "in:addr"}},
		{"no-sc-per-location", []string{"in:po", "in:rf", "ord:co_ms"}, nil},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			variant := fileModel(t, filepath.Join("..", "variants", tc.variant+".dl"))
			vs := newViolationScreen(checker.NewPair(spec, variant))
			require.Len(t, vs.sides, 1)
			sd := vs.sides[0]
			v, err := ParseVocabulary(DefaultFeatures, "gpu")
			require.NoError(t, err)
			sc := newScreen(Options{A: spec, B: variant, Vocabulary: v, Check: checker.DefaultOptions()})
			all := featRMW | featFence | featFenceAcqRel | featFenceSC | featAliasFence | featAlias | featCtrl | featData
			mp := planModel(sd.flags.Syntax, sd.flags.Syntax.Checks, sc.emptyInputs(all))
			require.True(t, mp.ok)
			require.Len(t, mp.bounds, 1)
			kinds := map[string]bool{}
			for _, x := range mp.bounds[0].alts {
				for _, k := range x.kinds {
					kinds[k] = true
				}
			}
			for _, k := range tc.has {
				assert.True(t, kinds[k], "%s in %s", k, mp.bounds[0].key())
			}
			for _, k := range tc.hasNot {
				assert.False(t, kinds[k], "%s in %s", k, mp.bounds[0].key())
			}
		})
	}
}
