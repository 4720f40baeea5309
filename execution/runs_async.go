package execution

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file executes the mbarrier instructions, the cluster barrier, the
// asynchronous copies and wgmma. An asynchronous instruction makes an issue
// event in program order and marks the operations it starts Async: they
// belong to the thread but are in no program order (8.9.1.1). Which of
// them are ordered after what is the model's business (spec.dl); the
// events carry what the instruction pages say about each operation: its
// proxy, memory order and scope.

// asyncInstr executes the instructions of this file and goes on exploring.
func (e *explorer) asyncInstr(s *state, in *litmus.Instr) error {
	switch in.Op {
	case litmus.OpMBarrier:
		return e.withAddress(s, in, in.Addr, func(c *state, pl place, taint []int) error {
			if err := e.mbarrier(c, in, pl, taint); err != nil {
				return err
			}
			c.pc++
			return e.explore(c)
		})
	case litmus.OpClusterBarrier:
		return e.clusterBarrier(s, in)
	case litmus.OpCopy:
		return e.copy(s, in)
	case litmus.OpAsyncGroup, litmus.OpWgmmaFence:
		s.addEvent(newEvent(KindControl, e.th.Index, in))
		s.pc++
		return e.explore(s)
	case litmus.OpCopyArrive:
		return e.copyArrive(s, in)
	case litmus.OpWgmma:
		return e.wgmma(s, in)
	case litmus.OpMapa:
		if err := e.mapa(s, in); err != nil {
			return err
		}
		s.pc++
		return e.explore(s)
	case litmus.OpTcgen05:
		return e.tcgen05(s, in)
	case litmus.OpStAsync:
		return e.stAsync(s, in)
	case litmus.OpAPI:
		return e.api(s, in)
	}
	return errAt(in.Pos, "instruction %q cannot be executed", in.Text)
}

// mbarrier performs an mbarrier instruction on the object at pl.
func (e *explorer) mbarrier(s *state, in *litmus.Instr, pl place, taint []int) error {
	if in.MBarOp.IsWait() && pl.cta != CTAKey(e.th) {
		return errAt(in.Pos, "%q waits on another CTA's mbarrier: a thread can only wait on the mbarriers of its own CTA (PTX ISA, mbarrier: test_wait and try_wait are not supported on .shared::cluster)", in.Text)
	}
	if in.MBarOp == litmus.MBarInit {
		count := e.operand(s, in.Src)
		w := s.addEvent(e.memEvent(KindWrite, in, pl, &Sym{kind: symMBar, op: "init", a: count}))
		deps(&s.addr, taint, w)
		deps(&s.data, count.reads(nil), w)
		return nil
	}
	if in.MBarOp == litmus.MBarInval {
		// The location holds no mbarrier object afterwards: the write
		// leaves a value that is no mbarrier state, so that a later
		// operation other than init reads an invalid object
		// (MBAR_UNINIT).
		w := s.addEvent(e.memEvent(KindWrite, in, pl, constSym(Int(0))))
		deps(&s.addr, taint, w)
		return nil
	}
	r := s.addEvent(e.memEvent(KindRead, in, pl, nil))
	deps(&s.addr, taint, r)
	old := &Sym{kind: symRead, read: r}
	if in.MBarOp.IsWait() {
		if in.Dst != "" {
			op := "phase"
			if in.Parity {
				op = "parity"
			}
			s.setReg(in.Dst, &Sym{kind: symWait, op: op, a: old, b: e.operand(s, in.Src)})
		}
		return nil
	}
	var nv *Sym
	switch in.MBarOp {
	case litmus.MBarArrive:
		nv = &Sym{kind: symMBar, op: "arrive", a: old, b: e.operand(s, in.Src), c: e.operand(s, in.Src2)}
	case litmus.MBarArriveDrop:
		nv = &Sym{kind: symMBar, op: "drop", a: old, b: e.operand(s, in.Src), c: e.operand(s, in.Src2)}
	case litmus.MBarExpectTx:
		nv = &Sym{kind: symMBar, op: "expect", a: old, b: e.operand(s, in.Src2)}
	default:
		nv = &Sym{kind: symMBar, op: "complete", a: old, b: e.operand(s, in.Src2)}
	}
	e.update(s, in, pl, r, nv, taint, Event{})
	return nil
}

// update adds the write of a read-modify-write whose read is r, with the
// attributes of proto (its role, asynchrony, order, scope and proxy; a zero
// proto takes the instruction's).
func (e *explorer) update(s *state, in *litmus.Instr, pl place, r int, nv *Sym, taint []int, proto Event) int {
	ev := e.memEvent(KindWrite, in, pl, nv)
	if proto.Instr != nil {
		ev.Async, ev.Role, ev.Sem, ev.Scope, ev.Proxy = proto.Async, proto.Role, proto.Sem, proto.Scope, proto.Proxy
	}
	w := s.addEvent(ev)
	deps(&s.addr, taint, w)
	var operands []int
	for _, op := range []*Sym{nv.b, nv.c} {
		if op != nil {
			operands = op.reads(operands)
		}
	}
	deps(&s.data, operands, w)
	// The new state of the object is computed from the state read
	// (8.10.4), as for atom.
	deps(&s.data, []int{r}, w)
	s.rmw = append(s.rmw, [2]int{r, w})
	return w
}

// asyncEvent returns an asynchronous memory event of instruction in at pl
// in role, with the given memory order, scope and proxy.
func (e *explorer) asyncEvent(k EventKind, in *litmus.Instr, pl place, sym *Sym, role Role, sem litmus.Sem, scope litmus.Scope, proxy litmus.Proxy) Event {
	ev := e.memEvent(k, in, pl, sym)
	ev.Async, ev.Role, ev.Sem, ev.Scope, ev.Proxy = true, role, sem, scope, proxy
	return ev
}

// clusterBarrier records a barrier.cluster arrive or wait; a wait either
// returns (its phase completes) or waits forever.
func (e *explorer) clusterBarrier(s *state, in *litmus.Instr) error {
	ev := newEvent(KindBarrier, e.th.Index, in)
	ev.BarSync = in.BarKind == litmus.BarSync
	s.addEvent(ev)
	s.pc++
	if ev.BarSync {
		if err := e.blocked(s); err != nil {
			return err
		}
	}
	return e.explore(s)
}

// copy executes an asynchronous copy: its issue in program order, then,
// asynchronously, the read of the source and the write of the destination
// (a bulk reduction reads and updates it); a bulk load's completion is
// followed by an implicit generic-async proxy fence and a complete-tx of
// SIZE bytes on its mbarrier.
func (e *explorer) copy(s *state, in *litmus.Instr) error {
	issue := s.addEvent(newEvent(KindIssue, e.th.Index, in))
	if !in.Copy.Bulk() || in.Tensor != nil {
		// A tensor copy's size is its tensor map's box, which the
		// multiple-of-16 rule of cp.async.bulk does not cover.
		return e.copyAt(s, in)
	}
	// A bulk copy's size must be a multiple of 16, or the behaviour is
	// undefined (cp.async.bulk, cp.reduce.async.bulk): the issue records
	// which, for each value a register may hold (a run assumes one or
	// the other when the size depends on a read).
	size := e.operand(s, in.Size)
	var aligned *Sym
	if size == nil {
		return errAt(in.Pos, "%q has no size", in.Text)
	}
	if size.IsConst() {
		if size.val.IsAddr || size.val.IsMBar {
			return errAt(in.PosOf(in.Size), "%q: the size must be a number, not an address", in.Text)
		}
		aligned = constSym(Int(boolValue(size.val.N%16 == 0)))
	} else {
		low := &Sym{kind: symArith, op: "and", a: size, b: constSym(Int(15)), instr: in.Text}
		aligned = &Sym{kind: symCmp, op: "eq", a: low, b: constSym(Int(0))}
	}
	return e.branch(s, aligned, in.PosOf(in.Size), func(c *state, ok bool) error {
		c.events[issue].BadSize = !ok
		return e.copyAt(c, in)
	})
}

// copyAt resolves the addresses of a copy and adds its asynchronous
// events.
func (e *explorer) copyAt(s *state, in *litmus.Instr) error {
	return e.withAddress(s, in, in.Addr, func(c *state, dst place, dtaint []int) error {
		return e.withAddress(c, in, in.Mem2, func(c *state, src place, staint []int) error {
			if in.Copy != litmus.CopyBulkLoad {
				e.copyOps(c, in, dst, src, dtaint, staint, place{}, nil)
				c.pc++
				return e.explore(c)
			}
			return e.withAddress(c, in, in.MBar, func(c *state, bar place, btaint []int) error {
				if in.CtaMask.Kind != litmus.OperandNone {
					ctas, err := e.multicastCTAs(c, in)
					if err != nil {
						return err
					}
					e.multicastOps(c, in, dst, src, dtaint, staint, bar, btaint, ctas)
				} else {
					e.copyOps(c, in, dst, src, dtaint, staint, bar, btaint)
				}
				c.pc++
				return e.explore(c)
			})
		})
	})
}

// copyOps adds the asynchronous events of a copy from src to dst.
func (e *explorer) copyOps(s *state, in *litmus.Instr, dst, src place, dtaint, staint []int, bar place, btaint []int) {
	proxy := litmus.ProxyGeneric
	if in.Copy.Bulk() {
		proxy = litmus.ProxyAsync
	}
	r := s.addEvent(e.asyncEvent(KindRead, in, src, nil, RoleCopy, litmus.SemWeak, litmus.ScopeNone, proxy))
	deps(&s.addr, staint, r)
	val := &Sym{kind: symRead, read: r}
	if in.Copy == litmus.CopyBulkReduce {
		// Each reduction is an atomic .relaxed.gpu update of the
		// destination (PTX ISA, cp.reduce.async.bulk).
		old := s.addEvent(e.asyncEvent(KindRead, in, dst, nil, RoleCopy, litmus.SemRelaxed, litmus.ScopeGPU, proxy))
		deps(&s.addr, dtaint, old)
		nv := &Sym{kind: symAtom, op: "add", a: &Sym{kind: symRead, read: old}, b: val, instr: in.Text}
		e.update(s, in, dst, old, nv, dtaint, e.asyncEvent(KindWrite, in, dst, nil, RoleCopy, litmus.SemRelaxed, litmus.ScopeGPU, proxy))
	} else {
		keep := int64(-1)
		if in.Copy == litmus.CopyAsync && in.Src.Kind == litmus.OperandImm {
			keep = in.Src.Imm
		}
		switch {
		case keep == 0:
			// cp.async with src-size 0 copies no byte: "remaining bytes in
			// destination dst are filled with zeros" (cp.async page).
			val = constSym(Int(0))
		case keep > 0 && keep < 8:
			// Only the low src-size bytes come from the source (values are
			// little-endian, docs/model.md section 19); the rest are zero.
			val = &Sym{kind: symArith, op: "and", a: val, b: constSym(Int(int64(1)<<(8*keep) - 1)), instr: in.Text}
		}
		w := s.addEvent(e.asyncEvent(KindWrite, in, dst, val, RoleCopy, litmus.SemWeak, litmus.ScopeNone, proxy))
		deps(&s.addr, dtaint, w)
		if keep != 0 {
			deps(&s.data, []int{r}, w)
		}
	}
	if in.Copy != litmus.CopyBulkLoad {
		return
	}
	e.loadCompletion(s, in, bar, btaint)
}

// loadCompletion adds what follows the write of a bulk load: the implicit
// generic-async proxy fence that follows the copy's completion, which its
// complete-tx of SIZE bytes on the mbarrier at bar signals (PTX ISA,
// cp.async.bulk and "Async proxy").
func (e *explorer) loadCompletion(s *state, in *litmus.Instr, bar place, btaint []int) {
	pf := newEvent(KindProxyFence, e.th.Index, in)
	pf.Async, pf.Role, pf.Proxy, pf.Sem, pf.Scope = true, RoleProxyFence, litmus.ProxyAsync, litmus.SemWeak, litmus.ScopeNone
	s.addEvent(pf)
	e.completeTx(s, in, bar, btaint, e.operand(s, in.Size))
}

// multicastOps adds the asynchronous events of a .multicast::cluster load
// from src into the CTAs ctas (PTX ISA, cp.async.bulk and
// cp.async.bulk.tensor: "The source data is multicast to the same
// CTA-relative offset as dstMem in the shared memory of each destination
// CTA. The mbarrier signal is also multicast to the same CTA-relative
// offset as mbar in the shared memory of the destination CTA."): one read
// of the source, then for each destination CTA the write of its copy of
// dst, the implicit proxy fence and the complete-tx of SIZE bytes ("the
// amount of data copied") on its copy of bar. The events of destination i
// (from 0, in CTA order) carry Elem i+1, those of the whole instruction
// (the issue and the read) Elem 0: the catalog's same_instr relates each
// destination's events to the read and the issue but not to another
// destination's (docs/model.md, "Multicast loads").
func (e *explorer) multicastOps(s *state, in *litmus.Instr, dst, src place, dtaint, staint []int, bar place, btaint []int, ctas []int) {
	r := s.addEvent(e.asyncEvent(KindRead, in, src, nil, RoleCopy, litmus.SemWeak, litmus.ScopeNone, litmus.ProxyAsync))
	deps(&s.addr, staint, r)
	for i, cta := range ctas {
		first := len(s.events)
		w := s.addEvent(e.asyncEvent(KindWrite, in, place{dst.addr, cta}, &Sym{kind: symRead, read: r}, RoleCopy, litmus.SemWeak, litmus.ScopeNone, litmus.ProxyAsync))
		deps(&s.addr, dtaint, w)
		deps(&s.data, []int{r}, w)
		e.loadCompletion(s, in, place{bar.addr, cta}, btaint)
		for j := first; j < len(s.events); j++ {
			s.events[j].Elem = i + 1
		}
	}
}

// multicastCTAs returns the CTAs (CTAKey) that the ctaMask of a multicast
// load names, in the order of their numbers: bit K names CTA K, which must
// have a thread in the test and be in the executing thread's cluster, as
// for mapa.
func (e *explorer) multicastCTAs(s *state, in *litmus.Instr) ([]int, error) {
	m := e.operand(s, in.CtaMask)
	if !m.IsConst() || m.val.IsAddr || m.val.IsMBar {
		return nil, errAt(in.PosOf(in.CtaMask), "%q: the ctaMask must be a number known without reading memory", in.Text)
	}
	mask := m.val.N
	if mask <= 0 || mask>>in.CtaMaskBits != 0 {
		return nil, errAt(in.PosOf(in.CtaMask), "%q: the ctaMask must name at least one CTA with its %d bits, found %d", in.Text, in.CtaMaskBits, mask)
	}
	var ctas []int
	for k := 0; k < in.CtaMaskBits; k++ {
		if mask&(1<<k) == 0 {
			continue
		}
		cta, err := e.clusterCTA(in, in.CtaMask, k, "a multicast load")
		if err != nil {
			return nil, err
		}
		ctas = append(ctas, cta)
	}
	return ctas, nil
}

// clusterCTA returns CTA k of the executing thread's grid (CTAKey), which
// an operand of in names: it must have a thread in the test (its shared
// memory exists only then) and be in the thread's cluster; what says
// which instruction reaches only those.
func (e *explorer) clusterCTA(in *litmus.Instr, op litmus.Operand, k int, what string) (int, error) {
	target := ctaKeyOf(e.th.GPU, e.th.Launch, k)
	var inCluster, exists bool
	for _, th := range e.t.Threads {
		if CTAKey(th) == target {
			exists = true
			inCluster = th.Cluster == e.th.Cluster
		}
	}
	if !exists {
		grid := fmt.Sprintf("GPU %d", e.th.GPU)
		if e.th.Kernel != "" {
			grid = "kernel " + e.th.Kernel // CTA numbers are per launch
		}
		return 0, errAt(in.PosOf(op), "%q: no thread of the test runs in CTA %d of %s, so its shared memory is not modelled", in.Text, k, grid)
	}
	if !inCluster {
		return 0, errAt(in.PosOf(op), "%q: CTA %d is not in the cluster of thread %s (cluster %d): %s reaches only the CTAs of the thread's cluster", in.Text, k, e.th.Name, e.th.Cluster, what)
	}
	return target, nil
}

// completeTx adds the asynchronous complete-tx of bytes on the mbarrier at
// bar that ends a bulk load, st.async or red.async: it has .release
// semantics at .cluster scope and accesses the mbarrier through the generic
// proxy (PTX ISA, cp.async.bulk, st.async and red.async).
func (e *explorer) completeTx(s *state, in *litmus.Instr, bar place, btaint []int, bytes *Sym) {
	tx := s.addEvent(e.asyncEvent(KindRead, in, bar, nil, RoleCompleteTx, litmus.SemRelease, litmus.ScopeCluster, litmus.ProxyGeneric))
	deps(&s.addr, btaint, tx)
	nv := &Sym{kind: symMBar, op: "complete", a: &Sym{kind: symRead, read: tx}, b: bytes}
	e.update(s, in, bar, tx, nv, btaint, e.asyncEvent(KindWrite, in, bar, nil, RoleCompleteTx, litmus.SemRelease, litmus.ScopeCluster, litmus.ProxyGeneric))
}

// copyArrive executes cp.async.mbarrier.arrive: without .noinc it first
// increments the pending count (in program order), then it starts an
// asynchronous arrive-on that the system performs once the thread's prior
// cp.async complete. PTX gives the arrive-on no memory order; ptxmm makes it
// a .release.cta arrive, so that a waiter that sees the phase complete sees
// the copies (docs/model.md).
func (e *explorer) copyArrive(s *state, in *litmus.Instr) error {
	s.addEvent(newEvent(KindIssue, e.th.Index, in))
	return e.withAddress(s, in, in.Addr, func(c *state, bar place, taint []int) error {
		if !in.NoInc {
			inc := e.memEvent(KindRead, in, bar, nil)
			inc.Role, inc.Sem, inc.Scope = RolePendingInc, litmus.SemRelaxed, litmus.ScopeCTA
			r := c.addEvent(inc)
			deps(&c.addr, taint, r)
			proto := inc
			proto.Kind = KindWrite
			e.update(c, in, bar, r, &Sym{kind: symMBar, op: "inc", a: &Sym{kind: symRead, read: r}}, taint, proto)
		}
		r := c.addEvent(e.asyncEvent(KindRead, in, bar, nil, RoleAsyncArrive, litmus.SemRelease, litmus.ScopeCTA, litmus.ProxyGeneric))
		deps(&c.addr, taint, r)
		nv := &Sym{kind: symMBar, op: "arrive", a: &Sym{kind: symRead, read: r}, b: constSym(Int(1)), c: constSym(Int(0))}
		e.update(c, in, bar, r, nv, taint, e.asyncEvent(KindWrite, in, bar, nil, RoleAsyncArrive, litmus.SemRelease, litmus.ScopeCTA, litmus.ProxyGeneric))
		c.pc++
		return e.explore(c)
	})
}

// wgmma executes wgmma.mma_async D, A, B: asynchronous reads of the
// shared-memory operands A and B through the async proxy, and D := D + A + B
// (docs/model.md, "wgmma").
func (e *explorer) wgmma(s *state, in *litmus.Instr) error {
	s.addEvent(newEvent(KindIssue, e.th.Index, in))
	return e.withAddress(s, in, in.Addr, func(c *state, pa place, ataint []int) error {
		return e.withAddress(c, in, in.Mem2, func(c *state, pb place, btaint []int) error {
			ra := c.addEvent(e.asyncEvent(KindRead, in, pa, nil, RoleCopy, litmus.SemWeak, litmus.ScopeNone, litmus.ProxyAsync))
			deps(&c.addr, ataint, ra)
			rb := c.addEvent(e.asyncEvent(KindRead, in, pb, nil, RoleCopy, litmus.SemWeak, litmus.ScopeNone, litmus.ProxyAsync))
			deps(&c.addr, btaint, rb)
			d := e.operand(c, litmus.Operand{Kind: litmus.OperandReg, Reg: in.Dst})
			sum := &Sym{kind: symArith, op: "add", a: d, b: &Sym{kind: symRead, read: ra}, instr: in.Text}
			sum = &Sym{kind: symArith, op: "add", a: sum, b: &Sym{kind: symRead, read: rb}, instr: in.Text}
			c.setReg(in.Dst, sum)
			c.pc++
			return e.explore(c)
		})
	})
}

// mapa computes the address of CTA K's copy of a shared variable. Both
// operands must be known without reading memory.
func (e *explorer) mapa(s *state, in *litmus.Instr) error {
	a, k := e.operand(s, in.A), e.operand(s, in.B)
	if !a.IsConst() || !a.val.IsAddr {
		return errAt(in.PosOf(in.A), "%q: the address operand must be a shared variable, or a register holding its address", in.Text)
	}
	if !k.IsConst() || k.val.IsAddr || k.val.IsMBar {
		return errAt(in.PosOf(in.B), "%q: the CTA operand must be a number known without reading memory", in.Text)
	}
	addr := int(a.val.N)
	if !e.layout.Addrs[addr].Space.PerCTA() {
		return errAt(in.PosOf(in.A), "%q: %s is in %s memory; mapa maps shared-memory addresses", in.Text, e.layout.Addrs[addr].Name, e.layout.Addrs[addr].Space)
	}
	target, err := e.clusterCTA(in, in.B, int(k.val.N), "mapa")
	if err != nil {
		return err
	}
	s.setReg(in.Dst, constSym(RemoteAddrValue(addr, target)))
	return nil
}
