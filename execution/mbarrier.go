package execution

import "github.com/ptxmm/ptxmm/litmus"

// The state transitions of an mbarrier object, from the PTX ISA's mbarrier
// pages (docs/model.md, "mbarrier objects"):
//
//   - mbarrier.init sets phase 0, the expected and pending arrival counts
//     to the count, and the tx-count to 0.
//   - An arrive-on decrements the pending count by its count (1 by
//     default); arrive.expect_tx first adds its transaction count to the
//     tx-count.
//   - expect-tx adds to the tx-count; complete-tx subtracts from it.
//   - When the pending count and the tx-count are both zero after an
//     arrive-on or a complete-tx, the phase completes: the phase advances
//     and the pending count is reloaded with the expected count.
//   - cp.async.mbarrier.arrive without .noinc increments the pending count
//     before its asynchronous arrive-on.
//
// An update of a location that holds no mbarrier state (an uninitialized
// object) is undefined in PTX: it leaves the value unchanged, and the
// catalog marks the event (MBAR_UNINIT) so that the model can say so.

// mbarUpdate computes the state an mbarrier update writes: op is "init"
// (a = count), "arrive" (a = old state, b = count, c = tx), "expect" or
// "complete" (a = old state, b = tx) or "inc" (a = old state).
func mbarUpdate(op string, a, b, c Value) Value {
	if op == "init" {
		n := int32(a.N)
		return MBarValue(MBarState{Expected: n, Pending: n})
	}
	if !a.IsMBar {
		return a
	}
	s := a.MBar
	switch op {
	case "arrive":
		s.Tx += int32(c.N)
		s.Pending -= int32(b.N)
		s = completeIfDone(s)
	case "expect":
		s.Tx += int32(b.N)
	case "complete":
		s.Tx -= int32(b.N)
		s = completeIfDone(s)
	case "inc":
		s.Pending++
	}
	return MBarValue(s)
}

// completeIfDone moves to the next phase when the current one has no
// pending arrival and no pending transaction left.
func completeIfDone(s MBarState) MBarState {
	if s.Pending <= 0 && s.Tx == 0 {
		s.Phase++
		s.Pending = s.Expected
	}
	return s
}

// mbarWaitDone is the result of test_wait/try_wait on state old for phase
// (the phase number, or with parity its parity): 1 when that phase is
// complete. With .parity, the phase of that parity is the current one
// (incomplete) or the one before it (complete), as the instruction page
// says the operand must be.
func mbarWaitDone(old, phase Value, parity bool) Value {
	if !old.IsMBar || phase.IsAddr || phase.IsMBar {
		return Int(0)
	}
	cur := int64(old.MBar.Phase)
	if parity {
		if cur%2 != phase.N&1 {
			return Int(1)
		}
		return Int(0)
	}
	if cur > phase.N {
		return Int(1)
	}
	return Int(0)
}

// isMBarUpdate reports whether e is the read of an mbarrier update: an
// arrive-on, expect-tx, complete-tx or pending-count increment, which read
// and write the object atomically.
func (e *Event) isMBarUpdate() bool {
	if e.Kind != KindRead || e.IsInit() {
		return false
	}
	switch e.Role {
	case RoleCompleteTx, RoleAsyncArrive, RolePendingInc:
		return true
	}
	return e.Instr.Op == litmus.OpMBarrier && !e.Instr.MBarOp.IsWait()
}

// mbarrierChainsHold checks the reads-from of the mbarrier updates of a
// complete choice. The hardware applies the updates of an mbarrier object
// one at a time, so each reads the state the previous one wrote: the
// updates of an object form chains that start at a write that is not an
// update (the initial write, an mbarrier.init), without two updates
// reading the same write (search already ensures that) and without a cycle
// of updates reading one another. It also checks that the polls of
// spinning runs read the end of a chain: the object's last state.
func (s *comboSearch) mbarrierChainsHold() bool {
	x := s.x
	updateOf := map[int]int{} // update write -> its read
	for _, p := range x.RMW {
		if x.Events[p[0]].isMBarUpdate() {
			updateOf[p[1]] = p[0]
		}
	}
	if len(updateOf) == 0 && len(x.FinalPolls) == 0 {
		return true
	}
	visited := 0
	for w := range x.Events {
		if _, isUpdate := updateOf[w]; isUpdate || x.Events[w].Kind != KindWrite {
			continue
		}
		// Follow the chain from a root write.
		for cur := w; ; {
			r := s.takenBy[cur]
			if r < 0 {
				break
			}
			visited++
			if cur = s.writeOf(r); cur < 0 {
				break
			}
		}
	}
	if visited != len(updateOf) {
		return false // some updates read one another in a cycle
	}
	for _, p := range x.FinalPolls {
		if w := x.RF[p]; w < 0 || s.takenBy[w] >= 0 {
			return false
		}
	}
	return true
}

// writeOf returns the write of the read-modify-write whose read is r.
func (s *comboSearch) writeOf(r int) int {
	for _, p := range s.x.RMW {
		if p[0] == r {
			return p[1]
		}
	}
	return -1
}
