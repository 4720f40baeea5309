package rules

import payoffs "github.com/ptxmm/ptxmm/internal/payoff"

// stratumSchedule decides which strata an evaluation recomputes and how
// (runDirty): which are dirty, how often each ran, and the two shortcuts
// that spare a stratum's work, the test for strata that derive nothing
// (with its witnesses) and the cutoff for strata that come out unchanged
// (with the copies it compares against). It is its own type because it
// is what the rest of the instance asks of a stratum's state, apart from
// the relations the strata hold: Reset forgets it in one place (forget),
// and the tests of incremental evaluation read its counts of runs.
type stratumSchedule struct {
	// dirty holds the strata to recompute.
	dirty strataBits
	// runs counts the evaluations of each stratum, which the shortcuts'
	// policies read and the tests of incremental re-evaluation check.
	runs []int
	// cutoff and nothing count how often the unchanged-stratum cutoff
	// and the test for strata that derive nothing pay.
	cutoff, nothing payoff
	// witnesses holds what starved each starting rule, per rule
	// (derivesNothing): a cache keyed by relation versions.
	witnesses []witness
	// before holds the tuples of the stratum being recomputed from before,
	// to tell whether its readers must be: before[k] the stores of its
	// k-th relation, one per arity (beforeStore).
	before [][]store
}

// newStratumSchedule returns the schedule of a new instance of p: every
// stratum dirty, none run.
func newStratumSchedule(p *Program) stratumSchedule {
	n := len(p.strata)
	s := stratumSchedule{
		dirty:     newStrataBits(n),
		runs:      make([]int, n),
		cutoff:    newPayoff(payoffs.StratumCutoff, n),
		nothing:   newPayoff(payoffs.DerivesNothing, n),
		witnesses: make([]witness, p.numStarters),
	}
	s.dirty.setAll(n)
	return s
}

// forget returns the schedule to a new instance's for strata strata: every
// stratum dirty, none run, and the shortcuts' payoffs forgotten. The
// witnesses are keyed by relation versions, which Reset moves on, and the
// copies of before are written before they are read: both stay.
func (s *stratumSchedule) forget(strata int) {
	s.dirty.setAll(strata)
	clear(s.runs)
	s.cutoff.reset()
	s.nothing.reset()
}

// ran records that stratum i was recomputed (or found to derive nothing),
// marking its readers dirty when it changed.
func (s *stratumSchedule) ran(st *stratum, changed bool) {
	s.dirty.unset(st.index)
	s.runs[st.index]++
	if changed {
		for _, d := range st.readers {
			s.dirty.set(d)
		}
	}
}

// readersClean reports whether some stratum reading st is not dirty: only
// then can finding st unchanged spare work (after Invalidate, or where what
// st reads changed upstream of its readers too, every reader runs anyway).
func (s *stratumSchedule) readersClean(st *stratum) bool {
	for _, d := range st.readers {
		if !s.dirty.has(d) {
			return true
		}
	}
	return false
}

// payoff counts, per stratum, the times a shortcut was tried (tries) and
// those it paid (hits), for its policy (package payoff) to say whether to
// try it again. Both shortcuts of the schedule cost something on every run
// of every stratum, which adds up over the hundreds of thousands of runs of
// a big search.
type payoff struct {
	policy      payoffs.Policy
	tries, hits []int
}

func newPayoff(s payoffs.Shortcut, strata int) payoff {
	return payoff{policy: s.Policy(), tries: make([]int, strata), hits: make([]int, strata)}
}

// worth reports whether to try the shortcut on stratum i, counting the
// try; runs is the stratum's count of runs.
func (p *payoff) worth(i, runs int) bool {
	if p.policy.Worth(int64(p.tries[i]), int64(p.hits[i]), int64(runs)) {
		p.tries[i]++
		return true
	}
	return false
}

// hit records that the shortcut tried on stratum i paid.
func (p *payoff) hit(i int) { p.hits[i]++ }

// reset forgets every try and hit.
func (p *payoff) reset() {
	clear(p.tries)
	clear(p.hits)
}

// witness is an empty relation that starves a rule, at version at-1 (0:
// none known).
type witness struct {
	rel relID
	at  uint64
}
