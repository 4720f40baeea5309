package gen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// locationNames names the locations of a test in order of first use, as
// diy7 does.
var locationNames = []string{"x", "y", "z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}

// Build writes the test of a cycle: one thread per run of events between
// external edges, one location per run of events on one location, every
// write a distinct value, and a condition that asks for the outcome in
// which every edge holds (each read's value, and the final value of every
// location written twice or more, which pins its coherence order). The
// threads come in the order of the cycle's representative rotation, the
// one its name describes.
func Build(c *Cycle, p Placement) (*program.Test, error) {
	c = c.normal()
	l, err := c.layout()
	if err != nil {
		return nil, fmt.Errorf("cycle %q: %v", c, err)
	}
	if l.nlocs > len(locationNames) {
		return nil, fmt.Errorf("cycle %q: %d locations, more than the %d this generator names", c, l.nlocs, len(locationNames))
	}
	t := &program.Test{Quantifier: "exists"}
	for i := 0; i < l.nlocs; i++ {
		t.Addrs = append(t.Addrs, program.Addr{Name: locationNames[i], AliasOf: -1})
	}
	plan, err := planSync(l, p, t)
	if err != nil {
		return nil, fmt.Errorf("cycle %q: %w", c, err)
	}
	cy := l.c
	n := len(cy.Edges)
	for th, evs := range l.threads {
		thread := program.Thread{Place: plan.places[th]}
		opOf := map[int]int{}
		// pinned are the values the condition asks of the thread's
		// reads and mbarrier waits, by operation.
		pinned := map[int]int64{}
		add := func(ops []program.Op) {
			for _, op := range ops {
				if op.Kind == program.MbarWait && !op.Loop {
					pinned[len(thread.Ops)] = 1
				}
				thread.Ops = append(thread.Ops, op)
			}
		}
		add(plan.start[th])
		for k, e := range evs {
			in := cy.Edges[(e+n-1)%n]
			if k > 0 && in.Kind == Fenced {
				thread.Ops = append(thread.Ops, in.Fence)
			}
			if k > 0 && in.Kind == Rmw {
				// The write of the read-modify-write the last operation
				// began.
				op := &thread.Ops[len(thread.Ops)-1]
				op.Value = l.value[e]
				if err := annotate(op, cy.Notes[e], W, true); err != nil {
					return nil, fmt.Errorf("cycle %q: %v", c, err)
				}
				if err := address(t, op, cy.Notes[e], l.loc[e], W, true); err != nil {
					return nil, fmt.Errorf("cycle %q: %v", c, err)
				}
				opOf[e] = len(thread.Ops) - 1
				continue
			}
			add(plan.before[e])
			if bulk, ok := plan.bulk[e]; ok {
				thread.Ops = append(thread.Ops, bulk)
				opOf[e] = len(thread.Ops) - 1
				continue
			}
			op := program.Op{Kind: program.Load, Addr: l.loc[e]}
			rmw := cy.Edges[e].Kind == Rmw
			switch {
			case rmw:
				op.Kind, op.Sem, op.Scope = program.RMW, program.Relaxed, program.GPU
			case cy.Edges[e].Src == W:
				op.Kind, op.Value = program.Store, l.value[e]
			}
			if err := address(t, &op, cy.Notes[e], l.loc[e], cy.Edges[e].Src, rmw); err != nil {
				return nil, fmt.Errorf("cycle %q: %v", c, err)
			}
			if err := annotate(&op, cy.Notes[e], cy.Edges[e].Src, rmw); err != nil {
				return nil, fmt.Errorf("cycle %q: %v", c, err)
			}
			if k > 0 && in.Kind == Dp {
				op.Dep, op.From = in.Dep, opOf[evs[k-1]]
			}
			thread.Ops = append(thread.Ops, op)
			opOf[e] = len(thread.Ops) - 1
		}
		add(plan.end[th])
		t.Threads = append(t.Threads, thread)
		for _, e := range evs {
			if cy.Edges[e].Src == R && thread.Ops[opOf[e]].Kind.Reads() {
				pinned[opOf[e]] = l.value[e]
			}
		}
		for op := range thread.Ops {
			if v, ok := pinned[op]; ok {
				t.Pins = append(t.Pins, program.Pin{Thread: th, Op: op, Value: v})
			}
		}
	}
	for loc := 0; loc < l.nlocs; loc++ {
		if v, ok := l.final[loc]; ok {
			t.Pins = append(t.Pins, program.Pin{Thread: -1, Addr: loc, Value: v})
		}
	}
	t.Pins = append(t.Pins, plan.finals...)
	t.Name = Name(c, p)
	t.Doc = "Cycle=" + cy.String()
	return t, nil
}

// address points an access at its location: directly, through a second
// generic virtual address of it (Alias), or through its reference in the
// surface, texture or constant proxy (Surface, Texture, Constant). An
// access through a proxy is weak (suld, sust, tld and cold have no memory
// order), and only the surface proxy writes.
func address(t *program.Test, op *program.Op, as []Annotation, loc int, d Dir, rmw bool) error {
	proxy, alias, strong := program.Generic, false, ""
	for _, a := range as {
		switch {
		case a.Alias:
			alias = true
		case a.Proxy != program.Generic:
			if proxy != program.Generic && proxy != a.Proxy {
				return fmt.Errorf("an access goes through one proxy: %s and %s", proxy, a.Proxy)
			}
			proxy = a.Proxy
		case a.HasSem && a.Sem != program.Weak:
			strong = a.Text
		}
	}
	if proxy == program.Generic {
		if alias {
			op.Addr = t.Alias(loc)
		}
		return nil
	}
	name := proxyNote(proxy)
	switch {
	case alias:
		return fmt.Errorf("%s and Alias on one access: it goes through the location's %s reference or a second generic address, not both", name, proxy)
	case rmw:
		return fmt.Errorf("%s on a read-modify-write: atom goes through the generic proxy only", name)
	case d == W && proxy != program.Surface:
		return fmt.Errorf("%s on a write: the %s proxy only reads (use Surface for a write, sust)", name, proxy)
	case strong != "":
		return fmt.Errorf("%s with %s: an access through the %s proxy is weak", name, strong, proxy)
	}
	op.Addr = t.ProxyRef(loc, proxy)
	return nil
}

// annotate applies an event's memory-order annotations to its operation.
// The read and the write of a read-modify-write combine: Acq on the read
// and Rel on the write make it acq_rel.
func annotate(op *program.Op, as []Annotation, d Dir, rmw bool) error {
	for _, a := range as {
		if !a.HasSem {
			continue
		}
		switch {
		case a.Sem == program.Weak && rmw:
			return fmt.Errorf("%s on a read-modify-write: an atom is never weak (use Rlx.gpu)", a.Text)
		case a.Sem == program.Acquire && d == W && !rmw:
			return fmt.Errorf("%s on a write: only reads acquire (use Rel for a write)", a.Text)
		case a.Sem == program.Release && d == R && !rmw:
			return fmt.Errorf("%s on a read: only writes release (use Acq for a read)", a.Text)
		case a.Sem == program.AcqRel && !rmw:
			return fmt.Errorf("%s on a plain %s: acq_rel is for read-modify-writes (Rmw)", a.Text, dirWord(d))
		}
		if !rmw {
			op.Sem, op.Scope = a.Sem, a.Scope
			continue
		}
		op.Sem = combine(op.Sem, a.Sem)
		op.Scope = a.Scope
	}
	return nil
}

// combine joins two memory orders of one read-modify-write.
func combine(a, b program.Sem) program.Sem {
	switch {
	case a == b:
		return a
	case a == program.Relaxed:
		return b
	case b == program.Relaxed:
		return a
	}
	return program.AcqRel
}
