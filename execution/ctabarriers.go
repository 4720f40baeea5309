package execution

import (
	"math"

	"github.com/ptxmm/ptxmm/litmus"
)

// Combinations of runs that no barrier grouping agrees with.
//
// A combination of runs whose barriers can complete in no way (a thread
// of a CTA passes a bar.sync its CTA's other thread never reaches) has no
// candidate: the search builds its events, finds no grouping
// (fixGroupings) and leaves it. In a test of several CTAs each meeting at
// barriers, nearly every combination is such: a grid barrier of 4 CTAs
// of 2 threads has 18^4 = 104,976 combinations of runs, of which 81 have
// a grouping, and building the others' events was most of its time.
//
// Whether a combination has a grouping is decided CTA by CTA when its
// barriers are fixed (no operand depends on a read) and none is a
// barrier.cluster: each barrier's arrivals are those of one CTA's threads
// (barrierKey), a CTA's groups wait only for its own threads, and the
// order the groups must complete in relates only groups a thread of the
// CTA passes or exits after (groupingConsistent), so the groupings of
// the combination are the products of its CTAs' groupings. ctaBarriers
// remembers, for each CTA and each choice of runs of its threads, whether
// that choice has a grouping; a combination is skipped, its events never
// built, when every CTA's choice is known, one has no grouping, and none
// is left open (operands read from memory, a cluster barrier, an error),
// exactly the combinations fixGroupings would leave.

// ctaVerdict is what ctaBarriers knows of one CTA's choice of runs.
type ctaVerdict uint8

const (
	ctaUnknown ctaVerdict = iota // not seen yet
	ctaGrouped                   // its barriers have a grouping, fixed
	ctaNone                      // no grouping agrees with its runs
	ctaOpen                      // not decided alone: the combination is searched
)

// ctaBarriers remembers the verdicts of the CTAs' choices of runs for one
// pass over the combinations (eachComboOf).
type ctaBarriers struct {
	a *Analysis
	// threads lists, for each CTA, its threads with a bar in their code;
	// seen[c] holds the verdicts of CTA c's choices of runs, by the
	// mixed-radix index of the choice over threads[c] (nil when the
	// choices are too many to index).
	threads [][]int
	seen    []map[int]ctaVerdict
}

// newCTABarriers returns the verdicts' memory for a pass over a's
// combinations, or nil when no combination can be skipped so: fewer than
// two CTAs have a bar (one CTA's verdict is the combination's, found once
// per combination anyway), or some thread has a barrier.cluster.
func newCTABarriers(a *Analysis) *ctaBarriers {
	byCTA := map[int]int{}
	var threads [][]int
	for t, th := range a.Test.Threads {
		bars := false
		for _, in := range th.Instrs {
			switch in.Op {
			case litmus.OpClusterBarrier:
				return nil
			case litmus.OpBarrier:
				bars = true
			}
		}
		if !bars {
			continue
		}
		key := CTAKey(th)
		c, ok := byCTA[key]
		if !ok {
			c = len(threads)
			byCTA[key] = c
			threads = append(threads, nil)
		}
		threads[c] = append(threads[c], t)
	}
	if len(threads) < 2 {
		return nil
	}
	b := &ctaBarriers{a: a, threads: threads, seen: make([]map[int]ctaVerdict, len(threads))}
	for c, ts := range threads {
		n := 1
		for _, t := range ts {
			if k := len(a.Runs[t]); k > 0 && n <= math.MaxInt32/k {
				n *= k
			} else {
				n = -1
				break
			}
		}
		if n > 0 {
			b.seen[c] = map[int]ctaVerdict{}
		}
	}
	return b
}

// choice is the index of the runs combo gives CTA c's threads, or -1 when
// their choices are too many to remember.
func (b *ctaBarriers) choice(c int, combo []int) int {
	if b.seen[c] == nil {
		return -1
	}
	i := 0
	for _, t := range b.threads[c] {
		i = i*len(b.a.Runs[t]) + combo[t]
	}
	return i
}

// skips reports whether the combination combo is known to have no barrier
// grouping, from its CTAs' verdicts alone.
func (b *ctaBarriers) skips(combo []int) bool {
	none := false
	for c := range b.threads {
		i := b.choice(c, combo)
		if i < 0 {
			return false
		}
		switch b.seen[c][i] {
		case ctaUnknown, ctaOpen:
			return false
		case ctaNone:
			none = true
		}
	}
	return none
}

// learn records the verdicts of the CTAs' choices in s's combination (its
// events built) that are not known yet.
func (b *ctaBarriers) learn(s *comboSearch, combo []int) {
	for c, ts := range b.threads {
		if i := b.choice(c, combo); i >= 0 {
			if _, ok := b.seen[c][i]; !ok {
				b.seen[c][i] = s.ctaVerdict(ts)
			}
		}
	}
}

// ctaVerdict decides whether the barriers of threads, the threads of one
// CTA, have a grouping in s's combination, as fixGroupings decides it for
// the whole combination. s is left as it was.
func (s *comboSearch) ctaVerdict(threads []int) ctaVerdict {
	x := s.x
	for _, t := range threads {
		base := x.ThreadStart[t]
		for i := range x.Runs[t].Events {
			ev := &x.Events[base+i]
			if ev.Kind != KindBarrier {
				continue
			}
			if isClusterBarrier(ev) {
				return ctaOpen
			}
			for _, sym := range []*Sym{ev.BarInstSym, ev.BarIDSym, ev.BarCountSym} {
				if sym != nil && len(sym.valueReads(nil)) > 0 {
					return ctaOpen
				}
			}
		}
	}
	err, stop, phases := s.err, s.stop, x.ClusterPhases
	defer func() { s.err, s.stop, x.ClusterPhases = err, stop, phases }()
	x.ClusterPhases = nil
	arrivals, ok := s.arrivalsOf(threads)
	if s.err != nil {
		return ctaOpen
	}
	if !ok {
		return ctaNone
	}
	groupings, gerr := barrierGroupings(s.a.Test, arrivals, x)
	switch {
	case gerr != nil:
		return ctaOpen
	case len(groupings) == 0:
		return ctaNone
	}
	return ctaGrouped
}
