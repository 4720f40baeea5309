package execution

import "github.com/ptxmm/ptxmm/litmus"

// withoutThreadFences returns t with its thread fences (fence.sc,
// fence.acq_rel, fence.acquire, fence.release, membar) left out, for
// FairTermination: both of its answers for the program without them hold
// for the program with them under spec.dl (docs/model.md, "Fences"):
//   - a fence only orders, it never blocks, writes or computes a value,
//     and spec.dl is event-monotone: an execution of t less its fence
//     events is an execution of the program without them, with the same
//     values, branches and prefix-finite coherence and from-read, and a
//     thread that runs for ever in one runs for ever in the other (a loop
//     holds a branch, which is kept). So if every fair execution of the
//     program without fences ends, every fair execution of t ends;
//   - a fair cycle of the interleavings without fences is one of t's with
//     each fence a step in its place: a sequentially consistent
//     execution, which no axiom of spec.dl rejects whatever its fences
//     (its Fence-SC order is the order of the interleaving).
//
// Proxy fences, fence.proxy.async and fence.mbarrier_init are not left
// out: the fragment has no proxies or mbarriers, so they stay outside it.
// t itself is not changed; a test without thread fences is returned as
// it is.
func withoutThreadFences(t *litmus.Test) *litmus.Test {
	fenced := false
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			fenced = fenced || in.Op == litmus.OpFence
		}
	}
	if !fenced {
		return t
	}
	c := *t
	c.Threads = make([]*litmus.Thread, len(t.Threads))
	for i, th := range t.Threads {
		tc := *th
		tc.Instrs = make([]*litmus.Instr, 0, len(th.Instrs))
		for _, in := range th.Instrs {
			if in.Op != litmus.OpFence {
				tc.Instrs = append(tc.Instrs, in)
			}
		}
		c.Threads[i] = &tc
	}
	return &c
}
