package execution

import "github.com/ptxmm/ptxmm/litmus"

// This file executes st.async and red.async (PTX ISA 9.7.9.12, 9.7.13.7):
// an issue event in program order, then, asynchronously (docs/model.md,
// "st.async and red.async"), the store, or the reduction's read and write,
// at the destination, and a complete-tx of the bytes stored on the
// mbarrier. The store is weak and the reduction .relaxed.cluster; both use
// the generic proxy, and so does the complete-tx, which is .release.cluster.

// stAsync executes st.async or red.async and goes on exploring.
func (e *explorer) stAsync(s *state, in *litmus.Instr) error {
	if in.Sem == litmus.SemRelease {
		return e.asyncRelease(s, in)
	}
	s.addEvent(newEvent(KindIssue, e.th.Index, in))
	return e.withAddress(s, in, in.Addr, func(c *state, dst place, dtaint []int) error {
		return e.withAddress(c, in, in.MBar, func(c *state, bar place, btaint []int) error {
			if err := e.stAsyncPlaces(in, dst, bar); err != nil {
				return err
			}
			if in.AtomOp == "" {
				e.asyncStore(c, in, dst, dtaint, litmus.SemWeak, litmus.ScopeNone)
			} else {
				e.asyncStore(c, in, dst, dtaint, litmus.SemRelaxed, litmus.ScopeCluster)
			}
			// "a complete-tx operation ... with completeCount argument
			// equal to the amount of data stored in bytes".
			e.completeTx(c, in, bar, btaint, constSym(Int(int64(in.Type.Size))))
			c.pc++
			return e.explore(c)
		})
	})
}

// stAsyncPlaces checks where the destination and the mbarrier are: in
// shared memory, both in one CTA (st.async and red.async pages: "the
// shared memory addresses of destination operand a and the mbarrier
// object mbar belong to the same CTA"), and, for red.async, a CTA other
// than the executing thread's ("different from the CTA of the executing
// thread"). mapa keeps addresses within the cluster. PTX leaves other
// placements undefined; ptxmm reports them as errors of the test, as it
// does a wait on another CTA's mbarrier.
func (e *explorer) stAsyncPlaces(in *litmus.Instr, dst, bar place) error {
	name := "st.async"
	if in.AtomOp != "" {
		name = "red.async"
	}
	if !e.layout.Addrs[dst.addr].Space.PerCTA() {
		return errAt(in.PosOf(in.Addr), "%q: the destination %s is in %s memory; %s stores into the shared memory of a CTA of the cluster", in.Text, e.layout.Addrs[dst.addr].Name, e.layout.Addrs[dst.addr].Space, name)
	}
	if dst.cta != bar.cta {
		return errAt(in.PosOf(in.MBar), "%q: the destination is in %s and the mbarrier in %s; %s needs both in the same CTA (PTX ISA: otherwise the behaviour is undefined)", in.Text, ctaKeyName(dst.cta), ctaKeyName(bar.cta), name)
	}
	if in.AtomOp != "" && dst.cta == CTAKey(e.th) {
		return errAt(in.PosOf(in.Addr), "%q: the destination is in the executing thread's own CTA; red.async reduces into another CTA of the cluster (PTX ISA 9.7.13.7: otherwise the behaviour is undefined)", in.Text)
	}
	return nil
}

// asyncRelease executes the .release forms into global memory (PTX ISA
// 8.7): an issue event in program order, then, asynchronously, a strong
// store, or an atomic add's read and write, with .release semantics at the
// instruction's scope, in the generic proxy, and no completion mechanism
// (docs/model.md, "The .release forms of st.async and red.async").
func (e *explorer) asyncRelease(s *state, in *litmus.Instr) error {
	for _, th := range e.t.Threads {
		if th.Host {
			// "The completion of the store synchronizes with the end of
			// the CTA" (red.async): ptxmm does not order asynchronous
			// operations before the end of a kernel that a host thread
			// synchronizes with, so it refuses the test rather than let a
			// host read miss the store.
			return errAt(in.Pos, "%q: the .release forms of st.async and red.async are not supported in tests with host threads (their completion synchronizes with the end of the CTA, which ptxmm does not model for asynchronous operations)", in.Text)
		}
	}
	s.addEvent(newEvent(KindIssue, e.th.Index, in))
	return e.withAddress(s, in, in.Addr, func(c *state, dst place, dtaint []int) error {
		if e.layout.Addrs[dst.addr].Space.PerCTA() {
			return errAt(in.PosOf(in.Addr), "%q: the destination %s is in %s memory; the .release form stores into global memory (PTX ISA: otherwise the behaviour is undefined)", in.Text, e.layout.Addrs[dst.addr].Name, e.layout.Addrs[dst.addr].Space)
		}
		if sizedAccess(in) && in.Addr.Kind == litmus.OperandReg {
			// As for st: where a store through a register goes is known
			// only now, and Prepare explores again if the layout must
			// grow for its bytes.
			if err := e.layout.reached(in, e.layout.Loc(dst.addr, dst.cta), e.grow); err != nil {
				return err
			}
		}
		e.asyncStore(c, in, dst, dtaint, litmus.SemRelease, in.Scope)
		c.pc++
		return e.explore(c)
	})
}

// asyncStore adds the asynchronous store of st.async, or the atomic
// update (read and write) of red.async, at dst, with the memory order and
// scope of the form, in the generic proxy.
func (e *explorer) asyncStore(c *state, in *litmus.Instr, dst place, dtaint []int, sem litmus.Sem, scope litmus.Scope) {
	typ := in.Type
	v := convSym(e.operand(c, in.Src), 0, typ.Size, typ.Signed)
	if in.AtomOp == "" {
		ev := e.asyncEvent(KindWrite, in, dst, v, RoleCopy, sem, scope, litmus.ProxyGeneric)
		if sizedAccess(in) {
			// The .release form writes the bytes of its type at its
			// address, as st does (8.2.1); the shared-memory forms write
			// whole locations.
			setBytes(&ev, 0, int(in.Offset), typ.Size, typ.Signed)
		}
		w := c.addEvent(ev)
		deps(&c.addr, dtaint, w)
		deps(&c.data, v.reads(nil), w)
		return
	}
	old := c.addEvent(e.asyncEvent(KindRead, in, dst, nil, RoleCopy, sem, scope, litmus.ProxyGeneric))
	deps(&c.addr, dtaint, old)
	nv := &Sym{kind: symAtom, op: in.AtomOp, a: &Sym{kind: symRead, read: old}, b: v, instr: in.Text, size: typ.Size, signed: typ.Signed}
	e.update(c, in, dst, old, nv, dtaint, e.asyncEvent(KindWrite, in, dst, nil, RoleCopy, sem, scope, litmus.ProxyGeneric))
}
