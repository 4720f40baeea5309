package execution

import (
	"slices"

	"github.com/ptxmm/ptxmm/litmus"
)

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
//     arrive-on, an expect-tx or a complete-tx, the phase completes: the
//     phase advances and the pending count is reloaded with the expected
//     count. That an expect-tx can complete a phase is what an H200 does
//     (docs/model.md, "mbarrier objects"): the pages' "potentially
//     completing the current phase" is written only on the other two.
//   - cp.async.mbarrier.arrive without .noinc increments the pending count
//     before its asynchronous arrive-on.
//   - mbarrier.arrive_drop (9.7.13.15.14) first adds its transaction count
//     to the tx-count (.expect_tx), then lowers the expected arrival count
//     by its count, for the current and every later phase, then arrives
//     with that count: a phase it completes reloads the pending count with
//     the lowered expected count.
//   - mbarrier.inval (9.7.13.15.10) leaves no mbarrier state: its write
//     holds a plain value.
//
// An update of a location that holds no mbarrier state (an uninitialized
// object) is undefined in PTX: it leaves the value unchanged, and the
// catalog marks the event (MBAR_UNINIT) so that the model can say so.

// mbarUpdate computes the state an mbarrier update writes: op is "init"
// (a = count), "arrive" or "drop" (a = old state, b = count, c = tx),
// "expect" or "complete" (a = old state, b = tx) or "inc" (a = old state).
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
	case "drop":
		s.Tx += int32(c.N)
		s.Expected -= int32(b.N)
		s.Pending -= int32(b.N)
		s = completeIfDone(s)
	case "expect":
		s.Tx += int32(b.N)
		s = completeIfDone(s)
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
	return e.Instr.Op == litmus.OpMBarrier && e.Instr.MBarOp.IsUpdate()
}

// isMBarWait reports whether e is the read of an mbarrier test_wait or
// try_wait.
func (e *Event) isMBarWait() bool {
	return e.Kind == KindRead && e.Instr != nil && e.Instr.Op == litmus.OpMBarrier && e.Instr.MBarOp.IsWait()
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

// chainIndex is what chainHolds needs about the mbarrier updates of a
// combination of runs.
type chainIndex struct {
	// writeOf[k] is the write of the update read at depth k (-1 for the
	// other reads); readOf[w] the update read whose write is w (-1).
	writeOf []int
	readOf  []int
	// poll[k] is set for the final polls of spinning runs.
	poll []bool
}

// newChainIndex indexes the updates and polls of the combination, or
// returns nil when it has none.
func (s *comboSearch) newChainIndex() *chainIndex {
	x := s.x
	if len(x.FinalPolls) == 0 && !slices.Contains(s.updates, true) {
		return nil
	}
	ci := &chainIndex{writeOf: resize(nil, len(s.reads), -1), readOf: resize(nil, len(x.Events), -1), poll: make([]bool, len(s.reads))}
	depth := map[int]int{}
	for k, r := range s.reads {
		depth[r] = k
	}
	for _, p := range x.RMW {
		if k, ok := depth[p[0]]; ok && s.updates[k] {
			ci.writeOf[k] = p[1]
			ci.readOf[p[1]] = p[0]
		}
	}
	for _, p := range x.FinalPolls {
		if k, ok := depth[p]; ok {
			ci.poll[k] = true
		}
	}
	return ci
}

// chainHolds checks, as soon as the read at depth k reads write w, what
// mbarrierChainsHold checks of a complete choice: an update closes no
// cycle of updates and reads no write a final poll reads, and a final poll
// reads a write no update reads. A choice it rejects has no candidate.
func (s *comboSearch) chainHolds(k, w int) bool {
	ci := s.chains
	if ci == nil {
		return true
	}
	x := s.x
	if ci.poll[k] && s.takenBy[w] >= 0 {
		return false
	}
	own := ci.writeOf[k]
	if own < 0 {
		return true
	}
	for _, p := range x.FinalPolls {
		if x.RF[p] == w {
			return false
		}
	}
	// Follow the chain back from w: it must reach its root, or a read
	// still to choose, before it comes back to this update's write.
	for cur, steps := w, 0; steps <= len(s.reads); steps++ {
		if cur == own {
			return false
		}
		r := ci.readOf[cur]
		if r < 0 {
			return true
		}
		if cur = x.RF[r]; cur < 0 {
			return true
		}
	}
	return true
}

// OnlyMBarStates reports whether every write of location loc in x holds
// an mbarrier state: the initial write holds one (the location is declared
// an mbarrier), and every other write is an mbarrier.init or an update,
// which writes a state whenever it reads one. A read of loc then never
// returns a value no mbarrier.init wrote, whatever its reads-from.
func (x *Execution) OnlyMBarStates(loc int) bool {
	for i := range x.Events {
		w := &x.Events[i]
		if w.Kind != KindWrite || w.Loc != loc {
			continue
		}
		switch {
		case w.Thread < 0:
			if !w.Value.IsMBar {
				return false
			}
		case w.Sym.kind == symMBar:
		case w.Sym.kind == symConst && w.Sym.val.IsMBar:
		default:
			return false
		}
	}
	return true
}
