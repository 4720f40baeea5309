package checker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// CheckContext is Check under a context: cancelling ctx stops the check
// within one step of evaluation, with Result.Err set.
func (m *Model) CheckContext(ctx context.Context, t *litmus.Test, opts Options) *Result {
	return checkAllContext(ctx, []*Model{m}, t, opts, nil, nil)[0]
}

// CheckAllContext is CheckAll under a context, as CheckContext.
func CheckAllContext(ctx context.Context, models []*Model, t *litmus.Test, opts Options) []*Result {
	return checkAllContext(ctx, models, t, opts, nil, nil)
}

// startClock starts the -timeout deadline: from the start of the check,
// not counting the time spent waiting for memory other tests held. It
// returns the function that releases the deadline's timer.
func (s *session) startClock(start time.Time) context.CancelFunc {
	cancel := context.CancelFunc(func() {})
	if s.opts.Timeout > 0 {
		if s.waited == 0 && s.prepared != nil {
			// No time went to waiting for memory: the deadline is
			// the exploration's, from the same start, with the same
			// cause.
			s.ctx, cancel = s.prepared, s.preparedCancel
		} else {
			deadline := start.Add(s.opts.Timeout + s.waited)
			s.ctx, cancel = context.WithDeadlineCause(s.ctx, deadline, errTimeout{s.opts.Timeout})
		}
	}
	s.withCtx = rules.WithContext(s.ctx)
	return cancel
}

// prepare explores the test's paths (execution.PrepareContext) under the
// time limit, counted from start, and the memory limit: before the first
// candidate as after it. The deadline's context is kept (prepared) for the
// search, which takes it when it waited for no memory (startClock): a
// suite of small tests would make a second context and timer per test.
// The caller calls preparedCancel once the check is done.
func (s *session) prepare(start time.Time, eopts execution.Options) (*execution.Analysis, error) {
	ctx, cancel := s.ctx, context.CancelFunc(func() {})
	if s.opts.Timeout > 0 {
		ctx, cancel = context.WithDeadlineCause(s.ctx, start.Add(s.opts.Timeout), errTimeout{s.opts.Timeout})
		s.prepared = ctx
	}
	s.preparedCancel = cancel
	a, err := execution.PrepareContext(ctx, s.t, eopts)
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		err = fmt.Errorf("checking stopped: %w", err)
	}
	return a, err
}

// stopReason turns the error an evaluation stopped with into the one to
// report: the -timeout error when the deadline passed, or the caller's
// cancellation.
func (s *session) stopReason(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return stopCause(s.ctx)
	}
	return err
}

// stopCause is the error a check stopped by ctx reports: the -timeout
// error when its deadline passed, otherwise the cancellation's cause.
func stopCause(ctx context.Context) error {
	cause := context.Cause(ctx)
	if IsTimeout(cause) {
		return cause
	}
	return fmt.Errorf("checking stopped: %w", cause)
}

// memoryNeed estimates what checking a candidate of n events takes for
// model run r: its evaluation instance and the filler's copy of the inputs.
func (r *modelRun) memoryNeed(n int) int64 {
	return r.m.Program.EstimateBytes(n) + r.m.Program.InputBytes(n)
}

// reserveMemory refuses, before any relation is allocated, a test whose
// largest candidate would not fit in -max-memory, and takes the estimate
// from the budget shared with the tests checked in parallel, waiting while
// they hold it. It sets how much each model's instances may then grow to.
func (s *session) reserveMemory() error {
	limit := s.opts.MaxMemory
	if limit <= 0 {
		return nil
	}
	n := s.a.MaxEvents()
	var need int64
	for _, r := range s.runs {
		need += r.memoryNeed(n)
	}
	if need > limit {
		return &rules.MemoryError{What: fmt.Sprintf("the relations of its largest candidate execution (%d events)", n),
			Need: need, Limit: limit}
	}
	for _, r := range s.runs {
		// Each instance may grow (the order search's scratch) into what
		// the estimates of the others leave.
		r.maxBytes = limit - (need - r.m.Program.EstimateBytes(n))
	}
	if !s.opts.Budget.TryReserve(need) {
		waitStart := time.Now()
		if err := s.opts.Budget.Reserve(s.ctx, need); err != nil {
			return &limits.BusyError{What: fmt.Sprintf("the relations of its largest candidate execution (%d events)", n), Need: need, Err: err}
		}
		s.waited = time.Since(waitStart)
	}
	s.reserved = need
	return nil
}

// releaseMemory gives back what reserveMemory took.
func (s *session) releaseMemory() {
	s.opts.Budget.Release(s.reserved)
	s.reserved = 0
}

// newInstance makes an instance for candidates of n events under the
// memory limit, dropping the cached instances of other sizes first when
// keeping them all would not fit.
func (r *modelRun) newInstance(ctx context.Context, n int) (*rules.Instance, error) {
	in, err := r.newLimitedInstance(ctx, n)
	if err != nil {
		return nil, err
	}
	in.SetVarying(r.m.varying)
	in.SetQuietPlans(r.m.quietPlans)
	return in, nil
}

// newLimitedInstance makes the instance within the memory the test may take.
func (r *modelRun) newLimitedInstance(ctx context.Context, n int) (*rules.Instance, error) {
	if r.maxBytes <= 0 {
		if in, err := r.spare(ctx, n); in != nil || err != nil {
			return in, err
		}
		return r.m.Program.NewInstanceContext(ctx, eventDomain(n), rules.Limits{})
	}
	need := r.m.Program.EstimateBytes(n)
	if r.instBytes+need > r.maxBytes {
		r.insts = map[int]*rules.Instance{}
		r.instBytes = 0
	}
	in, err := r.spare(ctx, n)
	if err != nil {
		return nil, err
	}
	if in == nil {
		if in, err = r.m.Program.NewInstanceContext(ctx, eventDomain(n), rules.Limits{MaxBytes: r.maxBytes}); err != nil {
			return nil, err
		}
	}
	r.instBytes += need
	return in, nil
}

// wholeTest restates an instance's memory error in terms of the whole
// test: the instance's limit is what the test's limit leaves it, so the
// need and the limit both grow by what the rest of the test takes.
func (r *modelRun) wholeTest(err error, limit int64) error {
	var me *rules.MemoryError
	if !errors.As(err, &me) || limit <= 0 {
		return err
	}
	out := *me
	out.Need += limit - r.maxBytes
	out.Limit = limit
	return &out
}
