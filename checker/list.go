package checker

import (
	"context"
	"time"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// Listed is one candidate execution of a listing (ListCandidates) with
// the final states of its choices of final writes: Execution and States
// are reused for the next one (Execution.Clone and State copies keep
// them).
type Listed struct {
	Execution   *execution.Execution
	States      []State
	Observables []Observable
}

// Format prints the i-th final state as FormatState does.
func (c Listed) Format(i int) string {
	return FormatState(c.Execution.Test, c.Execution.Layout, c.Observables, c.States[i])
}

// NoFinalState says why the execution has no final state, or "" when it
// has one (Candidate.NoFinalState).
func (c Listed) NoFinalState() string { return noFinalState(c.Execution) }

// ListCandidates lists the candidate executions of t and the final states
// of each, without evaluating the model on them: the candidates are those
// CandidatesContext returns (one per execution and choice of final
// writes, in the same order), grouped by execution. A caller that needs
// only which executions a test has and what they end in (the synthesis's
// violation screen, which then tests a few of them against other rules)
// spent most of a check filling and solving a model whose verdicts it
// ignored, and cloning every execution.
//
// The model chooses what the enumeration reduces, as a check with it
// would (awaits whose failed iterations are left out, the probe depth),
// and must have a coherence order where the test observes a location.
// yield receives the executions in the check's order, each with the states
// of its choices of final writes in the order the check evaluates them;
// returning false ends the listing without error. The limits are the
// check's: -max-candidates (opts.MaxCandidates), -timeout, and the
// memory bound on exploring the test's paths.
func (m *Model) ListCandidates(ctx context.Context, t *litmus.Test, opts Options, yield func(Listed) bool) error {
	eopts, _ := awaitOptions([]*modelRun{{m: m}}, opts.Exec)
	eopts.MaxBytes = opts.MaxMemory
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, time.Now().Add(opts.Timeout-opts.Spent), errTimeout{opts.Timeout})
		defer cancel()
	}
	a, err := execution.PrepareContext(ctx, t, eopts)
	if err != nil {
		return listStopped(ctx, err)
	}
	obs, err := observables(t, a.Layout)
	if err != nil {
		return err
	}
	slots := observedSlots(a.Layout, obs)
	if len(slots) > 0 {
		if err := m.hasCoherence(); err != nil {
			return err
		}
	}
	ls := lister{s: &session{plan: &plan{t: t, opts: opts, ctx: ctx, obs: obs, slots: slots, ranges: slotRanges(obs, slots)}}}
	ls.s.makeBuffers()
	var stopped error
	_, err = a.Search(execution.Search{MaxCandidates: opts.MaxCandidates}, func(x *execution.Execution) bool {
		if err := ctx.Err(); err != nil {
			stopped = listStopped(ctx, err)
			return false
		}
		return yield(Listed{Execution: x, States: ls.states(x), Observables: obs})
	})
	if err == nil {
		err = stopped
	}
	return err
}

// listStopped turns a cancelled or timed-out listing's error into the one
// a check reports: the -timeout error when the deadline passed.
func listStopped(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return stopCause(ctx)
}

// lister computes the final states of candidates with a session's own
// code (session.state, over evaluateAll's choices of final writes), in
// buffers kept from one candidate to the next.
type lister struct {
	s   *session
	out []State
}

// states returns the final state of x under each choice of final writes
// of the observed locations, the first slot's choice varying fastest.
func (ls *lister) states(x *execution.Execution) []State {
	ls.out = ls.out[:0]
	s := ls.s
	// The order evaluateAll goes through the choices.
	eachFinalChoice(slotWrites(x, s.slots), s.finalBuf, func() bool {
		ls.keep(s.state(x))
		return true
	})
	return ls.out
}

// keep appends a copy of st to ls.out, into the buffer the previous
// candidate left at that place where there is one.
func (ls *lister) keep(st State) {
	n := len(ls.out)
	if n < cap(ls.out) {
		ls.out = ls.out[:n+1]
		ls.out[n] = append(ls.out[n][:0], st...)
		return
	}
	ls.out = append(ls.out, st.clone())
}
