package execution

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLiveRegisters checks the registers live on entry to each
// instruction, and at the thread's end (every register is read there, since
// final states show registers).
func TestLiveRegisters(t *testing.T) {
	cases := []struct {
		name   string
		instrs []string
		// live[i] lists the registers live on entry to instruction i, the
		// last entry being the thread's end.
		live []string
	}{
		{
			name:   "straight line: a definition kills, a use revives",
			instrs: []string{"ld.weak r0, x", "add r1, r0, 1", "st.weak y, r1"},
			live:   []string{"", "r0", "r0 r1", "r0 r1"},
		},
		{
			name: "a register only read is live from the start",
			// r2 is never written: its initial value (0 or the init
			// block's) is read by the store and shown at the end.
			instrs: []string{"st.weak y, r2", "ld.weak r0, x"},
			live:   []string{"r2", "r2", "r0 r2"},
		},
		{
			name:   "overwritten before any use: dead",
			instrs: []string{"mov r0, 1", "mov r0, 2"},
			live:   []string{"", "", "r0"},
		},
		{
			name: "branch: live if used on either path",
			// r1 is read on the fall-through path only; still live before
			// the branch.
			instrs: []string{"ld.weak r0, x", "beq r0, 0, L", "st.weak y, r1", "L:", "mov r1, 3"},
			live:   []string{"r1", "r0 r1", "r0 r1", "r0", "r0", "r0 r1"},
		},
		{
			name:   "loop: the counter is live at the head, the loaded value is not",
			instrs: []string{"L:", "ld.weak r0, x", "add r1, r1, 1", "beq r0, 0, L"},
			live:   []string{"r1", "r1", "r0 r1", "r0 r1", "r0 r1"},
		},
		{
			name:   "barrier operands are uses",
			instrs: []string{"bar.cta.sync r3, r4, r5", "mov r3, 0", "mov r4, 0", "mov r5, 0"},
			live:   []string{"r3 r4 r5", "", "r3", "r3 r4", "r3 r4 r5"},
		},
		{
			name:   "atom destination is a definition, its operands and address register uses",
			instrs: []string{"atom.relaxed.gpu.cas r0, x, r1, r2", "ld.weak r3, [r0]"},
			live:   []string{"r1 r2", "r0 r1 r2", "r0 r1 r2 r3"},
		},
		{
			name:   "goto: only the target is a successor",
			instrs: []string{"goto L", "st.weak y, r1", "L:", "mov r2, r0"},
			live:   []string{"r0 r1", "r0 r1", "r0 r1", "r0 r1", "r0 r1 r2"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th := thread0(t, c.instrs...).Threads[0]
			require.Len(t, th.Instrs, len(c.live)-1)
			live := liveRegisters(th)
			var got []string
			for _, set := range live {
				var names []string
				for r, ok := range set {
					if ok {
						names = append(names, r)
					}
				}
				sort.Strings(names)
				got = append(got, strings.Join(names, " "))
			}
			assert.Equal(t, c.live, got)
		})
	}
}
