package execution

import "fmt"

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
