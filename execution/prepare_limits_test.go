package execution

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrepareLimits: the instructions of one run are bounded by a limit
// whose message names its flag, and a done context stops the exploration.
func TestPrepareLimits(t *testing.T) {
	tc := herd(t, "PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n st.weak x, 2 ;\n st.weak x, 3 ;\nexists (x == 1)\n")
	o := DefaultOptions()
	o.MaxSteps = 2
	_, err := Prepare(tc, o)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "thread P0 executes more than 2 instructions in one run; raise the limit with -max-instructions")

	o.MaxSteps = 3
	_, err = Prepare(tc, o)
	require.NoError(t, err)

	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped here")
	cancel(stop)
	_, err = PrepareContext(ctx, tc, o)
	require.ErrorIs(t, err, stop)
}
