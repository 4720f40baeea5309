package rules

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"iter"
)

// A way is a chain of rules from an order to a check's relation along which
// one new pair of the order yields tuples of the check's relation
// (forced.go). Each step is a rule with two head variables, whose body
// atoms have variables for arguments, at most three of them, and over
// relations of one or two columns. One body atom is bound to a tuple of the
// relation before; the others are filters, or at most one of them, sharing
// a bound variable with it, enumerates the one variable left free (a
// composition).

// maxWayLength, maxWays and maxWaySteps bound the search for ways: the PTX
// model's longest is about sixteen rules, a few dozen ways reach its
// checks, and finding them takes a few hundred steps; a model with many
// long chains gets some of its ways, which only finds fewer forced pairs.
const (
	maxWayLength = 16
	maxWays      = 64
	maxWaySteps  = 20000
)

// way is a chain of steps, from the order to the check's relation, and
// its index among all the program's ways (for the statistics a search
// keeps of them). The ways of one order share their steps.
type way struct {
	steps []*wayStep
	index int
	// shared is how many first steps the way has in common with the way
	// before it in its forcing's list (0 for the first): the search finds
	// them depth first, so neighbours share most of their steps.
	shared int
}

// wayStep derives tuples of a rule's head from a tuple of the atom at
// body index occ.
type wayStep struct {
	rp *rulePlan
	// head[0], head[1] are the variables of the head (indices into the
	// rule's variables, at most three); bound[0], bound[1] those of the
	// bound atom.
	head, bound [2]int
	// free is the variable the bound atom leaves free and the head or a
	// filter needs, or -1; enum is the atom that enumerates it, and
	// enumAt is the position of the free variable in it.
	free, enumAt int
	enum         wayAtom
	// filters are the other atoms.
	filters []wayAtom
}

// wayAtom is a body atom of a step: its relation, its variables (one or
// two), and whether it is negated.
type wayAtom struct {
	rel  relID
	vars []int
	neg  bool
}

// waysTo returns the ways from order o to relation target, at most maxWays
// of them, found within maxWaySteps steps of the search for them. steps
// memoizes planStep for order o across the targets of one order (nil for
// an atom that is no step): the search reaches the same body atoms along
// many paths.
func (p *Program) waysTo(o, target relID, readers [][]bodyAtom, reaches []bool, steps map[bodyAtom]*wayStep) []way {
	if o == target {
		return []way{{}} // the check's relation is the order: no step
	}
	if !reaches[o] {
		return nil
	}
	var out []way
	var path []*wayStep
	budget := maxWaySteps
	var walk func(r relID)
	walk = func(r relID) {
		if len(out) >= maxWays || len(path) >= maxWayLength {
			return
		}
		for _, ba := range readers[r] {
			rp := ba.rp
			if !reaches[rp.head] || budget <= 0 {
				continue
			}
			budget--
			st, seen := steps[ba]
			if !seen {
				if planned, ok := p.planStep(rp, ba.occ, o); ok {
					st = &planned
				}
				steps[ba] = st
			}
			if st == nil {
				continue
			}
			path = append(path, st)
			if rp.head == target {
				out = append(out, way{steps: append([]*wayStep(nil), path...)})
			} else {
				walk(rp.head)
			}
			path = path[:len(path)-1]
		}
	}
	walk(o)
	return out
}

// bodyAtom is a positive atom of a rule's body: the rule and the atom's
// index in it.
type bodyAtom struct {
	rp  *rulePlan
	occ int
}

// wayReaders lists, for each relation, the positive body atoms over it in
// rules of a later stratum than its own: the steps a way can take from it.
// A recursive rule's atoms over its own stratum are left out: it adds to
// its head from the head itself, which a way's tuples are already in.
func (p *Program) wayReaders() [][]bodyAtom {
	out := make([][]bodyAtom, len(p.rels))
	for _, s := range p.strata {
		for _, rp := range s.rules {
			for occ, l := range rp.rule.Body {
				a, ok := l.(*datalog.Atom)
				if !ok || a.Negated {
					continue
				}
				r := rp.litRel[occ]
				if p.rels[r].stratum == p.rels[rp.head].stratum {
					continue
				}
				out[r] = append(out[r], bodyAtom{rp: rp, occ: occ})
			}
		}
	}
	return out
}

// reachingTo returns the relations target depends on positively through
// binary relations, target included: those a way to it can pass.
func (p *Program) reachingTo(target relID) []bool {
	out := make([]bool, len(p.rels))
	out[target] = true
	stack := []relID{target}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for rp := range p.rulesOf(r) {
			for i, b := range rp.bodyRels {
				if !rp.bodyNeg[i] && !out[b] && p.rels[b].arity == 2 {
					out[b] = true
					stack = append(stack, b)
				}
			}
		}
	}
	return out
}

// rulesOf yields the rules defining a derived relation.
func (p *Program) rulesOf(r relID) iter.Seq[*rulePlan] {
	return func(yield func(*rulePlan) bool) {
		st := p.rels[r].stratum
		if st < 0 {
			return
		}
		for _, rp := range p.strata[st].rules {
			if rp.head == r && !yield(rp) {
				return
			}
		}
	}
}

// planStep describes rule rp as a step from its atom at body index occ,
// when it has the shape a step needs. A negated atom over a relation that
// depends on order o cannot be a filter (its current value would not bound
// the later ones); the check would not be monotone anyway.
func (p *Program) planStep(rp *rulePlan, occ int, o relID) (wayStep, bool) {
	r := rp.rule
	if len(r.Head.Args) != 2 {
		return wayStep{}, false
	}
	vars := map[string]int{}
	index := func(t datalog.Term) (int, bool) {
		if t.Kind != datalog.TermVar {
			return 0, false
		}
		if i, ok := vars[t.Name]; ok {
			return i, true
		}
		if len(vars) == 3 {
			return 0, false
		}
		vars[t.Name] = len(vars)
		return vars[t.Name], true
	}
	var atoms []wayAtom
	occAt := -1
	for i, l := range r.Body {
		a, ok := l.(*datalog.Atom)
		if !ok || len(a.Args) < 1 || len(a.Args) > 2 {
			return wayStep{}, false
		}
		wa := wayAtom{rel: rp.litRel[i], neg: a.Negated}
		for _, t := range a.Args {
			v, ok := index(t)
			if !ok {
				return wayStep{}, false
			}
			wa.vars = append(wa.vars, v)
		}
		if wa.neg && (p.evenDeps[wa.rel].has(o) || p.oddDeps[wa.rel].has(o)) {
			return wayStep{}, false
		}
		if i == occ {
			if len(wa.vars) != 2 {
				return wayStep{}, false
			}
			occAt = len(atoms)
		}
		atoms = append(atoms, wa)
	}
	st := wayStep{rp: rp, free: -1}
	for k, t := range r.Head.Args {
		v, ok := index(t)
		if !ok {
			return wayStep{}, false
		}
		st.head[k] = v
	}
	occAtom := atoms[occAt]
	st.bound = [2]int{occAtom.vars[0], occAtom.vars[1]}
	isBound := func(v int) bool { return v == st.bound[0] || v == st.bound[1] }
	for v := range len(vars) {
		if !isBound(v) {
			if st.free >= 0 {
				return wayStep{}, false // two free variables
			}
			st.free = v
		}
	}
	for k, a := range atoms {
		if k == occAt {
			continue
		}
		// The enumerating atom is over a relation of an earlier stratum:
		// one of the rule's own stratum (a closure's own tuples) would
		// re-derive what the order's closure and the check's already hold,
		// at the cost of a tuple per atom it reaches.
		if st.free >= 0 && st.enum.vars == nil && !a.neg && len(a.vars) == 2 && p.rels[a.rel].stratum != p.rels[rp.head].stratum {
			if at := enumPosition(a, st.free, isBound); at >= 0 {
				st.enum, st.enumAt = a, at
				continue
			}
		}
		st.filters = append(st.filters, a)
	}
	if st.free >= 0 && st.enum.vars == nil {
		return wayStep{}, false
	}
	return st, true
}

// enumPosition returns the position of free in binary atom a when its other
// argument is bound, or -1.
func enumPosition(a wayAtom, free int, isBound func(int) bool) int {
	switch {
	case a.vars[0] == free && a.vars[1] != free && isBound(a.vars[1]):
		return 0
	case a.vars[1] == free && a.vars[0] != free && isBound(a.vars[0]):
		return 1
	}
	return -1
}

// wayScratch holds the tuples a way's steps pass on, and marks them to
// drop repeated ones. It keeps the tuples of each step of the last way
// followed from one pair, so that the next way from the same pair, which
// shares a prefix of its steps with it, takes those from here instead of
// computing them again.
type wayScratch struct {
	seen *relations.Rel
	// last is the way whose tuples levels holds, followed from the pair
	// from over the relations as they are: levels[i] the tuples after its
	// first i+1 steps, for i < depth; gaveUp says that it gave up at the
	// last of those (levels[depth-1] is empty). nil when nothing is kept.
	last   *way
	from   [2]int
	depth  int
	gaveUp bool
	levels [][][2]int
	// first holds the pair, the tuples before the first step; one holds
	// a single tuple and tail the tuples of a last step, for
	// followToDiagonal.
	first, one [1][2]int
	tail       [][2]int
}

// forget drops the tuples kept, when the relations may have changed.
func (sc *wayScratch) forget() { sc.last = nil }

// maxWayTuples bounds, in multiples of the domain's size, the tuples a
// step of a way passes on: a way of many compositions over dense relations
// could otherwise pass on every pair of atoms at every step. A way that
// would pass more gives up, which only finds fewer forced pairs.
const maxWayTuples = 8

// follow returns the tuples the relation after the first n steps of way w
// gains, as far as the way tells, when its order gains the pair (a, b):
// each step applied to the tuples of the step before, over the relations
// as they are, each tuple once. The result lives in scratch until the next
// call; it is empty when the way gives up. The steps w shares with the
// last way followed from (a, b), a way before it in the same forcing's
// list, are not computed again: the caller calls scratch.forget when the
// relations change.
func (in *Instance) follow(w *way, n int, a, b int, scratch *wayScratch) [][2]int {
	k := 0
	if last := scratch.last; last != nil && scratch.from == [2]int{a, b} && last.index < w.index {
		// The ways in between share at least what all of them share
		// with their neighbours.
		k = min(scratch.depth, n)
		for i := last.index + 1; i <= w.index && k > 0; i++ {
			k = min(k, in.p.ways[i].shared)
		}
		if scratch.gaveUp && k == scratch.depth {
			// The shared prefix gave up; what is kept is w's too.
			scratch.last = w
			return nil
		}
	}
	scratch.last, scratch.from, scratch.depth, scratch.gaveUp = w, [2]int{a, b}, k, false
	for len(scratch.levels) < n {
		scratch.levels = append(scratch.levels, nil)
	}
	scratch.first[0] = [2]int{a, b}
	cur := scratch.first[:]
	if k > 0 {
		cur = scratch.levels[k-1]
	}
	for i := k; i < n; i++ {
		st := w.steps[i]
		next := in.stepTuples(st, cur, scratch.levels[i][:0])
		if st.free >= 0 && len(next) > 1 {
			next = in.distinct(next, scratch)
		}
		if len(next) > maxWayTuples*in.n {
			next = next[:0]
		}
		scratch.levels[i] = next
		scratch.depth = i + 1
		if len(next) == 0 {
			scratch.gaveUp = true
			return nil
		}
		cur = next
	}
	return cur
}

// distinct drops the repeated tuples of ts, in place.
func (in *Instance) distinct(ts [][2]int, scratch *wayScratch) [][2]int {
	if scratch.seen == nil || scratch.seen.N() != in.n {
		in.growScratch(relBytes(in.n))
		scratch.seen = relations.NewRel(in.n)
	}
	seen := scratch.seen
	kept := ts[:0]
	for _, t := range ts {
		if !seen.Has(t[0], t[1]) {
			seen.Add(t[0], t[1])
			kept = append(kept, t)
		}
	}
	for _, t := range kept {
		seen.Remove(t[0], t[1])
	}
	return kept
}

// followToDiagonal reports whether the pair (a, b) gives, along way w, a
// tuple (x, x) of its last relation: what an irreflexive check fails on.
// The last step tests the one value of its free variable that can give
// one, where enumerating would list them all.
func (in *Instance) followToDiagonal(w *way, a, b int, scratch *wayScratch) bool {
	if len(w.steps) == 0 {
		return a == b
	}
	last := w.steps[len(w.steps)-1]
	tuples := in.follow(w, len(w.steps)-1, a, b, scratch)
	h0, h1 := last.head[0], last.head[1]
	var val [3]int
	for _, t := range tuples {
		if last.bound[0] == last.bound[1] && t[0] != t[1] {
			continue
		}
		val[last.bound[0]], val[last.bound[1]] = t[0], t[1]
		switch {
		case last.free < 0:
			if val[h0] == val[h1] && in.filtersHold(last.filters, &val) {
				return true
			}
		case last.free == h0 || last.free == h1:
			other := h0
			if last.free == h0 {
				other = h1
			}
			val[last.free] = val[other]
			e := last.enum
			if in.stores[e.rel].rel.Has(val[e.vars[0]], val[e.vars[1]]) && in.filtersHold(last.filters, &val) {
				return true
			}
		default:
			scratch.one[0] = t
			scratch.tail = in.stepTuples(last, scratch.one[:], scratch.tail[:0])
			for _, u := range scratch.tail {
				if u[0] == u[1] {
					return true
				}
			}
		}
	}
	return false
}

// stepTuples appends to out the head tuples step st derives from the
// tuples in.
func (in *Instance) stepTuples(st *wayStep, tuples [][2]int, out [][2]int) [][2]int {
	var val [3]int
	for _, t := range tuples {
		if st.bound[0] == st.bound[1] && t[0] != t[1] {
			continue
		}
		val[st.bound[0]], val[st.bound[1]] = t[0], t[1]
		if st.free < 0 {
			if in.filtersHold(st.filters, &val) {
				out = appendTuple(out, val[st.head[0]], val[st.head[1]])
			}
			continue
		}
		// The free variable's values: a row of the enumerating atom's
		// relation, or a column (a row of its inverse).
		other := val[st.enum.vars[1-st.enumAt]]
		rel := in.stores[st.enum.rel].rel
		if st.enumAt == 0 {
			rel = in.inverseOf(st.enum.rel)
		}
		row := rel.Row(other)
		for x, ok := row.NextSet(0); ok; x, ok = row.NextSet(x + 1) {
			val[st.free] = int(x)
			if in.filtersHold(st.filters, &val) {
				out = appendTuple(out, val[st.head[0]], val[st.head[1]])
			}
		}
	}
	return out
}

// inverseOf returns the inverse of binary relation r as it is, kept until
// r's version changes: a way enumerating r's column reads its inverse's
// row.
func (in *Instance) inverseOf(r relID) *relations.Rel {
	if in.search.inverses == nil {
		in.search.inverses = map[relID]*inverseCache{}
	}
	c := in.search.inverses[r]
	if c == nil {
		in.growScratch(relBytes(in.n))
		c = &inverseCache{rel: relations.NewRel(in.n)}
		in.search.inverses[r] = c
	} else if c.version == in.versions[r]+1 {
		return c.rel
	}
	relations.InverseInto(c.rel, in.stores[r].rel)
	c.version = in.versions[r] + 1
	return c.rel
}

// inverseCache is the inverse of a relation at one of its versions (plus
// one, so that the zero value is no version).
type inverseCache struct {
	version uint64
	rel     *relations.Rel
}

// filtersHold reports whether every filter atom holds for the values val.
func (in *Instance) filtersHold(filters []wayAtom, val *[3]int) bool {
	for _, f := range filters {
		var has bool
		st := in.stores[f.rel]
		if len(f.vars) == 1 {
			has = st.set.Has(val[f.vars[0]])
		} else {
			has = st.rel.Has(val[f.vars[0]], val[f.vars[1]])
		}
		if has == f.neg {
			return false
		}
	}
	return true
}

// appendTuple appends (x, y) unless it is the last tuple already.
func appendTuple(out [][2]int, x, y int) [][2]int {
	if k := len(out); k > 0 && out[k-1] == [2]int{x, y} {
		return out
	}
	return append(out, [2]int{x, y})
}
