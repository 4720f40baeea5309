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
	// Blocked runs wait forever at their last event, a bar.sync whose
	// barrier never completes.
	Blocked
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
}

// explorer enumerates the runs of one thread.
type explorer struct {
	t      *litmus.Test
	th     *litmus.Thread
	layout *Layout
	unroll int
	labels map[string]int
	// addrValues are the addresses a register loaded from memory may hold.
	addrValues []int
	emit       func(*Run) error
	cut        int
	maxSteps   int
	// live[i] is the set of registers live on entry to instruction i.
	live []map[string]bool
	// spins counts failed spin-loop iterations left out (see jump).
	spins         int
	spinReduction bool
	// noAddr counts the paths abandoned because a register loaded from
	// memory is used as an address and no value the test stores is one;
	// noAddrAt is the first such access.
	noAddr   int
	noAddrAt *litmus.Instr
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
}

func (s *state) clone() *state {
	regs := make(map[string]*Sym, len(s.regs))
	for k, v := range s.regs {
		regs[k] = v
	}
	marks := make(map[int][2]int, len(s.marks))
	for k, v := range s.marks {
		marks[k] = v
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
		defLog: append([]string(nil), s.defLog...),
		marks:  marks,
	}
}

// setReg assigns a register and logs the assignment.
func (s *state) setReg(name string, v *Sym) {
	s.regs[name] = v
	s.defLog = append(s.defLog, name)
}

// errAt builds an enumeration error at a position.
func errAt(pos source.Pos, format string, args ...any) error {
	var l source.List
	l.Add(pos, format, args...)
	return l
}

func newExplorer(t *litmus.Test, th *litmus.Thread, l *Layout, unroll int, addrValues []int) *explorer {
	e := &explorer{t: t, th: th, layout: l, unroll: unroll, labels: map[string]int{}, maxSteps: 100000, addrValues: addrValues,
		live: liveRegisters(th)}
	for i, in := range th.Instrs {
		if in.Op == litmus.OpLabel {
			e.labels[in.Label] = i
		}
	}
	return e
}

// start builds the initial state from the init block's register values.
func (e *explorer) start() (*state, error) {
	s := &state{regs: map[string]*Sym{}, marks: map[int][2]int{}}
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
	return e.emit(&Run{Thread: e.th.Index, Events: s.events, Status: status, Regs: s.regs,
		Constraints: s.constraints, Addr: s.addr, Data: s.data, Ctrl: s.ctrl, RMW: s.rmw})
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
			return errAt(e.th.Pos, "thread %s executes more than %d instructions in one run", e.th.Name, e.maxSteps)
		}
		in := e.th.Instrs[s.pc]
		switch in.Op {
		case litmus.OpLabel:
			s.marks[s.pc] = [2]int{len(s.events), len(s.defLog)}
			s.pc++
		case litmus.OpMov:
			s.setReg(in.Dst, e.operand(s, in.A))
			s.pc++
		case litmus.OpArith:
			a, b := e.operand(s, in.A), e.operand(s, in.B)
			v := &Sym{kind: symArith, op: in.ArithOp, a: a, b: b, instr: in.Text}
			if a.IsConst() && b.IsConst() {
				c, err := arithValue(in.ArithOp, a.val, b.val)
				if err != nil {
					return errAt(in.Pos, "%v (in %q)", err, in.Text)
				}
				v = constSym(c)
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
			return e.withAddress(s, in, func(c *state, a int, ataint []int) error {
				return e.memory(c, in, a, ataint)
			})
		case litmus.OpFence:
			s.addEvent(Event{Kind: KindFence, Thread: e.th.Index, Instr: in})
			s.pc++
		case litmus.OpProxyFence:
			s.addEvent(Event{Kind: KindProxyFence, Thread: e.th.Index, Instr: in})
			s.pc++
		case litmus.OpBarrier:
			return e.barrier(s, in)
		default:
			return errAt(in.Pos, "instruction %q cannot be executed", in.Text)
		}
	}
}

// jump moves to a branch target. A backward jump ends the run (pc = -1)
// in two cases. If the iteration just finished is a failed spin-loop
// iteration — it wrote nothing, met no barrier, and every register it
// assigned is dead at the loop head — the run is left out: removing that
// iteration's events gives an execution of the same program with the same
// final state, which the run exiting the loop earlier already enumerates,
// and removing events can only remove violations of checks that grow with
// the relations (every check of spec.dl). Otherwise the run is cut past the
// unrolling bound.
func (e *explorer) jump(s *state, in *litmus.Instr) error {
	target, ok := e.labels[in.Label]
	if !ok {
		return errAt(in.Pos, "unknown label %s", in.Label)
	}
	if target <= s.pc {
		if e.spinReduction && e.failedSpin(s, target) {
			e.spins++
			s.pc = -1
			return nil
		}
		s.backJumps++
		if s.backJumps > e.unroll {
			e.cut++
			s.pc = -1
			return nil
		}
	}
	s.pc = target
	return nil
}

// withAddress resolves the memory operand of an access. An address held in
// a register that came from memory is unknown until reads-from is chosen,
// so the run branches over every address value the program can store.
func (e *explorer) withAddress(s *state, in *litmus.Instr, then func(*state, int, []int) error) error {
	switch in.Addr.Kind {
	case litmus.OperandAddr:
		a, ok := e.layout.Addr(in.Addr.Addr)
		if !ok {
			return errAt(in.Addr.Pos, "unknown address %s", in.Addr.Addr)
		}
		return then(s, a, nil)
	case litmus.OperandReg:
		v := e.operand(s, in.Addr)
		if v.IsConst() {
			if !v.val.IsAddr {
				return errAt(in.Pos, "register %s holds %d, not an address, in %q", in.Addr.Reg, v.val.N, in.Text)
			}
			return then(s, int(v.val.N), nil)
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
			c.constraints = append(c.constraints, Constraint{Cond: &Sym{kind: symCmp, op: "eq", a: v, b: constSym(AddrValue(a))}, Want: true, Pos: in.Pos})
			if err := then(c, a, taint); err != nil {
				return err
			}
		}
		return nil
	}
	return errAt(in.Pos, "instruction %q has no memory operand", in.Text)
}

// memory executes a load, store, atom or red on address a.
func (e *explorer) memory(s *state, in *litmus.Instr, a int, ataint []int) error {
	loc := e.layout.Loc(a, CTAKey(e.th))
	th := e.th.Index
	switch in.Op {
	case litmus.OpStore:
		v := e.operand(s, in.Src)
		w := s.addEvent(Event{Kind: KindWrite, Thread: th, Instr: in, Addr: a, Loc: loc, Sym: v})
		deps(&s.addr, ataint, w)
		deps(&s.data, v.reads(nil), w)
		s.pc++
		return e.explore(s)
	case litmus.OpLoad:
		r := s.addEvent(Event{Kind: KindRead, Thread: th, Instr: in, Addr: a, Loc: loc})
		deps(&s.addr, ataint, r)
		val := &Sym{kind: symRead, read: r}
		if in.Filter != nil {
			s.constraints = append(s.constraints, Constraint{Cond: &Sym{kind: symCmp, op: "eq", a: val, b: constSym(Int(*in.Filter))}, Want: true, Pos: in.Pos})
		}
		if in.Dst != "" {
			s.setReg(in.Dst, val)
		}
		s.pc++
		return e.explore(s)
	}
	// atom and red: read, then (unless a cas fails) write.
	r := s.addEvent(Event{Kind: KindRead, Thread: th, Instr: in, Addr: a, Loc: loc})
	deps(&s.addr, ataint, r)
	old := &Sym{kind: symRead, read: r}
	if in.Op == litmus.OpAtom && in.Dst != "" {
		s.setReg(in.Dst, old)
	}
	op1, op2 := e.operand(s, in.Src), e.operand(s, in.Src2)
	write := func(c *state) error {
		nv := &Sym{kind: symAtom, op: in.AtomOp, a: old, b: op1, c: op2, instr: in.Text}
		w := len(c.events)
		c.events = append(c.events, Event{Kind: KindWrite, Thread: th, Instr: in, Addr: a, Loc: loc, Sym: nv, Step: c.steps})
		for _, cr := range c.ctrlTaint {
			c.ctrl = append(c.ctrl, [2]int{cr, w})
		}
		deps(&c.addr, ataint, w)
		var operands []int
		if op1 != nil {
			operands = op1.reads(operands)
		}
		if op2 != nil {
			operands = op2.reads(operands)
		}
		deps(&c.data, operands, w)
		c.rmw = append(c.rmw, [2]int{r, w})
		c.pc++
		return e.explore(c)
	}
	if in.AtomOp != "cas" {
		return write(s)
	}
	return e.branch(s, &Sym{kind: symCmp, op: "eq", a: old, b: op1}, in.Pos, func(c *state, succeeded bool) error {
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
	ev := Event{Kind: KindBarrier, Thread: e.th.Index, Instr: in, BarSync: in.BarKind == litmus.BarSync,
		BarInstSym: e.operand(s, in.Instance), BarIDSym: e.operand(s, in.BarID)}
	if ev.BarInstSym == nil {
		ev.BarInstSym = constSym(Int(0))
	}
	if ev.BarIDSym == nil {
		ev.BarIDSym = constSym(Int(0))
	}
	if in.Count.Kind != litmus.OperandNone {
		ev.BarCountSym = e.operand(s, in.Count)
	}
	s.addEvent(ev)
	s.pc++
	if ev.BarSync {
		if err := e.finish(s.clone(), Blocked); err != nil {
			return err
		}
	}
	return e.explore(s)
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

// failedSpin reports whether the iteration from the last visit of the loop
// head target to now has no effect that outlives it.
func (e *explorer) failedSpin(s *state, target int) bool {
	m, ok := s.marks[target]
	if !ok {
		return false
	}
	for _, ev := range s.events[m[0]:] {
		if ev.Kind == KindWrite || ev.Kind == KindBarrier {
			return false
		}
	}
	for _, r := range s.defLog[m[1]:] {
		if e.live[target][r] {
			return false
		}
	}
	return true
}
