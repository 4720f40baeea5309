package checker

import (
	"math"
	"slices"
	"sync"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/tuplekey"
)

// Which probe combinations can have a consistent execution.
//
// A probe execution the models find consistent gives, without its failed
// iterations' events, a consistent execution of the combination of the
// probes' base runs (execution.Analysis.Bases): the models are
// event-monotone, or the spin reduction that makes probes would be off.
// That execution is a candidate of the search the check has just made, so
// a combination of runs in which the search found no consistent candidate
// is the base of no probe combination whose executions are worth
// searching for flags. The search records the combinations in which some
// candidate was consistent; the probe search leaves out the combinations
// whose bases are none of them, before building their events. Most
// combinations of a test with awaits are of runs that spin for ever or
// fail an await that cannot fail, and have no consistent execution.
//
// The record is exact only when the search evaluated every candidate it
// did not leave out as rejected by every model: not when it looks only at
// the executions that settle the test (Options.OnlyDeciding,
// StopAtWitness), which is then searched as before.

// liveCombos is the set of combinations of runs (execution.Execution.
// Combo) in which some candidate was consistent, shared by the sessions
// of a search split across cores.
type liveCombos struct {
	mu  sync.Mutex
	set map[string]bool
	// combos are the members of set, in the order they were marked.
	combos [][]int
}

// mark records that a candidate of combo was consistent.
func (l *liveCombos) mark(combo []int) {
	k := tuplekey.Of(combo)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.set == nil {
		l.set = map[string]bool{}
	}
	if !l.set[k] {
		l.set[k] = true
		l.combos = append(l.combos, slices.Clone(combo))
	}
}

// has reports whether a candidate of combo was consistent.
func (l *liveCombos) has(combo []int) bool {
	k := tuplekey.Of(combo)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.set[k]
}

// list returns the combinations marked so far; the caller must not
// change them.
func (l *liveCombos) list() [][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.combos
}

// recordsLive reports whether the search evaluates every candidate it
// does not leave out as rejected, so that the combinations it finds no
// consistent candidate in can be told from the others.
func (s *session) recordsLive() bool {
	return !s.onlyDeciding && !s.opts.StopAtWitness && s.a.HasProbes()
}

// noteLive records the combination of candidate x as live when some
// model found x consistent (evaluateAll).
func (s *session) noteLive(x *execution.Execution) {
	if s.live != nil && !s.probing && s.leafConsistent {
		s.live.mark(x.Combo)
	}
}

// baseFilter returns the filter of probe combinations (Search.Filter)
// that keeps those whose base runs make a combination live, or nil when
// the search recorded none (recordsLive). a is the analysis the search
// searched, without its probes.
func (s *session) baseFilter(a *execution.Analysis) func([]*execution.Run) bool {
	if s.live == nil {
		return nil
	}
	index := map[*execution.Run][]int{}
	for t := range a.Runs {
		for i, r := range a.Runs[t] {
			index[r] = []int{i}
		}
	}
	bases := a.Bases()
	for t := range a.Probes {
		for i, p := range a.Probes[t] {
			if len(bases[t][i]) > 0 {
				index[p] = bases[t][i]
			}
		}
	}
	combo := make([]int, len(a.Runs))
	return func(rs []*execution.Run) bool {
		choices := make([][]int, len(rs))
		for t, r := range rs {
			c, ok := index[r]
			if !ok {
				return true // no base known: keep it
			}
			choices[t] = c
		}
		return s.anyLive(choices, combo, 0)
	}
}

// anyLive reports whether some choice of one base run per thread from
// choices, the first t threads' made in combo, is a live combination.
func (s *session) anyLive(choices [][]int, combo []int, t int) bool {
	if t == len(choices) {
		return s.live.has(combo)
	}
	return slices.ContainsFunc(choices[t], func(c int) bool {
		combo[t] = c
		return s.anyLive(choices, combo, t+1)
	})
}

// probeCombos lists, in increasing order, the indices in p (a with its
// probes, execution.Analysis.WithProbes) of the combinations of runs that
// baseFilter keeps: those taking on each thread a run of a live
// combination of a, or a probe with that run among its bases. It makes
// them from the live combinations rather than asking about every
// combination of p (the 8-thread grid barrier has 1.7 million, and 36
// are kept). ok is false when it cannot: the search recorded nothing, a
// probe has no base known (its combinations are all kept), or the list
// would be longer than the walk.
func (s *session) probeCombos(a, p *execution.Analysis) (combos []int, ok bool) {
	if s.live == nil {
		return nil, false
	}
	// on[t][i] lists the runs of p on run i of thread t of a: the run
	// itself (p's runs start with a's) and the probes built on it.
	bases := a.Bases()
	on := make([][][]int, len(a.Runs))
	for t := range a.Runs {
		on[t] = make([][]int, len(a.Runs[t]))
		for i := range a.Runs[t] {
			on[t][i] = []int{i}
		}
		for j, bs := range bases[t] {
			if len(bs) == 0 {
				return nil, false
			}
			for _, i := range bs {
				on[t][i] = append(on[t][i], len(a.Runs[t])+j)
			}
		}
	}
	walk := 1
	for _, runs := range p.Runs {
		walk = satMul(walk, len(runs))
	}
	live := s.live.list()
	n := 0
	for _, c := range live {
		m := 1
		for t, i := range c {
			m = satMul(m, len(on[t][i]))
		}
		if n += m; n > walk {
			return nil, false
		}
	}
	seen := make(map[int]bool, n)
	combos = make([]int, 0, n)
	choice := make([]int, len(a.Runs))
	var each func(c []int, t int)
	each = func(c []int, t int) {
		if t == len(c) {
			if k := p.ComboIndex(choice); !seen[k] {
				seen[k] = true
				combos = append(combos, k)
			}
			return
		}
		for _, r := range on[t][c[t]] {
			choice[t] = r
			each(c, t+1)
		}
	}
	for _, c := range live {
		each(c, 0)
	}
	slices.Sort(combos)
	return combos, true
}

// satMul is a*b for non-negative a and b, or the largest int where that
// overflows.
func satMul(a, b int) int {
	if a != 0 && b > math.MaxInt/a {
		return math.MaxInt
	}
	return a * b
}
