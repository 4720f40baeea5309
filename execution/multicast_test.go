package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMulticastEvents checks the events of a .multicast::cluster load: one
// read of the source, then per destination CTA (Elem 1, 2) the write of its
// copy of the destination, the implicit proxy fence and the complete-tx on
// its copy of the mbarrier.
func TestMulticastEvents(t *testing.T) {
	tc := herd(t, `PTX T
{ x = 7; y @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster y, x, 16, b, 3 | ld.shared r0, y ;
exists (x == 7)
`)
	a := prepare(t, tc, opts(2, true))
	require.Len(t, a.Runs[0], 1)
	evs := a.Runs[0][0].Events
	assert.Equal(t, []eventShape{
		{KindIssue, false, RoleMain, "generic", "weak", ""},
		{KindRead, true, RoleCopy, "async", "weak", ""},
		{KindWrite, true, RoleCopy, "async", "weak", ""},
		{KindProxyFence, true, RoleProxyFence, "async", "weak", ""},
		{KindRead, true, RoleCompleteTx, "generic", "release", "cluster"},
		{KindWrite, true, RoleCompleteTx, "generic", "release", "cluster"},
		{KindWrite, true, RoleCopy, "async", "weak", ""},
		{KindProxyFence, true, RoleProxyFence, "async", "weak", ""},
		{KindRead, true, RoleCompleteTx, "generic", "release", "cluster"},
		{KindWrite, true, RoleCompleteTx, "generic", "release", "cluster"},
	}, shapesOf(evs))
	var elems []int
	for _, ev := range evs {
		elems = append(elems, ev.Elem)
	}
	assert.Equal(t, []int{0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, elems)
	l := a.Layout
	assert.Equal(t, "gpu0.cta0", l.Locs[evs[2].Loc].Name[len("y@"):], "the first destination is CTA 0's y")
	assert.Equal(t, "gpu0.cta1", l.Locs[evs[6].Loc].Name[len("y@"):], "the second is CTA 1's y")
	assert.NotEqual(t, evs[4].Loc, evs[8].Loc, "each CTA's mbarrier gets its complete-tx")
	assert.Equal(t, [][2]int{{1, 2}, {4, 5}, {1, 6}, {8, 9}}, a.Runs[0][0].Data, "each copy writes what the one read read")
}

// TestMulticastErrors checks the errors of a ctaMask that names CTAs the
// test does not model or that are outside the cluster, or that is not
// known without reading memory.
func TestMulticastErrors(t *testing.T) {
	load := "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster y, x, 16, b, "
	cases := []struct{ name, threads, mask, rest, msg string }{
		{"no thread", " P0@cta 0,cluster 0,gpu 0 ;\n ", "3", "", "no thread of the test runs in CTA 1 of GPU 0"},
		{"other cluster", " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 1,gpu 0 ;\n ", "3", " | ld r0, x", "CTA 1 is not in the cluster of thread P0 (cluster 0): a multicast load reaches only the CTAs of the thread's cluster"},
		{"read mask", " P0@cta 0,cluster 0,gpu 0 ;\n ld r5, x ;\n ", "r5", "", "the ctaMask must be a number known without reading memory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			test := herd(t, "PTX T\n{ x = 7; y @ shared = 0; b @ mbarrier 1; }\n"+tc.threads+load+tc.mask+tc.rest+" ;\nexists (x == 7)\n")
			_, err := Prepare(test, opts(2, true))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}
