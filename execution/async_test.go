package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMBarUpdates(t *testing.T) {
	st := func(phase, expected, pending, tx int32) Value {
		return MBarValue(MBarState{Phase: phase, Expected: expected, Pending: pending, Tx: tx})
	}
	cases := []struct {
		name    string
		op      string
		a, b, c Value
		want    Value
	}{
		{"init", "init", Int(3), Value{}, Value{}, st(0, 3, 3, 0)},
		{"arrive, pending left", "arrive", st(0, 2, 2, 0), Int(1), Int(0), st(0, 2, 1, 0)},
		{"arrive completes the phase", "arrive", st(0, 2, 1, 0), Int(1), Int(0), st(1, 2, 2, 0)},
		{"arrive with a count", "arrive", st(4, 3, 3, 0), Int(3), Int(0), st(5, 3, 3, 0)},
		{"arrive.expect_tx waits for the bytes", "arrive", st(0, 1, 1, 0), Int(1), Int(16), st(0, 1, 0, 16)},
		{"complete-tx completes", "complete", st(0, 1, 0, 16), Int(16), Value{}, st(1, 1, 1, 0)},
		{"complete-tx before expect-tx goes negative", "complete", st(0, 1, 1, 0), Int(16), Value{}, st(0, 1, 1, -16)},
		{"arrive.expect_tx after complete-tx completes", "arrive", st(0, 1, 1, -16), Int(1), Int(16), st(1, 1, 1, 0)},
		{"expect-tx that leaves both counts at zero completes (as an H200 does)", "expect", st(0, 1, 0, -16), Int(16), Value{}, st(1, 1, 1, 0)},
		{"expect-tx with an arrival pending does not complete", "expect", st(0, 1, 1, -16), Int(16), Value{}, st(0, 1, 1, 0)},
		{"expect-tx that leaves the tx-count negative does not complete", "expect", st(0, 1, 0, -16), Int(8), Value{}, st(0, 1, 0, -8)},
		{"increment", "inc", st(0, 1, 1, 0), Value{}, Value{}, st(0, 1, 2, 0)},
		{"an uninitialized object is left as it is", "arrive", Int(0), Int(1), Int(0), Int(0)},
		// arrive_drop (9.7.13.15.14): the expected count drops for this
		// phase and the later ones, then the arrive-on.
		{"drop, pending left", "drop", st(0, 3, 3, 0), Int(1), Int(0), st(0, 2, 2, 0)},
		{"drop completes and reloads the lowered count", "drop", st(0, 2, 1, 0), Int(1), Int(0), st(1, 1, 1, 0)},
		{"drop with a count", "drop", st(2, 4, 4, 0), Int(2), Int(0), st(2, 2, 2, 0)},
		{"drop.expect_tx waits for the bytes", "drop", st(0, 2, 1, 0), Int(1), Int(16), st(0, 1, 0, 16)},
		{"drop of the last participant", "drop", st(3, 1, 1, 0), Int(1), Int(0), st(4, 0, 0, 0)},
		{"drop on an uninitialized object", "drop", Int(0), Int(1), Int(0), Int(0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, mbarUpdate(c.op, c.a, c.b, c.c))
		})
	}
}

func TestMBarWaitDone(t *testing.T) {
	at := func(phase int32) Value { return MBarValue(MBarState{Phase: phase, Expected: 1, Pending: 1}) }
	cases := []struct {
		name   string
		state  Value
		phase  int64
		parity bool
		want   int64
	}{
		{"phase 0 incomplete", at(0), 0, false, 0},
		{"phase 0 complete", at(1), 0, false, 1},
		{"phase 1 still incomplete", at(1), 1, false, 0},
		{"long complete", at(5), 1, false, 1},
		{"parity of the current phase", at(2), 0, true, 0},
		{"parity of the previous phase", at(2), 1, true, 1},
		{"parity aliases two phases back", at(2), 2, true, 0},
		{"not an mbarrier", Int(7), 0, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, Int(c.want), mbarWaitDone(c.state, Int(c.phase), c.parity))
		})
	}
}

// TestMBarrierUpdatesChain checks that the updates of an mbarrier read one
// another in a chain from its initial write, whatever their scopes: no
// lost arrival, even between arrives that are not morally strong.
func TestMBarrierUpdatesChain(t *testing.T) {
	tc := herd(t, `PTX T
{ b @ mbarrier 2; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0                          | P2@cta 0,cluster 0,gpu 0 ;
 mbarrier.arrive b        | mapa r1, b, 0                                     | mbarrier.test_wait r0, b ;
                          | mbarrier.arrive.relaxed.cta.shared::cluster [r1]  |                          ;
exists (2:r0 == 1)
`)
	xs := collect(t, prepare(t, tc, opts(2, true)))
	// The two arrives in either order, and the wait reading the initial
	// write or either update: 2 * 3 candidates.
	require.Len(t, xs, 6)
	complete := 0
	for _, x := range xs {
		readers := map[int]int{}
		for _, p := range x.RMW {
			readers[x.RF[p[0]]]++
		}
		for w, n := range readers {
			assert.Equal(t, 1, n, "two updates read %s", x.Label(w))
		}
		if v, ok := x.Reg(2, "r0"); ok && v == Int(1) {
			complete++
		}
	}
	assert.Equal(t, 2, complete, "the phase completes exactly when the wait reads the last update")
}

// TestClusterPhases checks which cluster-barrier phases complete: exited
// threads are not waited for, threads stuck elsewhere are, and a wait
// passes exactly when its phase completes.
func TestClusterPhases(t *testing.T) {
	cases := []struct {
		name     string
		rows     string
		finished int // candidates in which every thread finishes
		stuck    int // candidates with a thread stuck at barrier.cluster.wait
	}{
		{"both arrive and wait", " barrier.cluster.arrive | barrier.cluster.arrive ;\n barrier.cluster.wait | barrier.cluster.wait ;\n", 1, 0},
		{"a thread that exits is not waited for", " barrier.cluster.arrive | st x, 1 ;\n barrier.cluster.wait | ;\n", 1, 0},
		{"a thread blocked elsewhere is", " barrier.cluster.arrive | bar.cta.sync 0, 0, 2 ;\n barrier.cluster.wait | barrier.cluster.arrive ;\n", 0, 1},
		{"a wait before its arrive never returns", " barrier.cluster.wait | barrier.cluster.arrive ;\n barrier.cluster.arrive | barrier.cluster.wait ;\n", 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := herd(t, "PTX T\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"+c.rows+"exists (x == 0)\n")
			finished, stuck := 0, 0
			for _, x := range collect(t, prepare(t, tc, opts(2, true))) {
				switch {
				case len(x.Stuck()) > 0:
					stuck++
				case !x.Hung():
					finished++
				}
			}
			assert.Equal(t, c.finished, finished, "finished")
			assert.Equal(t, c.stuck, stuck, "stuck")
		})
	}
}

// TestSpinningRuns checks that a spin loop polling an mbarrier keeps a
// spinning run whose polls must read the mbarrier's final state: the hang
// exists only when the phase never completes.
func TestSpinningRuns(t *testing.T) {
	for _, c := range []struct {
		name     string
		expected int
		hangs    int
	}{
		{"the phase completes", 1, 0},
		{"the phase never completes", 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := herd(t, "PTX T\n{ b @ mbarrier "+map[int]string{1: "1", 2: "2"}[c.expected]+"; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n mbarrier.arrive b | L: ;\n | mbarrier.try_wait r0, b ;\n | bne r0, 1, L ;\nexists (1:r0 == 1)\n")
			a := prepare(t, tc, opts(2, true))
			spinning := 0
			for _, r := range a.Runs[1] {
				if r.Status == Spinning {
					spinning++
					require.Len(t, r.Polls, 1)
				}
			}
			require.Equal(t, 1, spinning, "one spinning run")
			hangs := 0
			for _, x := range collect(t, a) {
				if len(x.Stuck()) > 0 {
					hangs++
					assert.Equal(t, []string{"P1: mbarrier.try_wait r0, b"}, x.Stuck())
				}
			}
			assert.Equal(t, c.hangs, hangs)
		})
	}
}

// TestAsyncEventsAndRoles checks the events a bulk load makes: the issue in
// program order, then asynchronous read, write, implicit proxy fence and
// complete-tx, with their proxies, orders and scopes.
func TestAsyncEventsAndRoles(t *testing.T) {
	tc := herd(t, `PTX T
{ x = 7; y @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,gpu 0 ;
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b ;
exists (x == 7)
`)
	a := prepare(t, tc, opts(2, true))
	require.Len(t, a.Runs[0], 1)
	assert.Equal(t, []eventShape{
		{KindIssue, false, RoleMain, "generic", "weak", ""},
		{KindRead, true, RoleCopy, "async", "weak", ""},
		{KindWrite, true, RoleCopy, "async", "weak", ""},
		{KindProxyFence, true, RoleProxyFence, "async", "weak", ""},
		{KindRead, true, RoleCompleteTx, "generic", "release", "cluster"},
		{KindWrite, true, RoleCompleteTx, "generic", "release", "cluster"},
	}, shapesOf(a.Runs[0][0].Events))
	assert.Equal(t, [][2]int{{1, 2}, {4, 5}}, a.Runs[0][0].Data, "the copy writes what it read; the complete-tx's new state is computed from the state it read")
	assert.Equal(t, [][2]int{{4, 5}}, a.Runs[0][0].RMW)
}
