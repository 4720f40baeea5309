package rules

import (
	"context"
)

// Evaluation can be stopped from outside and stops itself at its memory
// limit. A context given to RunContext or to Solve (WithContext) is polled
// at cheap, regular points: every step of the order search, and after every
// 4096 units of work, a unit being a row composed or a binding joined inside
// one rule or a row looked at orienting a pair of an order, and 64 units a
// stratum or a round of a recursive stratum, so
// that one long candidate cannot run far past a deadline. Stopping deep inside a plan unwinds with a panic
// that the entry points (RunContext, Run, Solve) recover: threading an
// error through every operator would cost the hot loops a check per row
// for a case that happens once per run. The panic never leaves the package.

// stopped carries the error evaluation stopped with while it unwinds.
type stopped struct{ err error }

// pollEvery is the work (rows composed, bindings joined) between two looks
// at the context inside one rule: small enough that a poll comes every few
// microseconds, large enough that it costs nothing measurable.
const pollEvery = 1 << 12

// strataWork is the work a stratum or a round of a recursive stratum
// counts for, besides the rows and bindings inside it: a stratum on a
// litmus-sized domain takes well under a microsecond, so looking at the
// context for each one cost more than the stratum itself.
const strataWork = 64

// pollComposeAtoms is the domain size from which a dense composition runs
// row by row through composeRows, polling as it goes: below it one
// composition takes well under a millisecond.
const pollComposeAtoms = 1024

// stop unwinds the evaluation in progress with err.
func (in *Instance) stop(err error) { panic(stopped{err}) }

// interrupter is an instance's link to the context of the evaluation in
// progress: it looks at the context at regular points of the work and
// unwinds the evaluation when the context is done.
type interrupter struct {
	// ctx is the context of the evaluation in progress (nil between
	// evaluations), done its channel, and work the work done since the
	// last poll.
	ctx  context.Context
	done <-chan struct{}
	work int
	// polls counts the looks at the context, for the tests that check
	// they come regularly.
	polls int
}

// poll stops evaluation when the context is done.
func (it *interrupter) poll() {
	it.work = 0
	it.polls++
	if it.done == nil {
		return
	}
	select {
	case <-it.done:
		panic(stopped{it.ctx.Err()})
	default:
	}
}

// tick counts work done inside a rule and polls once enough has been done.
func (it *interrupter) tick(work int) {
	it.work += work
	if it.work >= pollEvery {
		it.poll()
	}
}

// running reports whether an evaluation under a context is in progress.
func (it *interrupter) running() bool { return it.ctx != nil }

// start begins an evaluation under ctx, end ends it.
func (it *interrupter) start(ctx context.Context) { it.ctx, it.done, it.work = ctx, ctx.Done(), 0 }
func (it *interrupter) end()                      { it.ctx, it.done = nil, nil }

// guarded runs f under ctx and returns the error evaluation stopped with,
// if any. After a stop the instance is made consistent again: every stratum
// is recomputed by the next evaluation.
func (in *Instance) guarded(ctx context.Context, f func()) (err error) {
	if in.intr.running() {
		// Nested (Solve running strata): the outer call owns the context
		// and the recovery.
		f()
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	in.intr.start(ctx)
	defer func() {
		in.intr.end()
		if r := recover(); r != nil {
			s, ok := r.(stopped)
			if !ok {
				panic(r)
			}
			in.afterStop()
			err = s.err
		}
	}()
	in.intr.poll()
	f()
	return nil
}

// afterStop leaves an instance whose evaluation was cut short ready for a
// fresh one: every stratum is dirty, the working copies of recursive
// strata (whose row lists may no longer match their rows) are replaced,
// and the order search is over.
func (in *Instance) afterStop() {
	in.Invalidate()
	for _, s := range in.p.strata {
		if !s.recursive {
			continue
		}
		for _, r := range s.rels {
			ar := in.p.rels[r].arity
			in.delta[r] = newTrackedStore(ar, in.n, in.p.options.trackMinAtoms)
			in.next[r] = newTrackedStore(ar, in.n, in.p.options.trackMinAtoms)
		}
	}
	for i := range in.versions {
		in.versions[i]++
	}
	in.bounds.fixedEpoch++
	in.forgetQuiet()
	in.prov.recording = false
	in.search.searching = nil
	in.resetIncremental()
}

// RunContext brings every derived relation up to date, stopping with ctx's
// error when ctx is done first, or with a *MemoryError when the instance's
// limits (NewLimitedInstance) are reached. After a stop, the relations are
// not current; a later call recomputes them.
func (in *Instance) RunContext(ctx context.Context) error {
	return in.guarded(ctx, in.run)
}

// Err returns the error that stopped the last Run, Checks, AllHold, Query
// or RecordProvenance (nil when it completed): only an instance with
// limits can stop without a context.
func (in *Instance) Err() error { return in.err }
