package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// harnessBarrier is the PTX barrier the harness synchronizes a CTA with;
// test barriers get the numbers below it.
const harnessBarrier = 15

// numberBarriers gives each test barrier of a CTA a PTX barrier number and
// checks that it can be replicated: all instances in a CTA meet at one
// PTX barrier, whose thread count is the test's times the instances, so
// the test's count must be the number of its threads that use the
// barrier, and a barrier may not be in a loop (instances would loop
// different numbers of times).
func (p *Plan) numberBarriers() error {
	var errs source.List
	users := map[barKey]map[int]bool{}
	var order []barKey
	for ri, r := range p.Roles {
		loops := loopRanges(r.Thread)
		skips := skipRanges(r.Thread)
		for k, in := range r.Thread.Instrs {
			if in.Op != litmus.OpBarrier && in.Op != litmus.OpClusterBarrier {
				continue
			}
			for _, lp := range loops {
				if k >= lp[0] && k <= lp[1] {
					errs.Add(in.Pos, "%q is in a loop: instances that loop different numbers of times would meet at the wrong barrier, so ptxmm run does not run barriers in loops", in.Text)
					break
				}
			}
			if in.Op == litmus.OpClusterBarrier {
				continue
			}
			// A thread that branches past a CTA barrier, or exits before
			// it, does not arrive, and the harness's barrier counts it:
			// the others would wait forever (PTX's bar.sync without a
			// count waits only for the threads that have not exited).
			if in.Guard.Kind != litmus.OperandNone {
				errs.Add(in.Pos, "%q is guarded: a thread that does not arrive leaves the others waiting at the harness's barrier, which counts every thread of the test that uses it, so ptxmm run does not run barriers a thread can skip", in.Text)
				continue
			}
			for _, sk := range skips {
				if k > sk[0] && k < sk[1] {
					errs.Add(in.Pos, "%q can be skipped by the branch on line %d: a thread that does not arrive leaves the others waiting at the harness's barrier, which counts every thread of the test that uses it, so ptxmm run does not run barriers a thread can skip", in.Text, r.Thread.Instrs[sk[0]].Pos.Line)
					break
				}
			}
			if in.Instance.Kind != litmus.OperandImm || in.BarID.Kind != litmus.OperandImm || in.Count.Kind == litmus.OperandReg {
				errs.Add(in.Pos, "%q: ptxmm run needs the barrier's operands as numbers, not registers", in.Text)
				continue
			}
			key := barKey{cta: r.CTA, instance: fmt.Sprint(in.Instance.Imm), name: fmt.Sprint(in.BarID.Imm)}
			if users[key] == nil {
				users[key] = map[int]bool{}
				order = append(order, key)
			}
			users[key][ri] = true
		}
	}
	for _, key := range order {
		if len(p.barrierIDs) == harnessBarrier {
			errs.Add(p.Test.Pos, "the test uses more than %d CTA barriers: the GPU has 16 per CTA and the harness uses one", harnessBarrier)
			break
		}
		p.barrierIDs[key] = len(p.barrierIDs)
	}
	for ri, r := range p.Roles {
		for _, in := range r.Thread.Instrs {
			if in.Op != litmus.OpBarrier || in.Count.Kind != litmus.OperandImm {
				continue
			}
			key := barKey{cta: r.CTA, instance: fmt.Sprint(in.Instance.Imm), name: fmt.Sprint(in.BarID.Imm)}
			if n := len(users[key]); int(in.Count.Imm) != n {
				errs.Add(in.Pos, "%q expects %d threads, but %d threads of the CTA use the barrier: ptxmm run multiplies the count by the instances in a CTA, which only keeps its meaning when all the barrier's threads are counted", in.Text, in.Count.Imm, n)
			}
			_ = ri
		}
	}
	errs.Sort()
	return errs.Err()
}

// barrier is the PTX barrier number of a test barrier and the number of
// the CTA's test threads that use it.
func (p *Plan) barrier(r *Role, in *litmus.Instr) (id, users int) {
	key := barKey{cta: r.CTA, instance: fmt.Sprint(in.Instance.Imm), name: fmt.Sprint(in.BarID.Imm)}
	id = p.barrierIDs[key]
	for _, ri := range p.CTAs[r.CTA].Roles {
		for _, x := range p.Roles[ri].Thread.Instrs {
			if x.Op == litmus.OpBarrier && x.Instance.Imm == in.Instance.Imm && x.BarID.Imm == in.BarID.Imm {
				users++
				break
			}
		}
	}
	return id, users
}

// skipRanges lists the instruction ranges (branch, label) of a thread's
// forward branches: the instructions strictly between are skipped when
// the branch is taken.
func skipRanges(th *litmus.Thread) [][2]int {
	var out [][2]int
	forEachBranch(th, func(branch, label int) {
		if label > branch {
			out = append(out, [2]int{branch, label})
		}
	})
	return out
}

// loopRanges lists the instruction ranges [label, branch] of a thread's
// backward branches.
func loopRanges(th *litmus.Thread) [][2]int {
	var out [][2]int
	forEachBranch(th, func(branch, label int) {
		if label <= branch {
			out = append(out, [2]int{label, branch})
		}
	})
	return out
}

// forEachBranch calls f with the index of each branch or goto of th and
// the index of the label it targets (branches to unknown labels skipped:
// the parser already refused them).
func forEachBranch(th *litmus.Thread, f func(branch, label int)) {
	labels := map[string]int{}
	for k, in := range th.Instrs {
		if in.Op == litmus.OpLabel {
			labels[in.Label] = k
		}
	}
	for k, in := range th.Instrs {
		if in.Op != litmus.OpBranch && in.Op != litmus.OpGoto {
			continue
		}
		if at, ok := labels[in.Label]; ok {
			f(k, at)
		}
	}
}
