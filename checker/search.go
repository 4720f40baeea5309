package checker

import (
	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// The search of a test's candidates asks the model about partial
// candidates, so that it never builds the completions of a choice the
// model already rejects (docs/model.md, "Searching reads-from"):
//
//   - after each read's write is chosen, the axioms are evaluated with the
//     reads-from pairs chosen so far, and the branch is abandoned when no
//     choice of the orders satisfies them;
//   - after each observed location's final write is chosen, likewise with
//     the final writes chosen so far.
//
// Only inconsistent candidates are left out, so the states, the counts of
// consistent executions, the flags and the verdicts are those of the full
// enumeration; so is Result.Candidates, which counts the candidates of an
// abandoned branch without building them. The search is exact only for
// models whose axioms can only fail more as reads-from grows
// (rules.Program.MonotoneIn); for the others, for explanations (which need
// the inconsistent candidates) and for hosts that watch every candidate,
// every candidate is built.

// pruneModel decides once, when the model is built, whether its axioms
// allow the search to abandon partial candidates; the empty string means
// they do, anything else is the reason they do not.
func pruneModel(p *rules.Program) string {
	if ok, why := p.MonotoneIn(catalog.ChoiceRelations()); !ok {
		return why
	}
	return ""
}

// pruning reports whether this check may abandon partial candidates, and
// whether the test is big enough for that to pay (pruneMin).
func (s *session) pruning() bool {
	if s.opts.FullSearch || !s.witnessFree() || !s.monotoneModels() {
		return false
	}
	least := pruneMin
	if s.opts.pruneMin > 0 {
		least = s.opts.pruneMin
	}
	return least <= 1 || !s.a.ChoicesBelow(least)
}

// pruneMin is the fewest candidates (as Analysis.Choices bounds them, the
// choices of final writes aside) from which the search asks the models
// about partial candidates. A question costs about an evaluation of a
// candidate, and a test of a few candidates has few to spare: on the
// 243-test small suite, asking from 64 candidates on takes 14% fewer
// instructions than asking always, on the shared corpora and the examples
// 3% fewer (docs/benchmarks.md). The results are the same either way.
const pruneMin = 64

// monotoneModels reports whether every model allows the search to abandon
// the partial candidates it rejects (pruneModel).
func (s *session) monotoneModels() bool {
	for _, r := range s.runs {
		if r.m.notMonotone != "" {
			return false
		}
	}
	return true
}

// search is the enumeration's configuration: with pruning, the model's
// verdict on partial candidates.
func (s *session) search() execution.Search {
	opts := execution.Search{MaxCandidates: s.opts.MaxCandidates}
	if len(s.runs) > 0 && s.runs[0].w != nil {
		// The worker serves this session alone until it is released,
		// and every candidate kept is a clone.
		opts.Scratch = &s.runs[0].w.scratch
	}
	if s.onlyDeciding {
		opts.Relevant = s.mayDecide
	}
	if !s.prune {
		return opts
	}
	if s.payoff == nil {
		// Kept across the parts a forked session searches (parallel.go),
		// and shared with the other goroutines searching them.
		s.payoff = s.plan.payoff
		if s.payoff == nil {
			s.payoff = &execution.Payoff{}
		}
	}
	opts.Nogoods, opts.Payoff = s.nogoods, s.payoff
	opts.Prune = s.rejectsPartial
	opts.Confirm = s.rejectsOnly
	opts.Pruned = func(x *execution.Execution, n int) {
		s.skipped = execution.AddCounts(s.skipped, execution.MulCounts(n, finalChoiceCount(s, x)))
	}
	opts.Interrupt = func() error {
		if s.err != nil {
			return s.err
		}
		if err := s.ctx.Err(); err != nil {
			return s.stopReason(err)
		}
		return nil
	}
	return opts
}

// rejectsPartial reports whether every model rejects the partial candidate
// x: its reads-from pairs so far already fail an axiom under every choice
// of the orders. It learns a nogood from a rejection.
func (s *session) rejectsPartial(x *execution.Execution) bool {
	if !s.rejectsAll(x) {
		s.accepted = append(s.accepted[:0], x.RF...)
		return false
	}
	s.learn(x, true)
	return true
}

// rejectsAll reports whether every model rejects x filled as a partial
// candidate (FillPartial).
func (s *session) rejectsAll(x *execution.Execution) bool {
	if s.err != nil {
		return true // stop building anything; the error ends the check
	}
	for _, r := range s.runs {
		inst, err := r.instance(s.ctx, len(x.Events))
		if err != nil {
			s.err = err
			return true
		}
		if err := r.filler.FillPartial(inst, x); err != nil {
			s.err = err
			return true
		}
		if !r.rejects(s, inst, nil) {
			return false
		}
	}
	return true
}

// learn finds, in the reads-from pairs of a rejected candidate x, a set
// that every model still rejects with nothing else chosen (dropping the
// pairs one at a time while it does), and adds it to the nogoods: by the
// models' monotonicity, every candidate with those pairs is rejected too,
// in whatever branch of the search it comes. Unless rejected says the
// models reject x as a partial candidate, that is checked first: a
// complete candidate's rejection may need what depends on values (barrier
// groups, ...), which a partial one leaves out. Learning stops while the
// nogoods learned do not pay (execution.Nogoods.Worth).
func (s *session) learn(x *execution.Execution, rejected bool) {
	if s.nogoods == nil || s.err != nil {
		return
	}
	var reads []int
	for r, w := range x.RF {
		if w >= 0 {
			reads = append(reads, r)
		}
	}
	// With one pair, the only nogood would be x itself, which the search
	// does not meet again.
	if len(reads) < 2 || !s.nogoods.Worth() {
		return
	}
	if !rejected && !fill.PartialIsWhole(x) && !s.rejectsAll(x) {
		return
	}
	saved := append([]int(nil), x.RF...)
	defer copy(x.RF, saved)
	// Most candidates asked about here are rejected (rules.WithRestarts).
	s.learning = true
	defer func() { s.learning = false }()
	if hint := s.confirmedHint(x, reads); hint != nil {
		s.nogoods.Add(x, hint)
		return
	}
	keep := reads[:0:0]
	for i := len(reads) - 1; i >= 0; i-- {
		r := reads[i]
		if i == len(reads)-1 && s.acceptedWithout(x, r) || i == 0 && len(keep) == 0 {
			// The last read chosen stays when the models accepted the
			// choices before it; and some pair stays.
			keep = append(keep, r)
			continue
		}
		x.RF[r] = -1
		if !s.rejectsAll(x) {
			x.RF[r] = saved[r]
			keep = append(keep, r)
		}
	}
	if s.err == nil {
		s.nogoods.Add(x, keep)
	}
}

// rejectsOnly reports whether every model rejects x with only the
// reads-from pairs of reads chosen; x is left as it was.
func (s *session) rejectsOnly(x *execution.Execution, reads []int) bool {
	saved := append(s.rfBuf[:0], x.RF...)
	s.rfBuf = saved
	for r := range x.RF {
		x.RF[r] = -1
	}
	for _, r := range reads {
		x.RF[r] = saved[r]
	}
	rejected := s.rejectsAll(x)
	copy(x.RF, saved)
	return rejected
}

// confirmedHint looks, among the sets learned in other combinations of
// runs that x holds (execution.Nogoods.Hints), for one that the models
// reject in x's combination too, with nothing else chosen: one evaluation
// each, where learning a set by dropping pairs takes one per pair. It
// returns the set, or nil.
func (s *session) confirmedHint(x *execution.Execution, reads []int) []int {
	for _, h := range s.nogoods.Hints(x, reads, maxHintTries) {
		rejected := s.rejectsOnly(x, h.Reads)
		if s.err != nil {
			return nil
		}
		if rejected {
			return h.Reads
		}
		s.nogoods.Refute(x, h)
	}
	return nil
}

// maxHintTries bounds the hints tried before a set is learned by dropping
// pairs: a hint that fails costs an evaluation for nothing.
const maxHintTries = 2

// acceptedWithout reports whether the last partial candidate the models
// accepted is x without read r's choice.
func (s *session) acceptedWithout(x *execution.Execution, r int) bool {
	if len(s.accepted) != len(x.RF) || s.accepted[r] != -1 {
		return false
	}
	for i, w := range x.RF {
		if i != r && s.accepted[i] != w {
			return false
		}
	}
	return true
}

// rejects solves the orders of the instance as filled, with the host's
// constraint on final writes past (nil for none), and reports whether no choice satisfies the axioms.
// An error is recorded in s.err and counts as a rejection, which stops
// the search from building more.
func (r *modelRun) rejects(s *session, inst *rules.Instance, past func(*rules.Instance) bool) bool {
	opts := []rules.SolveOption{s.withCtx, rules.WithoutWitnesses()}
	if s.learning {
		opts = append(opts, rules.WithRestarts(), rules.WithMaxNodes(s.cost.learnBudget()))
	}
	if past != nil {
		opts = append(opts, rules.WithPrune(past))
	}
	sol, _ := r.solve(s, inst, past, opts...)
	if !s.learning {
		s.cost.add(sol.Nodes)
	}
	if sol.Err != nil {
		if s.err == nil {
			s.err = s.stopReason(r.wholeTest(sol.Err, s.opts.MaxMemory))
		}
		return true
	}
	// A question learning gave up on keeps its pair: the set learned is
	// then larger than it might be, but still one the models reject.
	return !sol.Consistent && !sol.Undecided
}

// searchCost tallies the order searches of the candidates and partial
// candidates a check asks about, in states tested (a saved order that
// works counts for one).
type searchCost struct {
	nodes, searches int
}

// Learning's questions are answered within learnBudgetFactor times the
// mean search, and never fewer than learnMinNodes states.
const (
	learnBudgetFactor = 8
	learnMinNodes     = 32
)

func (c *searchCost) add(nodes int) {
	c.nodes += max(nodes, 1)
	c.searches++
}

// learnBudget is the number of states a question of learn may cost. A
// learned set pays by saving the searches of the candidates it cuts, which
// cost what searches cost on average; a question that takes far longer
// (proving that some reads-from is rejected can take hundreds of steps
// where a candidate takes a few) costs more than the set can save.
func (c *searchCost) learnBudget() int {
	if c.searches == 0 {
		return learnMinNodes
	}
	return max(learnMinNodes, learnBudgetFactor*c.nodes/c.searches)
}

// finalChoiceCount is the number of choices of final writes for the
// observed locations of x's combination of runs: the candidates each
// choice of reads-from stands for.
func finalChoiceCount(s *session, x *execution.Execution) int {
	n := 1
	for _, ws := range slotWrites(x, s.slots) {
		n *= len(ws)
	}
	return n
}

// searchFinals evaluates candidate x once per choice of final writes,
// choosing them one slot (segment of an observed location) at a time,
// from the last slot to the first so that the choices come in the order
// of the full enumeration (the first slot's changing fastest): a choice
// of the final writes of slots k and after that every model rejects is
// not completed (its completions are counted). No monotonicity is needed:
// each further final write only adds a constraint on the orders. It is
// called with k = len(writes).
func (s *session) searchFinals(x *execution.Execution, writes [][]int, k int) error {
	if k == 0 {
		s.evaluate(x)
		return s.err
	}
	if s.onlyDeciding && k < len(writes) && !s.mayDecideWithFinals(x, k) {
		return nil
	}
	rest := 1
	for _, ws := range writes[:k] {
		rest *= len(ws)
	}
	if rest > 1 && s.rejectsFinals(x, k) {
		for _, r := range s.runs {
			if !s.probing {
				r.res.Candidates = execution.AddCounts(r.res.Candidates, rest)
			}
		}
		return s.err
	}
	for _, w := range writes[k-1] {
		s.finalBuf[k-1] = w
		if err := s.searchFinals(x, writes, k-1); err != nil || s.halt {
			return err
		}
	}
	return nil
}

// rejectsFinals reports whether every model rejects candidate x with the
// final writes of finalBuf for slots k and after.
func (s *session) rejectsFinals(x *execution.Execution, k int) bool {
	for _, r := range s.runs {
		if !r.rejects(s, r.cur, pastFinal(r.m, x, s.slots[k:], s.finalBuf[k:])) {
			return false
		}
	}
	return true
}
