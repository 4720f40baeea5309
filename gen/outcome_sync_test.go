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
// arrive's), and a bulk store's read precedes what its thread does after
// the wait_group that waits for its group.
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
.decl WAIT_GROUP(e: event)
.decl group_commit(i: event, c: event)
.input M, R, BAR, BAR_SYNC, CBAR_ARRIVE, CBAR_WAIT, bar, cbar, ISSUE, ASYNC, MBAR, PF, same_instr, WAIT_GROUP, group_commit
let barriers = [M] ; ((po ; [BAR] ; bar ; [BAR_SYNC] ; po) | (po ; [CBAR_ARRIVE] ; cbar ; [CBAR_WAIT] ; po)) ; [M]
let amem = (ASYNC & M) \ MBAR
let copies = (po ; [ISSUE] ; same_instr ; [amem]) | (same_instr & (((amem & R) * (amem & W)) | (amem * (PF & ASYNC)) | ((PF & ASYNC) * (MBAR & ASYNC))))
let waited = [amem & R] ; same_instr ; [ISSUE] ; group_commit ; po ; [WAIT_GROUP] ; po ; [M]
.check sc: acyclic(po | rf | co | fr | barriers | copies | waited)
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
			// Bulk stores, the refill (write-after-read) through an
			// mbarrier, remote arrives and try_wait loops.
			"Fence.proxy.asyncsWR Bulk Fre", "PosWR Bulk Fre", "Fence.proxy.asyncsWR Bulk.read Fre",
			"Rfe Bulk PosRW Coe", "Rfe Bulk.read PosRW Coe", "PodWW Rfe Fence.proxy.asyncsRR Bulk PodRR Fre", "PodWW Rfe Bulk PodRR Fre",
			"MbarsWR Bulk Fre", "Fence.proxy.asyncsWW MbarsWR Bulk Fre", "PodWW MbardWR Bulk Fre",
			"MbarsRW Tma Rfe", "Mbar.rlx.acqsRW Tma Rfe", "Mbar.loopsRW Tma Rfe", "PosRW Tma Rfe", "Fence.proxy.asyncsRW Tma Rfe",
			"Rfe PodRW Tma Rfe PodRW", "Rfe MbardRW Tma Rfe PodRW",
			"PodWW Mbar.remotesWR PodRR Fre", "PodWW Mbar.remote.ctasWR PodRR Fre", "Mbar.remote.loopdWR Fre PodWW Mbar.remote.loopdWR Fre",
			"Mbar.remotedWR Fre BarSyncdWR Fre",
			"PodWW Mbar.loopsWR PodRR Fre", "Mbar.rlx.acq.loopsWR Fre", "Tma.loopsWR Fre", "Tma.noexpect.loopsWR Fre", "BarSyncdWR Fre Mbar.loopdWR Fre",
		}},
		{Families: []string{"MP", "SB", "IRIW", "WRC", "2+2W"}, Po: []string{"Fence.proxy.async", "Fence.proxy.surface"}},
		{Families: []string{"MP", "SB", "WRC"}, Sem: []string{"Rlx.cta"}, Po: []string{"po", "Fence.sc.cta"}},
		{Enumerate: &gen.FamilyOptions{Relax: edges("BarSyncdWR,BarSyncsWR,MbardWW,Mbar.rlx.acqdWR"), Safe: safe, Size: 4, Procs: 3}},
		{Enumerate: &gen.FamilyOptions{Relax: edges("TmasWR,TmadWR,Tma.noexpectdWW,BarClusterdRR"), Safe: safe, Size: 4, Procs: 3}},
		{Enumerate: &gen.FamilyOptions{Relax: edges("Mbar.remotedWR,Mbar.loopdWR,Mbar.loopsRW,Tma.loopdWR"), Safe: safe, Size: 4, Procs: 3}},
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
			if strings.Contains(pt.Doc, "Mbar") || strings.Contains(pt.Doc, "Bar") || strings.Contains(pt.Doc, "Tma") || strings.Contains(pt.Doc, "Bulk") {
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
