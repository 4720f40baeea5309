package execution

import "github.com/ptxmm/ptxmm/litmus"

// This file executes the tcgen05 instructions (PTX ISA 9.7.16). The
// asynchronous ones (mma, cp, shift, ld, st) make an issue event in program
// order and asynchronous memory events, like the asynchronous copies;
// tcgen05.commit's arrive-on is asynchronous too. Their shared-memory
// accesses use the async proxy (9.7.16.6.5); tensor memory is reached only
// by tcgen05 instructions, through the generic proxy. Which operations are
// ordered with which (pipelines, waits, fences, commit) is spec.dl's
// business.

// tcgen05 executes a tcgen05 instruction and goes on exploring.
func (e *explorer) tcgen05(s *state, in *litmus.Instr) error {
	if in.Tc == litmus.TcAlloc {
		return e.tcAlloc(s, in)
	}
	if !in.Tc.Async() && in.Tc != litmus.TcCommit {
		s.addEvent(newEvent(KindControl, e.th.Index, in))
		s.pc++
		return e.explore(s)
	}
	s.addEvent(newEvent(KindIssue, e.th.Index, in))
	next := func(c *state) error {
		c.pc++
		return e.explore(c)
	}
	weak := func(k EventKind, pl place, sym *Sym) Event {
		proxy := litmus.ProxyGeneric
		if e.layout.Addrs[pl.addr].Space == litmus.SpaceShared {
			proxy = litmus.ProxyAsync
		}
		return e.asyncEvent(k, in, pl, sym, RoleCopy, litmus.SemWeak, litmus.ScopeNone, proxy)
	}
	switch in.Tc {
	case litmus.TcSt:
		return e.withAddress(s, in, in.Addr, func(c *state, pl place, taint []int) error {
			v := e.operand(c, in.Src)
			w := c.addEvent(weak(KindWrite, pl, v))
			deps(&c.addr, taint, w)
			deps(&c.data, v.reads(nil), w)
			return next(c)
		})
	case litmus.TcLd:
		return e.withAddress(s, in, in.Addr, func(c *state, pl place, taint []int) error {
			r := c.addEvent(weak(KindRead, pl, nil))
			deps(&c.addr, taint, r)
			// A true register dependency on the loaded value is respected
			// (9.7.16.6.4.5): the register holds what the load read.
			c.setReg(in.Dst, &Sym{kind: symRead, read: r})
			return next(c)
		})
	case litmus.TcShift:
		return e.withAddress(s, in, in.Addr, func(c *state, pl place, taint []int) error {
			r := c.addEvent(weak(KindRead, pl, nil))
			deps(&c.addr, taint, r)
			w := c.addEvent(weak(KindWrite, pl, &Sym{kind: symRead, read: r}))
			deps(&c.addr, taint, w)
			deps(&c.data, []int{r}, w)
			return next(c)
		})
	case litmus.TcCp:
		return e.withAddress(s, in, in.Addr, func(c *state, dst place, dtaint []int) error {
			return e.withAddress(c, in, in.Mem2, func(c *state, src place, staint []int) error {
				r := c.addEvent(weak(KindRead, src, nil))
				deps(&c.addr, staint, r)
				w := c.addEvent(weak(KindWrite, dst, &Sym{kind: symRead, read: r}))
				deps(&c.addr, dtaint, w)
				deps(&c.data, []int{r}, w)
				return next(c)
			})
		})
	case litmus.TcMma:
		return e.withAddress(s, in, in.Addr, func(c *state, d place, dtaint []int) error {
			return e.withAddress(c, in, in.Mem2, func(c *state, a place, ataint []int) error {
				return e.withAddress(c, in, in.Mem3, func(c *state, b place, btaint []int) error {
					e.mma(c, in, d, a, b, dtaint, ataint, btaint, weak)
					return next(c)
				})
			})
		})
	}
	// tcgen05.commit: an arrive-on the mbarrier once the thread's earlier
	// mma, cp and shift of the same CTA group complete. Its scope is the
	// cluster (tcgen05.commit page); PTX states no memory order, and ptxmm
	// makes it a release, as for cp.async.mbarrier.arrive (docs/model.md).
	return e.withAddress(s, in, in.Addr, func(c *state, bar place, taint []int) error {
		r := c.addEvent(e.asyncEvent(KindRead, in, bar, nil, RoleAsyncArrive, litmus.SemRelease, litmus.ScopeCluster, litmus.ProxyGeneric))
		deps(&c.addr, taint, r)
		nv := &Sym{kind: symMBar, op: "arrive", a: &Sym{kind: symRead, read: r}, b: constSym(Int(1)), c: constSym(Int(0))}
		e.update(c, in, bar, r, nv, taint, e.asyncEvent(KindWrite, in, bar, nil, RoleAsyncArrive, litmus.SemRelease, litmus.ScopeCluster, litmus.ProxyGeneric))
		return next(c)
	})
}

// mma adds the operations of tcgen05.mma d, a, b {, ACC}: it reads a and
// b (and d with enable-input-d) and writes d := a + b (d + a + b), the
// value abstraction of docs/model.md.
func (e *explorer) mma(s *state, in *litmus.Instr, d, a, b place, dtaint, ataint, btaint []int, weak func(EventKind, place, *Sym) Event) {
	ra := s.addEvent(weak(KindRead, a, nil))
	deps(&s.addr, ataint, ra)
	rb := s.addEvent(weak(KindRead, b, nil))
	deps(&s.addr, btaint, rb)
	sum := &Sym{kind: symArith, op: "add", a: &Sym{kind: symRead, read: ra}, b: &Sym{kind: symRead, read: rb}, instr: in.Text}
	inputs := []int{ra, rb}
	if in.Acc {
		rd := s.addEvent(weak(KindRead, d, nil))
		deps(&s.addr, dtaint, rd)
		sum = &Sym{kind: symArith, op: "add", a: &Sym{kind: symRead, read: rd}, b: sum, instr: in.Text}
		inputs = append(inputs, rd)
	}
	w := s.addEvent(weak(KindWrite, d, sum))
	deps(&s.addr, dtaint, w)
	deps(&s.data, inputs, w)
}

// AllocAddress is the tensor-memory address tcgen05.alloc writes to its
// shared-memory operand: lane 0, column 0 (bits 31-16 are the lane, bits
// 15-0 the column), the start of an allocation of any size. Litmus tests
// name tensor memory directly, so the value only shows when the write is
// read (docs/model.md, "tcgen05").
const AllocAddress = 0

// tcAlloc executes tcgen05.alloc [dst], nCols: a synchronous tcgen05
// instruction, in program order, that writes the allocated address to the
// shared-memory location dst with a weak generic-proxy write (9.7.16.6.1:
// the allocation instructions that access shared memory keep same-address
// ordering with the thread's other instructions).
func (e *explorer) tcAlloc(s *state, in *litmus.Instr) error {
	return e.withAddress(s, in, in.Addr, func(c *state, pl place, taint []int) error {
		ev := e.memEvent(KindWrite, in, pl, constSym(Int(AllocAddress)))
		ev.Sem, ev.Scope, ev.Proxy = litmus.SemWeak, litmus.ScopeNone, litmus.ProxyGeneric
		w := c.addEvent(ev)
		deps(&c.addr, taint, w)
		c.pc++
		return e.explore(c)
	})
}
