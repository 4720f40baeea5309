package execution

import "github.com/ptxmm/ptxmm/litmus"

// liveRegisters computes, for every instruction of a thread, the registers
// live on entry to it: registers whose current value some path from there
// may read before overwriting it. Every register counts as read when the
// thread ends, since final states show registers.
func liveRegisters(th *litmus.Thread) []map[string]bool {
	n := len(th.Instrs)
	labels := map[string]int{}
	all := map[string]bool{}
	uses := make([][]string, n)
	defs := make([][]string, n)
	for i, in := range th.Instrs {
		if in.Op == litmus.OpLabel {
			labels[in.Label] = i
		}
		for _, o := range in.ReadOperands() {
			if o.Kind == litmus.OperandReg {
				uses[i] = append(uses[i], o.Reg)
				all[o.Reg] = true
			}
		}
		for _, d := range in.WrittenRegs() {
			all[d] = true
			// A guarded instruction may not execute: its destination
			// keeps the value it had, which stays live.
			if in.Guard.Kind == litmus.OperandNone {
				defs[i] = append(defs[i], d)
			}
		}
	}
	succ := func(i int) []int {
		in := th.Instrs[i]
		switch in.Op {
		case litmus.OpGoto:
			if in.Guard.Kind != litmus.OperandNone {
				return []int{labels[in.Label], i + 1}
			}
			return []int{labels[in.Label]}
		case litmus.OpBranch:
			return []int{labels[in.Label], i + 1}
		}
		return []int{i + 1}
	}
	live := make([]map[string]bool, n+1)
	for i := range live {
		live[i] = map[string]bool{}
	}
	live[n] = all
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			out := map[string]bool{}
			for _, s := range succ(i) {
				for r := range live[s] {
					out[r] = true
				}
			}
			for _, d := range defs[i] {
				delete(out, d)
			}
			for _, r := range uses[i] {
				out[r] = true
			}
			if len(out) != len(live[i]) {
				live[i] = out
				changed = true
			}
		}
	}
	return live
}
