package cli

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// errEvalTimeout is the -timeout of ptxmm eval running out.
type errEvalTimeout struct{ limit time.Duration }

func (e errEvalTimeout) Error() string {
	return fmt.Sprintf("evaluation took longer than the time limit of %s; raise it with -timeout", e.limit)
}

// evalDeadline returns the context ptxmm eval runs under: with -timeout's
// deadline when one is set.
func evalDeadline(timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeoutCause(context.Background(), timeout, errEvalTimeout{timeout})
}

// evalStopReason names the limit that stopped an evaluation.
func evalStopReason(ctx context.Context, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return context.Cause(ctx)
	}
	return err
}
