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
	// flagChanges remembers what each step may do to the violation
	// screen's flags (flagsStep).
	flagChanges map[string]change
	indexes     map[*checker.Model]*ruleIndex
	// filled keeps each sample's inputs per model and program text, and
	// unions their union over the candidates.
	filled map[*checker.Model]map[string][]inputs
	unions map[*checker.Model]map[string]inputs
}

func newMonotonicity(o Options) *monotonicity {
	return &monotonicity{o: o, cache: map[string]bool{}, flagChanges: map[string]change{}, indexes: map[*checker.Model]*ruleIndex{},
		filled: map[*checker.Model]map[string][]inputs{}, unions: map[*checker.Model]map[string]inputs{}}
}

// inputsOf fills a sample's inputs for a model, once.
func (mo *monotonicity) inputsOf(m *checker.Model, t *program.Test) ([]inputs, bool) {
	text := t.Litmus()
	if mo.filled[m] == nil {
		mo.filled[m] = map[string][]inputs{}
	}
	if in, ok := mo.filled[m][text]; ok {
		return in, in != nil
	}
	in, ok := sampledInputs(m, t, mo.o.Check)
	if !ok {
		in = nil
	}
	mo.filled[m][text] = in
	if mo.unions[m] == nil {
		mo.unions[m] = map[string]inputs{}
	}
	mo.unions[m][text] = unionOf(in)
	return in, ok
}

// ruleIndex is what the judgement reads of a model's rules, computed once.
type ruleIndex struct {
	m *datalog.Model
	// unary lists the definitions over one event's sets (unaryDefs),
	// unaryRules their rules.
	unary      map[string]bool
	unaryRules map[string][]*datalog.Rule
}

func newRuleIndex(m *datalog.Model) *ruleIndex {
	ix := &ruleIndex{m: m, unary: unaryDefs(m), unaryRules: map[string][]*datalog.Rule{}}
	for _, r := range m.Rules {
		if ix.unary[r.Head.Pred] {
			ix.unaryRules[r.Head.Pred] = append(ix.unaryRules[r.Head.Pred], r)
		}
	}
	return ix
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
		ix := mo.indexes[m]
		if ix == nil {
			ix = newRuleIndex(m.Syntax)
			mo.indexes[m] = ix
		}
		for _, pair := range stepSamples(mo.o.Vocabulary, sl, d, s) {
			if !v || pair[0].Litmus() == pair[1].Litmus() {
				// The same program (a weak access has no scope).
				continue
			}
			ca, ok1 := mo.inputsOf(m, pair[0])
			cb, ok2 := mo.inputsOf(m, pair[1])
			if !ok1 || !ok2 || !monotoneOn(ix, ca, cb, mo.unions[m][pair[0].Litmus()], mo.unions[m][pair[1].Litmus()]) {
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
	switch {
	case sl.kind == program.ClusterBarrier || sl.kind == program.Barrier:
		th[1] = []slot{w(0), {kind: sl.kind}, w(1)}
		places = sharedPlaces()
	case sl.kind == program.MbarArrive:
		// An arrive is paired with a wait of another thread of its
		// CTA, a wait with an arrive (mbarriers, mbarsMeet).
		sl.bar = 0
		th = [][]slot{{r(1), sl, r(0)}, {{kind: program.MbarWait}, w(0), w(1)}}
		places = mbarPlaces(v)
	case sl.kind == program.MbarWait:
		sl.bar = 0
		th = [][]slot{{r(1), sl, r(0)}, {w(0), w(1), {kind: program.MbarArrive}}}
		places = mbarPlaces(v)
	case d.kind != dimScope:
		// Where threads run decides which events a scope includes;
		// an order or a dependency changes the event's sets and
		// dependencies, the same in every placement.
		places = places[:1]
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

// monotoneOn reports whether a model (its rules ix), going from a program
// whose candidates' inputs are ca to one whose are cb (which differ in one
// operation's order, scope or dependency), surely forbids at the second
// every execution it forbids at the first (ia and ib: the inputs' unions
// over the candidates).
func monotoneOn(ix *ruleIndex, ca, cb []inputs, ia, ib inputs) bool {
	return checksGrow(ix, ca, cb, ia, ib, datalog.ModeAxiom)
}

// checksGrow reports whether, going from a program whose candidates'
// inputs are ca to one whose are cb, no relation of a check of the mode
// given may lose tuples.
func checksGrow(ix *ruleIndex, ca, cb []inputs, ia, ib inputs, mode datalog.CheckMode) bool {
	return checksChange(ix, ca, cb, ia, ib, mode)&loses == 0
}

// checksChange is what the step may do to the relations of the checks of
// the mode given, together.
func checksChange(ix *ruleIndex, ca, cb []inputs, ia, ib inputs, mode datalog.CheckMode) change {
	ch := inputChanges(ix, ia, ib)
	guarded := guardedChanges(ix, ch, ia, ib, append(ca, cb...))
	propagate(ix, ch, guarded)
	var out change
	for _, c := range ix.m.Checks {
		if c.Mode == mode {
			out |= ch[c.Rel]
		}
	}
	return out
}

// flagsMonotone reports whether, along every step of every dimension of
// ds, no flag's relation of the models ms may lose tuples (the violation
// screen's flags, violation.go), judged as monotoneStep judges axioms;
// inert lists the dimensions none of whose steps may change a flag's
// relation at all.
func (mo *monotonicity) flagsMonotone(sk *skeleton, ds []dim, ms []*checker.Model) (ok bool, inert []bool) {
	if mo == nil {
		return false, nil
	}
	inert = make([]bool, len(ds))
	for i, d := range ds {
		sl := sk.threads[d.thread][d.pos]
		inert[i] = true
		for st := 0; st+1 < d.size(); st++ {
			c := mo.flagsStep(sl, d, st, ms)
			if c&loses != 0 {
				return false, nil
			}
			if c != 0 {
				inert[i] = false
			}
		}
	}
	return true, inert
}

// flagsStep is what step s of dimension d of an operation like sl may do
// to the flags' relations (loses when a sample cannot be judged),
// remembered.
func (mo *monotonicity) flagsStep(sl slot, d dim, s int, ms []*checker.Model) change {
	key := fmt.Sprintf("flags/%d/%d/%d/%v/%s/%d", sl.kind, sl.fence, sl.proxy, sl.alias, d.values(), s)
	mo.mu.Lock()
	defer mo.mu.Unlock()
	if v, ok := mo.flagChanges[key]; ok {
		return v
	}
	var v change
	for _, m := range ms {
		ix := mo.indexes[m]
		if ix == nil {
			ix = newRuleIndex(m.Syntax)
			mo.indexes[m] = ix
		}
		for _, pair := range stepSamples(mo.o.Vocabulary, sl, d, s) {
			if v&loses != 0 || pair[0].Litmus() == pair[1].Litmus() {
				continue
			}
			ca, ok1 := mo.inputsOf(m, pair[0])
			cb, ok2 := mo.inputsOf(m, pair[1])
			if !ok1 || !ok2 {
				v |= loses
				continue
			}
			v |= checksChange(ix, ca, cb, mo.unions[m][pair[0].Litmus()], mo.unions[m][pair[1].Litmus()], datalog.ModeFlag)
		}
	}
	mo.flagChanges[key] = v
	return v
}

// inputs holds the tuples of each input relation of a model, in one
// candidate execution of a program or over all of them.
type inputs map[string]*relations.Tuples

// sampledInputs fills the model's inputs for each candidate execution of
// a program.
func sampledInputs(m *checker.Model, t *program.Test, opts checker.Options) ([]inputs, bool) {
	lt, err := parse(t)
	if err != nil {
		return nil, false
	}
	cands, _ := m.Candidates(lt, opts, 0)
	if len(cands) == 0 {
		return nil, false
	}
	var out []inputs
	names := m.Syntax.Inputs()
	err = m.EachInputs(cands, func(inst *rules.Instance) {
		in := inputs{}
		for _, n := range names {
			if ts, err := inst.Tuples(n); err == nil {
				in[n] = ts
			}
		}
		out = append(out, in)
	})
	return out, err == nil
}

// unionOf is the tuples of each input over every candidate.
func unionOf(cs []inputs) inputs {
	out := inputs{}
	for _, in := range cs {
		for n, ts := range in {
			if out[n] == nil {
				out[n] = ts.Clone()
				continue
			}
			out[n].UnionWith(ts)
		}
	}
	return out
}

// inputChanges says, per relation, how the step changes it: for an input
// of several columns, its tuples; for a set, and for each definition that
// reads one event's sets only, its members, computed event by event.
func inputChanges(ix *ruleIndex, a, b inputs) map[string]change {
	m, unary := ix.m, ix.unary
	ch := map[string]change{}
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
		inA := ix.members(a, e)
		inB := ix.members(b, e)
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

// members computes which one-event definitions hold event e, given the
// sets' tuples.
func (ix *ruleIndex) members(in inputs, e int) map[string]bool {
	memo := map[string]bool{}
	out := map[string]bool{}
	for n := range ix.unary {
		out[n] = ix.member(in, e, n, memo)
	}
	return out
}

// member reports whether event e is in the set or one-event definition
// n, remembering the definitions' answers in memo.
func (ix *ruleIndex) member(in inputs, e int, n string, memo map[string]bool) bool {
	switch ix.m.Relations[n].Kind {
	case datalog.RelUniverse:
		return true
	case datalog.RelInput:
		return in[n] != nil && in[n].Has([]int{e})
	}
	if v, ok := memo[n]; ok {
		return v
	}
	v := false
	for _, r := range ix.unaryRules[n] {
		all := true
		for _, l := range r.Body {
			a := l.(*datalog.Atom)
			if ix.member(in, e, a.Pred, memo) == a.Negated {
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

// propagate carries the changes through the rules of the relations not
// computed event by event (nor guarded, whose changes are known), and
// through the orders, to a fixpoint.
func propagate(ix *ruleIndex, ch map[string]change, guarded map[string]bool) {
	m, unary := ix.m, ix.unary
	for changed := true; changed; {
		changed = false
		add := func(n string, c change) {
			if ch[n]|c != ch[n] {
				ch[n] |= c
				changed = true
			}
		}
		for _, r := range m.Rules {
			if unary[r.Head.Pred] || guarded[r.Head.Pred] {
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
