package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// stAsyncTest is a test whose thread P1 in CTA 1 runs instr after taking
// the mapa addresses of CTA 0's y (r5) and mbarrier b (r6); instr is on
// line 6.
func stAsyncTest(t *testing.T, instr string) *litmus.Test {
	return herd(t, `PTX T
{ y @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 ld.shared r0, y          | mapa.shared::cluster r5, y, 0 ;
                          | mapa.shared::cluster r6, b, 0 ;
                          | `+instr+` ;
exists (P0:r0 == 0)
`)
}

// TestStAsyncEvents checks the events of st.async and red.async: the issue
// in program order, then asynchronously the store (weak) or the
// reduction's read and write (.relaxed.cluster), in the generic proxy, and
// the complete-tx (.release.cluster) of the bytes stored.
func TestStAsyncEvents(t *testing.T) {
	cases := []struct {
		name, instr string
		want        []eventShape
		rmw         [][2]int
	}{
		{"st.async", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [r5], 3, [r6]", []eventShape{
			{KindIssue, false, RoleMain, "generic", "weak", "cluster"},
			{KindWrite, true, RoleCopy, "generic", "weak", ""},
			{KindRead, true, RoleCompleteTx, "generic", "release", "cluster"},
			{KindWrite, true, RoleCompleteTx, "generic", "release", "cluster"},
		}, [][2]int{{2, 3}}},
		{"red.async", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [r5], 3, [r6]", []eventShape{
			{KindIssue, false, RoleMain, "generic", "relaxed", "cluster"},
			{KindRead, true, RoleCopy, "generic", "relaxed", "cluster"},
			{KindWrite, true, RoleCopy, "generic", "relaxed", "cluster"},
			{KindRead, true, RoleCompleteTx, "generic", "release", "cluster"},
			{KindWrite, true, RoleCompleteTx, "generic", "release", "cluster"},
		}, [][2]int{{1, 2}, {3, 4}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, stAsyncTest(t, c.instr), opts(2, true))
			require.Len(t, a.Runs[1], 1)
			run := a.Runs[1][0]
			assert.Equal(t, c.want, shapesOf(run.Events))
			assert.Equal(t, c.rmw, run.RMW)
		})
	}
}

// TestStAsyncCompleteTxBytes checks that the complete-tx subtracts the
// size of the stored type from the tx-count.
func TestStAsyncCompleteTxBytes(t *testing.T) {
	for typ, bytes := range map[string]int32{"u32": 4, "b64": 8} {
		tc := stAsyncTest(t, "st.async.mbarrier::complete_tx::bytes."+typ+" [r5], 3, [r6]")
		seen := false
		for _, x := range collect(t, prepare(t, tc, opts(2, true))) {
			for _, p := range x.RMW {
				w := x.Events[p[1]]
				if w.Role == RoleCompleteTx {
					require.True(t, w.Value.IsMBar)
					assert.Equal(t, -bytes, w.Value.MBar.Tx, typ)
					seen = true
				}
			}
		}
		assert.True(t, seen, typ)
	}
}

// TestStAsyncPlacementErrors checks the placements the pages leave
// undefined, which ptxmm reports as errors of the test at the operand.
func TestStAsyncPlacementErrors(t *testing.T) {
	cases := []struct{ name, instr, msg string }{
		{"mbarrier in another CTA", "st.async.mbarrier::complete_tx::bytes.u32 [r5], 3, b", "the destination is in gpu0.cta0 and the mbarrier in gpu0.cta1; st.async needs both in the same CTA"},
		{"red.async into its own CTA", "red.async.add.u32 y, 3, b", "red.async reduces into another CTA of the cluster"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Prepare(stAsyncTest(t, c.instr), opts(2, true))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
			assert.Contains(t, err.Error(), "t.litmus:6:")
		})
	}
}
