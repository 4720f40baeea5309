package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readVals returns a lookup giving the i-th read of a run the value vals[i].
func readVals(vals map[int]int64) func(int) (Value, bool) {
	return func(r int) (Value, bool) {
		v, ok := vals[r]
		return Int(v), ok
	}
}

// TestRunsStraightLine: code without branches has exactly one finished run
// with one event per memory instruction, no constraints, and registers as
// their instructions compute them.
func TestRunsStraightLine(t *testing.T) {
	tc := thread0(t,
		"ld.weak r0, x",
		"add r1, r0, 2",
		"st.weak y, r1",
		"fence.sc.sys",
		"mov r2, 5",
		"fence.proxy.alias",
	)
	a := prepare(t, tc, opts(2, true))
	require.Len(t, a.Runs, 1)
	assert.Equal(t, []string{"finished: R ld.weak r0, x; W st.weak y, r1; F fence.sc.sys; PF fence.proxy.alias"}, runShapes(a, 0))
	r := a.Runs[0][0]
	assert.Empty(t, r.Constraints)
	assert.Equal(t, [][2]int{{0, 1}}, r.Data, "the store's value depends on the load")
	assert.Empty(t, r.Ctrl)
	assert.Empty(t, r.Addr)
	assert.Empty(t, r.RMW)
	// The store writes read+2; r2 is a constant.
	v, ok, err := r.Events[1].Sym.eval(readVals(map[int]int64{0: 40}))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, Int(42), v)
	assert.True(t, r.Regs["r2"].IsConst())
	assert.Equal(t, Int(5), r.Regs["r2"].val)
	assert.Zero(t, a.CutRuns())
	assert.Equal(t, []int{0}, a.Spins)
}

// TestRunsBranchOnRead: a branch on a loaded value gives one run per
// direction, each assuming the opposite outcome of the same comparison, and
// the events after the branch are control dependent on the load.
func TestRunsBranchOnRead(t *testing.T) {
	tc := thread0(t,
		"ld.weak r0, x",
		"beq r0, 1, SKIP",
		"st.weak y, 1",
		"SKIP:",
		"st.weak z, 1",
	)
	a := prepare(t, tc, opts(2, true))
	require.Len(t, a.Runs[0], 2)
	assert.Equal(t, []string{
		"finished: R ld.weak r0, x; W st.weak z, 1",
		"finished: R ld.weak r0, x; W st.weak y, 1; W st.weak z, 1",
	}, runShapes(a, 0))
	taken, fallThrough := a.Runs[0][0], a.Runs[0][1]
	require.Len(t, taken.Constraints, 1)
	require.Len(t, fallThrough.Constraints, 1)
	assert.True(t, taken.Constraints[0].Want)
	assert.False(t, fallThrough.Constraints[0].Want)
	assert.Same(t, taken.Constraints[0].Cond, fallThrough.Constraints[0].Cond, "both directions test the same condition")
	assert.Equal(t, tc.Threads[0].Instrs[1].Pos, taken.Constraints[0].Pos, "the constraint points at the branch")
	for read, want := range map[int64]int64{1: 1, 0: 0, 7: 0} {
		v, ok, err := taken.Constraints[0].Cond.eval(readVals(map[int]int64{0: read}))
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, Int(want), v, "beq r0, 1 with r0=%d", read)
	}
	// Every event after the branch depends on the load by control.
	assert.Equal(t, [][2]int{{0, 1}}, taken.Ctrl)
	assert.Equal(t, [][2]int{{0, 1}, {0, 2}}, fallThrough.Ctrl)
}

// TestRunsConstantBranch: a branch whose operands are known needs no
// assumption and gives a single run.
func TestRunsConstantBranch(t *testing.T) {
	tc := thread0(t,
		"mov r1, 3",
		"bne r1, 3, SKIP",
		"st.weak y, 1",
		"SKIP:",
	)
	a := prepare(t, tc, opts(2, true))
	assert.Equal(t, []string{"finished: W st.weak y, 1"}, runShapes(a, 0))
	assert.Empty(t, a.Runs[0][0].Constraints)
	assert.Empty(t, a.Runs[0][0].Ctrl)
}

// TestRunsLoops checks unrolling and the spin-loop reduction on loops that
// wait for x to become non-zero.
func TestRunsLoops(t *testing.T) {
	cases := []struct {
		name   string
		body   []string
		unroll int
		spin   bool
		// runs is the number of load events of each run, in order.
		loads []int
		cut   int
		spins int
	}{
		{
			name:   "side-effect-free spin loop, no reduction: one run per unrolling, one cut",
			body:   []string{"L:", "ld.weak r0, x", "beq r0, 0, L", "st.weak y, 1"},
			unroll: 2, loads: []int{3, 2, 1}, cut: 1,
		},
		{
			name:   "unroll 0 keeps only the first iteration",
			body:   []string{"L:", "ld.weak r0, x", "beq r0, 0, L", "st.weak y, 1"},
			unroll: 0, loads: []int{1}, cut: 1,
		},
		{
			name:   "side-effect-free spin loop, reduced: only the run leaving at once",
			body:   []string{"L:", "ld.weak r0, x", "beq r0, 0, L", "st.weak y, r0"},
			unroll: 2, spin: true, loads: []int{1}, spins: 1,
		},
		{
			name:   "reduction does not depend on the unrolling bound",
			body:   []string{"L:", "ld.weak r0, x", "beq r0, 0, L"},
			unroll: 5, spin: true, loads: []int{1}, spins: 1,
		},
		{
			name:   "a loop that writes is not a spin loop",
			body:   []string{"L:", "ld.weak r0, x", "st.weak z, 1", "beq r0, 0, L"},
			unroll: 2, spin: true, loads: []int{3, 2, 1}, cut: 1,
		},
		{
			name:   "a counter is live at the loop head",
			body:   []string{"L:", "ld.weak r0, x", "add r1, r1, 1", "beq r0, 0, L"},
			unroll: 2, spin: true, loads: []int{3, 2, 1}, cut: 1,
		},
		{
			name: "a register overwritten on every path from the loop head is dead",
			// r1 is stored after the loop, but mov r1, r0 overwrites it on
			// every path from L before that, so a failed iteration's r1
			// does not outlive it.
			body:   []string{"L:", "ld.weak r0, x", "mov r1, r0", "beq r0, 0, L", "st.weak y, r1"},
			unroll: 1, spin: true, loads: []int{1}, spins: 1,
		},
		{
			name: "a register assigned on some paths only and read after the loop is live",
			// A failed iteration (r0=0) sets r1=7, which the store after the
			// loop reads when the next iteration exits at once: the failed
			// iteration has an effect, so it is kept.
			body:   []string{"L:", "ld.weak r0, x", "bne r0, 0, EXIT", "mov r1, 7", "goto L", "EXIT:", "st.weak y, r1"},
			unroll: 1, spin: true, loads: []int{1, 2}, cut: 1,
		},
		{
			name:   "a loop around an atom writes",
			body:   []string{"L:", "atom.relaxed.gpu.exch r0, x, 0", "beq r0, 0, L"},
			unroll: 1, spin: true, loads: []int{2, 1}, cut: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, thread0(t, c.body...), opts(c.unroll, c.spin))
			var loads []int
			for _, r := range a.Runs[0] {
				n := 0
				for _, ev := range r.Events {
					if ev.Kind == KindRead {
						n++
					}
				}
				loads = append(loads, n)
				assert.Equal(t, Finished, r.Status)
			}
			assert.Equal(t, c.loads, loads)
			assert.Equal(t, c.cut, a.Cut[0], "Cut")
			assert.Equal(t, c.cut, a.CutRuns())
			assert.Equal(t, c.spins, a.Spins[0], "Spins")
		})
	}
}

// TestRunsLoopCounter: why a live counter must keep failed iterations —
// the runs that leave the loop after one, two or three iterations end with
// different counter values, which a final state can show.
func TestRunsLoopCounter(t *testing.T) {
	tc := thread0(t,
		"mov r1, 10",
		"L:",
		"ld.weak r0, x",
		"add r1, r1, 1",
		"beq r0, 0, L",
	)
	a := prepare(t, tc, opts(2, true))
	var counters []int64
	for _, r := range a.Runs[0] {
		require.True(t, r.Regs["r1"].IsConst())
		counters = append(counters, r.Regs["r1"].val.N)
	}
	assert.Equal(t, []int64{13, 12, 11}, counters)
	assert.Equal(t, 1, a.Cut[0])
	assert.Zero(t, a.Spins[0])
}

// TestRunsSpinWithBarrier: a loop around a barrier is never reduced.
func TestRunsSpinWithBarrier(t *testing.T) {
	tc := herd(t, `PTX B
{ x=0; }
 P0@cta 0,gpu 0  | P1@cta 0,gpu 0 ;
 L:              | bar.cta.sync 0 ;
 bar.cta.arrive 0 | st.weak x, 1  ;
 ld.weak r0, x   |                ;
 beq r0, 0, L    |                ;
exists (P0:r0 == 1)
`)
	a := prepare(t, tc, opts(1, true))
	assert.Zero(t, a.Spins[0])
	assert.Equal(t, 1, a.Cut[0])
	assert.Equal(t, []string{
		"finished: B bar.cta.arrive 0; R ld.weak r0, x; B bar.cta.arrive 0; R ld.weak r0, x",
		"finished: B bar.cta.arrive 0; R ld.weak r0, x",
	}, runShapes(a, 0))
}

// TestRunsCAS: atom.cas gives a run where it succeeds (a read and a write
// joined by rmw) and one where it fails (a read only), assuming the read
// value equals, or differs from, the expected one.
func TestRunsCAS(t *testing.T) {
	tc := thread0(t, "atom.relaxed.gpu.cas r0, x, 1, 2", "st.weak y, r0")
	a := prepare(t, tc, opts(2, true))
	assert.Equal(t, []string{
		"finished: R atom.relaxed.gpu.cas r0, x, 1, 2; W atom.relaxed.gpu.cas r0, x, 1, 2; W st.weak y, r0",
		"finished: R atom.relaxed.gpu.cas r0, x, 1, 2; W st.weak y, r0",
	}, runShapes(a, 0))
	ok, failed := a.Runs[0][0], a.Runs[0][1]
	assert.Equal(t, [][2]int{{0, 1}}, ok.RMW)
	assert.Empty(t, failed.RMW)
	require.Len(t, ok.Constraints, 1)
	require.Len(t, failed.Constraints, 1)
	assert.True(t, ok.Constraints[0].Want)
	assert.False(t, failed.Constraints[0].Want)
	v, _, err := ok.Constraints[0].Cond.eval(readVals(map[int]int64{0: 1}))
	require.NoError(t, err)
	assert.Equal(t, Int(1), v, "the cas succeeds when it reads 1")
	// A successful cas writes its second operand; the register gets the old value.
	w, _, err := ok.Events[1].Sym.eval(readVals(map[int]int64{0: 1}))
	require.NoError(t, err)
	assert.Equal(t, Int(2), w)
	old, _, err := ok.Regs["r0"].eval(readVals(map[int]int64{0: 1}))
	require.NoError(t, err)
	assert.Equal(t, Int(1), old)
}

// TestRunsAtomicValues checks what each atomic operation writes from the
// value it read.
func TestRunsAtomicValues(t *testing.T) {
	cases := []struct {
		instr string
		old   int64
		want  int64
	}{
		{"atom.relaxed.gpu.add r0, x, 3", 4, 7},
		{"atom.relaxed.gpu.sub r0, x, 3", 4, 1},
		{"atom.relaxed.gpu.exch r0, x, 9", 4, 9},
		{"atom.relaxed.gpu.min r0, x, 3", 4, 3},
		{"atom.relaxed.gpu.max r0, x, 3", 4, 4},
		{"atom.relaxed.gpu.and r0, x, 6", 5, 4},
		{"atom.relaxed.gpu.or r0, x, 2", 5, 7},
		{"atom.relaxed.gpu.xor r0, x, 1", 5, 4},
		{"atom.relaxed.gpu.inc r0, x", 5, 6},
		{"atom.relaxed.gpu.inc r0, x, 5", 5, 0},
		{"atom.relaxed.gpu.inc r0, x, 5", 4, 5},
		{"atom.relaxed.gpu.dec r0, x", 5, 4},
		{"atom.relaxed.gpu.dec r0, x, 3", 0, 3},
		{"atom.relaxed.gpu.dec r0, x, 3", 5, 3},
		{"atom.relaxed.gpu.dec r0, x, 3", 2, 1},
		{"red.relaxed.gpu.add x, 2", 1, 3},
	}
	for _, c := range cases {
		t.Run(c.instr, func(t *testing.T) {
			a := prepare(t, thread0(t, c.instr), opts(2, true))
			require.Len(t, a.Runs[0], 1)
			r := a.Runs[0][0]
			require.Len(t, r.Events, 2)
			assert.Equal(t, [][2]int{{0, 1}}, r.RMW)
			v, ok, err := r.Events[1].Sym.eval(readVals(map[int]int64{0: c.old}))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, Int(c.want), v)
		})
	}
}

// TestRunsBlockedRegisters: a bar.sync may never complete, so it ends a
// blocked run; the blocked run keeps only the registers written before the
// barrier (and those the init block sets). A bar.arrive never blocks.
func TestRunsBlockedRegisters(t *testing.T) {
	// P1 arrives at the barrier only when it reads z=0; when it skips it,
	// it waits forever at a barrier of two nobody joins (it has not
	// exited), and P0's bar.sync never completes.
	tc := herd(t, `PTX B
{ x=0; y=0; z=0; P0:r5=3; }
 P0@cta 0,gpu 0  | P1@cta 0,gpu 0       | P2@cta 0,gpu 0 ;
 ld.weak r0, x   | ld.weak r2, z        | st.weak z, 1   ;
 bar.cta.sync 0  | bne r2, 0, STUCK     |                ;
 ld.weak r1, y   | bar.cta.arrive 0     |                ;
                 | goto END             |                ;
                 | STUCK:               |                ;
                 | bar.cta.sync 1, 0, 2 |                ;
                 | END:                 |                ;
exists (P0:r1 == 0)
`)
	a := prepare(t, tc, opts(2, true))
	assert.Equal(t, []string{
		"blocked: R ld.weak r0, x; B bar.cta.sync 0",
		"finished: R ld.weak r0, x; B bar.cta.sync 0; R ld.weak r1, y",
	}, runShapes(a, 0))
	assert.Equal(t, []string{
		"blocked: R ld.weak r2, z; B bar.cta.sync 1, 0, 2",
		"finished: R ld.weak r2, z; B bar.cta.sync 1, 0, 2",
		"finished: R ld.weak r2, z; B bar.cta.arrive 0",
	}, runShapes(a, 1), "bar.arrive never blocks; the barrier of two may complete or not")
	blocked, finished := a.Runs[0][0], a.Runs[0][1]
	assert.ElementsMatch(t, []string{"r0", "r5"}, keys(blocked.Regs))
	assert.ElementsMatch(t, []string{"r0", "r1", "r5"}, keys(finished.Regs))

	// Through candidate executions: the blocked thread has no value for r1
	// nor for a register no instruction writes; a finished thread has 0 for
	// the latter (herd's convention).
	xs := collect(t, a)
	var sawBlocked, sawFinished bool
	for _, x := range xs {
		skipped := regs(x, "P1:r2") == "P1:r2=1"
		assert.Equal(t, skipped, x.Blocked(0), "P0 is blocked exactly when P1 skips its arrival")
		if x.Blocked(0) {
			sawBlocked = true
			assert.Equal(t, "P0:r0=0 P0:r1=? P0:r5=3 P0:r9=?", regs(x, "P0:r0", "P0:r1", "P0:r5", "P0:r9"))
		} else {
			sawFinished = true
			assert.Equal(t, "P0:r0=0 P0:r1=0 P0:r5=3 P0:r9=0", regs(x, "P0:r0", "P0:r1", "P0:r5", "P0:r9"))
		}
		if !x.Blocked(1) {
			assert.Equal(t, "P1:r9=0", regs(x, "P1:r9"))
		}
	}
	assert.True(t, sawBlocked)
	assert.True(t, sawFinished)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestRunsMaxRuns: more runs than -max-runs is a LimitError naming the flag.
func TestRunsMaxRuns(t *testing.T) {
	tc := thread0(t,
		"ld.weak r0, x", "beq r0, 0, A", "A:",
		"ld.weak r1, x", "beq r1, 0, B", "B:",
	)
	o := opts(2, true)
	o.MaxRuns = 3
	_, err := Prepare(tc, o)
	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "-max-runs", le.Flag)
	assert.Equal(t, 3, le.Value)
	assert.Contains(t, err.Error(), "raise it with -max-runs")
	o.MaxRuns = 4
	a, err := Prepare(tc, o)
	require.NoError(t, err)
	assert.Len(t, a.Runs[0], 4)
}

// TestRunsIndirectAddress: an address loaded from memory is unknown until
// reads-from is chosen, so the access branches over every address the
// program stores, each run assuming the register holds that address.
func TestRunsIndirectAddress(t *testing.T) {
	tc := herd(t, `PTX I
{ x=0; y=0; p=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak p, x   | ld.weak r0, p  ;
 st.weak p, y   | st.weak r0, 1  ;
exists (P1:r0 == 0)
`)
	a := prepare(t, tc, opts(2, true))
	require.Len(t, a.Runs[1], 2)
	var targets []string
	for _, r := range a.Runs[1] {
		require.Len(t, r.Constraints, 1)
		assert.True(t, r.Constraints[0].Want)
		assert.Equal(t, [][2]int{{0, 1}}, r.Addr, "the store's address depends on the load")
		targets = append(targets, a.Layout.Addrs[r.Events[1].Addr].Name)
	}
	assert.Equal(t, []string{"x", "y"}, targets)
}
