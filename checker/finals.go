package checker

import (
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// A location's final value is made of the bytes of the writes that come
// last in coherence order, byte by byte: a location that ld, st, atom or
// red access in parts has several segments (execution/bytes.go), and each
// segment has a final write of its own. The checker enumerates one final
// write per slot: per segment of each observed physical location, in the
// order the observables first name the locations. Candidate.Finals lists
// them in that order, so slotsOf can tell the slots back from the writes.

// finalSlot is one segment of an observed location.
type finalSlot struct {
	loc int
	seg execution.Segment
	// whole is set when the location has a single segment: every write
	// of the location covers it.
	whole bool
}

// observedSlots lists the slots of the observed locations.
func observedSlots(l *execution.Layout, obs []Observable) []finalSlot {
	var out []finalSlot
	seen := map[int]bool{}
	for _, o := range obs {
		if !o.IsLoc || seen[o.Loc] {
			continue
		}
		seen[o.Loc] = true
		segs := l.Locs[o.Loc].Segments()
		for _, sg := range segs {
			out = append(out, finalSlot{loc: o.Loc, seg: sg, whole: len(segs) == 1})
		}
	}
	return out
}

// slotsOf recovers the slots of a list of final writes: consecutive
// writes to one location are its segments, in order.
func slotsOf(x *execution.Execution, finals []int) []finalSlot {
	out := make([]finalSlot, 0, len(finals))
	for k := 0; k < len(finals); {
		loc := x.Events[finals[k]].Loc
		segs := x.Layout.Locs[loc].Segments()
		for _, sg := range segs {
			if k == len(finals) {
				break
			}
			out = append(out, finalSlot{loc: loc, seg: sg, whole: len(segs) == 1})
			k++
		}
	}
	return out
}

// covers reports whether write event w writes every byte of the slot.
func (fs finalSlot) covers(w *execution.Event) bool {
	return w.Kind == execution.KindWrite && w.Loc == fs.loc && w.Off <= fs.seg.Off && fs.seg.Off+fs.seg.Size <= w.Off+w.Size
}

// slotWrites lists, per slot, the writes of x that cover it.
func slotWrites(x *execution.Execution, slots []finalSlot) [][]int {
	out := make([][]int, len(slots))
	for k, fs := range slots {
		for i := range x.Events {
			if fs.covers(&x.Events[i]) {
				out[k] = append(out[k], i)
			}
		}
	}
	return out
}

// eachFinalChoice sets buf to each choice of final writes, one write of
// writes[k] for slot k, the first slot's choice varying fastest, and
// calls f after each; f returning false ends the walk. A slot without a
// write leaves no choice (every location's initial write rules it out).
func eachFinalChoice(writes [][]int, buf []int, f func() bool) {
	for _, w := range writes {
		if len(w) == 0 {
			return
		}
	}
	pick := make([]int, len(writes))
	for {
		for k := range writes {
			buf[k] = writes[k][pick[k]]
		}
		if !f() {
			return
		}
		k := 0
		for ; k < len(pick); k++ {
			pick[k]++
			if pick[k] < len(writes[k]) {
				break
			}
			pick[k] = 0
		}
		if k == len(pick) {
			return
		}
	}
}

// prunePastFinals is the order-search prune for a choice of final writes:
// a write is not the final one of its slot once coherence puts a write
// covering the slot after it. For a location of one segment, any write
// after it in coherence order covers it.
func prunePastFinals(m *Model, x *execution.Execution, slots []finalSlot, finals []int) rules.SolveOption {
	return rules.WithPrune(pastFinal(m, x, slots, finals))
}

// pastPrune keeps a candidate's pastFinal and its solve option for the
// next candidate: they read the execution, the slots and the final writes
// through what they were made with, so where those are the same (the
// search fills one execution and one buffer of final writes from
// candidate to candidate), they are the same test.
type pastPrune struct {
	x               *execution.Execution
	slots           *finalSlot
	finals          *int
	nSlots, nFinals int
	past            func(*rules.Instance) bool
	opt             rules.SolveOption
}

// of returns pastFinal(m, x, slots, finals) and its rules.WithPrune,
// made anew only when one of them is not what the last ones were made
// with (m is the run's model, the same every time).
func (p *pastPrune) of(m *Model, x *execution.Execution, slots []finalSlot, finals []int) (func(*rules.Instance) bool, rules.SolveOption) {
	s, f := firstOf(slots), firstOf(finals)
	if p.past == nil || p.x != x || p.slots != s || p.nSlots != len(slots) || p.finals != f || p.nFinals != len(finals) {
		p.x, p.slots, p.nSlots, p.finals, p.nFinals = x, s, len(slots), f, len(finals)
		p.past = pastFinal(m, x, slots, finals)
		p.opt = rules.WithPrune(p.past)
	}
	return p.past, p.opt
}

// firstOf is the address of a slice's first element, nil for an empty one.
func firstOf[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// pastFinal is prunePastFinals as a test of the instance's current orders,
// for the first len(finals) slots, with model m's relation of final writes
// (Model.finals). It also holds when a read of a
// spinning run's last iteration (Execution.LatestReads) reads a write that
// a write of its bytes follows in coherence order: under a fair scheduler
// an await that polls for ever eventually reads the last writes
// (docs/model.md, "Awaits and termination").
func pastFinal(m *Model, x *execution.Execution, slots []finalSlot, finals []int) func(*rules.Instance) bool {
	return func(in *rules.Instance) bool {
		co, err := in.Rel(CoherenceRelation)
		if err != nil {
			return false
		}
		last := co
		if m.finals != CoherenceRelation {
			if last, err = in.Rel(m.finals); err != nil {
				return false
			}
		}
		for k, w := range finals {
			row := last.Row(w)
			if slots[k].whole {
				if row.Any() {
					return true // a later write exists: w cannot be the final one
				}
				continue
			}
			for i := range x.Events {
				if row.Test(uint(i)) && slots[k].covers(&x.Events[i]) {
					return true
				}
			}
		}
		for _, r := range x.LatestReads {
			re := &x.Events[r]
			row := co.Row(x.RF[r])
			for i, ok := row.NextSet(0); ok; i, ok = row.NextSet(i + 1) {
				if we := &x.Events[i]; we.Loc == re.Loc && we.Off < re.Off+re.Size && re.Off < we.Off+we.Size {
					return true
				}
			}
		}
		return false
	}
}

// slotRanges gives, per observable, the range of slots of its location
// ([0, 0) for registers).
func slotRanges(obs []Observable, slots []finalSlot) [][2]int {
	out := make([][2]int, len(obs))
	for i, o := range obs {
		if !o.IsLoc {
			continue
		}
		lo := 0
		for lo < len(slots) && slots[lo].loc != o.Loc {
			lo++
		}
		hi := lo
		for hi < len(slots) && slots[hi].loc == o.Loc {
			hi++
		}
		out[i] = [2]int{lo, hi}
	}
	return out
}
