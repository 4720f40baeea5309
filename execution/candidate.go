package execution

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// Execution is one candidate execution: a run per thread, the initial
// writes, the write each read reads from (and so every value), and the
// barrier groups that completed. Enumerate reuses one Execution value for
// consecutive candidates; call Clone to keep one.
type Execution struct {
	Test   *litmus.Test
	Layout *Layout
	// Events lists the initial writes (one per location, in location order)
	// followed by each thread's events in program order.
	Events []Event
	Runs   []*Run
	// ThreadStart[t] is the index of thread t's first event.
	ThreadStart []int
	// RF[i] is the write event read by read event i, and -1 for the others.
	RF []int
	// RMW, Addr, Data and Ctrl relate global event indices.
	RMW, Addr, Data, Ctrl [][2]int
	// BarGroups lists the barrier arrivals that completed together.
	BarGroups [][]int
	// ClusterPhases lists the completed phases of the cluster barriers:
	// the arrivals of each phase and the waits that returned with it.
	ClusterPhases []ClusterPhase
	// FinalPolls are the mbarrier waits of Spinning runs (global event
	// indices): each reads the final state of its mbarrier, the end of the
	// chain of its updates (see mbarrierChainsHold).
	FinalPolls []int
	// LatestReads are the other reads of Spinning runs' last iterations
	// (global event indices): under a fair scheduler each reads a write
	// that no write of its bytes follows in coherence order, which the
	// model's coherence order decides (the checker's constraint).
	LatestReads []int
	// Combo identifies the combination of runs (index of each thread's run).
	Combo []int
	// Undetermined is set when reads-from and data dependencies form a
	// cycle, so that some values are not determined (out of thin air); the
	// values of such reads are left at 0.
	Undetermined bool
	known        []bool
	// idle marks, in a test where a kernel may hang, the task events that
	// never happen (TaskIdle); nil in other tests.
	idle []bool
}

// Clone returns a copy that later enumeration steps do not modify.
func (x *Execution) Clone() *Execution {
	c := *x
	c.Events = append([]Event(nil), x.Events...)
	c.Runs = append([]*Run(nil), x.Runs...)
	c.ThreadStart = append([]int(nil), x.ThreadStart...)
	c.RF = append([]int(nil), x.RF...)
	c.RMW = append([][2]int(nil), x.RMW...)
	c.Addr = append([][2]int(nil), x.Addr...)
	c.Data = append([][2]int(nil), x.Data...)
	c.Ctrl = append([][2]int(nil), x.Ctrl...)
	c.BarGroups = append([][]int(nil), x.BarGroups...)
	c.ClusterPhases = append([]ClusterPhase(nil), x.ClusterPhases...)
	c.FinalPolls = append([]int(nil), x.FinalPolls...)
	c.LatestReads = append([]int(nil), x.LatestReads...)
	c.Combo = append([]int(nil), x.Combo...)
	c.known = append([]bool(nil), x.known...)
	c.idle = append([]bool(nil), x.idle...)
	return &c
}

// Blocked reports whether thread t's run ends blocked at a barrier.
func (x *Execution) Blocked(t int) bool { return x.Runs[t].Status == Blocked }

// Hung reports whether some thread waits forever: blocked at a barrier or
// spinning on an mbarrier phase that never completes.
func (x *Execution) Hung() bool {
	for _, r := range x.Runs {
		if r.Status != Finished {
			return true
		}
	}
	return false
}

// Settled reports whether every thread that waits forever has nothing
// left to execute after its wait, so that the execution's state is final
// although it never finishes (docs/model.md, "Hangs").
func (x *Execution) Settled() bool {
	for _, r := range x.Runs {
		if r.Status != Finished && !r.Done {
			return false
		}
	}
	return true
}

// Label describes event i for people.
func (x *Execution) Label(i int) string { return x.Events[i].Label(x.Test, x.Layout) }

// Reg returns the final value of a thread's register: the value its run
// last assigned, its initial value, or 0 if the thread finished without
// writing it. A thread blocked at a barrier has no value for a register it
// had not written (ok is false).
func (x *Execution) Reg(t int, name string) (Value, bool) {
	return x.RegisterValue(x.Register(RegisterRef{}, t, name))
}

// RegisterRef is a thread's register looked up in the thread's run, so
// that reading it in each candidate of one combination of runs (a search
// visits thousands) does not look it up by name again.
type RegisterRef struct {
	thread int
	name   string
	run    *Run
	sym    *Sym // nil for a register the run never wrote
}

// Register returns the reference to register name of thread t in x's run
// of the thread: ref itself when it was made for the same register and
// run.
func (x *Execution) Register(ref RegisterRef, t int, name string) RegisterRef {
	r := x.Runs[t]
	if ref.run == r && ref.thread == t && ref.name == name {
		return ref
	}
	return RegisterRef{thread: t, name: name, run: r, sym: r.Regs[name]}
}

// KnownRegisterValue is RegisterValue for a partial candidate (see
// Search.Prune): known is false while the register's value depends on a
// read whose value the reads-from chosen so far do not determine. A value
// that cannot be computed counts as not known.
func (x *Execution) KnownRegisterValue(ref RegisterRef) (v Value, defined, known bool) {
	if ref.sym == nil {
		return Int(0), ref.run.Status == Finished || ref.run.Done, true
	}
	v, ok, err := x.symValue(ref.sym, ref.thread)
	if err != nil || !ok {
		return Int(0), false, false
	}
	return v, true, true
}

// RegisterValue is Reg for a register Register looked up in x's runs.
func (x *Execution) RegisterValue(ref RegisterRef) (Value, bool) {
	v, defined, _ := x.KnownRegisterValue(ref)
	return v, defined
}

// symValue evaluates a value of thread t's run on the values its reads
// returned. A constant (most stores' values) and a read (most observed
// registers) are answered directly: every candidate asks for them, and
// building the lookup function for eval cost more than the answer.
func (x *Execution) symValue(sym *Sym, t int) (Value, bool, error) {
	switch sym.kind {
	case symConst:
		return sym.val, true, nil
	case symRead:
		g := x.ThreadStart[t] + sym.read
		return x.Events[g].Value, x.known[g], nil
	}
	return sym.eval(x.readValue(t))
}

// readValue returns the value lookup of thread t's reads.
func (x *Execution) readValue(t int) func(int) (Value, bool) {
	base := x.ThreadStart[t]
	return func(local int) (Value, bool) {
		g := base + local
		return x.Events[g].Value, x.known[g]
	}
}

// Stats counts what an enumeration visited.
type Stats struct {
	Combinations int // combinations of runs
	Candidates   int // candidate executions yielded
	// Pruned counts the candidate executions of the branches a
	// Search.Prune abandoned: they were never built.
	Pruned int
}

// Enumerate calls yield for every candidate execution, until yield returns
// false. It stops with a LimitError after maxCandidates candidates (0 means
// no limit).
func (a *Analysis) Enumerate(maxCandidates int, yield func(*Execution) bool) (Stats, error) {
	return a.Search(Search{MaxCandidates: maxCandidates}, yield)
}

// Search calls yield for every candidate execution the search s keeps,
// until yield returns false (see Search). It stops with a LimitError
// after s.MaxCandidates candidates yielded (0 means no limit).
func (a *Analysis) Search(s Search, yield func(*Execution) bool) (Stats, error) {
	var st Stats
	payoff := s.Payoff
	if payoff == nil {
		payoff = &Payoff{}
	}
	if s.Part != nil {
		indices := s.Part.Combos
		if len(indices) == 0 {
			indices = []int{s.Part.Combo}
		}
		nth := len(a.Test.Threads)
		combo := make([]int, nth)
		x := a.newExecution(combo, s.Scratch)
		defer s.Scratch.release(x)
		for _, index := range indices {
			a.comboOf(index, combo)
			for i := range combo {
				if len(a.Runs[i]) == 0 {
					return st, nil
				}
				x.Runs[i] = a.Runs[i][combo[i]]
			}
			if s.Filter != nil && !s.Filter(x.Runs) {
				continue
			}
			cs := a.newComboSearch(x)
			if cs == nil {
				continue
			}
			if cont, err := a.searchCombo(cs, &st, &s, payoff, yield); err != nil || !cont {
				return st, err
			}
		}
		return st, nil
	}
	var err error
	a.eachListedCombo(s.Combos, s.Filter, s.Scratch, func(_ int, cs *comboSearch) bool {
		var cont bool
		cont, err = a.searchCombo(cs, &st, &s, payoff, yield)
		return err == nil && cont
	})
	return st, err
}

// comboSearch is the reads-from search of one combination of runs.
type comboSearch struct {
	a       *Analysis
	x       *Execution
	reads   []int
	choices [][]int
	// writes are the threads' writes whose values depend on what reads
	// return, which complete computes for every candidate (the others are
	// set when the combination's events are built).
	writes []int
	// updates marks the reads of mbarrier updates, which read from
	// distinct writes (see mbarrierChainsHold); takenBy[w] is the update
	// read that reads write w, or -1.
	updates []bool
	takenBy []int
	// results are the bar.red events whose reduction result the search
	// chooses after reads-from (see reductions.go).
	results []barResult
	owner   []int // thread of each event (-1 for initial writes)
	st      *Stats
	max     int
	yield   func(*Execution) bool
	err     error
	stop    bool
	// opts is the search's configuration; prefix the choices the part
	// being searched fixes (search.go).
	opts   *Search
	prefix []int
	// free is set when every complete choice of reads-from yields exactly
	// one candidate (search.go); counting and leaves count the
	// candidates of an abandoned branch.
	free     bool
	counting bool
	leaves   int
	polled   int
	payoff   *Payoff
	// nogoods are the sets learned about this combination of runs;
	// seenSets how many of them noteLearned has looked at. depth gives
	// each read event's index in reads (-1 for other events). jump, when
	// not -1, is the depth the search backs up to: a set learned holds
	// for every completion of the choices up to it.
	nogoods  *nogoodSets
	seenSets int
	depth    []int
	jump     int
	// counter remembers the counts of abandoned branches (count.go);
	// values learns the values the choices determine (values.go).
	counter *counter
	values  *valueIndex
	// chains indexes the mbarrier updates for chainHolds (mbarrier.go).
	chains *chainIndex
	// fixed holds the barrier groupings of the combination when no
	// barrier operand depends on a read (fixGroupings), nil otherwise.
	fixed [][][]int
}

// searchCombo searches the reads-from choices of one combination of runs.
func (a *Analysis) searchCombo(s *comboSearch, st *Stats, opts *Search, payoff *Payoff, yield func(*Execution) bool) (bool, error) {
	st.Combinations++
	s.st, s.max, s.yield, s.opts, s.payoff = st, opts.MaxCandidates, yield, opts, payoff
	if opts.Part != nil {
		s.prefix = opts.Part.Prefix
		if len(s.prefix) > len(s.reads) {
			return false, fmt.Errorf("part of test %s fixes %d reads, but its combination of runs has %d", a.Test.Name, len(s.prefix), len(s.reads))
		}
	}
	if opts.Combo != nil && !opts.Combo(s.x) {
		return true, nil
	}
	if !s.fixGroupings() {
		return true, nil // no barrier grouping agrees with the runs
	}
	s.free = s.isFree()
	s.values = s.newValueIndex()
	s.chains = s.newChainIndex()
	s.jump = -1
	if opts.Nogoods != nil {
		s.nogoods = opts.Nogoods.of(s.x.Combo)
		s.depth = resize(s.depth, len(s.x.Events), -1)
		for k, r := range s.reads {
			s.depth[r] = k
		}
	}
	s.search(0)
	return !s.stop, s.err
}

// newComboSearch builds the events of the combination of runs x.Runs and
// lists its reads with the writes each may read from; it returns nil for a
// combination that is no candidate's (its runs contradict what their hangs
// imply).
func (a *Analysis) newComboSearch(x *Execution) *comboSearch {
	l := a.Layout
	// The events are allocated at their size: grown by append from
	// nothing, they took a quarter of the bytes a suite of small tests
	// allocates (272 bytes an event, a fresh Execution per search).
	need := len(l.Locs)
	for _, r := range x.Runs {
		need += len(r.Events)
	}
	if cap(x.Events) < need {
		x.Events = make([]Event, 0, need)
	}
	x.Events = x.Events[:0]
	for loc, info := range l.Locs {
		v := info.InitValue()
		x.Events = append(x.Events, Event{Kind: KindWrite, Thread: -1, Addr: info.Root, Loc: loc, Value: v, Sym: constSym(v),
			Size: info.Size, OpSize: info.Size, Signed: true})
	}
	x.RMW, x.Addr, x.Data, x.Ctrl = x.RMW[:0], x.Addr[:0], x.Data[:0], x.Ctrl[:0]
	owner := make([]int, len(l.Locs), need)
	for i := range owner {
		owner[i] = -1
	}
	for t, r := range x.Runs {
		base := len(x.Events)
		x.ThreadStart[t] = base
		x.Events = append(x.Events, r.Events...)
		for range r.Events {
			owner = append(owner, t)
		}
		shift := func(dst *[][2]int, src [][2]int) {
			for _, p := range src {
				*dst = append(*dst, [2]int{p[0] + base, p[1] + base})
			}
		}
		shift(&x.RMW, r.RMW)
		shift(&x.Addr, r.Addr)
		shift(&x.Data, r.Data)
		shift(&x.Ctrl, r.Ctrl)
	}
	if a.kernels != nil && !a.hostProgress(x) {
		return nil // the runs contradict what their hangs imply
	}
	n := len(x.Events)
	x.RF = resize(x.RF, n, -1)
	x.known = x.known[:0]
	for i := range x.Events {
		x.known = append(x.known, x.Events[i].Thread < 0)
	}
	s := &comboSearch{a: a, x: x, owner: owner, takenBy: resize(nil, n, -1)}
	x.FinalPolls, x.LatestReads = x.FinalPolls[:0], x.LatestReads[:0]
	for t, r := range x.Runs {
		for _, p := range r.Polls {
			switch ev := &r.Events[p]; {
			case ev.isMBarWait():
				x.FinalPolls = append(x.FinalPolls, x.ThreadStart[t]+p)
			case ev.Kind == KindRead:
				x.LatestReads = append(x.LatestReads, x.ThreadStart[t]+p)
			}
		}
	}
	for i := range x.Events {
		ev := &x.Events[i]
		if ev.Kind == KindWrite && ev.Thread >= 0 {
			if ev.Sym.IsConst() {
				// The same in every candidate: set once.
				x.Events[i].Value = ev.Sym.val
			} else {
				s.writes = append(s.writes, i)
			}
		}
		if ev.Kind != KindRead {
			continue
		}
		s.updates = append(s.updates, ev.isMBarUpdate())
		// A read reads every byte it accesses from one write (8.2): the
		// writes that cover them. Reads are split at every byte where a
		// write may start or end, so a write covers a read or misses it.
		var ws []int
		for j := range x.Events {
			if w := &x.Events[j]; w.Kind == KindWrite && w.Loc == ev.Loc && w.Off <= ev.Off && ev.Off+ev.Size <= w.Off+w.Size {
				ws = append(ws, j)
			}
		}
		s.reads = append(s.reads, i)
		s.choices = append(s.choices, ws)
	}
	s.results = s.barResults()
	return s
}

func resize(s []int, n, fill int) []int {
	if cap(s) < n {
		s = make([]int, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = fill
	}
	return s
}

// search assigns reads-from to reads[k:], pruning as soon as a run's
// constraint is decided false, and, with a Search.Prune, as soon as the
// model rejects the reads-from fixed so far.
func (s *comboSearch) search(k int) {
	if s.stop {
		return
	}
	if k == len(s.reads) {
		s.chooseResults(0)
		return
	}
	for _, w := range s.choicesAt(k) {
		if !s.available(k, w) {
			continue
		}
		mark, ok := s.pick(k, w)
		if ok && s.relevant() && !s.cut(k) {
			s.search(k + 1)
		}
		s.noteLearned(k)
		if s.jump == k {
			s.jump = -1 // back at the set's deepest read: its next choice
		}
		s.unpick(k, w, mark)
		if s.stop {
			break
		}
	}
}

// writeValue computes a write's value if the reads it depends on are known.
func (s *comboSearch) writeValue(w int) (Value, bool) {
	x := s.x
	ev := &x.Events[w]
	if ev.Thread < 0 {
		return ev.Value, true
	}
	v, ok, err := x.symValue(ev.Sym, ev.Thread)
	if err != nil {
		s.err = errAt(ev.Instr.Pos, "%v (in %q)", err, ev.Instr.Text)
		s.stop = true
		return Value{}, false
	}
	return v, ok
}

// leaf completes a full reads-from choice: resolves the remaining values
// and the barrier operands, and yields one candidate per barrier grouping
// (or, counting an abandoned branch, counts them).
func (s *comboSearch) leaf() {
	groupings := s.complete()
	if s.counting {
		s.countLeaf(len(groupings))
		return
	}
	x := s.x
	for _, g := range groupings {
		x.BarGroups = g
		s.st.Candidates++
		if s.overLimit() {
			return
		}
		if !s.yield(x) {
			s.stop = true
			return
		}
	}
}

// complete resolves the values and barriers of a full reads-from choice
// and returns its barrier groupings: one candidate each, none when the
// choice is not a candidate (or on an error, recorded in s.err).
func (s *comboSearch) complete() [][][]int {
	x := s.x
	x.Undetermined = false
	for _, r := range s.reads {
		if !x.known[r] {
			x.Undetermined = true
			x.Events[r].Value = Int(0)
		}
	}
	for _, w := range s.writes {
		ev := &x.Events[w]
		if v, ok := s.writeValue(w); ok {
			ev.Value = v
		} else {
			ev.Value = Int(0)
		}
	}
	if s.stop || !s.mbarrierChainsHold() {
		return nil
	}
	groupings := s.fixed
	if groupings == nil {
		var err error
		if groupings, err = s.groupings(); err != nil {
			s.err, s.stop = err, true
			return nil
		}
	}
	if len(s.results) == 0 {
		return groupings
	}
	kept := make([][][]int, 0, len(groupings))
	for _, g := range groupings {
		if s.reductionsHold(g) {
			kept = append(kept, g)
		}
	}
	return kept
}

// groupings resolves the barrier arrivals and the cluster-barrier phases
// of the candidate, and returns its barrier groupings (none when they do
// not agree with the runs, or an operand is not determined).
func (s *comboSearch) groupings() ([][][]int, error) {
	arrivals, ok := s.arrivals()
	if !ok {
		return nil, nil
	}
	phases, ok := clusterPhases(s.a.Test, s.x)
	if !ok {
		return nil, nil
	}
	s.x.ClusterPhases = phases
	return barrierGroupings(s.a.Test, arrivals, s.x)
}

// fixGroupings computes the barrier groupings of the combination once,
// when no barrier operand depends on what a read returns: they are then
// the same for every choice of reads-from (s.fixed). It reports false
// when there are none, so that the combination has no candidate. An
// error is left for the leaves to find, as when the groupings are not
// fixed.
func (s *comboSearch) fixGroupings() bool {
	x := s.x
	s.fixed = nil
	for i := range x.Events {
		ev := &x.Events[i]
		if ev.Kind != KindBarrier || ev.Thread < 0 {
			continue
		}
		for _, sym := range []*Sym{ev.BarInstSym, ev.BarIDSym, ev.BarCountSym} {
			if sym != nil && len(sym.valueReads(nil)) > 0 {
				return true
			}
		}
	}
	g, err := s.groupings()
	if err != nil || s.err != nil {
		s.err, s.stop = nil, false
		return true
	}
	if len(g) == 0 {
		return false
	}
	s.fixed = g
	return true
}

// arrivals resolves the barrier arrivals of the candidate; it returns false
// when a barrier operand is not determined.
func (s *comboSearch) arrivals() ([]barrierArrival, bool) {
	return s.arrivalsOf(nil)
}

// arrivalsOf is arrivals for the given threads' barriers (every thread's
// when threads is nil), in the order of the threads.
func (s *comboSearch) arrivalsOf(threads []int) ([]barrierArrival, bool) {
	x := s.x
	var out []barrierArrival
	gens := map[[5]int64]int{}
	for j := 0; j < len(x.Runs) && (threads == nil || j < len(threads)); j++ {
		t := j
		if threads != nil {
			t = threads[j]
		}
		r := x.Runs[t]
		base := x.ThreadStart[t]
		cta := CTAKey(s.a.Test.Threads[t])
		look := x.readValue(t)
		for i := range r.Events {
			ev := &x.Events[base+i]
			if ev.Kind != KindBarrier || ev.Instr.Op == litmus.OpClusterBarrier {
				continue
			}
			vals := [3]int64{0, 0, -1}
			for k, sym := range []*Sym{ev.BarInstSym, ev.BarIDSym, ev.BarCountSym} {
				if sym == nil {
					continue
				}
				v, ok, err := sym.eval(look)
				if err != nil || !ok || v.IsAddr {
					return nil, false
				}
				vals[k] = v.N
			}
			if ev.BarCountSym != nil && vals[2] <= 0 {
				s.err = errAt(ev.Instr.Pos, "barrier thread count %d is not positive", vals[2])
				s.stop = true
				return nil, false
			}
			ev.BarInstance, ev.BarID, ev.BarCount = vals[0], vals[1], vals[2]
			warp := -1
			if ev.Instr.BarWarp {
				warp = s.a.Test.Threads[t].Warp
			}
			key := [5]int64{int64(t), int64(cta), int64(warp), vals[0], vals[1]}
			out = append(out, barrierArrival{
				ev: base + i, thread: t, cta: cta, warp: warp, inst: vals[0], id: vals[1], count: vals[2],
				sync: ev.BarSync, blocked: r.Status == Blocked && i == len(r.Events)-1, gen: gens[key],
			})
			gens[key]++
		}
	}
	return out, true
}
