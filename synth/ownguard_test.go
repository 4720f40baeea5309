package synth

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// TestOwnEvalCovers checks the evaluation of spec.dl's relations that
// read the orders and scopes (ownprofile.go, ownguard.go) against the
// engine's: for every skeleton of up to 2 instructions of a vocabulary
// with every scope and of the default one, at every point of
// its lattice (or the weakest and strongest), each candidate's strong,
// incl, ms and ms_atomic (and the product strong * strong) lie between
// the under and over graphs evaluated for the candidate's reads-from,
// with every profile, and with each instruction's profile fixed to the
// candidate's (profilesOpen).
func TestOwnEvalCovers(t *testing.T) {
	spec := fileModel(t, "../spec.dl")
	names := []string{"incl", "ms_scope", "ms", "ms_atomic", "rmw_strong"}
	var checks []*datalog.Check
	for _, n := range names {
		checks = append(checks, &datalog.Check{Name: n, Kind: datalog.CheckEmpty, Expr: &datalog.RelRef{Name: n}})
	}
	strong := &datalog.RelRef{Name: "strong"}
	checks = append(checks,
		&datalog.Check{Name: "[strong]", Kind: datalog.CheckEmpty, Expr: &datalog.Unary{Op: datalog.OpIdent, X: strong}},
		&datalog.Check{Name: "strong * strong", Kind: datalog.CheckEmpty, Expr: &datalog.Binary{Op: datalog.OpProduct, L: strong, R: strong}})
	for _, tc := range []struct {
		features, scopes string
		size, short      int
	}{
		{DefaultFeatures, "gpu", 2, 2},
		{"atom,fence.sc,fence.acq_rel,fence.acquire,fence.release", "cta,cluster,gpu,sys", 2, 2},
	} {
		t.Run(tc.features+"/"+tc.scopes, func(t *testing.T) {
			v, err := ParseVocabulary(tc.features, tc.scopes)
			require.NoError(t, err)
			sc := newScreen(Options{A: spec, B: spec, Vocabulary: v, Check: checker.DefaultOptions()})
			maxSize := tc.size
			if testing.Short() {
				maxSize = tc.short
			}
			checked, sure, fixed := 0, 0, 0
			for n := 1; n <= maxSize; n++ {
				skeletons(n, Bounds{Events: n, Threads: 3, Locations: 2}, v, func(sk *skeleton) bool {
					ns, ok := eventNodes(sk)
					require.True(t, ok, sk.key)
					all := uint64(1)<<len(ns) - 1
					dss := depChains(sk.dims(v))
					mp := planModel(spec.Syntax, checks, sc.emptyInputs(sk.features(sk.dims(v), nil, nil)))
					require.True(t, mp.ok)
					x := newExecEval(mp.plan, mp.instance(ns, all, sk.places, v.Scopes))
					defer x.release()
					for _, ds := range dss {
						lo, hi := make(point, len(ds)), make(point, len(ds))
						for i, d := range ds {
							hi[i] = d.size() - 1
						}
						for _, pt := range coverPoints(ds, lo, hi) {
							lt, err := parse(sk.test(v, ds, pt))
							require.NoError(t, err)
							cands, _ := spec.Candidates(lt, checker.DefaultOptions(), 0)
							for _, c := range cands {
								require.NoError(t, spec.EachInputs([]checker.Candidate{c}, func(inst *rules.Instance) {
									sure += coversEval(t, sk, x, mp, names, c, inst, false)
									fixed += coversEval(t, sk, x, mp, names, c, inst, true)
								}))
								checked++
							}
						}
					}
					return true
				})
			}
			assert.Greater(t, checked, 100)
			assert.Positive(t, sure, "no pair said sure")
			assert.Greater(t, fixed, sure, "fixing the profiles says no more pairs sure")
		})
	}
}

// coversEval checks one candidate's relations against the evaluation
// for its reads-from, and counts the pairs said sure; with fix, each
// instruction's profile is first fixed to the one the candidate's
// events take (profilesOpen).
func coversEval(t *testing.T, sk *skeleton, x *execEval, mp modelPlan, names []string, c checker.Candidate, inst *rules.Instance, fix bool) int {
	t.Helper()
	ex := c.Execution
	node := nodesOf(t, sk, x.p.ns, ex)
	if fix {
		for _, nodes := range x.p.instrProfiles() {
			q := actualProfile(t, x.p, ex, inst, node, nodes)
			restore := x.p.fixProfile(nodes, q)
			x.forget()
			defer x.forget()
			defer restore()
		}
	}
	rf, err := inst.Rel("rf")
	require.NoError(t, err)
	g := make(graph, len(x.p.ns))
	for e := range ex.Events {
		for f := range ex.Events {
			if rf.Has(e, f) {
				g[node[e]] |= 1 << node[f]
			}
		}
	}
	x.reset(g, g)
	inst.Run()
	strongSet, err := inst.Set("strong")
	require.NoError(t, err)
	sure := 0
	for i, ch := range mp.checks {
		iv := x.eval(mp.plan.checks[i])
		got := make(graph, len(x.p.ns))
		for e := range ex.Events {
			for f := range ex.Events {
				var in bool
				switch {
				case i < len(names):
					r, err := inst.Rel(names[i])
					require.NoError(t, err)
					in = r.Has(e, f)
				case ch.Name == "[strong]":
					in = e == f && strongSet.Has(e)
				default:
					in = strongSet.Has(e) && strongSet.Has(f)
				}
				if in {
					got[node[e]] |= 1 << node[f]
				}
			}
		}
		for k := range got {
			assert.Zero(t, got[k]&^iv.over[k], "%s: %s relates node %d to nodes outside its over graph", sk.key, ch.Name, k)
			assert.Zero(t, iv.under[k]&^got[k], "%s: %s misses pairs of node %d said sure", sk.key, ch.Name, k)
			sure += bits.OnesCount64(iv.under[k])
		}
	}
	return sure
}

// actualProfile is the index of the profile an instruction's events take
// in a candidate.
func actualProfile(t *testing.T, p *pruneInstance, ex *execution.Execution, inst *rules.Instance, node []int, nodes []int) int {
	t.Helper()
	for q, pr := range p.prof[nodes[0]] {
		match := true
		for _, name := range attributeNames {
			set, err := inst.Set(name)
			require.NoError(t, err)
			want, _ := pr.attribute(name)
			for e := range ex.Events {
				for _, i := range nodes {
					if node[e] == i && set.Has(e) != want {
						match = false
					}
				}
			}
		}
		if match {
			return q
		}
	}
	require.Fail(t, "no profile", "the events of node %d take none of %v", nodes[0], p.prof[nodes[0]])
	return 0
}
