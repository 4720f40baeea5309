package execution

import (
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/stretchr/testify/assert"
)

// TestConstSymShared: the small integers and addresses are one shared
// constant each; any other value gets a constant of its own; all hold
// their value.
func TestConstSymShared(t *testing.T) {
	cases := []struct {
		name   string
		v      Value
		shared bool
	}{
		{"zero", Int(0), true},
		{"fifteen", Int(smallConsts - 1), true},
		{"sixteen", Int(smallConsts), false},
		{"negative", Int(-1), false},
		{"address", AddrValue(2), true},
		{"large address", AddrValue(smallConsts), false},
		{"remote address", RemoteAddrValue(2, 0), false},
		{"mbarrier state", MBarValue(MBarState{Expected: 2, Pending: 2}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := constSym(c.v), constSym(c.v)
			assert.True(t, a.IsConst())
			assert.Equal(t, c.v, a.val)
			assert.Equal(t, c.v, b.val)
			if c.shared {
				assert.Same(t, a, b)
			} else {
				assert.NotSame(t, a, b)
			}
		})
	}
	assert.NotEqual(t, constSym(Int(2)).val, constSym(AddrValue(2)).val, "an address is not the integer of its index")
}

// TestEventsHint: a run's events start at one per instruction that makes
// one, two for an atom, none for register operations and jumps.
func TestEventsHint(t *testing.T) {
	th := func(ops ...litmus.Op) *litmus.Thread {
		out := &litmus.Thread{}
		for _, op := range ops {
			out.Instrs = append(out.Instrs, &litmus.Instr{Op: op})
		}
		return out
	}
	cases := []struct {
		name string
		th   *litmus.Thread
		want int
	}{
		{"empty", th(), 0},
		{"stores and loads", th(litmus.OpStore, litmus.OpFence, litmus.OpLoad), 3},
		{"an atom", th(litmus.OpAtom, litmus.OpRed), 3},
		{"register operations", th(litmus.OpMov, litmus.OpArith, litmus.OpSetp, litmus.OpBranch, litmus.OpGoto, litmus.OpLabel, litmus.OpLoad), 1},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, eventsHint(c.th), c.name)
	}
}
