package execution

import (
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// RunStatus tells how a thread run ends.
type RunStatus int

const (
	// Finished runs executed their last instruction.
	Finished RunStatus = iota
	// Blocked runs wait forever at their last event, a bar.sync or
	// barrier.cluster.wait whose barrier never completes, or a host
	// thread's synchronizing CUDA call that waits for a task that never
	// completes.
	Blocked
	// Spinning runs poll forever: they end with a failed iteration of an
	// await (a loop whose iterations only read memory and compute
	// registers) that repeats for ever, because under a fair scheduler
	// its reads (Run.Polls) see the last writes of what they poll and
	// still fail (docs/model.md, "Awaits and termination").
	Spinning
)

// Constraint is a condition a run assumes about the values its reads
// return: a branch went one way, an atom.cas succeeded or failed, a load
// returned the value its "== v" restriction names, a register held a given
// address.
type Constraint struct {
	Cond *Sym // evaluates to 1 when the condition holds
	Want bool
	Pos  source.Pos
}

// Run is one path through a thread: its events, with values as symbolic
// expressions over what its reads return, and the constraints on those
// values that make the thread take this path.
type Run struct {
	Thread int
	Events []Event
	Status RunStatus
	// Regs holds the final value of every register the run assigned (or
	// the init block set); a register missing from it was never written.
	Regs        map[string]*Sym
	Constraints []Constraint
	// Dependencies between the run's events, as pairs of indices into
	// Events: address, data and control dependencies, and the read and
	// write of each atom/red.
	Addr, Data, Ctrl, RMW [][2]int
	// Polls are, for a Spinning run, the events of its last iteration
	// that see the rest of the execution: its reads, each of which reads a
	// write no write follows (an mbarrier wait: the end of the object's
	// chain of updates), and a host thread's queries, each of which waits
	// for a task that never completes. WaitAt is the branch that repeats
	// the iteration.
	Polls  []int
	WaitAt *litmus.Instr
	// Done is set for a Blocked run whose barrier is the thread's last
	// instruction: the thread has nothing left to do, so its registers
	// hold their final values even though the barrier never completes.
	Done bool
	// Host holds, for a host thread, how its tasks are ordered and matched
	// (see host.go); nil for device threads.
	Host *HostRun
	// NotStarted marks the run of a device thread whose kernel never
	// starts (hosthang.go): it has no events, and its registers keep their
	// initial values.
	NotStarted bool
	// Probe marks a run that goes round an await after a failed
	// iteration, which the spin reduction leaves out of the search: it is
	// kept for the flags only (Analysis.Probes). Failed lists the events
	// of its failed iterations (indices into Events).
	Probe  bool
	Failed []int
	// FailedIters counts the failed iterations of a probe.
	FailedIters int
}

// explorer enumerates the runs of one thread.
type explorer struct {
	t      *litmus.Test
	th     *litmus.Thread
	layout *Layout
	unroll int
	labels map[string]int
	// addrValues are the addresses a register loaded from memory may hold.
	addrValues []Value
	emit       func(*Run) error
	cut        int
	maxSteps   int
	// live[i] is the set of registers live on entry to instruction i,
	// computed when a loop first asks (liveAt): most threads have none.
	live []map[string]bool
	// spins counts failed spin-loop iterations left out (see jump), and
	// awaits the failed await iterations met, left out or not.
	spins, awaits int
	spinReduction bool
	// plainSpins lets awaits that poll plain memory spin (spin).
	plainSpins bool
	// probes keeps the runs going round awaits after a failed iteration
	// the spin reduction leaves out, as probes; probeCut counts those cut
	// at the unrolling bound.
	probes     bool
	probeCut   int
	probeDepth int
	// noAddr counts the paths abandoned because a register loaded from
	// memory is used as an address and no value the test stores is one;
	// noAddrAt is the first such access.
	noAddr   int
	noAddrAt *litmus.Instr
	// copied marks the roots of the addresses asynchronous copies and
	// wgmma access (all of them when one is reached through a register):
	// a spin-loop iteration reading one is never left out, so that the
	// model sees its race with a copy.
	copied    map[int]bool
	copiedAll bool
	// grow collects the bytes accesses through registers reach that the
	// layout has no segment or size for yet.
	grow *sizing
	// budget is the time and memory the exploration of the test may
	// take (nil: no bound).
	budget *exploreBudget
}

// state is a run in progress.
type state struct {
	pc          int
	regs        map[string]*Sym
	events      []Event
	addr, data  [][2]int
	ctrl, rmw   [][2]int
	constraints []Constraint
	ctrlTaint   []int
	backJumps   int
	steps       int
	// defLog lists the registers assigned, in order; marks[pc] records
	// len(events) and len(defLog) when the run last reached label pc.
	defLog []string
	marks  map[int][2]int
	// host is a host thread's streams, CUDA events and tasks so far.
	host *hostState
	// guardHeld is pc+1 when the guard of instruction pc was just found
	// true (0 otherwise): the instruction then executes.
	guardHeld int
	// failed is set once the run went round an await after a failed
	// iteration that the spin reduction leaves out: its runs are probes;
	// failedEvents lists the events of those iterations.
	failed       bool
	failedEvents []int
	failedIters  int
}

func (s *state) clone() *state {
	regs := make(map[string]*Sym, len(s.regs))
	for k, v := range s.regs {
		regs[k] = v
	}
	var marks map[int][2]int
	if s.marks != nil {
		marks = make(map[int][2]int, len(s.marks))
		for k, v := range s.marks {
			marks[k] = v
		}
	}
	return &state{
		pc: s.pc, regs: regs,
		events:      append([]Event(nil), s.events...),
		addr:        append([][2]int(nil), s.addr...),
		data:        append([][2]int(nil), s.data...),
		ctrl:        append([][2]int(nil), s.ctrl...),
		rmw:         append([][2]int(nil), s.rmw...),
		constraints: append([]Constraint(nil), s.constraints...),
		ctrlTaint:   append([]int(nil), s.ctrlTaint...),
		backJumps:   s.backJumps, steps: s.steps,
		defLog:       append([]string(nil), s.defLog...),
		marks:        marks,
		guardHeld:    s.guardHeld,
		failed:       s.failed,
		failedEvents: append([]int(nil), s.failedEvents...),
		failedIters:  s.failedIters,
		host:         s.host.clone(),
	}
}

// setReg assigns a register and logs the assignment.
func (s *state) setReg(name string, v *Sym) {
	s.regs[name] = v
	s.defLog = append(s.defLog, name)
}

// foldConstant evaluates v now when both its operands are constants, so
// that a register computed from constants is a constant, and an operation
// the values do not support (arithmetic on an address) is an error at the
// instruction.
func foldConstant(v *Sym, in *litmus.Instr) (*Sym, error) {
	if !v.a.IsConst() || !v.b.IsConst() {
		return v, nil
	}
	c, _, err := v.eval(nil)
	if err != nil {
		return nil, errAt(in.Pos, "%v (in %q)", err, in.Text)
	}
	return constSym(c), nil
}

// liveAt reports whether register r is live on entry to instruction i of
// the thread.
func (e *explorer) liveAt(i int, r string) bool {
	if e.live == nil {
		e.live = liveRegisters(e.th)
	}
	return e.live[i][r]
}

// errAt builds an enumeration error at a position.
func errAt(pos source.Pos, format string, args ...any) error {
	var l source.List
	l.Add(pos, format, args...)
	return l
}

func newExplorer(t *litmus.Test, th *litmus.Thread, l *Layout, unroll int, addrValues []Value) *explorer {
	// The sizing (grow) is the caller's, shared by the test's threads.
	e := &explorer{t: t, th: th, layout: l, unroll: unroll, maxSteps: DefaultMaxSteps, addrValues: addrValues}
	for i, in := range th.Instrs {
		if in.Op == litmus.OpLabel {
			if e.labels == nil {
				// Made for the first label: most threads have none, and
				// a lookup in a nil map finds nothing.
				e.labels = map[string]int{}
			}
			e.labels[in.Label] = i
		}
	}
	return e
}

// copiedRoots finds the roots of the addresses asynchronous copies and
// wgmma access, and whether one is reached through a register whose
// addresses are not known statically (then all are): once per test, not
// once per thread, which made a test of many threads take time in the
// square of their number. A register that only mapa or mov ever set to a
// named address (registerRoots) reaches those addresses' roots only: a
// TMA load into another CTA's shared memory through mapa is how a
// cluster's copies are written.
func copiedRoots(t *litmus.Test, l *Layout) (map[int]bool, bool) {
	copied, all := map[int]bool{}, false
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Op != litmus.OpCopy && in.Op != litmus.OpWgmma {
				continue
			}
			for _, o := range []litmus.Operand{in.Addr, in.Mem2} {
				if o.Kind == litmus.OperandReg {
					roots, ok := registerRoots(t, th, l, o.Reg, map[string]bool{})
					if !ok {
						all = true
					}
					for r := range roots {
						copied[r] = true
					}
				} else if a, ok := l.Addr(o.Addr); ok {
					copied[l.Addrs[a].Root] = true
				}
			}
		}
	}
	return copied, all
}

// start builds the state a run starts from: the initial registers, and
// the host state or thread start event of a host thread or kernel thread.
func (e *explorer) start() (*state, error) {
	s, err := e.initial()
	if err != nil {
		return nil, err
	}
	e.hostStart(s)
	return s, nil
}

// initial returns the state before the thread's first instruction: its
// registers as the init block sets them.
func (e *explorer) initial() (*state, error) {
	s := &state{regs: map[string]*Sym{}, events: make([]Event, 0, eventsHint(e.th))}
	for _, ri := range e.t.RegInits {
		if ri.Thread != e.th.Index {
			continue
		}
		if ri.Addr != "" {
			a, ok := e.layout.Addr(ri.Addr)
			if !ok {
				return nil, errAt(ri.Pos, "register %s is initialised to unknown address %s", ri.Reg, ri.Addr)
			}
			s.regs[ri.Reg] = constSym(AddrValue(a))
		} else {
			s.regs[ri.Reg] = constSym(Int(ri.Value))
		}
	}
	return s, nil
}

// eventsHint is how many events a run of th makes when it executes each
// instruction once: an atom a read and a write, a register operation or a
// jump none, anything else (typically) one. The run's events are made
// that many to start with, not grown by doubling: a run keeps them.
func eventsHint(th *litmus.Thread) int {
	n := 0
	for _, in := range th.Instrs {
		switch in.Op {
		case litmus.OpAtom:
			n += 2
		case litmus.OpMov, litmus.OpArith, litmus.OpSetp, litmus.OpBranch, litmus.OpGoto, litmus.OpLabel:
		default:
			n++
		}
	}
	return n
}

// operand returns the symbolic value of an operand; an unwritten register
// is 0, as in herd.
func (e *explorer) operand(s *state, o litmus.Operand) *Sym {
	switch o.Kind {
	case litmus.OperandReg:
		if v, ok := s.regs[o.Reg]; ok {
			return v
		}
		return constSym(Int(0))
	case litmus.OperandAddr:
		a, _ := e.layout.Addr(o.Addr)
		return constSym(AddrValue(a))
	case litmus.OperandImm:
		return constSym(Int(o.Imm))
	}
	return nil
}

// addEvent appends an event, recording the control dependencies of the
// current position, and returns its index.
func (s *state) addEvent(ev Event) int {
	idx := len(s.events)
	ev.Step = s.steps
	s.events = append(s.events, ev)
	for _, r := range s.ctrlTaint {
		s.ctrl = append(s.ctrl, [2]int{r, idx})
	}
	return idx
}

func deps(kind *[][2]int, from []int, to int) {
	for _, r := range from {
		*kind = append(*kind, [2]int{r, to})
	}
}

// finish emits the run that ends in state s.
func (e *explorer) finish(s *state, status RunStatus) error {
	if status == Finished {
		if err := e.hostFinish(s); err != nil {
			return err
		}
	}
	return e.emit(e.run(s, status))
}

// run returns the run that ends in state s.
func (e *explorer) run(s *state, status RunStatus) *Run {
	return &Run{Thread: e.th.Index, Events: s.events, Status: status, Regs: s.regs,
		Constraints: s.constraints, Addr: s.addr, Data: s.data, Ctrl: s.ctrl, RMW: s.rmw, Host: s.host.run(), Probe: s.failed, Failed: s.failedEvents, FailedIters: s.failedIters}
}

// branch continues the exploration in both directions of a condition that
// depends on read values, recording the assumption each way makes.
func (e *explorer) branch(s *state, cond *Sym, pos source.Pos, then func(*state, bool) error) error {
	if cond.IsConst() {
		return then(s, cond.val.N != 0)
	}
	for _, want := range []bool{true, false} {
		c := s.clone()
		c.constraints = append(c.constraints, Constraint{Cond: cond, Want: want, Pos: pos})
		if err := then(c, want); err != nil {
			return err
		}
	}
	return nil
}

// explore runs the thread from state s to the end of every path.
func (e *explorer) explore(s *state) error {
	for {
		if s.pc >= len(e.th.Instrs) {
			return e.finish(s, Finished)
		}
		s.steps++
		if s.steps > e.maxSteps {
			return errAt(e.th.Pos, "thread %s executes more than %d instructions in one run; raise the limit with -max-instructions", e.th.Name, e.maxSteps)
		}
		if err := e.budget.step(); err != nil {
			return err
		}
		in := e.th.Instrs[s.pc]
		if in.Guard.Kind != litmus.OperandNone {
			if s.guardHeld != s.pc+1 {
				return e.guard(s, in)
			}
			s.guardHeld = 0
		}
		switch in.Op {
		case litmus.OpLabel:
			if s.marks == nil {
				// Made at the first label: most threads have none.
				s.marks = map[int][2]int{}
			}
			s.marks[s.pc] = [2]int{len(s.events), len(s.defLog)}
			s.pc++
		case litmus.OpMov:
			v := e.operand(s, in.A)
			if in.Type.Name != "" {
				v = convSym(v, 0, in.Type.Size, in.Type.Signed)
			}
			s.setReg(in.Dst, v)
			s.pc++
		case litmus.OpArith:
			a, b := e.operand(s, in.A), e.operand(s, in.B)
			v, err := foldConstant(&Sym{kind: symArith, op: in.ArithOp, a: a, b: b, instr: in.Text, size: in.Type.Size, signed: in.Type.Signed}, in)
			if err != nil {
				return err
			}
			s.setReg(in.Dst, v)
			s.pc++
		case litmus.OpSetp:
			a, b := e.operand(s, in.A), e.operand(s, in.B)
			v, err := foldConstant(&Sym{kind: symCmp, op: in.Cmp, a: a, b: b}, in)
			if err != nil {
				return err
			}
			s.setReg(in.Dst, v)
			s.pc++
		case litmus.OpGoto:
			if err := e.jump(s, in); err != nil || s.pc < 0 {
				return err
			}
		case litmus.OpBranch:
			a, b := e.operand(s, in.A), e.operand(s, in.B)
			cond := &Sym{kind: symCmp, op: in.Cmp, a: a, b: b}
			if a.IsConst() && b.IsConst() {
				v, _, _ := cond.eval(nil)
				cond = constSym(v)
			}
			taint := cond.reads(nil)
			return e.branch(s, cond, in.Pos, func(c *state, taken bool) error {
				c.ctrlTaint = union(c.ctrlTaint, taint)
				if !taken {
					c.pc++
				} else if err := e.jump(c, in); err != nil || c.pc < 0 {
					return err
				}
				return e.explore(c)
			})
		case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
			return e.withAddress(s, in, in.Addr, func(c *state, pl place, ataint []int) error {
				if err := e.hostReaches(in, pl); err != nil {
					return err
				}
				return e.memory(c, in, pl, ataint)
			})
		case litmus.OpFence, litmus.OpMBarInitFence:
			s.addEvent(newEvent(KindFence, e.th.Index, in))
			s.pc++
		case litmus.OpProxyFence:
			s.addEvent(newEvent(KindProxyFence, e.th.Index, in))
			s.pc++
		case litmus.OpBarrier:
			return e.barrier(s, in)
		default:
			return e.asyncInstr(s, in)
		}
	}
}

// guard decides the guard predicate of instruction in ("@p" or "@!p"):
// when it holds the instruction executes, otherwise the thread goes on
// with the next one. Like a branch, a guard on a value read splits the
// run, and what follows depends on the reads through control.
func (e *explorer) guard(s *state, in *litmus.Instr) error {
	op := "ne"
	if in.GuardNeg {
		op = "eq"
	}
	g := e.operand(s, in.Guard)
	cond := &Sym{kind: symCmp, op: op, a: g, b: constSym(Int(0))}
	if g.IsConst() {
		v, _, err := cond.eval(nil)
		if err != nil {
			return errAt(in.Pos, "%v (in %q)", err, in.Text)
		}
		cond = constSym(v)
	}
	taint := cond.reads(nil)
	return e.branch(s, cond, in.Pos, func(c *state, holds bool) error {
		c.ctrlTaint = union(c.ctrlTaint, taint)
		if holds {
			c.guardHeld = c.pc + 1
		} else {
			c.pc++
		}
		return e.explore(c)
	})
}

// jump moves to a branch target. A backward jump that ends a failed
// iteration of an await — one that wrote nothing, met no barrier, issued
// nothing, and whose register assignments are all dead at the loop head —
// makes a Spinning run: the thread may repeat that iteration for ever
// (kept when its polls see the last writes and still fail). With the
// spin reduction the run is then left out: removing that iteration's
// events gives an execution of the same program with the same final state,
// which the run exiting the loop earlier already enumerates, and removing
// events can only remove violations of checks that grow with the
// relations (rules.Program.EventMonotone). Otherwise the run goes round
// the loop again, and is cut past the unrolling bound.
func (e *explorer) jump(s *state, in *litmus.Instr) error {
	target, ok := e.labels[in.Label]
	if !ok {
		return errAt(in.Pos, "unknown label %s", in.Label)
	}
	if target <= s.pc {
		if e.failedSpin(s, target) {
			e.awaits++
			if err := e.spin(s, target, in); err != nil {
				return err
			}
			if e.spinReduction {
				e.spins++
				if !e.probes || e.probeDepth > 0 && s.failedIters >= e.probeDepth {
					s.pc = -1
					return nil
				}
				s.failedIters++
				// The run goes on as the unrolled search's would, for
				// the flags its failed iterations may raise.
				s.failed = true
				s.addFailed(s.marks[target][0])
			}
		}
		s.backJumps++
		if s.backJumps > e.unroll {
			if s.failed {
				e.probeCut++
			} else {
				e.cut++
			}
			s.pc = -1
			return nil
		}
	}
	s.pc = target
	return nil
}

// addFailed lists the events from the event from on as a failed
// iteration's. failedEvents stays sorted, each event once: the failed
// iteration of a read-only loop around an await holds the await's failed
// iterations, listed already.
func (s *state) addFailed(from int) {
	n := len(s.failedEvents)
	for n > 0 && s.failedEvents[n-1] >= from {
		n--
	}
	s.failedEvents = s.failedEvents[:n]
	for i := from; i < len(s.events); i++ {
		s.failedEvents = append(s.failedEvents, i)
	}
}

// spin emits the Spinning run of a failed await iteration from the last
// visit of the loop head target to the branch in. Without plain polls
// (Options.PlainSpins), only an iteration whose reads are all mbarrier
// waits spins: judging plain reads needs the model's coherence order.
func (e *explorer) spin(s *state, target int, in *litmus.Instr) error {
	polls := e.polls(s, target)
	if !e.plainSpins {
		if len(polls) == 0 {
			return nil
		}
		for _, p := range polls {
			if ev := &s.events[p]; ev.Kind != KindRead || !ev.isMBarWait() {
				return nil
			}
		}
	}
	r := e.run(s.clone(), Spinning)
	r.Polls, r.WaitAt = polls, in
	return e.emit(r)
}

// place is where a memory operand points: an address and the CTA (a
// CTAKey) whose copy of it the access reaches.
type place struct{ addr, cta int }

// withAddress resolves a memory operand of an access. An address held in
// a register that came from memory is unknown until reads-from is chosen,
// so the run branches over every address value the program can store.
func (e *explorer) withAddress(s *state, in *litmus.Instr, op litmus.Operand, then func(*state, place, []int) error) error {
	own := CTAKey(e.th)
	switch op.Kind {
	case litmus.OperandAddr:
		a, ok := e.layout.Addr(op.Addr)
		if !ok {
			return errAt(in.PosOf(op), "unknown address %s", op.Addr)
		}
		return then(s, place{a, own}, nil)
	case litmus.OperandReg:
		v := e.operand(s, op)
		if v.IsConst() {
			if !v.val.IsAddr {
				return errAt(in.Pos, "register %s holds %s, not an address, in %q", op.Reg, v.val.format(e.layout.AddrNames()), in.Text)
			}
			return then(s, e.placeOf(v.val), nil)
		}
		taint := v.reads(nil)
		if len(e.addrValues) == 0 {
			e.noAddr++
			if e.noAddrAt == nil {
				e.noAddrAt = in
			}
		}
		for _, a := range e.addrValues {
			c := s.clone()
			c.constraints = append(c.constraints, Constraint{Cond: &Sym{kind: symCmp, op: "eq", a: v, b: constSym(a)}, Want: true, Pos: in.Pos})
			if err := then(c, e.placeOf(a), taint); err != nil {
				return err
			}
		}
		return nil
	}
	return errAt(in.Pos, "instruction %q has no memory operand", in.Text)
}

// memEvent returns a memory event of instruction in at place pl, writing
// sym (nil for reads).
func (e *explorer) memEvent(k EventKind, in *litmus.Instr, pl place, sym *Sym) Event {
	ev := newEvent(k, e.th.Index, in)
	ev.Addr, ev.Loc, ev.Sym = pl.addr, e.layout.Loc(pl.addr, pl.cta), sym
	e.layout.wholeLocation(&ev)
	return ev
}

// placeOf returns where an address value points for this thread.
func (e *explorer) placeOf(v Value) place {
	if v.Remote > 0 {
		return place{int(v.N), v.Remote - 1}
	}
	return place{int(v.N), CTAKey(e.th)}
}

// memory executes a load, store, atom or red at place pl: one memory
// operation per element of the instruction (8.2.4, 8.2.5).
func (e *explorer) memory(s *state, in *litmus.Instr, pl place, ataint []int) error {
	if in.Multimem {
		return e.multimem(s, in, pl, ataint)
	}
	loc := e.layout.Loc(pl.addr, pl.cta)
	if in.Addr.Kind == litmus.OperandReg {
		// Where an access through a register goes is known only now:
		// Prepare explores again if the layout must grow for it.
		if err := e.layout.reached(in, loc, e.grow); err != nil {
			return err
		}
	}
	typ := in.Type
	if typ.Size == 0 {
		typ = litmus.DefaultType()
	}
	var elBuf [4]litmus.Element
	els := in.AppendElements(elBuf[:0])
	switch in.Op {
	case litmus.OpStore:
		for k, el := range els {
			v := e.operand(s, el.Val)
			ev := e.memEvent(KindWrite, in, pl, convSym(v, el.Shift, el.Size, typ.Signed))
			setBytes(&ev, k, int(el.Off), el.Size, typ.Signed)
			w := s.addEvent(ev)
			deps(&s.addr, ataint, w)
			deps(&s.data, v.reads(nil), w)
		}
		s.pc++
		return e.explore(s)
	case litmus.OpLoad:
		// vals holds each element's value, the two halves of a packed
		// value joined into one register value.
		var vals []*Sym
		for k, el := range els {
			val := e.readOp(s, in, pl, k, el, typ.Signed, ataint)
			if typ.Packed > 0 && k%typ.Packed > 0 {
				j := vals[len(vals)-1]
				j.parts, j.shifts, j.widths = append(j.parts, val), append(j.shifts, el.Shift), append(j.widths, el.Size)
				continue
			}
			if typ.Packed > 0 {
				val = &Sym{kind: symJoin, parts: []*Sym{val}, shifts: []int{el.Shift}, widths: []int{el.Size}, size: typ.RegSize()}
			}
			vals = append(vals, val)
		}
		if in.Filter != nil {
			want := constSym(Int(truncate(*in.Filter, typ.RegSize(), typ.Signed)))
			s.constraints = append(s.constraints, Constraint{Cond: &Sym{kind: symCmp, op: "eq", a: vals[0], b: want}, Want: true, Pos: in.Pos})
		}
		for k, r := range in.WrittenRegs() {
			if k < len(vals) {
				s.setReg(r, vals[k])
			}
		}
		s.pc++
		return e.explore(s)
	}
	return e.atomic(s, in, pl, ataint, typ)
}

// setBytes gives a memory event the bytes of element k of its
// instruction: [off, off+size) of its location.
func setBytes(ev *Event, k, off, size int, signed bool) {
	ev.Elem, ev.Off, ev.Size, ev.OpOff, ev.OpSize, ev.Signed = k, off, size, off, size, signed
}

// readOp adds the read of element k at place pl: one read event, or one
// per segment of the location when the element spans several (bytes.go).
// It returns the value read.
func (e *explorer) readOp(s *state, in *litmus.Instr, pl place, k int, el litmus.Element, signed bool, ataint []int) *Sym {
	ev := e.memEvent(KindRead, in, pl, nil)
	setBytes(&ev, k, int(el.Off), el.Size, signed)
	segs := e.layout.Locs[ev.Loc].segmentsIn(ev.Off, ev.Size)
	if len(segs) <= 1 {
		r := s.addEvent(ev)
		deps(&s.addr, ataint, r)
		return &Sym{kind: symRead, read: r}
	}
	join := &Sym{kind: symJoin, size: el.Size, signed: signed}
	for _, seg := range segs {
		piece := ev
		piece.Off, piece.Size = seg.Off, seg.Size
		r := s.addEvent(piece)
		deps(&s.addr, ataint, r)
		join.parts = append(join.parts, &Sym{kind: symRead, read: r})
		join.shifts = append(join.shifts, 8*(seg.Off-ev.Off))
		join.widths = append(join.widths, seg.Size)
	}
	return join
}

// atomic executes an atom or red: read, then (unless a cas fails) write.
func (e *explorer) atomic(s *state, in *litmus.Instr, pl place, ataint []int, typ litmus.DataType) error {
	var elBuf [4]litmus.Element
	el := in.AppendElements(elBuf[:0])[0]
	first := len(s.events)
	old := e.readOp(s, in, pl, 0, el, typ.Signed, ataint)
	pieces := make([]int, 0, 1)
	for r := first; r < len(s.events); r++ {
		pieces = append(pieces, r)
	}
	if in.Op == litmus.OpAtom && in.Dst != "" {
		s.setReg(in.Dst, old)
	}
	op1, op2 := e.operand(s, in.Src), e.operand(s, in.Src2)
	cut := func(v *Sym) *Sym {
		if v == nil {
			return nil
		}
		return convSym(v, 0, typ.Size, typ.Signed)
	}
	write := func(c *state) error {
		nv := &Sym{kind: symAtom, op: in.AtomOp, a: old, b: cut(op1), c: cut(op2), instr: in.Text, size: typ.Size, signed: typ.Signed}
		ev := e.memEvent(KindWrite, in, pl, nv)
		setBytes(&ev, 0, int(el.Off), el.Size, typ.Signed)
		w := c.addEvent(ev)
		deps(&c.addr, ataint, w)
		var operands []int
		if op1 != nil {
			operands = op1.reads(operands)
		}
		if op2 != nil {
			operands = op2.reads(operands)
		}
		deps(&c.data, operands, w)
		// The dependency inside the instruction (8.10.4): the value an
		// atom or red writes is computed from the value it read, except
		// exch and cas, which write an operand; whether a cas writes at
		// all depends on the value it read, a control dependency.
		switch in.AtomOp {
		case "exch":
		case "cas":
			deps(&c.ctrl, pieces, w)
		default:
			deps(&c.data, pieces, w)
		}
		for _, r := range pieces {
			c.rmw = append(c.rmw, [2]int{r, w})
		}
		c.pc++
		return e.explore(c)
	}
	if in.AtomOp != "cas" {
		return write(s)
	}
	return e.branch(s, &Sym{kind: symCmp, op: "eq", a: old, b: cut(op1)}, in.Pos, func(c *state, succeeded bool) error {
		if succeeded {
			return write(c)
		}
		c.pc++
		return e.explore(c)
	})
}

// barrier records an arrival; a bar.sync either completes (the thread goes
// on) or never does (the run ends blocked there).
func (e *explorer) barrier(s *state, in *litmus.Instr) error {
	ev := newEvent(KindBarrier, e.th.Index, in)
	ev.BarSync = in.BarKind == litmus.BarSync
	ev.BarInstSym, ev.BarIDSym = e.operand(s, in.Instance), e.operand(s, in.BarID)
	if ev.BarInstSym == nil {
		ev.BarInstSym = constSym(Int(0))
	}
	if ev.BarIDSym == nil {
		ev.BarIDSym = constSym(Int(0))
	}
	if in.Count.Kind != litmus.OperandNone {
		ev.BarCountSym = e.operand(s, in.Count)
	}
	if in.BarRed != litmus.BarRedNone {
		ev.BarPredSym = e.operand(s, in.Pred)
	}
	idx := s.addEvent(ev)
	s.pc++
	if ev.BarSync {
		if err := e.blocked(s); err != nil {
			return err
		}
	}
	if in.BarRed != litmus.BarRedNone {
		// The reduction's result is known once the barrier completes: it
		// is the value of the barrier event, chosen by the enumeration and
		// checked against the group the barrier completes with, like the
		// value of a read against the write it reads.
		s.setReg(in.Dst, &Sym{kind: symRead, read: idx})
	}
	return e.explore(s)
}

// blocked ends a copy of s waiting forever at the barrier (or host call)
// just recorded.
func (e *explorer) blocked(s *state) error {
	r := e.run(s.clone(), Blocked)
	r.Done = true
	for _, in := range e.th.Instrs[s.pc:] {
		if in.Op != litmus.OpLabel {
			r.Done = false
		}
	}
	return e.emit(r)
}

func union(a, b []int) []int {
	if len(b) == 0 {
		return a
	}
	out := append([]int(nil), a...)
	for _, x := range b {
		found := false
		for _, y := range out {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// polls lists the reads and host queries of the iteration from the last
// visit of the loop head target to now (indices into s.events).
func (e *explorer) polls(s *state, target int) []int {
	var out []int
	for i := s.marks[target][0]; i < len(s.events); i++ {
		ev := &s.events[i]
		if ev.Kind == KindRead && !ev.Async || ev.Kind == KindAPI && ev.Instr.API != nil && ev.Instr.API.Fn.Queries() {
			out = append(out, i)
		}
	}
	return out
}

// failedSpin reports whether the iteration from the last visit of the loop
// head target to now has no effect that outlives it.
func (e *explorer) failedSpin(s *state, target int) bool {
	m, ok := s.marks[target]
	if !ok {
		return false
	}
	for _, ev := range s.events[m[0]:] {
		// Writes, barriers and asynchronous operations have effects that
		// outlive the iteration.
		if ev.Kind == KindWrite || ev.Kind == KindBarrier || ev.Kind == KindIssue || ev.Async {
			return false
		}
		if ev.Kind == KindRead && (e.copiedAll || e.copied[e.layout.Addrs[ev.Addr].Root]) {
			return false
		}
	}
	for _, r := range s.defLog[m[1]:] {
		if e.liveAt(target, r) {
			return false
		}
	}
	return true
}
