package serve

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ptxmm/ptxmm/execution"
)

// TestLimitAdvice: each limit's message, as ptxmm writes it, gets advice
// for the page's user naming what is limited; other errors get none.
func TestLimitAdvice(t *testing.T) {
	cases := []struct {
		msg, want string
	}{
		{(&execution.LimitError{Limit: "candidate executions", Value: 3, Flag: "-max-candidates", What: "test MP"}).Error(), "the number of candidate executions"},
		{(&execution.LimitError{Limit: "runs", Value: 1, Flag: "-max-runs", What: "thread P0"}).Error(), "the runs one thread may have"},
		{(&timeLimitError{what: "evaluating", limit: 1}).Error(), "the time it spends on one request"},
		{"the request is larger than the limit of 10 bytes (start ptxmm serve with a larger -max-request)", "the size of a request"},
		{"x would take 1 GiB of memory, over the memory limit of 1 MiB; raise it with -max-memory", "the memory requests may take"},
		{"something else; raise it with -newflag", "This server limits what one request may do (its -newflag flag"},
	}
	for _, c := range cases {
		got := limitAdvice(c.msg)
		assert.Contains(t, got, c.want, c.msg)
		assert.Contains(t, got, "ptxmm check on your own machine", c.msg)
	}
	assert.Empty(t, limitAdvice("test.litmus:3:4: unknown instruction ld.bogus"))
}
