package limits

import (
	"context"
	"fmt"
	"sync"
)

// Budget is a memory limit shared by work running in parallel: each piece
// of work reserves what it estimates it needs before allocating it and
// releases it when done, waiting while others hold the rest. A reservation
// larger than the whole limit can never be met and is refused at once by
// the caller, which compares it with Limit first. A nil *Budget has no
// limit. Budget is safe for concurrent use.
type Budget struct {
	limit int64
	mu    sync.Mutex
	used  int64
	// freed is closed (and replaced) whenever memory is released, waking
	// the reservations that wait.
	freed chan struct{}
}

// NewBudget returns a budget of limit bytes; 0 means no limit (nil).
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		return nil
	}
	return &Budget{limit: limit, freed: make(chan struct{})}
}

// Limit returns the whole budget in bytes, 0 for none.
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// Reserve takes n bytes of the budget, waiting until they are free or ctx
// is done (then it returns ctx's error). n is capped at the limit, so a
// caller that chose to go ahead with more than the limit holds all of it.
func (b *Budget) Reserve(ctx context.Context, n int64) error {
	if b == nil || n <= 0 {
		return nil
	}
	n = min(n, b.limit)
	for {
		b.mu.Lock()
		if b.used+n <= b.limit {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		wait := b.freed
		b.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Release gives back n bytes taken by Reserve (with the same n).
func (b *Budget) Release(n int64) {
	if b == nil || n <= 0 {
		return
	}
	n = min(n, b.limit)
	b.mu.Lock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}

// TryReserve takes n bytes of the budget if they are free now, without
// waiting; it reports whether it did (always, for a nil Budget).
func (b *Budget) TryReserve(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	n = min(n, b.limit)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// BusyError reports memory of a Budget that work running in parallel
// holds: the work that needed it may succeed once the others finish (a
// server answers 503 and "try again"), unlike a need over the whole limit.
type BusyError struct {
	What string // what needed the memory
	Need int64
	// Err is why waiting ended (a context's error), nil when the memory
	// was asked for without waiting.
	Err error
}

func (e *BusyError) Error() string {
	msg := fmt.Sprintf("waiting for memory: %s needs %s, which work running in parallel holds", e.What, FormatSize(e.Need))
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *BusyError) Unwrap() error { return e.Err }
