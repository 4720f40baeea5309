package execution

import (
	"sync"

	"github.com/ptxmm/ptxmm/internal/payoff"
)

// Search configures Analysis.Search: a bound on the candidates, a model's
// verdict on partial candidates that lets whole branches of reads-from
// choices be abandoned, and a part of the search to restrict it to.
type Search struct {
	// MaxCandidates bounds the candidates yielded (0: no bound): the
	// candidates of abandoned branches are counted without being built
	// (count.go), and cost nothing against it.
	MaxCandidates int
	// Prune, when set, is asked about each partial candidate: after a
	// read's reads-from is fixed (every read but the last), x holds the
	// choices made so far. x.RF is -1 for the reads still to choose; the
	// values of those reads, and of whatever is computed from them, are
	// not known, and neither are x.BarGroups and x.ClusterPhases. When it
	// returns true, no completion of x is built: its candidates are
	// counted (Stats.Pruned) and handed to Pruned as a number, unless
	// Relevant is set. Prune must only return true when it knows every
	// completion is of no interest.
	Prune func(x *Execution) bool
	// Pruned receives the number of candidates of each abandoned branch,
	// with x as Prune saw it.
	Pruned func(x *Execution, n int)
	// Relevant, when set, is asked about each partial candidate after a
	// read's reads-from is fixed (the last read's included), before
	// Prune, with x as Prune sees it. When it returns false, no
	// completion of x is of interest whatever a model says of it (the
	// values known so far already settle what the caller asks), and the
	// branch is abandoned without being counted: its candidates are in
	// neither Stats nor the bound of MaxCandidates.
	Relevant func(x *Execution) bool
	// Interrupt, when set, is asked now and then while an abandoned
	// branch is counted; an error stops the search with it.
	Interrupt func() error
	// Part restricts the search to one part of it (Split).
	Part *Part
	// Nogoods, when set with Prune, are choices the host learned it
	// rejects: a branch containing one is abandoned without asking Prune,
	// and so is a complete candidate, which is then counted instead of
	// yielded. They may be shared by several searches, as the parts of a
	// split search.
	Nogoods *Nogoods
	// Confirm, when set with Nogoods, is asked whether the models reject
	// x with only the reads-from pairs of reads chosen (x as Prune sees
	// it, the other reads' choices to be ignored): a set learned in
	// another combination of runs that x holds is checked so before the
	// search adds it to x's combination and abandons the branch.
	Confirm func(x *Execution, reads []int) bool
	// Payoff, when set, is where asking Prune paid so far, kept from one
	// search to the next likewise; nil starts afresh.
	Payoff *Payoff
	// Uncounted leaves the candidates of abandoned branches uncounted, for
	// a caller after some candidates only (as with Relevant).
	Uncounted bool
	// Filter, when set, is asked about each combination of runs before
	// its events are built; the search leaves out those it rejects.
	Filter func(runs []*Run) bool
	// Combos, when not nil, lists in increasing order the indices (in
	// enumeration order, as Part.Combo) of the only combinations of runs
	// searched, for a caller that knows them without walking every one;
	// Filter still applies to them.
	Combos []int
	// Scratch, when set, lends the search the events array of its
	// candidate (see Scratch); nil: the search makes its own.
	Scratch *Scratch
	// Combo, when set, is asked about each combination of runs once its
	// events are built (x as Prune sees it before any choice); the search
	// leaves out those it rejects.
	Combo func(x *Execution) bool
}

// Part is one part of the search of a test: the completions of a choice
// of reads-from for the first reads of one combination of runs, or
// several whole combinations.
type Part struct {
	// Combo is the index of the combination of runs in enumeration order.
	Combo int
	// Prefix gives, for each of the combination's first len(Prefix)
	// reads, the index of its write among the writes it may read.
	Prefix []int
	// Combos, when set, lists whole combinations of runs by index, in
	// enumeration order: the part is their searches, one after the
	// other, and Combo and Prefix are not used.
	Combos []int
}

// Split divides the search into parts whose searches together are the
// whole search: every candidate belongs to exactly one part, and the parts
// come in enumeration order, so that searching them one after the other
// yields the candidates Search yields, in the same order. It aims at
// about per parts of similar sizes, a combination of runs's size being
// the product of the numbers of writes its reads may read: a combination
// bigger than a per-th of the whole is split by the choices of its first
// reads into as many parts as it holds per-ths (at least 2, at most per),
// and consecutive smaller ones are searched whole, together, up to a
// per-th. Each part of a combination builds its events and what its
// search keeps about them (counts of abandoned branches, hints by place)
// afresh, so splitting each of many combinations into per parts, as
// Split once did, cost a split search about as much again as the whole
// search on one core.
func (a *Analysis) Split(per int) []Part {
	type combo struct {
		index, size int
		lens        []int
	}
	var combos []combo
	total := 0
	a.eachCombo(func(index int, s *comboSearch) bool {
		c := combo{index: index, size: 1, lens: make([]int, len(s.choices))}
		for k, ws := range s.choices {
			c.lens[k] = len(ws)
			c.size = min(MulCounts(c.size, max(len(ws), 1)), productCap)
		}
		combos = append(combos, c)
		total = AddCounts(total, c.size)
		return true
	})
	unit := max(total/max(per, 1), 1)
	var out []Part
	var whole []int // consecutive small combinations not yet in a part
	wholeSize := 0
	flush := func() {
		switch len(whole) {
		case 0:
		case 1:
			out = append(out, Part{Combo: whole[0], Prefix: []int{}})
		default:
			out = append(out, Part{Combo: whole[0], Combos: whole})
		}
		whole, wholeSize = nil, 0
	}
	for _, c := range combos {
		if c.size <= unit {
			whole = append(whole, c.index)
			wholeSize += c.size
			if wholeSize >= unit {
				flush()
			}
			continue
		}
		flush()
		out = append(out, splitCombo(c.index, c.lens, min(max(c.size/unit, 2), per))...)
	}
	flush()
	return out
}

// splitCombo divides combination index, whose reads may read lens[k]
// writes each, by the choices of its first reads into about per parts
// (at least per, unless it has fewer complete choices).
func splitCombo(index int, lens []int, per int) []Part {
	var out []Part
	depth, parts := 0, 1
	for depth < len(lens) && parts < per {
		parts *= lens[depth]
		depth++
	}
	prefix := make([]int, depth)
	for parts > 0 {
		out = append(out, Part{Combo: index, Prefix: append([]int(nil), prefix...)})
		k := depth - 1
		for ; k >= 0; k-- {
			prefix[k]++
			if prefix[k] < lens[k] {
				break
			}
			prefix[k] = 0
		}
		if k < 0 {
			break
		}
	}
	return out
}

// comboOf sets combo to the combination of runs of the given index in
// enumeration order (the first thread's run changes fastest).
func (a *Analysis) comboOf(index int, combo []int) {
	for t := range combo {
		n := len(a.Runs[t])
		combo[t] = index % n
		index /= n
	}
}

// choicesAt returns the writes read k may read from in the part searched.
func (s *comboSearch) choicesAt(k int) []int {
	if k < len(s.prefix) {
		i := s.prefix[k]
		if i < 0 || i >= len(s.choices[k]) {
			return nil
		}
		return s.choices[k][i : i+1]
	}
	return s.choices[k]
}

// relevant asks Search.Relevant about the partial candidate.
func (s *comboSearch) relevant() bool {
	return s.opts.Relevant == nil || s.opts.Relevant(s.x)
}

// cut asks Search.Prune about the partial candidate whose reads up to k
// are chosen, and counts the candidates of the branch it abandons.
func (s *comboSearch) cut(k int) bool {
	p := s.opts.Prune
	if p == nil || s.counting {
		return false
	}
	known := s.opts.Nogoods != nil && (s.jump >= 0 && s.jump < k || s.opts.Nogoods.covers(s.nogoods, s.x, s.reads[k]) || s.confirmsHint(k))
	if !known {
		if k+1 == len(s.reads) || !s.payoff.Worth(k) {
			return false
		}
		if !p(s.x) {
			s.payoff.Record(k, 0)
			return false
		}
	}
	if s.opts.Relevant != nil || s.opts.Uncounted {
		// Only some candidates are of interest: those of an abandoned
		// branch are not counted, and it is worth an estimate.
		if !known {
			s.payoff.Record(k, s.productFrom(k+1))
		}
		return true
	}
	n := s.countFrom(k + 1)
	if s.stop {
		return true
	}
	if !known {
		s.payoff.Record(k, n)
	}
	s.st.Pruned = AddCounts(s.st.Pruned, n)
	if s.opts.Pruned != nil {
		s.opts.Pruned(s.x, n)
	}
	return true
}

// confirmsHint looks for a set learned in another combination of runs
// that holds the pair read k just chose and that the choices up to k
// hold (Nogoods.Hints), asks Search.Confirm whether the models reject it
// here too, and if so adds it to this combination's sets: the branch is
// then abandoned as one holding a set learned here. A hint the host does
// not confirm is not offered again in this combination.
func (s *comboSearch) confirmsHint(k int) bool {
	if s.opts.Confirm == nil || k+1 == len(s.reads) {
		return false
	}
	hints := s.opts.Nogoods.hintsOf(s.nogoods, s.x, s.reads[:k+1], s.reads[k:k+1], 1)
	if len(hints) == 0 {
		return false
	}
	if !s.opts.Confirm(s.x, hints[0].Reads) {
		s.opts.Nogoods.Refute(s.x, hints[0])
		return false
	}
	s.opts.Nogoods.Add(s.x, hints[0].Reads)
	return true
}

// noteLearned looks at the sets learned since it last looked, with the
// choices of reads up to k made. A set the choices hold whose reads were
// all chosen before read k holds for every other choice of read k and of
// the reads after it too: those branches are abandoned, as cut abandons
// a branch holding a set, up to the deepest read of the set (s.jump).
// Without it, a set learned from a complete candidate that does not
// involve its last read would be learned again at each choice of that
// read, since cut only looks for the sets of the read it just chose.
func (s *comboSearch) noteLearned(k int) {
	if s.nogoods == nil || s.counting {
		return
	}
	d, n := s.nogoods.shallowestHeld(s.x, s.seenSets, s.depth)
	s.seenSets = n
	if d >= 0 && d < k && (s.jump < 0 || d < s.jump) {
		s.jump = d
	}
}

// productFrom bounds the candidates that completing reads[k:] makes: the
// product of their numbers of choices, at most productCap.
func (s *comboSearch) productFrom(k int) int {
	n := 1
	for j := k; j < len(s.reads) && n < productCap; j++ {
		n *= max(len(s.choicesAt(j)), 1)
	}
	return min(n, productCap)
}

// productCap is where productFrom stops multiplying, far below overflow.
const productCap = 1 << 40

// overLimit stops the search with a LimitError once the candidates it
// built pass Search.MaxCandidates.
func (s *comboSearch) overLimit() bool {
	if s.max <= 0 || s.st.Candidates <= s.max {
		return false
	}
	s.err = &LimitError{Limit: "candidate executions", Value: s.max, Flag: "-max-candidates", What: "test " + s.a.Test.Name}
	s.stop = true
	return true
}

// countFrom counts the candidates that completing reads[k:] makes.
func (s *comboSearch) countFrom(k int) int {
	if s.free {
		n := 1
		for j := k; j < len(s.reads); j++ {
			n *= len(s.choicesAt(j))
		}
		return n
	}
	return s.countAt(k)
}

// countLeaf polls Search.Interrupt while a branch is counted.
func (s *comboSearch) countLeaf(groupings int) {
	s.leaves += groupings
	s.poll()
}

// isFree reports whether every complete choice of reads-from of the
// combination yields exactly one candidate and no error: no run has a
// constraint on its values, no barrier or mbarrier depends on them, and
// every write stores a known integer, whose bytes any read can take. The
// candidates of an abandoned branch are then a product of choices.
func (s *comboSearch) isFree() bool {
	x := s.x
	if len(x.FinalPolls) > 0 || len(s.results) > 0 {
		return false
	}
	for _, u := range s.updates {
		if u {
			return false
		}
	}
	for _, r := range x.Runs {
		if len(r.Constraints) > 0 {
			return false
		}
	}
	for i := range x.Events {
		ev := &x.Events[i]
		switch {
		case ev.Kind == KindBarrier:
			return false
		case ev.Kind == KindWrite && (ev.Sym.kind != symConst || ev.Sym.val.IsAddr || ev.Sym.val.IsMBar):
			return false
		}
	}
	return true
}

// Payoff decides where a search asks a model about partial candidates.
// Asking costs about as much as evaluating one candidate, and pays off
// only when it abandons branches: it keeps, at each depth, the questions
// asked and the candidates they left out, for the policy of
// payoff.Prune (after a few tries, keep asking while the candidates left
// out average at least one per question, and now and then anyway, to
// notice a change).
// What it decides changes how fast a search goes, never what it finds.
// A Payoff made by NewSharedPayoff is safe for concurrent use, so that
// the parts of a split search learn together where asking pays; the zero
// value is for one goroutine.
type Payoff struct {
	visits, tries, saved []int
	mu                   *sync.Mutex
}

// NewSharedPayoff returns a Payoff safe for concurrent use.
func NewSharedPayoff() *Payoff { return &Payoff{mu: &sync.Mutex{}} }

// Worth reports whether to ask at depth d.
func (p *Payoff) Worth(d int) bool {
	if p.mu != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	for len(p.tries) <= d {
		p.visits = append(p.visits, 0)
		p.tries = append(p.tries, 0)
		p.saved = append(p.saved, 0)
	}
	p.visits[d]++
	t := p.tries[d]
	return payoff.Prune.Policy().Worth(int64(t), int64(p.saved[d]), int64(p.visits[d]))
}

// Record notes a question asked at depth d that left out saved candidates.
func (p *Payoff) Record(d, saved int) {
	if p.mu != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	p.tries[d]++
	p.saved[d] += saved
}

// Choices bounds the number of candidates of the search: for each
// combination of runs, the product of the numbers of writes each read may
// read from. It stops counting at limit.
func (a *Analysis) Choices(limit int) int {
	total := 0
	a.eachCombo(func(_ int, s *comboSearch) bool {
		n := 1
		for _, ws := range s.choices {
			n *= len(ws)
			if n >= limit {
				break
			}
		}
		total += n
		return total < limit
	})
	return min(total, limit)
}

// ChoicesBelow reports whether Choices(limit) < limit. Most tests are
// decided without building any combination's events: a read reads from
// the initial write of its location or from a write of that location in
// some run, so the number of combinations times, for each thread, the
// largest product over its runs of those counts bounds Choices from
// above. Only when that bound reaches limit are the combinations built.
// (Choices built every combination of a small test again before its
// search: a twentieth of what the 243-test small suite allocates.)
func (a *Analysis) ChoicesBelow(limit int) bool {
	if a.choicesBound(limit) < limit {
		return true
	}
	return a.Choices(limit) < limit
}

// choicesBound is the bound of ChoicesBelow, computed up to limit: limit
// when it is at least limit, or when an event is not on a location of the
// layout.
func (a *Analysis) choicesBound(limit int) int {
	locs := len(a.Layout.Locs)
	var buf [16]int
	writes := buf[:0]
	if locs > len(buf) {
		writes = make([]int, 0, locs)
	}
	for range locs {
		writes = append(writes, 1) // the initial write
	}
	for _, runs := range a.Runs {
		for _, r := range runs {
			for i := range r.Events {
				if ev := &r.Events[i]; ev.Kind == KindWrite {
					if ev.Loc < 0 || ev.Loc >= locs {
						return limit
					}
					writes[ev.Loc]++
				}
			}
		}
	}
	bound := 1
	for _, runs := range a.Runs {
		most := 0
		for _, r := range runs {
			n := 1
			for i := range r.Events {
				if ev := &r.Events[i]; ev.Kind == KindRead {
					if ev.Loc < 0 || ev.Loc >= locs {
						return limit
					}
					n = min(n*writes[ev.Loc], limit)
				}
			}
			most = max(most, n)
		}
		bound = min(bound*len(runs), limit)
		bound = min(bound*most, limit)
	}
	return bound
}

// eachCombo builds the events and reads of every combination of runs in
// enumeration order, with its index, until f returns false; it leaves out
// the combinations that are no candidate's, among them, without building
// their events, those that some CTA's barriers rule out (ctabarriers.go).
func (a *Analysis) eachCombo(f func(index int, s *comboSearch) bool) {
	a.eachComboOf(nil, f)
}

// eachComboOf is eachCombo for the combinations filter accepts (all when
// it is nil).
func (a *Analysis) eachComboOf(filter func([]*Run) bool, f func(index int, s *comboSearch) bool) {
	a.eachListedCombo(nil, filter, nil, f)
}

// eachListedCombo is eachComboOf for the combinations whose indices only
// lists in increasing order, every one when only is nil, building their
// events in sc's array when sc is set.
func (a *Analysis) eachListedCombo(only []int, filter func([]*Run) bool, sc *Scratch, f func(index int, s *comboSearch) bool) {
	nth := len(a.Test.Threads)
	for _, runs := range a.Runs {
		if len(runs) == 0 {
			return
		}
	}
	combo := make([]int, nth)
	x := a.newExecution(combo, sc)
	defer sc.release(x)
	var bars *ctaBarriers
	if !a.wholeCombos {
		bars = newCTABarriers(a)
	}
	visit := func(index int) bool {
		for i := range combo {
			x.Runs[i] = a.Runs[i][combo[i]]
		}
		if (bars == nil || !bars.skips(combo)) && (filter == nil || filter(x.Runs)) {
			s := a.newComboSearch(x)
			if s != nil && bars != nil {
				bars.learn(s, combo)
			}
			if s != nil && !f(index, s) {
				return false
			}
		}
		return true
	}
	if only != nil {
		for _, index := range only {
			a.comboOf(index, combo)
			if !visit(index) {
				return
			}
		}
		return
	}
	for index := 0; ; index++ {
		if !visit(index) {
			return
		}
		i := 0
		for ; i < nth; i++ {
			combo[i]++
			if combo[i] < len(a.Runs[i]) {
				break
			}
			combo[i] = 0
		}
		if i == nth {
			return
		}
	}
}

// ComboIndex is the index in enumeration order (Part.Combo) of the
// combination of runs that takes run combo[t] of thread t.
func (a *Analysis) ComboIndex(combo []int) int {
	index := 0
	for t := len(combo) - 1; t >= 0; t-- {
		index = index*len(a.Runs[t]) + combo[t]
	}
	return index
}
