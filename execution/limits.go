package execution

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/ptxmm/ptxmm/limits"
)

// LimitError reports that a test needs more than a resource limit allows.
type LimitError struct {
	Limit string // what is limited
	Value int    // the limit
	Flag  string // the command-line flag that raises it
	What  string // what exceeded it
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: limit of %d %s reached; raise it with %s", e.What, e.Value, e.Limit, e.Flag)
}

// MemoryError reports that the runs of a test would outgrow -max-memory.
type MemoryError struct {
	What  string // what outgrew it
	Need  int64  // at least this much memory
	Limit int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s would take more than %s of memory, over the memory limit of %s; raise it with -max-memory",
		e.What, limits.FormatSize(e.Need), limits.FormatSize(e.Limit))
}

// exploreBudget is the time and memory the exploration of one test's
// paths may take: a deadline through ctx, looked at every few thousand
// instructions explored, and a bound on the estimated size of the runs
// kept. A nil *exploreBudget bounds nothing.
type exploreBudget struct {
	ctx   context.Context
	max   int64
	used  int64
	runs  int
	steps int
}

// stopped returns the context's error (its cause when it has one) once it
// is done.
func (b *exploreBudget) stopped() error {
	if b == nil || b.ctx == nil || b.ctx.Err() == nil {
		return nil
	}
	if cause := context.Cause(b.ctx); cause != nil {
		return cause
	}
	return b.ctx.Err()
}

// step counts one instruction explored, looking at the deadline every 256
// of them: a step of a thread of 10,000 stores takes a tenth of a
// millisecond (every 4096, a 1 s deadline was kept waiting for another
// second).
func (b *exploreBudget) step() error {
	if b == nil {
		return nil
	}
	b.steps++
	if b.steps&255 != 0 {
		return nil
	}
	return b.stopped()
}

// keep counts a run kept, refusing it when the runs so far outgrow the
// memory bound.
func (b *exploreBudget) keep(thread string, r *Run) error {
	if b == nil {
		return nil
	}
	b.runs++
	b.used += r.Bytes()
	if b.max > 0 && b.used > b.max {
		return &MemoryError{What: fmt.Sprintf("the runs of the threads (%d so far, thread %s exploring)", b.runs, thread),
			Need: b.used, Limit: b.max}
	}
	return b.stopped()
}

// Bytes estimates the memory a run takes: its events and what they point
// to, its dependencies, registers and constraints.
func (r *Run) Bytes() int64 {
	const event, pair, entry = int64(unsafe.Sizeof(Event{})) + 64, 16, 64
	deps := len(r.Addr) + len(r.Data) + len(r.Ctrl) + len(r.RMW)
	return int64(unsafe.Sizeof(Run{})) + int64(len(r.Events))*event + int64(deps)*pair +
		int64(len(r.Regs)+len(r.Constraints))*entry
}
