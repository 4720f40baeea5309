package checker

import (
	"context"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// plan is what a check knows of its test before the search starts: the
// test's paths, what is observed, what settles it, how it is searched.
// The goroutine that starts the check fills it in (session.check); from
// the first candidate on nothing writes it, and every goroutine searching
// the test reads the same one. A search that differs in what it searches
// gets a plan of its own, derived from the test's (forSplit, forProbes),
// rather than changing the shared one.
type plan struct {
	opts Options
	t    *litmus.Test
	a    *execution.Analysis
	obs  []Observable
	// slots are the segments of the observed locations (finals.go), and
	// ranges the slots of each observable.
	slots  []finalSlot
	ranges [][2]int
	// observe, when set, sees every candidate with every model's verdict.
	observe func(x *execution.Execution, st State, vs []verdict)
	// target is what settles the test, nil when no single execution
	// does; onlyDeciding says the check looks only at the executions that
	// may settle it (deciding.go).
	target       *target
	onlyDeciding bool
	// ctx carries the deadline of -timeout into every evaluation, and
	// withCtx is rules.WithContext(ctx), made once (limits.go).
	ctx     context.Context
	withCtx rules.SolveOption
	// prepared is the context of the exploration's deadline (nil without
	// -timeout), which the search takes when it waited for no memory;
	// preparedCancel releases it (limits.go).
	prepared       context.Context
	preparedCancel context.CancelFunc
	// prune is set when the search abandons the partial candidates the
	// models reject, and nogoods then holds the choices of reads-from
	// they reject, learned from rejected candidates (search.go); it is
	// safe for concurrent use, so the parts of a split search share what
	// each learns.
	prune   bool
	nogoods *execution.Nogoods
	// yields counts the candidates of the parts of a search split across
	// cores, against Options.MaxCandidates (parallel.go); nil for a
	// search in one piece, which the enumeration bounds itself.
	yields *atomic.Int64
	// payoff, in the plan of a split search, is where asking about
	// partial candidates paid, shared by the parts' goroutines: each
	// starting afresh asked at every depth of every part again, which
	// made a split search ask about half as many questions again as the
	// whole one. nil otherwise: a session keeps its own (search.go).
	payoff *execution.Payoff
	// probeDepth is the most failed iterations a probe run has (0: no
	// bound but the unrolling bound's; probes.go).
	probeDepth int
	// live records the combinations of runs of the search with a
	// consistent candidate, from which the probe search starts
	// (probelive.go); nil when the search does not record them. It is
	// safe for concurrent use: the parts of a split search all record.
	live *liveCombos
}

// setPrune decides whether the search abandons rejected partial
// candidates, with the nogoods it then learns.
func (p *plan) setPrune(prune bool) {
	p.prune, p.nogoods = prune, nil
	if prune {
		p.nogoods = &execution.Nogoods{}
	}
}

// forSplit is the plan of the parts of a split search: the test's, with
// the counter of the candidates they build together and the payoff of
// their questions.
func (p *plan) forSplit() *plan {
	q := *p
	q.yields = &atomic.Int64{}
	q.payoff = execution.NewSharedPayoff()
	return &q
}

// forProbes is the plan of the search of the probe runs for flags
// (probes.go): another search of the test, over the paths with the probe
// runs, that abandons what the models reject whenever they allow it (prune:
// no host watches the probe executions and none is explained), with
// nogoods of its own: those of the main search were learned about other
// combinations of runs. The analysis, the pruning and the nogoods say
// what is searched and how, as the rest of the plan does, so the probes
// get a derived plan rather than keeping those per goroutine: the test's
// plan stays as it was for any goroutine still reading it, and fork
// still has nothing to copy.
func (p *plan) forProbes(prune bool) *plan {
	q := *p
	q.a = p.a.WithProbes()
	q.setPrune(prune)
	return &q
}
