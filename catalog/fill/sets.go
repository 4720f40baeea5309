package fill

import (
	"strings"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// eventTest decides whether an event that is not an initial write is in a
// catalog set.
type eventTest func(ev *execution.Event) bool

// setFiller fills one catalog set. It is made once per set name
// (setFillerOf), so that filling asks each event only the test of that
// name: looking the name up among every set's names for every event was
// most of a small test's static fill.
type setFiller struct {
	// whole fills the sets decided over the whole execution (those that
	// depend on other events, the host's tasks or the state spaces); the
	// fields below are then unused.
	whole func(s *relations.Set, x *execution.Execution)
	// init says whether initial writes are in the set, before their
	// location is looked at.
	init bool
	// event decides the events that are not initial writes.
	event eventTest
	// loc, for the sets that depend on the location a memory event
	// accesses, decides memory events (initial writes included) by it.
	loc func(ev *execution.Event, l *execution.Layout) bool
	// gate, for a set with neither init nor loc, says what every event
	// event accepts has: the set is empty when x has no such event, without
	// a walk over the events. Most of a test's sets are those of
	// instructions, orders and scopes it does not have (the asynchronous
	// ones, tcgen05, .sys, .volatile), and the walks were most of its
	// static fill.
	gate eventGate
}

// eventGate holds properties of events, a bit each: instructions
// (litmus.Op), kinds (execution.EventKind), memory orders (litmus.Sem) and
// scopes (litmus.Scope). As a set's gate, a group left 0 says nothing; any
// other says that each event of the set has one of its properties.
type eventGate struct{ ops, kinds, sems, scopes uint64 }

// bit returns the set of the one property v, of a group of fewer than 64.
func bit[T ~int](v T) uint64 { return 1 << uint(v) }

// gateOf returns the properties of x's events other than the initial
// writes.
func gateOf(x *execution.Execution) eventGate {
	var g eventGate
	for i := range x.Events {
		if ev := &x.Events[i]; !ev.IsInit() {
			g.add(ev)
		}
	}
	return g
}

// add adds the properties of a non-initial event.
func (g *eventGate) add(ev *execution.Event) {
	g.ops |= bit(ev.Instr.Op)
	g.kinds |= bit(ev.Kind)
	g.sems |= bit(ev.Sem)
	g.scopes |= bit(ev.Scope)
}

// admits reports whether events with the properties have may be in a set
// of gate g.
func (g eventGate) admits(have eventGate) bool {
	meets := func(want, have uint64) bool { return want == 0 || want&have != 0 }
	return meets(g.ops, have.ops) && meets(g.kinds, have.kinds) && meets(g.sems, have.sems) && meets(g.scopes, have.scopes)
}

// emptyFor reports whether the set is empty in an execution whose events
// have the properties have (gateOf), by its gate alone.
func (c *setFiller) emptyFor(have eventGate) bool {
	return c.whole == nil && !c.gate.admits(have)
}

// fill adds to s the events of x in the set; have holds the properties
// of x's events (gateOf).
func (c *setFiller) fill(s *relations.Set, x *execution.Execution, have eventGate) {
	if c.whole != nil {
		c.whole(s, x)
		return
	}
	if c.emptyFor(have) {
		return
	}
	for i := range x.Events {
		ev := &x.Events[i]
		in := c.init
		if !ev.IsInit() {
			in = c.event(ev)
		}
		if in || (c.loc != nil && ev.IsMemory() && c.loc(ev, x.Layout)) {
			s.Add(i)
		}
	}
}

// fillSet computes a catalog set.
func fillSet(s *relations.Set, name string, x *execution.Execution) {
	c := setFillerOf(name)
	c.fill(s, x, gateOf(x))
}

// setFillerOf returns the filler of the catalog set name.
func setFillerOf(name string) *setFiller {
	switch name {
	case "OUTSIDE_SPACE":
		return &setFiller{whole: fillOutsideSpace}
	case "HOST", "HOST_NATIVE_ATOMIC", "TASK_START", "TASK_END":
		return &setFiller{whole: func(s *relations.Set, x *execution.Execution) {
			for i := range x.Events {
				if hostExecSet(name, x, i) {
					s.Add(i)
				}
			}
		}}
	case "NOCOMPLETE_COMPLETES":
		return &setFiller{whole: fillNoCompleteCompletes}
	case "MBAR_PENDING_OVER":
		return &setFiller{whole: fillPendingOver}
	case "MBAR_UNINIT":
		// Filled for every candidate: straight to its test.
		return &setFiller{whole: func(s *relations.Set, x *execution.Execution) {
			for i := range x.Events {
				if readsUninitMBar(&x.Events[i]) {
					s.Add(i)
				}
			}
		}}
	}
	c := &setFiller{loc: locationTest(name)}
	switch name {
	case "E", "IW", "M", "W", "GEN":
		c.init = true
	}
	for _, of := range []func(string) eventTest{instrTest, asyncTest, hostTest} {
		if c.event = of(name); c.event != nil {
			if !c.init && c.loc == nil {
				c.gate = gateOfSet(name)
			}
			return c
		}
	}
	c.event = qualifierTest(name)
	if c.loc == nil {
		c.gate = gateOfSet(name)
	}
	return c
}

// gateOfSet returns the gate of the set name's test (instrTest,
// asyncTest, qualifierTest): what each event it accepts has, by looking at
// ev.Instr.Op (inFamily for the families), ev.Kind, ev.Sem or ev.Scope
// (TestSetGates checks each).
func gateOfSet(name string) eventGate {
	of := func(ops ...litmus.Op) eventGate {
		var g eventGate
		for _, o := range ops {
			g.ops |= bit(o)
		}
		return g
	}
	if sem, ok := semOfSet(name); ok {
		return eventGate{sems: bit(sem)}
	}
	if scope, ok := scopeOfSet(name); ok {
		return eventGate{scopes: bit(scope)}
	}
	switch name {
	case "PF", "ALIAS":
		return eventGate{kinds: bit(execution.KindProxyFence)}
	case "ISSUE":
		return eventGate{kinds: bit(execution.KindIssue)}
	case "F":
		return of(litmus.OpFence)
	case "SYNC_RESTRICT":
		return of(litmus.OpFence, litmus.OpProxyFence)
	case "BAR", "BAR_SYNC", "BAR_ARRIVE", "BAR_RED":
		return of(litmus.OpBarrier)
	case "LD":
		return of(litmus.OpLoad)
	case "ST":
		return of(litmus.OpStore)
	case "ATOM":
		return of(litmus.OpAtom)
	case "RED":
		return of(litmus.OpRed)
	case "CP_ASYNC", "BULK":
		return of(litmus.OpAsyncGroup, litmus.OpCopy)
	case "WGMMA":
		return of(litmus.OpAsyncGroup, litmus.OpWgmma, litmus.OpWgmmaFence)
	case "BULK_REDUCE":
		return of(litmus.OpCopy)
	case "CP_MBAR_ARRIVE":
		return of(litmus.OpCopyArrive)
	case "ST_ASYNC":
		return of(litmus.OpStAsync)
	case "COMMIT", "WAIT_GROUP", "WAIT_READ", "WAIT_ALL":
		return of(litmus.OpAsyncGroup)
	case "WGMMA_FENCE":
		return of(litmus.OpWgmmaFence)
	case "MBAR_INIT", "MBAR_WAIT":
		return of(litmus.OpMBarrier)
	case "MBAR_INIT_FENCE":
		return of(litmus.OpMBarInitFence)
	case "CBAR_ARRIVE", "CBAR_WAIT":
		return of(litmus.OpClusterBarrier)
	case "TC", "TC_MMA", "TC_CP", "TC_SHIFT", "TC_LD", "TC_ST", "TC_COMMIT", "TC_WAIT_LD", "TC_WAIT_ST",
		"TC_BEFORE", "TC_AFTER", "TC_CP_4X256B":
		return of(litmus.OpTcgen05)
	}
	return eventGate{}
}

// locationTest returns the test of the sets that depend on the location a
// memory event accesses, or nil for the other sets.
func locationTest(name string) func(ev *execution.Event, l *execution.Layout) bool {
	space := func(sp litmus.Space) func(ev *execution.Event, l *execution.Layout) bool {
		return func(ev *execution.Event, l *execution.Layout) bool { return l.Locs[ev.Loc].Space == sp }
	}
	switch name {
	case "SHARED":
		return space(litmus.SpaceShared)
	case "GLOBAL":
		return space(litmus.SpaceGlobal)
	case "TMEM":
		return space(litmus.SpaceTensor)
	case "MBAR":
		return func(ev *execution.Event, l *execution.Layout) bool {
			return ev.IsInit() && l.Locs[ev.Loc].MBarrier > 0
		}
	case "MULTIMEM_ADDR":
		return func(ev *execution.Event, l *execution.Layout) bool {
			return !ev.IsInit() && len(l.Addrs[ev.Addr].Multimem) > 0
		}
	}
	return nil
}

// accessesMBar reports whether a non-initial event is an mbarrier operation
// or one of the accesses to an mbarrier that asynchronous operations make.
func accessesMBar(ev *execution.Event) bool {
	return ev.Instr.Op == litmus.OpMBarrier || (ev.IsMemory() && (ev.Role == execution.RoleCompleteTx ||
		ev.Role == execution.RoleAsyncArrive || ev.Role == execution.RolePendingInc))
}

// fillNoCompleteCompletes fills NOCOMPLETE_COMPLETES (completesNoComplete).
func fillNoCompleteCompletes(s *relations.Set, x *execution.Execution) {
	completesNoComplete(x, func(w int) bool { s.Add(w); return true })
}

// completesNoComplete calls add with each write of an
// mbarrier.arrive.noComplete or mbarrier.arrive_drop.noComplete update
// whose phase is not that of the state its read half read, that is, of an
// update that completed the phase (PTX ISA 9.7.13.15.13 and 9.7.13.15.14:
// it "must not cause the mbarrier to complete its current phase"), until
// add returns false; it reports whether it found one.
func completesNoComplete(x *execution.Execution, add func(w int) bool) bool {
	found := false
	for _, p := range x.RMW {
		r, w := &x.Events[p[0]], &x.Events[p[1]]
		if !w.Instr.NoComplete || w.Instr.Op != litmus.OpMBarrier || !r.Value.IsMBar || !w.Value.IsMBar {
			continue
		}
		if w.Value.MBar.Phase != r.Value.MBar.Phase {
			found = true
			if !add(p[1]) {
				return true
			}
		}
	}
	return found
}

// mbarPendingLimit is the largest pending arrival count an mbarrier may
// hold (PTX ISA 9.7.13.15.2, Contents of the mbarrier object: 2^20 - 1).
const mbarPendingLimit = 1<<20 - 1

// fillPendingOver fills MBAR_PENDING_OVER: the write of a pending-count
// increment of cp.async.mbarrier.arrive that leaves the count above the
// limit. The cp.async.mbarrier.arrive page: "The pending count of the
// mbarrier object after the increment should not exceed the limit as
// mentioned in Contents of the mbarrier object. Otherwise, the behavior is
// undefined."
func fillPendingOver(s *relations.Set, x *execution.Execution) {
	for _, p := range x.RMW {
		w := &x.Events[p[1]]
		if w.Role == execution.RolePendingInc && w.Value.IsMBar && w.Value.MBar.Pending > mbarPendingLimit {
			s.Add(p[1])
		}
	}
}

// readsUninitMBar decides MBAR_UNINIT: a read of an mbarrier that returns
// a value no mbarrier.init wrote.
func readsUninitMBar(ev *execution.Event) bool {
	return !ev.IsInit() && accessesMBar(ev) && ev.Kind == execution.KindRead && !ev.Value.IsMBar
}

// instrTest returns the test of a set about what kind of event and
// instruction an event is, or nil when name is not one.
func instrTest(name string) eventTest {
	op := func(o litmus.Op) eventTest {
		return func(ev *execution.Event) bool { return ev.Instr.Op == o }
	}
	barrier := func(ev *execution.Event) bool {
		return ev.Kind == execution.KindBarrier && ev.Instr.Op == litmus.OpBarrier
	}
	switch name {
	case "E":
		return func(*execution.Event) bool { return true }
	case "IW":
		return func(*execution.Event) bool { return false }
	case "M":
		return (*execution.Event).IsMemory
	case "R":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindRead }
	case "W":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindWrite }
	case "F":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindFence && ev.Instr.Op == litmus.OpFence }
	case "SYNC_RESTRICT":
		return func(ev *execution.Event) bool {
			fence := ev.Kind == execution.KindFence && ev.Instr.Op == litmus.OpFence && ev.Instr.SpaceQ != litmus.SpaceQNone
			proxy := ev.Kind == execution.KindProxyFence && ev.Instr.Op == litmus.OpProxyFence && (ev.Sem == litmus.SemRelease || ev.Sem == litmus.SemAcquire)
			return fence || proxy
		}
	case "PF":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindProxyFence }
	case "BAR":
		return barrier
	case "BAR_SYNC":
		return func(ev *execution.Event) bool { return barrier(ev) && ev.BarSync }
	case "BAR_ARRIVE":
		return func(ev *execution.Event) bool { return barrier(ev) && !ev.BarSync }
	case "BAR_RED":
		return func(ev *execution.Event) bool { return barrier(ev) && ev.Instr.BarRed != litmus.BarRedNone }
	case "LD":
		return op(litmus.OpLoad)
	case "ST":
		return op(litmus.OpStore)
	case "ATOM":
		return op(litmus.OpAtom)
	case "RED":
		return op(litmus.OpRed)
	case "MULTIMEM":
		return func(ev *execution.Event) bool { return ev.Instr.Multimem }
	case "GEN":
		return func(ev *execution.Event) bool {
			return (ev.IsMemory() || ev.Kind == execution.KindFence || ev.Kind == execution.KindBarrier) && ev.Proxy == litmus.ProxyGeneric
		}
	case "SUR", "TEX", "CON", "ASYNC_PROXY":
		want := map[string]litmus.Proxy{"SUR": litmus.ProxySurface, "TEX": litmus.ProxyTexture, "CON": litmus.ProxyConstant, "ASYNC_PROXY": litmus.ProxyAsync}[name]
		return func(ev *execution.Event) bool {
			return (ev.IsMemory() || (ev.Kind == execution.KindProxyFence && !ev.Instr.Alias)) && ev.Proxy == want
		}
	case "ALIAS":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindProxyFence && ev.Instr.Alias }
	}
	return nil
}

// inFamily reports whether instruction in belongs to the asynchronous
// operations of group family f.
func inFamily(in *litmus.Instr, f litmus.GroupFamily) bool {
	switch in.Op {
	case litmus.OpAsyncGroup:
		return in.Family == f
	case litmus.OpCopy:
		return in.Copy.Bulk() == (f == litmus.GroupBulk) && f != litmus.GroupWgmma
	case litmus.OpWgmma, litmus.OpWgmmaFence:
		return f == litmus.GroupWgmma
	}
	return false
}

// asyncTest returns the test of a set about asynchronous operations,
// mbarriers and cluster barriers, or nil when name is not one.
func asyncTest(name string) eventTest {
	op := func(o litmus.Op) eventTest {
		return func(ev *execution.Event) bool { return ev.Instr.Op == o }
	}
	family := func(f litmus.GroupFamily) eventTest {
		return func(ev *execution.Event) bool { return inFamily(ev.Instr, f) }
	}
	group := func(g litmus.GroupOp) eventTest {
		return func(ev *execution.Event) bool { return ev.Instr.Op == litmus.OpAsyncGroup && ev.Instr.GroupOp == g }
	}
	switch name {
	case "ASYNC":
		return func(ev *execution.Event) bool { return ev.Async }
	case "ISSUE":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindIssue }
	case "CP_ASYNC":
		return family(litmus.GroupCpAsync)
	case "BULK":
		return family(litmus.GroupBulk)
	case "BULK_REDUCE":
		return func(ev *execution.Event) bool {
			return ev.Instr.Op == litmus.OpCopy && ev.Instr.Copy == litmus.CopyBulkReduce
		}
	case "BULK_BAD_SIZE":
		return func(ev *execution.Event) bool { return ev.BadSize }
	case "WGMMA":
		return family(litmus.GroupWgmma)
	case "CP_MBAR_ARRIVE":
		return op(litmus.OpCopyArrive)
	case "ST_ASYNC":
		return op(litmus.OpStAsync)
	case "COMMIT":
		return group(litmus.GroupCommit)
	case "WAIT_GROUP":
		return group(litmus.GroupWait)
	case "WAIT_READ":
		wait := group(litmus.GroupWait)
		return func(ev *execution.Event) bool { return wait(ev) && ev.Instr.ReadOnly }
	case "WAIT_ALL":
		return group(litmus.GroupWaitAll)
	case "WGMMA_FENCE":
		return op(litmus.OpWgmmaFence)
	case "MBAR":
		return accessesMBar
	case "MBAR_INIT":
		return func(ev *execution.Event) bool {
			return ev.Instr.Op == litmus.OpMBarrier && ev.Instr.MBarOp == litmus.MBarInit
		}
	case "MBAR_WAIT":
		return func(ev *execution.Event) bool { return ev.Instr.Op == litmus.OpMBarrier && ev.Instr.MBarOp.IsWait() }
	case "MBAR_UNINIT":
		return readsUninitMBar
	case "MBAR_INIT_FENCE":
		return op(litmus.OpMBarInitFence)
	case "CBAR_ARRIVE", "CBAR_WAIT":
		wait := name == "CBAR_WAIT"
		return func(ev *execution.Event) bool { return ev.Instr.Op == litmus.OpClusterBarrier && ev.BarSync == wait }
	case "TC":
		return op(litmus.OpTcgen05)
	case "TC_MMA", "TC_CP", "TC_SHIFT", "TC_LD", "TC_ST", "TC_COMMIT", "TC_WAIT_LD", "TC_WAIT_ST", "TC_BEFORE", "TC_AFTER":
		tc := tcOpOf(name)
		return func(ev *execution.Event) bool { return ev.Instr.Op == litmus.OpTcgen05 && ev.Instr.Tc == tc }
	case "TC_CP_4X256B":
		return func(ev *execution.Event) bool {
			in := ev.Instr
			return in.Op == litmus.OpTcgen05 && in.Tc == litmus.TcCp && strings.Contains("."+in.Shape+".", ".4x256b.")
		}
	case "TMEM":
		return func(*execution.Event) bool { return false } // memory events: decided by the location
	case "SHARED", "GLOBAL":
		// Memory events are decided by the location; a proxy fence by the
		// state space it names.
		global := name == "GLOBAL"
		return func(ev *execution.Event) bool {
			if ev.Kind != execution.KindProxyFence {
				return false
			}
			if global {
				return ev.Instr.SpaceQ == litmus.SpaceQGlobal
			}
			return ev.Instr.SpaceQ == litmus.SpaceQShared || ev.Instr.SpaceQ == litmus.SpaceQCluster
		}
	}
	return nil
}

// tcOpOf returns the tcgen05 operation a TC_ set names.
func tcOpOf(name string) litmus.TcOp {
	switch name {
	case "TC_MMA":
		return litmus.TcMma
	case "TC_CP":
		return litmus.TcCp
	case "TC_SHIFT":
		return litmus.TcShift
	case "TC_LD":
		return litmus.TcLd
	case "TC_ST":
		return litmus.TcSt
	case "TC_COMMIT":
		return litmus.TcCommit
	case "TC_WAIT_LD":
		return litmus.TcWaitLd
	case "TC_WAIT_ST":
		return litmus.TcWaitSt
	case "TC_BEFORE":
		return litmus.TcFenceBefore
	}
	return litmus.TcFenceAfter
}

// semOfSet returns the memory order a catalog set names (WEAK, RLX, ACQ,
// REL, ACQ_REL, SC, VOL, MMIO), for its test and its gate alike.
func semOfSet(name string) (litmus.Sem, bool) {
	switch name {
	case "WEAK":
		return litmus.SemWeak, true
	case "RLX":
		return litmus.SemRelaxed, true
	case "ACQ":
		return litmus.SemAcquire, true
	case "REL":
		return litmus.SemRelease, true
	case "ACQ_REL":
		return litmus.SemAcqRel, true
	case "SC":
		return litmus.SemSC, true
	case "VOL":
		return litmus.SemVolatile, true
	case "MMIO":
		return litmus.SemMMIO, true
	}
	return 0, false
}

// scopeOfSet returns the scope a catalog set names (CTA, CLUSTER, GPU,
// SYS), for its test and its gate alike.
func scopeOfSet(name string) (litmus.Scope, bool) {
	switch name {
	case "CTA":
		return litmus.ScopeCTA, true
	case "CLUSTER":
		return litmus.ScopeCluster, true
	case "GPU":
		return litmus.ScopeGPU, true
	case "SYS":
		return litmus.ScopeSys, true
	}
	return 0, false
}

// qualifierTest returns the test of a set about memory orders and scopes;
// a name no test knows gives an empty set.
func qualifierTest(name string) eventTest {
	var test eventTest
	if s, ok := semOfSet(name); ok {
		test = func(ev *execution.Event) bool { return ev.Sem == s }
		if s == litmus.SemWeak {
			test = func(ev *execution.Event) bool { return ev.IsMemory() && ev.Sem == litmus.SemWeak }
		}
	} else if s, ok := scopeOfSet(name); ok {
		test = func(ev *execution.Event) bool { return ev.Scope == s }
	} else {
		return func(*execution.Event) bool { return false }
	}
	return func(ev *execution.Event) bool {
		if ev.Kind == execution.KindIssue || ev.Kind == execution.KindControl {
			return false
		}
		// Of the proxy fences only the unidirectional ones
		// (fence.proxy.async::generic.release/.acquire) have a memory
		// order and a scope.
		if ev.Kind == execution.KindProxyFence && ev.Sem != litmus.SemRelease && ev.Sem != litmus.SemAcquire {
			return false
		}
		if ev.Kind == execution.KindBarrier && ev.Instr.Op == litmus.OpBarrier {
			return false
		}
		return test(ev)
	}
}
