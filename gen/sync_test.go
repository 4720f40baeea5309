package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMbarMP(t *testing.T) {
	assert.Equal(t, `PTX MP+MbarsWR
"Cycle=PodWW MbarsWR PodRR Fre"
{
x=0; y=0; mb0 @ mbarrier 1;
}
P0@cta 0,gpu 0      | P1@cta 0,gpu 0             ;
st.weak x, 1        | mbarrier.test_wait r0, mb0 ;
st.weak y, 1        | bne r0, 1, LW1             ;
mbarrier.arrive mb0 | ld.weak r1, y              ;
                    | ld.weak r2, x              ;
                    | LW1:                       ;
exists (P1:r0 == 1 /\ P1:r1 == 1 /\ P1:r2 == 0)
`, build(t, "PodWW MbarsWR PodRR Fre", "gpu"))
	relaxed := build(t, "Mbar.rlx.rlxsWR Fre", "gpu")
	assert.Contains(t, relaxed, "mbarrier.arrive.relaxed.cta mb0 |")
	assert.Contains(t, relaxed, "| mbarrier.test_wait.relaxed.cta r0, mb0 ;")
}

func TestTmaAfterProxyFence(t *testing.T) {
	assert.Equal(t, `PTX WW+R+fence.proxy.asyncs+TmasWR
"Cycle=Fence.proxy.asyncsWW TmasWR Fre"
{
x @ shared = 0; mb0 @ mbarrier 1; x_src=2;
}
P0@cta 0,cluster 0,gpu 0                                                            | P1@cta 0,cluster 0,gpu 0   ;
st.weak x, 1                                                                        | mbarrier.test_wait r0, mb0 ;
fence.proxy.async                                                                   | bne r0, 1, LW1             ;
mbarrier.arrive.expect_tx mb0, 16                                                   | ld.weak r1, x              ;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes x, x_src, 16, mb0 | LW1:                       ;
exists (P1:r0 == 1 /\ P1:r1 == 0 /\ x == 2)
`, build(t, "Fence.proxy.asyncsWW TmasWR Fre", "gpu"))
	assert.Contains(t, build(t, "Tma.noexpectsWR Fre", "gpu"), "mbarrier.arrive mb0 ")
}

// TestBarrierPhases checks that the k-th barrier of every thread of a CTA
// is the one the k-th barrier edge of a run crosses, and that a thread of
// the CTA off the run meets every barrier after its events.
func TestBarrierPhases(t *testing.T) {
	assert.Equal(t, `PTX W+W+R+BarSyncdWW+BarSyncdWR
"Cycle=BarSyncdWW BarSyncdWR Fre"
{
x=0; y=0;
}
P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;
st.weak x, 1   | bar.sync 0     | bar.sync 0     ;
bar.sync 0     | st.weak y, 1   | bar.sync 0     ;
bar.sync 0     | bar.sync 0     | ld.weak r0, x  ;
exists (P2:r0 == 0)
`, build(t, "BarSyncdWW BarSyncdWR Fre", "gpu"))
	got := build(t, "BarClustersWR Fre", "gpu")
	assert.Contains(t, got, "P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;")
	assert.Contains(t, build(t, "BarCluster.rlxsWR Fre", "gpu"), "barrier.cluster.arrive.relaxed | barrier.cluster.wait     ;")
}

func TestBulkStoreAfterProxyFence(t *testing.T) {
	assert.Equal(t, `PTX CoWR0+fence.proxy.asyncspbulk
"Cycle=Fence.proxy.asyncsWR Bulk Fre"
{
x @ shared = 0; x_dst=-1;
}
P0@cta 0,gpu 0                                           ;
st.weak x, 1                                             ;
fence.proxy.async                                        ;
cp.async.bulk.global.shared::cta.bulk_group x_dst, x, 16 ;
cp.async.bulk.commit_group                               ;
cp.async.bulk.wait_group 0                               ;
exists (x_dst == 0)
`, build(t, "Fence.proxy.asyncsWR Bulk Fre", "gpu"))
	assert.Contains(t, build(t, "Rfe Bulk.read PosRW Coe", "gpu"), "| cp.async.bulk.wait_group.read 0 ")
}

// TestRefill checks the write-after-read of a pipeline's refill: a
// consumer reads a stage and arrives on the "empty" mbarrier, the
// producer waits on it and refills the stage with a bulk load.
func TestRefill(t *testing.T) {
	assert.Equal(t, `PTX W+R+tmap+MbarsRW
"Cycle=Tma Rfe MbarsRW"
{
x @ shared = 0; mb0 @ mbarrier 1; mb1 @ mbarrier 1; x_src=1;
}
P0@cta 0,cluster 0,gpu 0                                                            | P1@cta 0,cluster 0,gpu 0 ;
mbarrier.test_wait r0, mb0                                                          | ld.weak r0, x            ;
bne r0, 1, LW0                                                                      | mbarrier.arrive mb0      ;
mbarrier.arrive.expect_tx mb1, 16                                                   |                          ;
cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes x, x_src, 16, mb1 |                          ;
LW0:                                                                                |                          ;
exists (P0:r0 == 1 /\ P1:r0 == 1)
`, build(t, "MbarsRW Tma Rfe", "gpu"))
}

func TestRemoteArriveAndLoop(t *testing.T) {
	assert.Equal(t, `PTX MP+Mbar.remote.loopsWR
"Cycle=PodWW Mbar.remote.loopsWR PodRR Fre"
{
x=0; y=0; mb0 @ mbarrier 1;
}
P0@cta 0,cluster 0,gpu 0                                 | P1@cta 1,cluster 0,gpu 0                  ;
st.weak x, 1                                             | LT10:                                     ;
st.weak y, 1                                             | mbarrier.try_wait.acquire.cluster r0, mb0 ;
mapa.shared::cluster ra2, mb0, 1                         | bne r0, 1, LT10                           ;
mbarrier.arrive.release.cluster.shared::cluster _, [ra2] | ld.weak r1, y                             ;
                                                         | ld.weak r2, x                             ;
exists (P1:r1 == 1 /\ P1:r2 == 0)
`, build(t, "PodWW Mbar.remote.loopsWR PodRR Fre", "gpu"))
	assert.Contains(t, build(t, "PodWW Mbar.remote.ctasWR PodRR Fre", "gpu"), "mbarrier.arrive.release.cta.shared::cluster _, [ra2] |")
	assert.Contains(t, build(t, "Mbar.rlx.rlx.loopsWR Fre", "gpu"), "| mbarrier.try_wait.relaxed.cta r0, mb0 ;")
	// Each arrive names the CTA of its own mbarrier's waiter.
	assert.Contains(t, build(t, "Mbar.remotedWR Fre PodWW Mbar.remotedWR Fre", "gpu"), "mapa.shared::cluster ra2, mb1, 3")
}

func TestSyncNames(t *testing.T) {
	for _, tc := range []struct{ cycle, name string }{
		{"MbarsWR Fre", "W+R+MbarsWR"},
		{"PodWW MbarsWR PodRR Fre", "MP+MbarsWR"},
		{"BarSyncsWR Fre", "W+R+BarSyncsWR"},
		{"Surface Fence.proxy.surfacesWR Fre", "CoWR0+fence.proxy.surfacessurfacep"},
	} {
		c, err := ParseCycle(tc.cycle)
		require.NoError(t, err, tc.cycle)
		assert.Equal(t, tc.name, Name(c, Placement{}), tc.cycle)
	}
}

func TestSyncErrors(t *testing.T) {
	for _, tc := range []struct{ cycle, placement, want string }{
		{"BarSyncsWR Fre", "cta", "places its threads itself"},
		{"BarSyncdWR BarSyncdRW Fre", "gpu", "BarSyncdRW ends on a write (W) but Fre starts from a read (R)"},
		{"BarSyncdWW BarSyncdWW", "gpu", "every thread meets the next at a barrier"},
		{"TmasRR Fre", "gpu", "the source of a Tma edge is the bulk copy's write"},
		{"Mbar.acq.relsWR Fre", "gpu", `unknown variant "Mbar.acq.rel" of Mbar`},
		{"Mbar.rlx.acqsW Fre", "gpu", "expected s or d and two directions after Mbar.rlx.acq"},
		{"PosWW Rel.gpu TmasWR Fre", "gpu", "bulk copy's: it takes no annotation"},
		{"PosWR Rmw TmasWR Fre", "gpu", "bulk copy's: it cannot follow Rmw"},
		{"Texture PosWR Fre", "gpu", "Texture on a write: the texture proxy only reads"},
		{"Surface Rel.gpu PosWR Fre", "gpu", "Surface with Rel.gpu: an access through the surface proxy is weak"},
		{"Surface Alias PosWR Fre", "gpu", "Surface and Alias on one access"},
		{"PosWR Surface Texture Fre", "gpu", "an access goes through one proxy"},
		{"BarClustersWR MbarsRW PosWW", "gpu", "joins two threads that other edges put in one CTA"},
		{"BarClusterdWR Fre PodWW TmasWW", "gpu", "joins two threads that other edges put in one CTA"},
		{"BarSyncdWR MbarsRW BarSyncdWR Fre", "gpu", "two separate runs of BarSync edges in one CTA"},
		{"Fence.proxy.tensordWR Fre PodWR Fre", "gpu", `unknown fence order "proxy"`},
		{"PosWR Bulk Fre", "cta", "a cycle with Bulk, Bulk.read or Tma events places its threads itself"},
		{"Bulk PosWR Fre", "gpu", "Bulk on a write: a bulk store reads shared memory"},
		{"PosWR Tma Fre", "gpu", "Tma on a read: a bulk load (TMA) writes shared memory"},
		{"PosWR Bulk Rlx.gpu Fre", "gpu", "Bulk takes no other annotation on its event"},
		{"PosWR Bulk Tma Fre", "gpu", "Bulk and Tma on one event"},
		{"PosWR Bulk Rmw Coe", "gpu", "Bulk on a read-modify-write's access"},
		{"Rfe Bulk DpCtrldW Rfe PodRW", "gpu", "Bulk before DpCtrldW: a bulk store's read has no register"},
		{"Rfe DpCtrldR Bulk Fre PodWW", "gpu", "Bulk after DpCtrldR: a bulk copy takes no dependency"},
		{"PosWW Tma TmasWR Fre", "gpu", "Tma on the write of TmasWR: that write is already a bulk copy's"},
		{"Mbar.remotesWR Bulk Fre", "gpu", "joins two threads that other edges put in one CTA; a remote arrive runs between CTAs"},
		{"Mbar.remote.ctaxsWR Fre", "gpu", "expected s or d and two directions after Mbar.remote.cta"},
		{"Mbar.loop.rel.acqsWR Fre", "gpu", `unknown variant`},
	} {
		c, err := ParseCycle(tc.cycle)
		if err == nil {
			p, perr := ParsePlacement(tc.placement)
			require.NoError(t, perr)
			_, err = Build(c, p)
		}
		require.Error(t, err, tc.cycle)
		assert.Contains(t, err.Error(), tc.want, tc.cycle)
	}
}
