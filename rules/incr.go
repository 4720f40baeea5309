package rules

import "github.com/ptxmm/ptxmm/relations"

// Incremental evaluation. A step of the order search adds a few pairs to
// an order; the relations depending on it are brought up to date from
// those pairs alone: each rule reading a changed relation is evaluated once
// per changed body atom with that atom reading only the new tuples (the
// semi-naive rule, applied to changes from outside a stratum), and what is
// new in a stratum's relations is the change its readers see in turn. A
// stratum that reads a changed relation through a negation can lose tuples,
// so it is recomputed whole and compared with what it held. Every change
// is written to a trail, so that backtracking undoes a step by removing
// what it added (and restoring what it removed) instead of recomputing.
//
// The search only changes orders, and between two Solve calls that find the
// inputs unchanged, the second undoes the first's trail instead of
// clearing the orders and recomputing what depends on them.

// trailEntry records tuples a step added to (or removed from) a relation.
type trailEntry struct {
	rel     relID
	removed bool
	// from and to delimit the tuples in incremental.data: for a set or a
	// binary relation, pairs of a word's position (row<<32 | word) and
	// its bits, so that undoing costs a word operation per word changed;
	// for more columns, the tuples' values one after the other.
	from, to int
}

// incremental is the state of incremental evaluation in an instance: the
// changes of the step in progress, the trail of the steps since the
// checkpoint (or the start of the last search), and the insertions not
// taken in yet. It is a type of its own because it is the one job of the
// instance whose state outlives an evaluation: the order search and the
// host's insertions move along the trail, Reset and a stopped evaluation
// forget it (forgetAll, and resetIncremental), and the evaluation proper
// only reads the changes (deltaStore). Its methods keep its own books; the
// instance's methods in this file apply them to the relations.
type incremental struct {
	// chg[r] holds the tuples the current step added to r; prev[r] is
	// scratch for the old tuples of a relation whose stratum is recomputed
	// whole. Both are allocated on first use, the arrays too: most
	// instances (the corpora's small tests) never need most of them.
	chg, prev []store
	// made lists the relations whose chg store is allocated, so that
	// forgetting them all (Reset, between two small tests) costs a visit
	// per store in use, not one per relation of the program.
	made []relID
	// changed[r] is set when chg[r] holds tuples, lost[r] when the current
	// step removed tuples from r; pending lists the relations with either.
	changed, lost []bool
	pending       []relID
	// touched[s] is set for the needed strata that read a pending relation.
	touched []bool
	trail   []trailEntry
	data    []uint64
	// dataBytes is the memory of data accounted against the limits.
	dataBytes int64
	// valid is set while the trail leads from a state the instance can
	// return to (a checkpoint, or the start of the last search) to the
	// current state: nothing set the inputs since. hasCheckpoint says that
	// the trail starts at a checkpoint; ckptPending, that a checkpoint was
	// asked for and the next evaluation takes it (insert.go).
	valid, hasCheckpoint, ckptPending bool
	// atBase is set while the instance is at its checkpoint; afterInsert,
	// while it is one step (the insertions) away from it, with that step's
	// changes at hand; baseHeld[i] says that check i held at the
	// checkpoint.
	atBase, afterInsert bool
	baseHeld            []bool
	// searchBase is the trail mark at the start of the last search, or -1
	// when there was none since the inputs last changed.
	searchBase int
	// stage[r] holds the tuples inserted into input r and not taken in yet;
	// staged lists those relations, isStaged marks them.
	stage    []store
	isStaged []bool
	staged   []relID
	// targets is scratch for the targets of new pairs, cycles the
	// acyclicity test the search reuses.
	targets *relations.Set
	cycles  relations.CycleTest
	// recompute is set on domains too small for incremental updates to
	// pay: a step then records only the changes of the orders and inputs
	// on the trail, and the strata reading them are recomputed (now, or
	// after an undo, when next needed).
	recompute bool
}

// newIncremental returns the incremental state of a new instance of p over
// n atoms, with the per-relation and per-stratum arrays sized.
func newIncremental(p *Program, n int) incremental {
	nr := len(p.rels)
	return incremental{
		changed:    make([]bool, nr),
		lost:       make([]bool, nr),
		touched:    make([]bool, len(p.strata)),
		isStaged:   make([]bool, nr),
		baseHeld:   make([]bool, len(p.checks)),
		searchBase: -1,
		recompute:  n < p.options.incrementalMinAtoms,
	}
}

// forgetAll forgets the trail, the checkpoint and the staged insertions,
// and empties every change store (Reset).
func (inc *incremental) forgetAll() {
	inc.dropStaged(-1)
	for _, r := range inc.pending {
		inc.changed[r], inc.lost[r] = false, false
	}
	inc.pending = inc.pending[:0]
	for _, r := range inc.made {
		inc.chg[r].clearAll()
	}
	for _, st := range inc.stage {
		st.clearAll()
	}
	clear(inc.touched)
	clear(inc.baseHeld)
	inc.trail = inc.trail[:0]
	inc.data = inc.data[:0]
	inc.dataBytes = 0
	inc.forgetBase()
}

// resetIncremental forgets the trail and any step in progress, after an
// evaluation was cut short or the inputs changed.
func (in *Instance) resetIncremental() {
	inc := &in.inc
	for _, r := range inc.pending {
		inc.changed[r], inc.lost[r] = false, false
	}
	// A stop can leave tuples (and row lists that no longer match them)
	// in any change store, not only the pending ones.
	for r, st := range inc.chg {
		if st.arity != 0 {
			inc.chg[r] = newTrackedStore(st.arity, in.n, in.p.options.trackMinAtoms)
		}
	}
	inc.pending = inc.pending[:0]
	clear(inc.touched)
	inc.trail = inc.trail[:0]
	inc.data = inc.data[:0]
	in.forgetTrail()
}

// forgetTrail makes the trail unusable, after the inputs changed: the
// checkpoint too is forgotten, and the insertions not taken in yet become
// plain changes of their relations.
func (in *Instance) forgetTrail() {
	in.inc.forgetBase()
	in.flushStaged()
}

// forgetBase forgets the states the trail leads from: the checkpoint (a
// pending one too) and the start of the last search.
func (inc *incremental) forgetBase() {
	inc.valid, inc.hasCheckpoint, inc.ckptPending = false, false, false
	inc.atBase, inc.afterInsert = false, false
	inc.searchBase = -1
}

// chgStore returns chg[r], allocating it on first use.
func (in *Instance) chgStore(r relID) store {
	inc := &in.inc
	if inc.chg == nil || inc.chg[r].arity == 0 {
		inc.made = append(inc.made, r)
	}
	return in.lazyScratch(&inc.chg, r)
}

// prevStore returns prev[r], allocating it on first use.
func (in *Instance) prevStore(r relID) store { return in.lazyScratch(&in.inc.prev, r) }

// lazyScratch returns (*stores)[r], allocating the slice (one entry per
// relation) and relation r's scratch store on first use: most relations
// never need one.
func (in *Instance) lazyScratch(stores *[]store, r relID) store {
	if *stores == nil {
		*stores = make([]store, len(in.p.rels))
	}
	if (*stores)[r].arity == 0 {
		(*stores)[r] = in.scratchStore(r)
	}
	return (*stores)[r]
}

// scratchStore allocates a store for relation r, rows tracked, accounted
// against the instance's limits.
func (in *Instance) scratchStore(r relID) store {
	return in.accountedStore(in.p.rels[r].arity, true)
}

// accountedStore allocates a store of arity ar (rows tracked or not),
// accounted against the instance's limits; a store of more columns grows
// with its tuples, which the limits count as it does.
func (in *Instance) accountedStore(ar int, tracked bool) store {
	switch ar {
	case 1:
		in.growScratch(setBytes(in.n))
	case 2:
		in.growScratch(relBytes(in.n))
	}
	if tracked {
		return newTrackedStore(ar, in.n, 0)
	}
	return newStore(ar, in.n)
}

// deltaStore is what a body atom substituted by its delta reads: the
// tuples new in the last round for a relation of the stratum being
// evaluated, the tuples the current step added for one outside it.
func (in *Instance) deltaStore(r relID) store {
	if in.p.rels[r].stratum == in.cur {
		return in.delta[r]
	}
	return in.inc.chg[r]
}

// mark returns a point of the trail that undo can return to.
func (inc *incremental) mark() int { return len(inc.trail) }

// beginStep forgets the changes of the previous step.
func (inc *incremental) beginStep() {
	inc.afterInsert = false
	for _, r := range inc.pending {
		if inc.changed[r] {
			inc.chg[r].clear()
		}
		inc.changed[r], inc.lost[r] = false, false
	}
	inc.pending = inc.pending[:0]
}

// markChanged notes that chg[r] holds tuples.
func (in *Instance) markChanged(r relID) {
	inc := &in.inc
	// The version changes now, not at the end of the step: what is read
	// by version (emptyRel, spans) must see the new tuples at once.
	in.versions[r]++
	in.quiet.moved(r)
	inc.pend(r)
	inc.changed[r] = true
}

// markLost notes that the current step removed tuples from r.
func (in *Instance) markLost(r relID) {
	inc := &in.inc
	in.versions[r]++
	in.quiet.moved(r)
	inc.pend(r)
	inc.lost[r] = true
}

// pend lists r among the relations the current step changed.
func (inc *incremental) pend(r relID) {
	if !inc.changed[r] && !inc.lost[r] {
		inc.pending = append(inc.pending, r)
	}
}

// touch marks the readers of a changed relation: the needed ones for this
// step, the others for recomputation when next read.
func (in *Instance) touch(r relID) {
	for _, s := range in.p.search.neededReaders[r] {
		in.inc.touched[s] = true
	}
	for _, s := range in.p.search.deferredReaders[r] {
		in.sched.dirty.set(s)
	}
}

// propagate brings the needed strata up to date with the changes of the
// current step (chg of the relations in pending) and records them on the
// trail.
func (in *Instance) propagate() {
	inc := &in.inc
	inc.atBase = false
	if inc.recompute {
		// Only orders and inputs change, and only they go on the trail;
		// what reads them is recomputed when next read (current).
		for _, r := range inc.pending {
			in.inputChanged(r)
			if inc.changed[r] {
				in.recordTuples(r, false, inc.chg[r])
			}
		}
		return
	}
	for _, r := range inc.pending {
		in.touch(r)
	}
	for i, s := range in.p.strata {
		if !inc.touched[i] {
			continue
		}
		inc.touched[i] = false
		if in.needsWhole(s) {
			in.recomputeWhole(s)
		} else {
			in.updateStratum(s)
		}
		for _, r := range s.rels {
			if inc.changed[r] || inc.lost[r] {
				in.touch(r)
			}
		}
	}
	for _, r := range inc.pending {
		in.versions[r]++
		in.quiet.moved(r)
		if inc.changed[r] {
			in.recordTuples(r, false, inc.chg[r])
		}
	}
}

// current brings the strata the search tests up to date where a step or an
// undo left them to recompute (on small domains, incr.go): the search calls
// it before it reads them.
func (in *Instance) current() {
	if in.inc.recompute {
		in.runNeeded()
	}
}

// needsWhole reports whether a stratum must be recomputed rather than
// updated: it reads a changed relation through a negation, or reads a
// relation that lost tuples.
func (in *Instance) needsWhole(s *stratum) bool {
	inc := &in.inc
	for _, r := range in.p.search.negReads[s.index] {
		if inc.changed[r] || inc.lost[r] {
			return true
		}
	}
	for _, r := range s.reads {
		if inc.lost[r] {
			return true
		}
	}
	return in.prov.recording
}

// updateStratum adds to a stratum what the changes of its inputs derive.
func (in *Instance) updateStratum(s *stratum) {
	inc := &in.inc
	in.intr.tick(strataWork)
	in.cur = s.index
	if !s.recursive {
		for _, rp := range s.rules {
			for _, occ := range rp.extOccs {
				if inc.changed[rp.litRel[occ]] {
					in.evalRuleInto(rp, occ, in.chgStore(rp.head))
				}
			}
		}
		for _, r := range s.rels {
			if inc.chg == nil {
				break
			}
			if ch := inc.chg[r]; ch.arity != 0 && absorbStores(in, ch, r) {
				in.markChanged(r)
			}
		}
		return
	}
	// The first round applies the changes from outside; later rounds are
	// those of semi-naive evaluation over what each round added.
	for _, r := range s.rels {
		in.next[r].clear()
	}
	for _, rp := range s.rules {
		for _, occ := range rp.extOccs {
			if inc.changed[rp.litRel[occ]] {
				in.evalRuleInto(rp, occ, in.next[rp.head])
			}
		}
	}
	in.semiNaiveRounds(s, func(r relID) {
		addInto(in, in.chgStore(r), in.next[r])
		in.markChanged(r)
	})
}

// recomputeWhole recomputes a stratum and records what it gained and lost.
func (in *Instance) recomputeWhole(s *stratum) {
	for _, r := range s.rels {
		in.prevStore(r).copyFrom(in.stores[r])
	}
	in.runStratum(s)
	for _, r := range s.rels {
		st, old, ch := in.stores[r], in.inc.prev[r], in.chgStore(r)
		ch.copyFrom(st)
		ch.differenceWith(old)
		if !ch.isEmpty() {
			in.markChanged(r)
		}
		old.differenceWith(st)
		if !old.isEmpty() {
			in.markLost(r)
			in.recordTuples(r, true, old)
		}
	}
}

// recordTuples appends the tuples of st to the trail as added to (or
// removed from) relation r.
func (in *Instance) recordTuples(r relID, removed bool, st store) {
	inc := &in.inc
	from := len(inc.data)
	switch st.arity {
	case 1:
		for k, x := range st.set.Bits().Words() {
			if x != 0 {
				inc.data = append(inc.data, uint64(k), x)
			}
		}
	case 2:
		appendWords := func(i int, row []uint64, base int) {
			for k, x := range row {
				if x != 0 {
					inc.data = append(inc.data, uint64(i)<<32|uint64(base+k), x)
				}
			}
		}
		if st.track != nil {
			for _, i := range st.track.rows {
				row, base := st.track.span(i)
				appendWords(int(i), row, base)
			}
		} else {
			for i, row := range in.rowsOf(st) {
				appendWords(i, row, 0)
			}
		}
	default:
		for t := range st.tup.All() {
			for _, x := range t {
				inc.data = append(inc.data, uint64(x))
			}
		}
	}
	if len(inc.data) == from {
		return
	}
	inc.trail = append(inc.trail, trailEntry{rel: r, removed: removed, from: from, to: len(inc.data)})
	if grown := int64(cap(inc.data)) * 8; grown > inc.dataBytes {
		in.growScratch(grown - inc.dataBytes)
		inc.dataBytes = grown
	}
}

// undo returns to the state at mark m, undoing every step since.
func (in *Instance) undo(m int) {
	inc := &in.inc
	in.inc.beginStep()
	for k := len(inc.trail) - 1; k >= m; k-- {
		e := inc.trail[k]
		st := in.stores[e.rel]
		data := inc.data[e.from:e.to]
		switch st.arity {
		case 1:
			undoWords(st.set.Bits().Words(), data, e.removed)
		case 2:
			view := in.relRows(e.rel)
			for x := 0; x < len(data); x += 2 {
				row := view[data[x]>>32]
				w := &row[data[x]&(1<<32-1)]
				if e.removed {
					*w |= data[x+1]
				} else {
					*w &^= data[x+1]
				}
			}
		default:
			undoTuples(st.tup, data, e.removed)
		}
		if inc.recompute {
			in.inputChanged(e.rel)
			continue
		}
		in.versions[e.rel]++
		in.quiet.moved(e.rel)
		for _, s := range in.p.search.deferredReaders[e.rel] {
			in.sched.dirty.set(s)
		}
	}
	if m < len(inc.trail) {
		inc.data = inc.data[:inc.trail[m].from]
		inc.trail = inc.trail[:m]
	}
}

// undoWords takes the recorded bits out of words, or puts them back.
func undoWords(words []uint64, data []uint64, removed bool) {
	for x := 0; x < len(data); x += 2 {
		if removed {
			words[data[x]] |= data[x+1]
		} else {
			words[data[x]] &^= data[x+1]
		}
	}
}

// undoTuples adds back or removes the flattened tuples of data.
func undoTuples(t *relations.Tuples, data []uint64, removed bool) {
	ar := t.Arity()
	tup := make([]int, ar)
	gone := relations.NewTuples(ar)
	for x := 0; x+ar <= len(data); x += ar {
		for k := range tup {
			tup[k] = int(data[x+k])
		}
		if removed {
			t.Add(tup)
		} else {
			gone.Add(tup)
		}
	}
	t.DifferenceWith(gone)
}

// absorbStores removes from nx the tuples relation r holds and adds the
// rest to it, reporting whether there were any: nx is left holding what is
// new.
func absorbStores(in *Instance, nx store, r relID) bool {
	st := in.stores[r]
	if nx.track == nil {
		nx.differenceWith(st)
		if nx.isEmpty() {
			return false
		}
		st.unionWith(nx)
		return true
	}
	tr := nx.track
	sv := in.relRows(r)
	kept := tr.rows[:0]
	for _, i := range tr.rows {
		nrow, base := tr.span(i)
		srow := sv[i][base : base+len(nrow)]
		lo, hi := len(sv[i]), 0
		for k, x := range nrow {
			if x == 0 {
				continue
			}
			x &^= srow[k]
			nrow[k] = x
			srow[k] |= x
			if x != 0 {
				lo, hi = min(lo, base+k), base+k+1
			}
		}
		if lo < hi {
			kept = append(kept, i)
			tr.lo[i], tr.hi[i] = int32(lo), int32(hi)
		} else {
			tr.in[i] = false
		}
	}
	tr.rows = kept
	return len(kept) > 0
}

// addInto adds the tuples of src to dst, keeping dst's row list.
func addInto(in *Instance, dst, src store) {
	if dst.arity != 2 || dst.track == nil {
		dst.unionWith(src)
		return
	}
	dv := in.rowsOf(dst)
	if src.track != nil {
		for _, i := range src.track.rows {
			row, base := src.track.span(i)
			orRow(dv[i][base:base+len(row)], row)
			dst.track.add(int(i), base, base+len(row))
		}
		return
	}
	for i, row := range in.rowsOf(src) {
		if orRow(dv[i], row) {
			dst.track.add(i, 0, len(row))
		}
	}
}
