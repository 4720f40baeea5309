package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/testcorpus"
)

// TestChoicesBelowAgreesWithChoices: on every example, under each limit,
// the bound computed without building events is at least Choices, and
// ChoicesBelow answers what Choices does; the bound decides most of the
// small examples alone.
func TestChoicesBelowAgreesWithChoices(t *testing.T) {
	tests := testcorpus.Tree(t, "../examples", ".litmus", ".test")
	require.NotEmpty(t, tests)
	decided := 0
	for _, tc := range tests {
		a, err := Prepare(tc, DefaultOptions())
		if err != nil {
			continue // examples of errors the checker reports
		}
		for _, limit := range []int{1, 2, 3, 8, 64, 1 << 20} {
			exact := a.Choices(limit)
			bound := a.choicesBound(limit)
			assert.GreaterOrEqual(t, bound, exact, "%s: bound under limit %d", tc.Name, limit)
			assert.Equal(t, exact < limit, a.ChoicesBelow(limit), "%s: ChoicesBelow(%d), Choices %d", tc.Name, limit, exact)
			if limit == 64 && bound < limit {
				decided++
			}
		}
	}
	assert.Greater(t, decided, len(tests)/2, "the bound alone decides most examples under 64")
	t.Logf("%d of %d examples decided under 64 by the bound alone", decided, len(tests))
}
