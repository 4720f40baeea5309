package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gen"
	"github.com/ptxmm/ptxmm/internal/testmodels"
)

// scSync is sequential consistency over the program order and
// communication of memory accesses together with what the synchronized
// edges stand for: the accesses before a barrier precede those after the
// barriers it meets (bar.sync, barrier.cluster), a thread's accesses
// precede the bulk copies it issues after them, and a copy reads before it
// writes, writes before its implicit proxy fence and that fence before its
// complete-tx (whose arrival an mbarrier wait reads, as it reads an
// arrive's).
const scSync = testmodels.Candidates + `
.decl M(e: event)
.decl R(e: event)
.decl BAR(e: event)
.decl BAR_SYNC(e: event)
.decl CBAR_ARRIVE(e: event)
.decl CBAR_WAIT(e: event)
.decl bar(a: event, b: event)
.decl cbar(a: event, b: event)
.decl ISSUE(e: event)
.decl ASYNC(e: event)
.decl MBAR(e: event)
.decl PF(e: event)
.decl same_instr(a: event, b: event)
.input M, R, BAR, BAR_SYNC, CBAR_ARRIVE, CBAR_WAIT, bar, cbar, ISSUE, ASYNC, MBAR, PF, same_instr
let barriers = [M] ; ((po ; [BAR] ; bar ; [BAR_SYNC] ; po) | (po ; [CBAR_ARRIVE] ; cbar ; [CBAR_WAIT] ; po)) ; [M]
let amem = (ASYNC & M) \ MBAR
let copies = (po ; [ISSUE] ; same_instr ; [amem]) | (same_instr & (((amem & R) * (amem & W)) | (amem * (PF & ASYNC)) | ((PF & ASYNC) * (MBAR & ASYNC))))
.check sc: acyclic(po | rf | co | fr | barriers | copies)
.check atomic: empty(rmw & (fr ; co))
`

// TestSyncConditionIsTheCycle is TestConditionIsTheCycle for the cycles
// with synchronized edges (barriers, mbarriers, bulk copies) and proxies:
// every generated test parses, some candidate execution reaches its
// condition, and sequential consistency with the synchronization the
// edges stand for forbids it. Tma.noexpect is the exception: its plain
// arrive completes the phase without waiting for the copy, so nothing
// orders the copy before the wait (the outcome is allowed, and the test
// undefined: its twin of Tma).
func TestSyncConditionIsTheCycle(t *testing.T) {
	all, seq := testmodels.Load(t, "candidates.dl", testmodels.Candidates), testmodels.Load(t, "scsync.dl", scSync)
	edges := func(s string) []gen.Edge {
		es, err := gen.ParseEdges(s)
		require.NoError(t, err)
		return es
	}
	safe := edges("Rfe,Fre,Coe,PodWW,PodWR,PodRR,PodRW,PosWR")
	reqs := []gen.Request{
		{Cycles: []string{
			"MbarsWR Fre", "Mbar.rlx.acqsWR Fre", "Mbar.rel.rlxsWR Fre", "Mbar.rlx.rlxsWR Fre", "PodWW MbarsWR PodRR Fre",
			"BarSyncsWR Fre", "BarSyncdWW Rfe BarSyncdRR Fre", "BarSyncdWR Fre PodWR Fre", "BarSyncsWW Coe",
			"BarClustersWR Fre", "BarCluster.rlxsWR Fre", "BarClusterdWR PosRR Fre MbardWR Fre",
			"TmasWR Fre", "Tma.noexpectsWR Fre", "PosWW TmasWR Fre", "Fence.proxy.asyncsWW TmasWR Fre", "PodWW TmadWR Fre", "Rfe PodRW TmadWR Fre", "Rfe PosRW TmasWR Fre",
			"Surface PosWR Fre", "Surface Fence.proxy.surfacesWR Fre", "PosWR Texture Fre", "PosWR Constant Fre",
			"Rfe Texture Fence.proxy.texturesRR Fre", "Surface PosWW Rfe Alias PosRR Fre",
			"BarSyncdWR Fre MbardWR Fre", "MbardWR Fre MbardWR Fre", "Rfe BarSyncdRR Fre BarSyncdWR Fre",
		}},
		{Families: []string{"MP", "SB", "IRIW", "WRC", "2+2W"}, Po: []string{"Fence.proxy.async", "Fence.proxy.surface"}},
		{Families: []string{"MP", "SB", "WRC"}, Sem: []string{"Rlx.cta"}, Po: []string{"po", "Fence.sc.cta"}},
		{Enumerate: &gen.FamilyOptions{Relax: edges("BarSyncdWR,BarSyncsWR,MbardWW,Mbar.rlx.acqdWR"), Safe: safe, Size: 4, Procs: 3}},
		{Enumerate: &gen.FamilyOptions{Relax: edges("TmasWR,TmadWR,Tma.noexpectdWW,BarClusterdRR"), Safe: safe, Size: 4, Procs: 3}},
	}
	count, synced := 0, 0
	for _, r := range reqs {
		g, err := gen.Generate(r)
		require.NoError(t, err)
		if len(r.Cycles) > 0 {
			require.Zero(t, g.Rejected, "every cycle given closes: %v", g.FirstRejection)
		}
		for _, pt := range g.Tests {
			count++
			text := pt.Litmus()
			if strings.Contains(pt.Doc, "Mbar") || strings.Contains(pt.Doc, "Bar") || strings.Contains(pt.Doc, "Tma") {
				synced++
			}
			lt, err := pt.Parse()
			require.NoError(t, err, text)
			res := checker.CheckAll([]*checker.Model{all, seq}, lt, checker.DefaultOptions())
			require.NoError(t, res[0].Err, pt.Name)
			require.NoError(t, res[1].Err, pt.Name)
			assert.Equal(t, "Ok", res[0].Verdict, "some candidate of %s reaches its condition:\n%s", pt.Name, text)
			if strings.Contains(pt.Doc, "Tma.noexpect") {
				continue
			}
			if writesPerLocation(pt) <= 2 {
				assert.Equal(t, "No", res[1].Verdict, "sequential consistency with synchronization forbids the cycle of %s:\n%s", pt.Name, text)
			}
		}
	}
	t.Logf("%d tests, %d with synchronized edges", count, synced)
	assert.Greater(t, synced, 50)
}
