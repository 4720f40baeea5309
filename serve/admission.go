package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/metrics"
	"strconv"
	"time"

	"github.com/ptxmm/ptxmm/limits"
)

// Admission. Work that checks a test (a run or a diff the result cache
// does not hold, a model to compile) takes one of Config.Workers checking
// slots; everything else (cached answers, the library, one execution's
// picture, derivation or query) takes none, so that it never waits behind
// a check. A request waits for a slot at most Config.QueueWait, and at
// most Config.MaxQueue requests wait at once: past either, and whenever
// the memory it needs is held by other requests or the process is over
// -max-memory, the answer is 503 with Retry-After, never a dropped
// connection. Every request runs under its context, which ends when the
// client goes away or the server shuts down.

// busyError is a 503 answer: the server cannot take the work now, but may
// in a few seconds.
type busyError struct {
	msg        string
	retryAfter time.Duration
}

func (e *busyError) Error() string { return e.msg }

// retryAfter is what a 503 answer asks the client to wait.
const retryAfter = 2 * time.Second

// apiCall is one API request being answered: its context, and the checking
// slot it holds once it needs one.
type apiCall struct {
	s       *Server
	ctx     context.Context
	slotted bool
}

// heavy takes a checking slot for the rest of the call, waiting at most
// QueueWait; it does nothing when the call holds one already.
func (c *apiCall) heavy() error {
	if c.slotted {
		return nil
	}
	s := c.s
	if err := s.memoryAvailable(); err != nil {
		return err
	}
	select {
	case s.slots <- struct{}{}:
		c.slotted = true
		return nil
	default:
	}
	if n := s.waiting.Add(1); n > int64(s.cfg.MaxQueue) {
		s.waiting.Add(-1)
		return &busyError{msg: fmt.Sprintf("the server is busy: all %d checking workers are taken and %d requests wait already (-workers)", s.cfg.Workers, s.cfg.MaxQueue), retryAfter: retryAfter}
	}
	defer s.waiting.Add(-1)
	timer := time.NewTimer(s.cfg.QueueWait)
	defer timer.Stop()
	select {
	case s.slots <- struct{}{}:
		c.slotted = true
		return nil
	case <-timer.C:
		return &busyError{msg: fmt.Sprintf("the server is busy: no checking worker was free within %s (all %d are taken; -workers)", s.cfg.QueueWait, s.cfg.Workers), retryAfter: retryAfter}
	case <-c.ctx.Done():
		return c.ctx.Err()
	}
}

// done gives back the slot the call holds.
func (c *apiCall) done() {
	if c.slotted {
		<-c.s.slots
		c.slotted = false
	}
}

// reserve takes n bytes of the requests' memory for light work (one
// execution's relations and a query's answer), without waiting; release
// gives them back.
func (c *apiCall) reserve(what string, n int64) error {
	if err := c.s.memoryAvailable(); err != nil {
		return err
	}
	if n > c.s.budget.Limit() {
		return fmt.Errorf("%s would take about %s of memory, more than the %s the server's -max-memory leaves for requests; raise it with -max-memory",
			what, limits.FormatSize(n), limits.FormatSize(c.s.budget.Limit()))
	}
	if !c.s.budget.TryReserve(n) {
		return &busyError{msg: fmt.Sprintf("the server is busy: %s needs %s of memory, which other requests hold now (-max-memory %s)",
			what, limits.FormatSize(n), limits.FormatSize(c.s.cfg.MaxMemory)), retryAfter: retryAfter}
	}
	return nil
}

func (c *apiCall) release(n int64) { c.s.budget.Release(n) }

// liveHeap is the heap the last garbage collection found live: cheap to
// read, without stopping the world, and blind to garbage not yet
// collected (the runtime's soft limit, set to -max-memory, collects it).
func liveHeap() int64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(sample[0].Value.Uint64())
}

// memoryAvailable refuses new work while the process holds more than
// -max-memory: the estimates the requests reserve by are estimates, and
// this is the bound they serve.
func (s *Server) memoryAvailable() error {
	if s.cfg.MaxMemory <= 0 {
		return nil
	}
	if heap := s.heap(); heap > s.cfg.MaxMemory {
		return &busyError{msg: fmt.Sprintf("the server is busy: it holds %s, over its memory limit of %s (-max-memory); try again once the requests running finish",
			limits.FormatSize(heap), limits.FormatSize(s.cfg.MaxMemory)), retryAfter: retryAfter}
	}
	return nil
}

// overloaded turns the errors that mean "not now" into 503 answers: a
// busy server, and memory other requests hold (a limits.BusyError from the
// checker).
func overloaded(err error) (*busyError, bool) {
	var be *busyError
	if errors.As(err, &be) {
		return be, true
	}
	var lb *limits.BusyError
	if errors.As(err, &lb) {
		return &busyError{msg: "the server is busy: " + lb.Error() + " (-max-memory)", retryAfter: retryAfter}, true
	}
	return nil, false
}

// writeBusy answers 503 with Retry-After.
func writeBusy(w http.ResponseWriter, be *busyError) {
	w.Header().Set("Retry-After", strconv.Itoa(int(max(be.retryAfter.Seconds(), 1))))
	writeJSON(w, http.StatusServiceUnavailable, ErrorResponse{Error: be.msg})
}
