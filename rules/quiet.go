package rules

import (
	"math/bits"

	"github.com/ptxmm/ptxmm/datalog"
)

// Quiet strata. A test without tensor memory, asynchronous proxies or
// read-modify-writes leaves the inputs that speak of them empty, and every
// stratum built on those inputs derives nothing: over a hundred of the PTX
// model's strata on a message-passing test. Asking each of them whether it
// derives nothing (derivesNothing) costs a visit per stratum per
// evaluation; the quiet strata are found once for the empty inputs as they
// are, and the evaluation passes over them as a group while those inputs
// stay empty.
//
// A stratum is dead for a set of empty inputs when each rule that starts
// its evaluation (its starters) has a positive atom over one of those
// inputs or over a relation of a dead stratum: whatever the other
// relations hold, it derives nothing, and its relations stay empty. A dead
// stratum is quiet once its relations are empty: being dirty, it would
// only be cleared (runDirty), which changes nothing, so the evaluation
// marks it clean without visiting it, and its readers stay as they are.
// A quiet stratum's relations cannot gain a tuple while the inputs stay
// empty: only its rules write them, and they derive nothing.

// quietStrata is what an instance knows of its quiet strata.
type quietStrata struct {
	// known says whether dead and the watched inputs are computed (for
	// the empty inputs at watchAt's versions).
	known bool
	// dead holds the dead strata, quiet the dead ones known empty, and
	// skip the strata that are neither (where evaluation visits).
	dead, quiet, skip strataBits
	// neededSkip is the needed strata (searchPlan) that are not quiet.
	neededSkip strataBits
	// watch lists the empty inputs the dead strata rely on, and watchAt
	// their versions (plus one) when they were last seen empty; watched[r]
	// says whether r is in watch, and stale is set when the version of a
	// watched input moved since (moved).
	watch   []relID
	watchAt []uint64
	watched []bool
	stale   bool
	// inputs lists the inputs some starter reads positively, and recheck
	// is set after Reset, when an input that was not empty before may be
	// empty now (keptOverReset).
	inputs  []relID
	listed  []bool
	recheck bool
	// starved says, per relation, what emptyInput found while the dead
	// strata are computed: 1 an empty input, -1 a relation that is not
	// (an input holding tuples, or not an input), 0 not asked yet; an
	// input is read by many starters, and asked once. Scratch.
	starved []int8
	// plans, when set, keeps the dead strata per set of empty inputs
	// (quiet_plans.go), and key is scratch for its keys.
	plans *QuietPlans
	key   []byte
	// plan is the plan of plans the dead strata were found with, nil
	// without plans; planStarved is its starved rules once this instance
	// watches the inputs they rest on (planFound), nil before; starvedNow
	// is planStarved while it holds (the plan is the inputs' as they are, and
	// every dead stratum is quiet), nil otherwise.
	plan        *quietPlan
	planStarved []uint64
	starvedNow  []uint64
}

// forgetQuiet drops what the instance knows of its quiet strata (after an
// evaluation was stopped).
func (in *Instance) forgetQuiet() {
	q := &in.quiet
	q.known, q.plan, q.planStarved, q.starvedNow = false, nil, nil, nil
	clear(q.dead)
	clear(q.quiet)
}

// keepQuietOverReset keeps the dead strata over Reset, which empties every
// relation and moves every version on: the watched inputs are empty, and
// every dead stratum is quiet. The next test often leaves the same inputs
// empty; where it leaves an input empty that was not, the first
// evaluation finds the dead strata again (quietValid), as a new instance's
// would.
func (in *Instance) keepQuietOverReset() {
	q := &in.quiet
	if !q.known {
		return
	}
	for k, r := range q.watch {
		q.watchAt[k] = in.versions[r] + 1
	}
	copy(q.quiet, q.dead)
	q.stale, q.recheck = false, true
	in.quietChanged()
}

// moved notes that the version of relation r changed: every change to an
// input's tuples goes through it.
func (q *quietStrata) moved(r relID) {
	if q.watched != nil && q.watched[r] {
		q.stale, q.starvedNow = true, nil
	}
}

// quietValid reports whether the dead and quiet strata are still those of
// the inputs as they are: no watched input changed since they were found.
func (in *Instance) quietValid() bool {
	q := &in.quiet
	if q.recheck {
		q.recheck = false
		for _, r := range q.inputs {
			if !q.watched[r] && in.stores[r].isEmpty() {
				return false
			}
		}
	}
	if !q.stale {
		return true
	}
	for k, r := range q.watch {
		if q.watchAt[k] != in.versions[r]+1 {
			return false
		}
	}
	q.stale = false
	q.starvedNow = q.starvedHold()
	return true
}

// quietSkip returns the strata the evaluation visits among mask's (nil:
// every stratum): those that are not quiet. The dead strata are computed
// again when an input they relied on is no longer empty.
func (in *Instance) quietSkip(needed bool) strataBits {
	q := &in.quiet
	if !q.known || !in.quietValid() {
		in.findDead()
	}
	if needed {
		return q.neededSkip
	}
	return q.skip
}

// findDead computes the dead strata for the inputs that are empty now; a
// dead stratum is quiet when its relations are empty.
func (in *Instance) findDead() {
	p := in.p
	q := &in.quiet
	n := len(p.strata)
	if q.dead == nil {
		q.dead, q.quiet = newStrataBits(n), newStrataBits(n)
		q.skip, q.neededSkip = newStrataBits(n), newStrataBits(n)
		q.starved = make([]int8, len(p.rels))
		q.watched = make([]bool, len(p.rels))
		q.listed = make([]bool, len(p.rels))
	}
	for _, r := range q.watch {
		q.watched[r] = false
	}
	clear(q.dead)
	clear(q.quiet)
	q.plan, q.planStarved, q.starvedNow = nil, nil, nil
	q.watch, q.watchAt = q.watch[:0], q.watchAt[:0]
	var key []byte
	found := false
	if q.plans != nil {
		found, key = in.planFound()
	}
	if !found {
		clear(q.starved)
		in.findDeadStrata()
		if q.plans != nil {
			in.keepPlan(key)
		}
	}
	for k, w := range q.dead {
		for ; w != 0; w &= w - 1 {
			i := k<<6 + bits.TrailingZeros64(w)
			if in.relsEmpty(p.strata[i]) {
				q.quiet.set(i)
			}
		}
	}
	q.known, q.stale, q.recheck = true, false, false
	in.quietChanged()
}

// relsEmpty reports whether every relation of stratum s is empty, asking
// the emptiness cache first (after Reset, it knows them all empty).
func (in *Instance) relsEmpty(s *stratum) bool {
	for _, r := range s.rels {
		if c := in.empty[r]; c.is && c.at == in.versions[r]+1 {
			continue
		}
		if !in.stores[r].isEmpty() {
			return false
		}
	}
	return true
}

// findDeadStrata sets the dead strata for the inputs that are empty now,
// watching those it finds empty.
func (in *Instance) findDeadStrata() {
	p := in.p
	q := &in.quiet
	for i, s := range p.strata {
		dead := true
		for _, rp := range s.starters {
			// A starter reads no relation of its own stratum: each of its
			// positive atoms is of an earlier stratum, or not derived.
			starved := false
			for _, r := range rp.positive {
				t := p.stratumOf[r]
				if (t < 0 && (q.starved[r] > 0 || q.starved[r] == 0 && in.emptyInput(r))) || (t >= 0 && q.dead.has(int(t))) {
					starved = true
					break
				}
			}
			if !starved {
				dead = false
				break
			}
		}
		if !dead {
			continue
		}
		q.dead.set(i)
	}
}

// emptyInput reports whether r, not asked yet (starved[r] is 0), is an
// empty input, for findDead, keeping the answer in starved (an input found
// empty is watched, one found otherwise listed in inputs).
func (in *Instance) emptyInput(r relID) bool {
	q := &in.quiet
	q.starved[r] = -1
	if in.p.rels[r].kind != datalog.RelInput {
		return false
	}
	if !in.stores[r].isEmpty() {
		q.listInput(r)
		return false
	}
	q.starved[r] = 1
	in.watchInput(r)
	return true
}

// watchInput watches input r, empty at its version now: the dead strata
// rely on it staying so (quietValid).
func (in *Instance) watchInput(r relID) {
	q := &in.quiet
	q.watched[r] = true
	q.watch = append(q.watch, r)
	q.watchAt = append(q.watchAt, in.versions[r]+1)
}

// listInput lists input r, which holds tuples, once in inputs: after Reset
// it may be empty (quietValid's recheck).
func (q *quietStrata) listInput(r relID) {
	if !q.listed[r] {
		q.listed[r] = true
		q.inputs = append(q.inputs, r)
	}
}

// markQuiet notes that dead stratum i was cleared (runDirty): it is quiet
// from now on.
func (in *Instance) markQuiet(i int) {
	q := &in.quiet
	if q.known && q.dead.has(i) && !q.quiet.has(i) {
		q.quiet.set(i)
		in.quietChanged()
	}
}

// quietChanged computes the masks of the strata to visit from quiet, and
// whether every dead stratum is quiet.
func (in *Instance) quietChanged() {
	q := &in.quiet
	n := len(in.p.strata)
	needed := in.p.search.neededBits
	for k := range q.skip {
		w := ^q.quiet[k]
		if k == n>>6 && n&63 != 0 {
			w &= 1<<uint(n&63) - 1
		}
		q.skip[k] = w
		q.neededSkip[k] = w & needed[k]
	}
	q.starvedNow = q.starvedHold()
}

// starvedHold returns the plan's starved rules when they hold (quietPlan):
// the dead strata are known for the inputs as they are, and every one is
// quiet; nil otherwise.
func (q *quietStrata) starvedHold() []uint64 {
	if q.planStarved == nil || !q.known || q.stale {
		return nil
	}
	for k, w := range q.dead {
		if w&^q.quiet[k] != 0 {
			return nil
		}
	}
	return q.planStarved
}

// passQuiet marks the dirty quiet strata among mask's clean, as if they
// had been recomputed (each counts a run): they hold what they would.
func (in *Instance) passQuiet(mask strataBits) {
	q := &in.quiet
	for k, w := range in.sched.dirty {
		w &= q.quiet[k]
		if mask != nil {
			w &= mask[k]
		}
		if w == 0 {
			continue
		}
		in.sched.dirty[k] &^= w
		for ; w != 0; w &= w - 1 {
			in.sched.runs[k<<6+bits.TrailingZeros64(w)]++
		}
	}
}
