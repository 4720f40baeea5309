package execution

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Counting the candidates of an abandoned branch.
//
// A branch the model rejects is not built, but its candidates are counted
// (Stats.Pruned), as herd7 counts every candidate. Walking the branch to
// count them costs what building them would, less the model: for
// asynchronous tests, where most complete choices of reads-from are no
// candidate, nearly all of a search's time. The number of completions of
// a choice of reads-from for reads[:k] depends on few of those choices:
// only on those of the reads whose values (or, for mbarrier updates,
// whose writes) something still to be decided looks at. countAt counts
// the completions of reads[k:] once per choice of those reads, the
// interface of depth k, and remembers the count.
//
// What is decided below depth k: the constraints of the runs (branch
// conditions, cas outcomes, load filters), evaluated on the values of the
// reads they mention; the operands of barrier arrivals; the chains of
// mbarrier updates and the final polls of spinning runs, which look at
// which write each update reads (chainState: the key holds, for each
// write an update or poll at depth k or after may read, whether it is
// taken and where its chain leads, rather than every update's choice).
// A read's value is the value of the write
// it reads, computed from the values of the reads that write's thread
// made before it. So a read k' >= k depends on the choices of the reads
// in its value closure: itself and, for each write it may read, the value
// closures of the reads that write's value is computed from. A constraint
// (or barrier operand) depends on the union of the closures of its reads,
// its scope. The interface of depth k is made of the reads before k in a
// scope that also holds a read at k or after, or that is only decided at
// the leaves (barrier operands): everything else below k is the same
// whichever writes the other reads before k read. Where it may, counting
// goes further and splits the reads still to choose into parts nothing
// links (countparts.go).

// counter holds what counting needs about one combination of runs.
type counter struct {
	// iface[k] lists the depths (indices into reads) of the interface of
	// depth k, in increasing order.
	iface [][]int
	// chainWrites[k] lists the writes that the mbarrier updates and the
	// final polls at depth k or after may read, in increasing order.
	chainWrites [][]int
	memo        map[string]int
	// parts counts by independent parts where it may (countparts.go).
	parts *partIndex
	key   []byte
}

// countAt counts the candidates completing the current choice of
// reads-from for reads[:k], with the values that choice determines
// propagated. Counts saturate at math.MaxInt.
func (s *comboSearch) countAt(k int) int {
	if s.stop {
		return 0
	}
	if k == len(s.reads) {
		s.counting, s.leaves = true, 0
		s.chooseResults(0)
		s.counting = false
		return s.leaves
	}
	c := s.counter
	if c == nil {
		c = s.newCounter()
		s.counter = c
	}
	if c == nil {
		s.counting, s.leaves = true, 0
		s.search(k)
		s.counting = false
		return s.leaves
	}
	if c.parts != nil {
		rest := newDepthSet(len(s.reads))
		for d := k; d < len(s.reads); d++ {
			rest.add(d)
		}
		return MulCounts(s.countParts(c.parts, rest), c.parts.mult)
	}
	key := c.keyAt(s, k)
	if n, ok := c.memo[string(key)]; ok {
		return n
	}
	total := s.sumOverChoices(k, func() int { return s.countAt(k + 1) })
	if !s.stop {
		c.memo[string(c.keyAt(s, k))] = total
	}
	return total
}

// sumOverChoices adds up, over the choices of read k that may have
// candidates, what rest counts with the choice made, polling
// Search.Interrupt now and then.
func (s *comboSearch) sumOverChoices(k int, rest func() int) int {
	total := 0
	for _, w := range s.choicesAt(k) {
		if !s.available(k, w) {
			continue
		}
		mark, ok := s.pick(k, w)
		if ok {
			total = AddCounts(total, rest())
		}
		s.unpick(k, w, mark)
		s.poll()
		if s.stop {
			break
		}
	}
	return total
}

// poll asks Search.Interrupt, once in 4096 calls, whether to stop
// counting.
func (s *comboSearch) poll() {
	s.polled++
	if s.opts.Interrupt != nil && s.polled%4096 == 0 {
		if err := s.opts.Interrupt(); err != nil {
			s.err, s.stop = err, true
		}
	}
}

// keyAt encodes depth k and the writes the reads of its interface read.
func (c *counter) keyAt(s *comboSearch, k int) []byte {
	b := binary.AppendUvarint(c.key[:0], uint64(k))
	for _, d := range c.iface[k] {
		b = binary.AppendUvarint(b, uint64(s.x.RF[s.reads[d]]+1))
	}
	for _, w := range c.chainWrites[k] {
		b = binary.AppendUvarint(b, uint64(s.chainState(w)))
	}
	c.key = b
	return b
}

// AddCounts adds two counts of candidates, saturating at math.MaxInt: a
// count of an abandoned branch is a product of choices, which a big test
// can take past any integer.
func AddCounts(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// MulCounts multiplies two counts of candidates, saturating at
// math.MaxInt.
func MulCounts(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}

// depthSet is a set of depths (indices into comboSearch.reads).
type depthSet []uint64

func newDepthSet(n int) depthSet { return make(depthSet, (n+63)/64) }

func (d depthSet) add(i int)      { d[i/64] |= 1 << uint(i%64) }
func (d depthSet) has(i int) bool { return d[i/64]&(1<<uint(i%64)) != 0 }
func (d depthSet) union(o depthSet) {
	for i := range d {
		d[i] |= o[i]
	}
}
func (d depthSet) equal(o depthSet) bool {
	for i := range d {
		if d[i] != o[i] {
			return false
		}
	}
	return true
}

// max returns the largest depth of the set, or -1 when it is empty.
func (d depthSet) max() int {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] != 0 {
			return i*64 + 63 - bits.LeadingZeros64(d[i])
		}
	}
	return -1
}

// newCounter computes the interfaces of the combination's depths; it
// returns nil where counting must walk the branch (bar.red results, which
// the search chooses at the leaves, feed values into the runs).
func (s *comboSearch) newCounter() *counter {
	if len(s.results) > 0 {
		return nil
	}
	x := s.x
	n := len(s.reads)
	depth := make(map[int]int, n) // read event -> depth
	for k, r := range s.reads {
		depth[r] = k
	}
	// readsOf gives the depths of the reads a value of thread t is
	// computed from.
	readsOf := func(sym *Sym, t int) []int {
		var out []int
		for _, local := range sym.valueReads(nil) {
			if d, ok := depth[x.ThreadStart[t]+local]; ok {
				out = append(out, d)
			}
		}
		return out
	}
	// Direct dependencies: the reads a read's value may be computed from,
	// through the writes it may read.
	direct := make([][]int, n)
	for k := range s.reads {
		for _, w := range s.choices[k] {
			if ev := &x.Events[w]; ev.Thread >= 0 && !ev.Sym.IsConst() {
				direct[k] = append(direct[k], readsOf(ev.Sym, ev.Thread)...)
			}
		}
	}
	closure := make([]depthSet, n)
	for k := range closure {
		closure[k] = newDepthSet(n)
		closure[k].add(k)
	}
	for changed := true; changed; {
		changed = false
		for k := range closure {
			for _, d := range direct[k] {
				before := append(depthSet(nil), closure[k]...)
				closure[k].union(closure[d])
				if !closure[k].equal(before) {
					changed = true
				}
			}
		}
	}
	// Scopes, with whether they are decided only at the leaves.
	type scope struct {
		set  depthSet
		leaf bool
	}
	var scopes []scope
	var linked []depthSet // the constraints' scopes
	scopeOf := func(ds []int, leaf bool) {
		set := newDepthSet(n)
		for _, d := range ds {
			set.union(closure[d])
		}
		scopes = append(scopes, scope{set, leaf})
		if !leaf {
			linked = append(linked, set)
		}
	}
	for t, run := range x.Runs {
		for _, c := range run.Constraints {
			scopeOf(readsOf(c.Cond, t), false)
		}
		base := x.ThreadStart[t]
		for i := range run.Events {
			ev := &x.Events[base+i]
			if ev.Kind != KindBarrier {
				continue
			}
			var ds []int
			for _, sym := range []*Sym{ev.BarInstSym, ev.BarIDSym, ev.BarCountSym, ev.BarPredSym} {
				if sym != nil {
					ds = append(ds, readsOf(sym, t)...)
				}
			}
			scopeOf(ds, true)
		}
	}
	polls := map[int]bool{}
	for _, p := range x.FinalPolls {
		polls[p] = true
	}
	c := &counter{iface: make([][]int, n), chainWrites: make([][]int, n), memo: map[string]int{}, parts: s.newPartIndex(linked)}
	// The writes the updates and final polls at depth k or after may
	// read: what keyAt says of each (see chainState).
	ws := map[int]bool{}
	for k := n - 1; k >= 0; k-- {
		if s.updates[k] || polls[s.reads[k]] {
			for _, w := range s.choices[k] {
				ws[w] = true
			}
		}
		for w := range ws {
			c.chainWrites[k] = append(c.chainWrites[k], w)
		}
		slices.Sort(c.chainWrites[k])
	}
	for k := 0; k < n; k++ {
		for d := 0; d < k; d++ {
			for _, sc := range scopes {
				if sc.set.has(d) && (sc.leaf || sc.set.max() >= k) {
					c.iface[k] = append(c.iface[k], d)
					break
				}
			}
		}
	}
	return c
}

// chainState says what the choices made so far imply, for the choices
// still to make, about write w of an mbarrier object (mbarrier.go): 0 when
// an update read it (no other update or final poll may), 1 when a final
// poll read it (no update may), otherwise where its chain leads back to
// through the updates chosen so far: 2 for a write that is no update's
// (the chain's root), 3 plus the write of the first update not chosen
// yet. chainHolds looks at nothing else of the choices made: an update
// reading w closes a cycle exactly when w leads back to its own write,
// through updates chosen before or after. With each choice checked so,
// mbarrierChainsHold holds at every leaf, and decides nothing there.
func (s *comboSearch) chainState(w int) int {
	if s.takenBy[w] >= 0 {
		return 0
	}
	x := s.x
	for _, p := range x.FinalPolls {
		if x.RF[p] == w {
			return 1
		}
	}
	ci := s.chains
	cur := w
	// The updates chosen form no cycle (chainHolds): the walk ends
	// within one step per read.
	for range len(s.reads) + 1 {
		r := ci.readOf[cur]
		if r < 0 {
			return 2
		}
		next := x.RF[r]
		if next < 0 {
			break
		}
		cur = next
	}
	return 3 + cur
}
