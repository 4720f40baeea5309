package execution

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// This file decides whether a limit of a fair infinite execution
// (fair_limit.go) survives: the greatest fixed point of the values the
// threads may write, and what a surviving limit is.

// possible reports whether the limit (each location's, and the threads
// in the set forever running for ever, the others finishing) survives:
// the greatest fixed point of the values that may be written leaves each
// thread a path to its end or to a component of steps that read as the
// limit says, and the limit's values are written where it says.
func (l *limitProgram) possible(limit []locLimit, forever int) bool {
	nloc, nth := len(l.values), len(l.threads)
	// others[i][k]: the values of k that thread i may read from another
	// thread's write (it reads its own last write, or the initial value
	// before it writes k, in any case: limitEdge.own).
	others := make([][]uint64, nth)
	mine := make([][]uint64, nth) // the values each thread writes on its paths
	// late[i][k]: for a location written for ever, the values of it that
	// thread i may read in the limit from another thread's write: from
	// some point on, every read of it reads a write made in a component
	// (from-read is prefix-finite, and only finitely many writes are made
	// elsewhere), so one of another thread that runs for ever, or its own
	// last write.
	late := make([][]uint64, nth)
	ownComps := make([]limitComponents, nth) // each thread's components
	for i := range others {
		others[i], mine[i], late[i] = make([]uint64, nloc), make([]uint64, nloc), make([]uint64, nloc)
		for k := range nloc {
			others[i][k] = 1<<len(l.values[k]) - 1
			late[i][k] = others[i][k]
		}
	}
	written := make([]uint64, nloc) // on some thread's path
	var comps limitComponents       // of the threads that run for ever
	targets := make([][]bool, nth)
	paths := make([][]bool, nth) // the states on a path to a target
	for {
		comps.reset(nloc)
		for i, lt := range l.threads {
			ok := l.readable(others[i])
			reach := lt.reach(0, ok)
			var target []bool
			if forever>>i&1 != 0 {
				ownComps[i].reset(nloc)
				target = lt.stays(reach, inLimit(limit, ok, late[i]), &ownComps[i])
				comps.add(&ownComps[i])
			} else {
				target = make([]bool, len(lt.edges))
				for v := range target {
					target[v] = reach[v] && lt.final[v]
				}
			}
			if !slices.Contains(target, true) {
				return false
			}
			back := lt.coreach(reach, target, ok)
			targets[i], paths[i] = target, back
			clear(mine[i])
			for v, es := range lt.edges {
				for _, e := range es {
					if back[v] && back[e.to] && ok(e) && e.wloc >= 0 {
						mine[i][e.wloc] |= 1 << e.wval
					}
				}
			}
		}
		same := true
		clear(written)
		for i := range others {
			for k := range nloc {
				written[k] |= mine[i][k]
				var next uint64
				for j := range mine {
					if j != i {
						next |= mine[j][k]
					}
				}
				same = same && next == others[i][k]
				others[i][k] = next
				next = 0
				for j := range ownComps {
					if j != i && forever>>j&1 != 0 {
						next |= ownComps[j].writes[k]
					}
				}
				same = same && next == late[i][k]
				late[i][k] = next
			}
		}
		if same {
			break
		}
	}
	for k, lim := range limit {
		if lim.forever {
			if lim.often&^(written[k]&comps.writes[k]) != 0 || !comps.rmwRead(k, lim.often) || !l.entered(k, lim.often, others, targets, paths) {
				return false
			}
			continue
		}
		if !l.lastWrite(k, lim.last, targets) || !l.entered(k, 1<<lim.last, others, targets, paths) {
			return false
		}
	}
	// The runs with one location's accesses in order, first without
	// the writes of the others (fewer states), then with them.
	for _, writes := range []bool{false, true} {
		for k := range limit {
			if !l.sequenced(k, limit, forever, others, late, paths, writes) {
				return false
			}
		}
	}
	return true
}

// inLimit is the steps a thread that runs for ever may take after the
// limit point: those ok allows that write only locations written for ever,
// and only values they are written for ever, and read a location written
// finitely often only at its last value and one written for ever only at
// a value written for ever, its own last write or, from another thread,
// one of late.
func inLimit(limit []locLimit, ok func(limitEdge) bool, late []uint64) func(limitEdge) bool {
	return func(e limitEdge) bool {
		if !ok(e) || e.wloc >= 0 && limit[e.wloc].often>>e.wval&1 == 0 {
			return false
		}
		if e.rloc < 0 {
			return true
		}
		if lim := limit[e.rloc]; lim.forever {
			return lim.often>>e.rval&1 != 0 && (e.own || late[e.rloc]>>e.rval&1 != 0)
		}
		return limit[e.rloc].last == e.rval
	}
}

// readable is the steps a thread may take when others are the values it
// may read from other threads' writes.
func (l *limitProgram) readable(others []uint64) func(limitEdge) bool {
	return func(e limitEdge) bool { return e.rloc < 0 || e.own || others[e.rloc]>>e.rval&1 != 0 }
}

// describe says what a surviving limit is: which threads run for ever,
// and what each location's limit is.
func (l *limitProgram) describe(limit []locLimit, forever int) string {
	var who []string
	for i, th := range l.p.t.Threads {
		if forever>>i&1 != 0 {
			who = append(who, th.Name)
		}
	}
	var locs []string
	for k, lim := range limit {
		if !lim.forever {
			locs = append(locs, fmt.Sprintf("%s's last value is %d", l.p.locs[k], l.values[k][lim.last]))
			continue
		}
		var vs []string
		for v := range l.values[k] {
			if lim.often>>v&1 != 0 {
				vs = append(vs, fmt.Sprint(l.values[k][v]))
			}
		}
		locs = append(locs, fmt.Sprintf("%s is written %s for ever", l.p.locs[k], strings.Join(vs, " and ")))
	}
	verb := "runs"
	if bits.OnesCount(uint(forever)) > 1 {
		verb = "run"
	}
	return fmt.Sprintf("%s %s for ever while %s", strings.Join(who, " and "), verb, strings.Join(locs, " and "))
}
