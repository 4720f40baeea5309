package checker

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/execution"
)

// Searching in parallel: a big test's search is split into parts
// (execution.Analysis.Split: the choices of the first reads of its big
// combinations of runs, and runs of small combinations searched whole,
// about partsPerCore parts per core in all), which the
// cores free when the test starts (Options.Cores) search at once, each
// with its own instances of the models. The parts' results are merged in
// enumeration order, so that the states come in the order one core finds
// them, each flag keeps the witness of the first execution raising it, and
// the counts, verdicts and logs are the same as with one core. Only the
// search that abandons rejected candidates is split: explanations and
// hosts that watch every candidate see the candidates in order, on one
// core.

const (
	// splitMin is the fewest candidates (as Analysis.Choices bounds
	// them) worth splitting a search for.
	splitMin = 512
	// partsPerCore is how many parts a split aims at per core: parts
	// differ in size, and more of them keep every core busy to the end.
	partsPerCore = 16
)

// partOutcome is what searching one part found.
type partOutcome struct {
	results []*Result
	stats   execution.Stats
	err     error
}

// searchAll searches every candidate: split across the free cores when
// the test is big enough and some are free, else in one piece.
func (s *session) searchAll() (execution.Stats, error) {
	cores := s.opts.Cores
	least := splitMin
	if s.opts.splitMin > 0 {
		least = s.opts.splitMin
	}
	if !s.prune || s.opts.StopAtWitness || cores.Size() < 2 || s.a.ChoicesBelow(least) || !cores.TryTake() {
		return s.enumerate(nil, nil)
	}
	if !s.opts.Budget.TryReserve(s.reserved) {
		cores.Give()
		return s.enumerate(nil, nil)
	}
	parts := s.a.Split(partsPerCore * cores.Size())
	helpers := 1
	for helpers+1 < len(parts) && cores.TryTake() {
		if !s.opts.Budget.TryReserve(s.reserved) {
			cores.Give()
			break
		}
		helpers++
	}
	outs := s.searchParts(parts, helpers)
	for i := 0; i < helpers; i++ {
		s.opts.Budget.Release(s.reserved)
		cores.Give()
	}
	return s.merge(outs)
}

// searchParts searches the parts on the calling goroutine and helpers
// more, each part by one of them, and returns what each found. After an
// error, the parts are not searched to the end. (A search that stops at
// its first witness, Options.StopAtWitness, is not split: it is short, and
// the parts after the witness would be searched for nothing.)
func (s *session) searchParts(parts []execution.Part, helpers int) []partOutcome {
	outs := make([]partOutcome, len(parts))
	split := s.forSplit()
	var next atomic.Int64
	var failed atomic.Bool
	work := func(w *session) {
		for {
			i := next.Add(1) - 1
			if i >= int64(len(parts)) || failed.Load() {
				return
			}
			w.reset()
			st, err := w.enumerate(&parts[i], func() bool { return !failed.Load() })
			outs[i] = partOutcome{results: w.results(), stats: st, err: err}
			if err != nil {
				failed.Store(true)
			}
		}
	}
	var wg sync.WaitGroup
	forks := make([]*session, helpers+1)
	for h := range forks {
		forks[h] = s.fork(split)
	}
	for _, w := range forks[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(forks[0])
	wg.Wait()
	for _, w := range forks {
		for _, r := range w.runs {
			r.release()
		}
	}
	return outs
}

// fork returns a session searching by plan p with model runs of its own
// (instances, fillers, results), for one goroutine. It shares the plan
// and starts everything else afresh (TestSessionFields).
func (s *session) fork(p *plan) *session {
	w := &session{plan: p}
	for _, r := range s.runs {
		w.runs = append(w.runs, newModelRun(r.m, nil, r.maxBytes))
	}
	w.makeBuffers()
	return w
}

// makeBuffers makes the buffers of the final writes and the observed
// registers of a candidate, for the plan's observables.
func (s *session) makeBuffers() {
	s.finalBuf = make([]int, len(s.slots))
	s.regs = make([]execution.RegisterRef, len(s.obs))
}

// reset gives the session's runs fresh results, for the next part.
func (s *session) reset() {
	s.stopped, s.halt, s.err = false, false, nil
	for _, r := range s.runs {
		r.res = &Result{Test: s.t, Sanity: true}
		r.seen, r.forbid = map[string]bool{}, map[string]bool{}
	}
}

// results returns the runs' results.
func (s *session) results() []*Result {
	out := make([]*Result, len(s.runs))
	for i, r := range s.runs {
		out[i] = r.res
	}
	return out
}

// countCandidates counts n candidates built against
// Options.MaxCandidates across the parts of a split search.
func (s *session) countCandidates(n int) error {
	if s.yields == nil || s.opts.MaxCandidates <= 0 {
		return nil
	}
	if s.yields.Add(int64(n)) > int64(s.opts.MaxCandidates) {
		return &execution.LimitError{Limit: "candidate executions", Value: s.opts.MaxCandidates, Flag: "-max-candidates",
			What: "test " + s.t.Name}
	}
	return nil
}

// merge adds the parts' results to the session's, in part order; the
// first error in part order is the search's.
func (s *session) merge(outs []partOutcome) (execution.Stats, error) {
	var stats execution.Stats
	for _, o := range outs {
		if o.err != nil {
			return stats, o.err
		}
	}
	for _, o := range outs {
		stats.Combinations += o.stats.Combinations
		stats.Candidates = execution.AddCounts(stats.Candidates, o.stats.Candidates)
		stats.Pruned = execution.AddCounts(stats.Pruned, o.stats.Pruned)
		for k, r := range s.runs {
			r.merge(o.results[k])
		}
	}
	return stats, nil
}

// merge adds the result of a later part to r's, as if the part's
// candidates had come after those r has seen.
func (r *modelRun) merge(p *Result) {
	res := r.res
	res.Candidates = execution.AddCounts(res.Candidates, p.Candidates)
	res.Consistent += p.Consistent
	res.Evaluated += p.Evaluated
	res.Positive += p.Positive
	res.Negative += p.Negative
	res.Hangs += p.Hangs
	res.Unjudged += p.Unjudged
	res.ThinAir += p.ThinAir
	if res.Stuck == nil {
		res.Stuck = p.Stuck
	}
	for _, st := range p.States {
		if key := st.key(); !r.seen[key] {
			r.seen[key] = true
			res.States = append(res.States, st)
		}
	}
	for _, f := range p.Flags {
		i := slices.IndexFunc(res.Flags, func(g FlagResult) bool { return g.Name == f.Name })
		if i < 0 {
			res.Flags = append(res.Flags, f)
			continue
		}
		res.Flags[i].Executions += f.Executions
	}
	r.sortFlags()
	if len(p.Assertions) > 0 && len(res.Assertions) == 0 {
		res.Assertions = append([]AssertionResult(nil), p.Assertions...)
		return
	}
	for i, a := range p.Assertions {
		ra := &res.Assertions[i]
		ra.Positive += a.Positive
		ra.Negative += a.Negative
		ra.Sometimes = ra.Sometimes || a.Sometimes
		ra.Holds = ra.Holds && a.Holds
	}
}
