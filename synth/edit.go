package synth

import "github.com/ptxmm/ptxmm/program"

// without returns the test with operation k of thread th removed: a
// dependency on it is dropped, the observed registers follow their reads,
// and a thread left empty goes away.
func without(t *program.Test, th, k int) *program.Test {
	out := &program.Test{Name: t.Name, Doc: t.Doc, Addrs: t.Addrs, Quantifier: t.Quantifier}
	newIndex := func(thread, op int) (int, int, bool) {
		if thread != th {
			if len(t.Threads[th].Ops) == 1 && thread > th {
				return thread - 1, op, true
			}
			return thread, op, true
		}
		switch {
		case op == k:
			return 0, 0, false
		case op > k:
			op--
		}
		return thread, op, true
	}
	for i, thr := range t.Threads {
		if i == th && len(thr.Ops) == 1 {
			continue
		}
		nt := program.Thread{Place: thr.Place}
		for j, op := range thr.Ops {
			if i == th && j == k {
				continue
			}
			if i == th && op.Dep != program.NoDep {
				switch {
				case op.From == k:
					op.Dep, op.From = program.NoDep, 0
				case op.From > k:
					op.From--
				}
			}
			nt.Ops = append(nt.Ops, op)
		}
		out.Threads = append(out.Threads, nt)
	}
	// Threads keep their places: a removed thread's CTA stays unused.
	remap := func(ps []program.Pin) []program.Pin {
		var res []program.Pin
		for _, p := range ps {
			if p.Thread < 0 {
				res = append(res, p)
				continue
			}
			if nt, nk, ok := newIndex(p.Thread, p.Op); ok {
				p.Thread, p.Op = nt, nk
				res = append(res, p)
			}
		}
		return res
	}
	out.Pins, out.Observe = remap(t.Pins), remap(t.Observe)
	return out
}
