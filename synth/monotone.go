package synth

import (
	"fmt"
	"sync"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/program"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// The lattice search prunes a box whose weakest and strongest points give
// the same outcomes, which is sound only where strengthening an operation
// never allows more (doc.go). A model need not have that property along
// every chain: fence-sc-not-acq-rel makes fence.sc no release fence, so
// going from fence.acq_rel to fence.sc takes the fence out of the release
// patterns. This file finds, from each model's rules, the steps of a chain
// along which a model may allow more, and the search then treats the two
// sides of such a step as separate chains (split), so that no box
// straddles it.
//
// A step is judged by what it changes in the inputs: the catalog fills a
// small program with the operation at the weaker value and at the
// stronger one; the sets an event enters and leaves are followed through
// the definitions that read one event's sets only (release_fence = F &
// (REL | ACQ_REL | SC) keeps its fence when ACQ_REL gives way to SC), and
// from there each relation that reads a changed one is marked as possibly
// gaining tuples, losing them, or both, through the rules (a negated atom
// turns one into the other; an order over pairs changes as its pairs do).
// A model is monotone along the step when no axiom's relation may lose
// tuples: every execution it forbids at the weaker value, it forbids at
// the stronger. The judgement errs on the side of splitting: a relation
// that may lose tuples is only possibly smaller, which costs the search
// time, never tests.

// change is what a step may do to a relation: add tuples, remove them.
type change uint8

const (
	gains change = 1 << iota
	loses
)

// flip is the change seen through a negation.
func (c change) flip() change {
	var out change
	if c&gains != 0 {
		out |= loses
	}
	if c&loses != 0 {
		out |= gains
	}
	return out
}

// monotonicity remembers, per step, whether both models are monotone
// along it.
type monotonicity struct {
	o     Options
	mu    sync.Mutex
	cache map[string]bool
}

func newMonotonicity(o Options) *monotonicity {
	return &monotonicity{o: o, cache: map[string]bool{}}
}

// split returns the skeleton's dimensions with each dimension cut at the
// steps along which some model may allow more, as the lists of
// dimensions whose lattices together cover every choice: a dimension cut
// at one step becomes two chains, each searched on its own. A nil
// monotonicity cuts nothing.
func (mo *monotonicity) split(sk *skeleton, ds []dim) [][]dim {
	if mo == nil {
		return [][]dim{ds}
	}
	out := [][]dim{nil}
	for _, d := range ds {
		parts := mo.parts(sk, d)
		var next [][]dim
		for _, prefix := range out {
			for _, p := range parts {
				next = append(next, append(append([]dim(nil), prefix...), p))
			}
		}
		out = next
	}
	return out
}

// parts cuts a dimension into chains at its steps that break
// monotonicity (the dimension itself when none does).
func (mo *monotonicity) parts(sk *skeleton, d dim) []dim {
	sl := sk.threads[d.thread][d.pos]
	var cuts []int
	for s := 0; s+1 < d.size(); s++ {
		if !mo.monotoneStep(sl, d, s) {
			cuts = append(cuts, s)
		}
	}
	if len(cuts) == 0 {
		return []dim{d}
	}
	var out []dim
	from := 0
	for _, c := range append(cuts, d.size()-1) {
		out = append(out, d.slice(from, c+1))
		from = c + 1
	}
	return out
}

// monotoneStep reports whether both models are monotone along step s of
// dimension d (from value s to s+1) of an operation like sl, whatever the
// operation's other dimensions.
func (mo *monotonicity) monotoneStep(sl slot, d dim, s int) bool {
	key := fmt.Sprintf("%d/%d/%d/%v/%s/%d", sl.kind, sl.fence, sl.proxy, sl.alias, d.values(), s)
	mo.mu.Lock()
	defer mo.mu.Unlock()
	if v, ok := mo.cache[key]; ok {
		return v
	}
	v := true
	for _, m := range []*checker.Model{mo.o.A, mo.o.B} {
		for _, pair := range stepSamples(mo.o.Vocabulary, sl, d, s) {
			if !monotoneOn(m, pair[0], pair[1], mo.o.Check) {
				v = false
			}
		}
	}
	mo.cache[key] = v
	return v
}

// stepSamples builds pairs of small programs with an operation like sl at
// value s and at s+1 of the dimension d's kind, one pair per choice of the
// operation's other orders and scopes; every other operation is at its
// weakest.
func stepSamples(v Vocabulary, sl slot, d dim, s int) [][2]*program.Test {
	sl.loc = 0
	r := func(loc int) slot { return slot{kind: program.Load, loc: loc} }
	w := func(loc int) slot { return slot{kind: program.Store, loc: loc} }
	// The operation follows a read (for its dependency) and precedes an
	// access; the other thread writes both locations.
	th := [][]slot{{r(1), sl, r(0)}, {w(0), w(1)}}
	places := samplePlaces(v)
	switch sl.kind {
	case program.ClusterBarrier, program.Barrier:
		th[1] = []slot{w(0), {kind: sl.kind}, w(1)}
		places = sharedPlaces()
	}
	var out [][2]*program.Test
	for _, ps := range places {
		sk := &skeleton{threads: th, nlocs: 2, places: ps}
		ds := sk.dims(v)
		// The dimensions of the operation (thread 0, position 1).
		var mine []int
		at := -1
		for i, e := range ds {
			if e.thread == 0 && e.pos == 1 {
				mine = append(mine, i)
				if e.kind == d.kind {
					at = i
					// The sample's dimension has d's values.
					ds[i].sems, ds[i].scopes, ds[i].deps, ds[i].bits = d.sems, d.scopes, d.deps, d.bits
				}
			}
		}
		if at < 0 {
			continue
		}
		p := make(point, len(ds))
		var each func(k int)
		each = func(k int) {
			if k == len(mine) {
				a := append(point(nil), p...)
				b := append(point(nil), p...)
				a[at], b[at] = s, s+1
				out = append(out, [2]*program.Test{sk.test(v, ds, a), sk.test(v, ds, b)})
				return
			}
			i := mine[k]
			if i == at || ds[i].kind == dimDep || d.kind == dimDep {
				// A dependency fills inputs of its own, whatever the
				// order and scope (and they whatever the dependency):
				// it stays at none unless it is the step's.
				each(k + 1)
				return
			}
			for x := 0; x < ds[i].size(); x++ {
				p[i] = x
				each(k + 1)
			}
			p[i] = 0
		}
		each(0)
	}
	return out
}

// monotoneOn reports whether model m, going from program a to program b
// (which differ in one operation's order, scope or dependency), surely
// forbids at b every execution it forbids at a.
func monotoneOn(m *checker.Model, a, b *program.Test, opts checker.Options) bool {
	ia, ok1 := sampledInputs(m, a, opts)
	ib, ok2 := sampledInputs(m, b, opts)
	if !ok1 || !ok2 {
		return false
	}
	ch := inputChanges(m.Syntax, ia, ib)
	propagate(m.Syntax, ch)
	for _, c := range m.Syntax.Checks {
		if c.Mode == datalog.ModeAxiom && ch[c.Rel]&loses != 0 {
			return false
		}
	}
	return true
}

// inputs holds the tuples of each input relation of a model, over every
// candidate execution of a program.
type inputs map[string]*relations.Tuples

// sampledInputs fills the model's inputs for every candidate execution of
// a program.
func sampledInputs(m *checker.Model, t *program.Test, opts checker.Options) (inputs, bool) {
	lt, err := parse(t)
	if err != nil {
		return nil, false
	}
	cands, _ := m.Candidates(lt, opts, 0)
	if len(cands) == 0 {
		return nil, false
	}
	out := inputs{}
	names := m.Syntax.Inputs()
	err = m.EachInputs(cands, func(inst *rules.Instance) {
		for _, n := range names {
			ts, err := inst.Tuples(n)
			if err != nil {
				continue
			}
			if out[n] == nil {
				out[n] = ts
				continue
			}
			out[n].UnionWith(ts)
		}
	})
	return out, err == nil
}

// inputChanges says, per relation, how the step changes it: for an input
// of several columns, its tuples; for a set, and for each definition that
// reads one event's sets only, its members, computed event by event.
func inputChanges(m *datalog.Model, a, b inputs) map[string]change {
	ch := map[string]change{}
	unary := unaryDefs(m)
	// Events whose sets differ.
	events := map[int]bool{}
	for n, rel := range m.Relations {
		if rel.Kind != datalog.RelInput {
			continue
		}
		diff := func(x, y *relations.Tuples, c change) {
			if x == nil {
				return
			}
			for tu := range x.All() {
				if y == nil || !y.Has(tu) {
					ch[n] |= c
					if rel.Arity == 1 {
						events[tu[0]] = true
					}
				}
			}
		}
		diff(b[n], a[n], gains)
		diff(a[n], b[n], loses)
	}
	for e := range events {
		inA := unaryMembers(m, unary, a, e)
		inB := unaryMembers(m, unary, b, e)
		for n := range unary {
			switch {
			case inB[n] && !inA[n]:
				ch[n] |= gains
			case inA[n] && !inB[n]:
				ch[n] |= loses
			}
		}
	}
	return ch
}

// unaryDefs lists the derived relations of one column whose every rule
// reads sets of the head's event only (F(X), !SC(X), ...), with no
// recursion: their members follow from one event's sets.
func unaryDefs(m *datalog.Model) map[string]bool {
	rulesOf := map[string][]*datalog.Rule{}
	for _, r := range m.Rules {
		rulesOf[r.Head.Pred] = append(rulesOf[r.Head.Pred], r)
	}
	out := map[string]bool{}
	state := map[string]int{} // 1 visiting, 2 done
	var pure func(n string) bool
	pure = func(n string) bool {
		rel := m.Relations[n]
		if rel == nil || rel.Arity != 1 {
			return false
		}
		switch rel.Kind {
		case datalog.RelInput, datalog.RelUniverse:
			return true
		case datalog.RelOrder:
			return false
		}
		switch state[n] {
		case 1:
			return false
		case 2:
			return out[n]
		}
		state[n] = 1
		ok := len(rulesOf[n]) > 0
		for _, r := range rulesOf[n] {
			if len(r.Head.Args) != 1 || r.Head.Args[0].Kind != datalog.TermVar {
				ok = false
				break
			}
			x := r.Head.Args[0].Name
			for _, l := range r.Body {
				a, isAtom := l.(*datalog.Atom)
				if !isAtom || len(a.Args) != 1 || a.Args[0].Kind != datalog.TermVar || a.Args[0].Name != x || !pure(a.Pred) {
					ok = false
					break
				}
			}
		}
		state[n] = 2
		out[n] = ok
		return ok
	}
	for n := range m.Relations {
		pure(n)
	}
	return out
}

// unaryMembers computes which one-event definitions hold event e, given
// the sets' tuples.
func unaryMembers(m *datalog.Model, unary map[string]bool, in inputs, e int) map[string]bool {
	rulesOf := map[string][]*datalog.Rule{}
	for _, r := range m.Rules {
		if unary[r.Head.Pred] {
			rulesOf[r.Head.Pred] = append(rulesOf[r.Head.Pred], r)
		}
	}
	key := []int{e}
	memo := map[string]bool{}
	var holds func(n string) bool
	holds = func(n string) bool {
		rel := m.Relations[n]
		switch rel.Kind {
		case datalog.RelUniverse:
			return true
		case datalog.RelInput:
			return in[n] != nil && in[n].Has(key)
		}
		if v, ok := memo[n]; ok {
			return v
		}
		v := false
		for _, r := range rulesOf[n] {
			all := true
			for _, l := range r.Body {
				a := l.(*datalog.Atom)
				if holds(a.Pred) == a.Negated {
					all = false
					break
				}
			}
			if all {
				v = true
				break
			}
		}
		memo[n] = v
		return v
	}
	out := map[string]bool{}
	for n := range unary {
		if m.Relations[n].Kind == datalog.RelDerived {
			out[n] = holds(n)
		}
	}
	return out
}

// propagate carries the changes through the rules of the relations not
// computed event by event, and through the orders, to a fixpoint.
func propagate(m *datalog.Model, ch map[string]change) {
	unary := unaryDefs(m)
	for changed := true; changed; {
		changed = false
		add := func(n string, c change) {
			if ch[n]|c != ch[n] {
				ch[n] |= c
				changed = true
			}
		}
		for _, r := range m.Rules {
			if unary[r.Head.Pred] {
				continue
			}
			for _, l := range r.Body {
				a, ok := l.(*datalog.Atom)
				if !ok {
					continue
				}
				// A set read outside the one-event definitions
				// brings its own change.
				c := ch[a.Pred]
				if a.Negated {
					c = c.flip()
				}
				add(r.Head.Pred, c)
			}
		}
		for _, o := range m.Orders {
			add(o.Name, ch[o.Over])
		}
	}
}
