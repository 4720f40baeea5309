package checker

import (
	"testing"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/stretchr/testify/assert"
)

// TestStateKeys checks that the binary keys of final states tell apart
// exactly the states that differ: a key is how a state is found among
// those seen, so two different states with one key would lose one.
func TestStateKeys(t *testing.T) {
	def := func(v execution.Value) Val { return Val{Defined: true, V: v} }
	mbar := func(phase, expected, pending, tx int32) Val {
		return def(execution.MBarValue(execution.MBarState{Phase: phase, Expected: expected, Pending: pending, Tx: tx}))
	}
	states := []State{
		{},
		{Val{}},
		{def(execution.Int(0))},
		{def(execution.Int(1))},
		{def(execution.Int(-1))},
		{def(execution.Int(1 << 40))},
		{def(execution.AddrValue(0))},
		{def(execution.AddrValue(1))},
		{def(execution.RemoteAddrValue(1, 0))},
		{def(execution.RemoteAddrValue(1, 1))},
		{mbar(0, 2, 2, 0)},
		{mbar(1, 2, 2, 0)},
		{mbar(0, 2, 1, 0)},
		{mbar(0, 2, 2, -4)},
		{mbar(0, 3, 2, 0)},
		{Val{}, def(execution.Int(0))},
		{def(execution.Int(0)), Val{}},
		{def(execution.Int(0)), def(execution.Int(0))},
		{def(execution.Int(1)), def(execution.Int(0))},
		{def(execution.Int(0)), def(execution.Int(1))},
		// Varints of different lengths side by side.
		{def(execution.Int(300)), def(execution.Int(1))},
		{def(execution.Int(1)), def(execution.Int(300))},
	}
	seen := map[string]int{}
	for i, s := range states {
		k := s.key()
		if j, ok := seen[k]; ok {
			t.Errorf("states %d %v and %d %v share the key %q", j, states[j], i, s, k)
		}
		seen[k] = i
		assert.Equal(t, k, s.clone().key(), "state %d: a copy has the same key", i)
		assert.Equal(t, k, string(s.appendKey([]byte("prefix"))[len("prefix"):]), "state %d: appendKey appends", i)
	}
}
