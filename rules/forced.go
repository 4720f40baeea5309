package rules

import (
	"github.com/ptxmm/ptxmm/datalog"
	payoffs "github.com/ptxmm/ptxmm/internal/payoff"
	"github.com/ptxmm/ptxmm/relations"
)

// Some checks decide the direction of an order's pairs before the search
// branches on them. For an order that must relate every pair, a monotone
// check that one direction fails outright (and fails in every larger
// choice, being monotone) forces the pair the other way, and a pair failing
// both ways leaves no consistent choice.
//
// Whether a direction fails outright is worked out from the rules, without
// evaluating the program: the compiler finds the ways from the order to
// each monotone check's relation, chains of rules each of which derives a
// tuple of its head from one tuple of the relation before (a union copies
// it, an intersection or a difference filters it, a composition extends it
// with the tuples of the other relation; ways.go). Following every way
// from the one new pair b -> a, over the relations as they are, gives
// tuples the check's relation gains with it: the direction fails when one
// of them closes a cycle with what the relation holds (acyclic), relates an
// atom to itself (irreflexive), or exists at all (empty). The relations
// only grow with the orders, so what the ways give is part of what the
// direction adds, and a failure found so is a failure: coherence over
// program-ordered writes, coherence against a read of a later write (from
// -reads), and Fence-SC against causality are all found this way.

// forcing is a monotone check an order's pairs reach, with the ways they
// reach it.
type forcing struct {
	check *checkPlan
	ways  []way
	// index numbers the program's forcings, for the search's statistics.
	index int
}

// planForcing finds, for every order that relates all its pairs, the
// monotone checks its pairs reach through ways the forcing can follow.
func (p *Program) planForcing() {
	var readers [][]bodyAtom
	reaching := map[relID][]bool{} // by check relation: the orders share them
	for _, op := range p.orders {
		if op.order.Partial {
			continue
		}
		steps := map[bodyAtom]*wayStep{}
		for _, c := range p.checks {
			if !c.monotone || p.rels[c.rel].arity != 2 {
				continue
			}
			if readers == nil {
				readers = p.wayReaders()
			}
			reaches, ok := reaching[c.rel]
			if !ok {
				reaches = p.reachingTo(c.rel)
				reaching[c.rel] = reaches
			}
			if ws := p.waysTo(op.rel, c.rel, readers, reaches, steps); len(ws) > 0 {
				for i := range ws {
					ws[i].index = p.numWays
					p.numWays++
					if i > 0 {
						ws[i].shared = sharedSteps(ws[i-1].steps, ws[i].steps)
					}
				}
				op.forcings = append(op.forcings, forcing{check: c, ways: ws, index: p.numForcings})
				p.numForcings++
			}
		}
	}
}

// sharedSteps returns how many first steps two ways have in common.
func sharedSteps(a, b []*wayStep) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return k
}

// indexWays lists every way of the program by its index, for follow.
func (p *Program) indexWays() {
	p.ways = make([]*way, p.numWays)
	for _, op := range p.orders {
		for _, f := range op.forcings {
			for i := range f.ways {
				p.ways[f.ways[i].index] = &f.ways[i]
			}
		}
	}
}

// forcedPairs lists the pairs among pairs that are unrelated in the order
// and forced, each in its forced direction. A pair forced both ways is
// listed in one of them: the state the forced pairs lead to fails then.
// It lists none where forcing the pairs does not pay (worthForcing).
func (s *solver) forcedPairs(op *orderPlan, pairs [][2]int) [][2]int {
	in := s.in
	in.current()
	o := in.stores[op.rel].rel
	if !s.worthForcing(op, o, pairs) {
		return nil
	}
	out := s.forced[:0]
	defer func() { s.forced = out[:0] }()
	// done marks the pairs an earlier check forced, which the later ones
	// need not follow; the marks are taken off again at the end (out
	// lists them), which costs less than clearing the relation.
	if s.done == nil || s.done.N() != in.n {
		in.growScratch(relBytes(in.n))
		s.done = relations.NewRel(in.n)
	}
	done := s.done
	defer func() {
		for _, p := range out {
			done.Remove(min(p[0], p[1]), max(p[0], p[1]))
		}
	}()
	for _, f := range op.forcings {
		s.reach = nil
		ways := s.worthWays(f)
		if len(ways) == 0 {
			continue
		}
		for _, p := range pairs {
			a, b := p[0], p[1]
			if o.Has(a, b) || o.Has(b, a) || done.Has(a, b) {
				continue
			}
			// Once one direction fails, the other is oriented without
			// following its ways: if it fails too, the test of the state
			// the forced pairs lead to says so.
			ab := s.failsOutright(f, ways, a, b)
			ba := !ab && s.failsOutright(f, ways, b, a)
			switch {
			case ab:
				out = append(out, [2]int{b, a})
			case ba:
				out = append(out, [2]int{a, b})
			}
			if ab || ba {
				done.Add(a, b)
			}
		}
		if s.reach != nil {
			in.pool.putRel(s.reach)
			s.reach = nil
		}
	}
	return out
}

// Forcing pays where it spares tested states, and costs a follow of each
// way worth following for each direction of each unrelated pair. With few
// unrelated pairs, the dive that follows tests them in a few states, and
// forcing can spare at most those; and each test starts with the ways'
// statistics empty (Reset), so every way is followed in every direction
// until its warm-up ends (payoff.ForcingWays), which a test of a few
// candidates never reaches. On the 243-test small suite, whose orders have
// at most three pairs, the forcing followed 134,016 ways to spare 72
// tested states, a tenth of the suite's instructions. So pairs are forced:
//
//   - never when fewer than minForcingPairs are unrelated: one pair's dive
//     tests at most two states, and forcing it saves at most one;
//   - always from forcingPairs unrelated pairs on;
//   - in between, only once the order's forcing has been asked
//     fewPairsWarmup times since the instance was reset: in a test of
//     many candidates, where the ways' warm-up ends and forcing a few
//     pairs still spares states (never forcing them costs examples/ 0.7%
//     more instructions).
//
// The consistent choice found is the same either way: forcing only prunes
// choices that fail.
const (
	minForcingPairs = 2
	forcingPairs    = 4
	fewPairsWarmup  = 16
)

// worthForcing reports whether forcedPairs follows the ways for the
// pairs of order op left unrelated in o.
func (s *solver) worthForcing(op *orderPlan, o *relations.Rel, pairs [][2]int) bool {
	u := unrelated(o, pairs, forcingPairs)
	if u >= forcingPairs || u < minForcingPairs {
		return u >= forcingPairs
	}
	s.growStats()
	fs := &s.forcings[op.forcings[0].index]
	fs.fewPairs++
	return fs.fewPairs > fewPairsWarmup
}

// unrelated counts the pairs order o leaves unrelated, up to most.
func unrelated(o *relations.Rel, pairs [][2]int, most int) int {
	n := 0
	for _, p := range pairs {
		if n == most {
			break
		}
		if !o.Has(p[0], p[1]) && !o.Has(p[1], p[0]) {
			n++
		}
	}
	return n
}

// failsOutright reports whether the pair a -> b of the order fails check
// f whatever else is chosen: a tuple it adds to the check's relation along
// one of ways (f's, those worth following) fails the check.
func (s *solver) failsOutright(f forcing, ways []*way, a, b int) bool {
	s.wayScratch.forget()
	for _, w := range ways {
		st := &s.ways[w.index]
		was := st.worth()
		st.follows++
		fails := s.failsAlong(f, w, a, b)
		if fails {
			st.hits++
		}
		if st.worth() != was {
			s.forcings[f.index].stale = true
		}
		if fails {
			return true
		}
	}
	return false
}

// failsAlong reports whether the tuples the pair a -> b gives along way w
// fail check f.
func (s *solver) failsAlong(f forcing, w *way, a, b int) bool {
	if f.check.check.Kind == datalog.CheckIrreflexive {
		return s.in.followToDiagonal(w, a, b, &s.wayScratch)
	}
	tuples := s.in.follow(w, len(w.steps), a, b, &s.wayScratch)
	if f.check.check.Kind != datalog.CheckAcyclic {
		return len(tuples) > 0 // empty
	}
	for _, t := range tuples {
		if x, y := t[0], t[1]; x == y || s.reachOf(f).Has(y, x) {
			return true
		}
	}
	return false
}

// reachOf returns the transitive closure of the relation of acyclic
// check f, computed on first use in a forcedPairs call (s.reach).
func (s *solver) reachOf(f forcing) *relations.Rel {
	if s.reach == nil {
		s.reach = s.in.pool.rel()
		s.reach.CopyFrom(s.in.stores[f.check.rel].rel)
		s.reach.TransitiveClosure()
	}
	return s.reach
}

// wayStat counts the directions of pairs a way was followed for, and
// those it found failing.
type wayStat struct {
	follows, hits int
}

// worth reports whether the way is followed in every forcedPairs call:
// while its policy (payoff.ForcingWays) says it pays, in its first
// directions and while it finds failures often enough.
func (st wayStat) worth() bool {
	return payoffs.ForcingWays.Policy().Pays(int64(st.follows), int64(st.hits))
}

// forcingStat counts the forcedPairs calls that considered a forcing, and
// keeps the ways worth following in them: the list changes only when a
// way's statistics cross its bound (stale), so it is not built again at
// every call. The first forcing of each order also counts the calls for
// that order with few unrelated pairs (worthForcing).
type forcingStat struct {
	calls    int
	active   []*way
	stale    bool
	fewPairs int
}

// growStats makes room for the statistics of every way and forcing of the
// program.
func (s *solver) growStats() {
	if len(s.ways) < s.in.p.numWays {
		s.ways = make([]wayStat, s.in.p.numWays)
	}
	if len(s.forcings) < s.in.p.numForcings {
		s.forcings = make([]forcingStat, s.in.p.numForcings)
		for i := range s.forcings {
			s.forcings[i].stale = true
		}
	}
}

// worthWays returns the ways of forcing f worth following in one
// forcedPairs call. Following a way costs about as much as the tuples it
// passes, a small part of a search node, and a failure found spares nodes:
// most directions do not fail, but a way that finds a failure for one
// direction in a thousand still pays. One that finds none in its first 64
// directions (a way through atomic operations in a test without any, say)
// is followed in one call of 256 only (payoff.ForcingWays has these
// constants); a way skipped only finds fewer
// forced pairs. Deciding per call, not per direction, keeps a model with
// hundreds of ways (the PTX model's checks are reached from fence_sc along
// many chains of cause) from spending its search on asking.
func (s *solver) worthWays(f forcing) []*way {
	s.growStats()
	fs := &s.forcings[f.index]
	fs.calls++
	policy := payoffs.ForcingWays.Policy()
	if every := int(policy.Every); fs.calls%every == 0 || fs.calls%every == 1 {
		// Every way once in Every calls; the list of the call before
		// holds them all.
		fs.stale = true
	}
	if !fs.stale {
		return fs.active
	}
	fs.active = fs.active[:0]
	for i := range f.ways {
		w := &f.ways[i]
		st := s.ways[w.index]
		if policy.Worth(int64(st.follows), int64(st.hits), int64(fs.calls)) {
			fs.active = append(fs.active, w)
		}
	}
	fs.stale = false
	return fs.active
}
