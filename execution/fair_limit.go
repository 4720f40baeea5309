package execution

import (
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file shows, for a program of the fragment that accesses several
// locations and whose interleavings all end, that every fair execution
// the model allows ends too, or says why it cannot (docs/model.md, "Loops
// that write: termination under fair scheduling", "Several locations").
//
// The interleavings are not all the executions there: accesses to
// different locations need not take effect in one order. What every
// execution still has is a coherence order that is total on each
// location's writes (they are morally strong, 8.9.6), and, when it is
// fair, prefix-finite coherence and from-read (Lahav et al.). So an
// infinite fair execution has a *limit*: a point after which
//   - a location written finitely often is read only at its last write;
//   - a location written infinitely often is read only at values it is
//     written infinitely often;
//   - each thread that runs forever takes only steps of its own
//     transition system that read so, and writes only locations written
//     infinitely often: it stays in a strongly connected component of
//     those steps, whose writes give those values;
//   - each other thread has finished, along a path of its own.
// Every write of the execution lies on a thread's path: to its end, or
// into the component it stays in; each of those paths reads only values
// of such writes or the initial ones. ptxmm tries each possible limit (a
// last value or a set of values written for ever for each location, and
// which threads run forever) and each thread's paths as a greatest fixed
// point over the values that may be written, starting from every constant
// the program writes. If no limit survives, no fair execution runs
// forever. Besides coherence, only atomicity and sequential consistency
// per location are used: a thread reads no own write but its last one
// (limitEdge.own), the successor of a write is an atom's when only atoms
// write (entered, limitComponents.rmwRead), and in the limit a read reads
// a write made in the limit (possible's late), and a limit must be the end
// of a run with one location's accesses in order (fair_sequenced.go); every
// value written must be a
// constant or an atom's or red's update of a constant operand, so that
// the values are known in advance (closeValues).

// maxLimits bounds the limits limitsEnd tries.
const maxLimits = 1 << 16

// maxLimitValues bounds the values a location may hold for the limits to
// be tried, and maxValueSteps the search for them (closeValues).
const (
	maxLimitValues = 8
	maxValueSteps  = 1 << 14
)

// limitEdge is one step of a thread on its own: to its next local state,
// reading value rval (an index in the location's values) of location rloc
// and writing value wval of wloc (-1: no read, no write).
type limitEdge struct {
	to         int
	rloc, rval int
	wloc, wval int
	rmw        bool // the write is an atom's, made with its read
	// own is set when the value read is the thread's own last write of
	// the location, or its initial value when the thread has not written
	// it yet: a read that needs no other thread's write.
	own bool
}

// limitThread is one thread's transition system, its reads taking any
// value of their location: its local states (program counter, registers,
// and for each location the value of the thread's own last write to it,
// if any), numbered from the start (0), with their steps. The last own
// write is kept because sequential consistency per location (8.10.5)
// limits what the thread can read: a write of its own that comes later in
// program order never, nor an own write followed by another, nor the
// initial value once it has written the location; other threads' writes
// and its own last one always may be.
type limitThread struct {
	edges [][]limitEdge
	final []bool
	// ownLast holds, for each state and location, the index of the value
	// of the thread's own last write to it, or -1.
	ownLast [][]int64
	// pc holds each state's program counter, and once whether the
	// instruction there runs at most once (it lies on no cycle).
	pc   []int
	once []bool
}

// limitProgram is a program of the fragment read for its limits.
type limitProgram struct {
	p       *fairProgram
	values  [][]int64 // each location's possible values, the initial one first
	threads []limitThread
	// sequencedLeft is what is left of the bound on the states of the
	// runs with one location's accesses in order (sequenced), all limits
	// together: the state bound, once.
	sequencedLeft int
	// sequencedCut is set once a run went past that bound.
	sequencedCut bool
}

// locLimit is one location's part of a limit: written finitely often,
// ending with value last, or for ever with the values of the set often.
type locLimit struct {
	forever bool
	last    int
	often   uint64
}

// limitsEnd returns how many limits it ruled out and "" when no fair
// execution of p runs forever, and why that is not decided otherwise.
func (p *fairProgram) limitsEnd(maxStates int) (int, string) {
	l, why := p.limitProgram(maxStates)
	if why != "" {
		return 0, why
	}
	if len(p.t.Threads) > 16 {
		return 0, fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); it has %d threads, more than the 16 the limits decide", len(p.t.Threads))
	}
	var options [][]locLimit
	count := 1 << len(p.t.Threads)
	for k := range p.locs {
		var opts []locLimit
		n := len(l.values[k])
		for v := range n {
			opts = append(opts, locLimit{last: v})
		}
		for set := uint64(1); set < 1<<n; set++ {
			opts = append(opts, locLimit{forever: true, often: set})
		}
		options = append(options, opts)
		count *= len(opts)
		if count > maxLimits {
			return 0, fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent): there are more than %d limits of its executions to rule out", maxLimits)
		}
	}
	limit := make([]locLimit, len(p.locs))
	var witness string
	tried := 0
	var try func(k int) bool
	try = func(k int) bool {
		if k < len(limit) {
			for _, o := range options[k] {
				limit[k] = o
				if try(k + 1) {
					return true
				}
			}
			return false
		}
		for forever := 1; forever < 1<<len(p.t.Threads); forever++ {
			tried++
			if l.possible(limit, forever) {
				witness = l.describe(limit, forever)
				return true
			}
		}
		return false
	}
	if try(0) {
		why := "its interleavings all finish, but accesses to different locations need not interleave (PTX is not sequentially consistent), and coherence and fairness alone leave open an execution in which " + witness
		if l.sequencedCut {
			why += fmt.Sprintf(" (ruling it out with one location's accesses in order would take more than the %d states of the bound)", maxStates)
		}
		return 0, why
	}
	return tried, ""
}

// limitProgram builds each thread's transition system, or says why p is
// outside what the limits decide.
func (p *fairProgram) limitProgram(maxStates int) (*limitProgram, string) {
	l := &limitProgram{p: p, values: make([][]int64, len(p.locs)), sequencedLeft: maxStates}
	for k := range p.locs {
		l.values[k] = []int64{p.init[k]}
	}
	rmws := make([][]rmwWrite, len(p.locs))
	// computed holds the writes whose value comes from registers (st x,
	// r0): their values are found by a fixed point below.
	computed := map[*litmus.Instr]bool{}
	for i, th := range p.t.Threads {
		for j, in := range th.Instrs {
			if !isAccess(in) || in.Op == litmus.OpLoad {
				continue
			}
			k := p.loc[in.Addr.Addr]
			if rmwConstant(in) {
				rmws[k] = append(rmws[k], rmwWrite{in: in, once: !onCycle(th, p.labels[i], j)})
				continue
			}
			o, ok := writtenConstant(in)
			if !ok {
				computed[in] = true
				continue
			}
			if v := truncate(o.Imm, litmus.DefaultSize, true); !slices.Contains(l.values[k], v) {
				l.values[k] = append(l.values[k], v)
			}
		}
	}
	for k, vs := range l.values {
		if len(vs) > maxLimitValues {
			return nil, fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); %s may hold %d values, more than the %d the limits decide", p.locs[k], len(vs), maxLimitValues)
		}
	}
	// The values of the writes computed from registers: the least fixed
	// point of what those writes compute when every read returns a value
	// its location may hold. Values do not come out of thin air (8.10.4),
	// so each value an execution writes is made, in finitely many steps,
	// from constants and initial values (docs/model.md).
	for {
		for k := range p.locs {
			if why := l.closeValues(k, rmws[k]); why != "" {
				return nil, why
			}
		}
		l.threads = l.threads[:0]
		fresh := make([][]int64, len(p.locs))
		states := 0
		for i := range p.t.Threads {
			lt, err := l.explore(i, maxStates-states, computed, fresh)
			if err != nil {
				return nil, err.Error()
			}
			states += len(lt.edges)
			l.threads = append(l.threads, lt)
		}
		grew := false
		for k, vs := range fresh {
			for _, v := range vs {
				if slices.Contains(l.values[k], v) {
					continue
				}
				grew = true
				l.values[k] = append(l.values[k], v)
				if len(l.values[k]) > maxLimitValues {
					return nil, fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); %s may hold more than the %d values the limits decide (values its writes compute from registers, %d for instance)", p.locs[k], maxLimitValues, v)
				}
			}
		}
		if !grew {
			return l, ""
		}
	}
}

// rmwWrite is a read-modify-write of a location that computes what it
// writes from the value it reads and a constant (atom.add x, 1): once is
// set when it lies on no cycle of its thread, so that it runs at most
// once.
type rmwWrite struct {
	in   *litmus.Instr
	once bool
}

// rmwConstant reports whether in is an atom or red whose written value is
// computed from the value it reads and a constant operand (or none, as
// atom.inc may be written).
func rmwConstant(in *litmus.Instr) bool {
	if in.Op != litmus.OpAtom && in.Op != litmus.OpRed {
		return false
	}
	switch in.AtomOp {
	case "add", "sub", "inc", "dec", "and", "or", "xor", "min", "max":
		return in.Src.Kind == litmus.OperandImm || in.Src.Kind == litmus.OperandNone
	}
	return false
}

// closeValues adds to location k's values (its initial value and the
// constants written to it) every value its read-modify-writes of a
// constant operand can compute, or says why that is more than the limits
// decide. The argument holds for infinite executions: coherence orders
// k's writes totally, and in a fair execution every write has finitely
// many writes before it (Lahav et al.'s prefix-finiteness); each write is
// a constant's or a read-modify-write's, which reads the write just
// before it (8.10.3). So by induction along coherence, each value k holds
// is a constant or the initial value followed by read-modify-writes, each
// off every cycle at most once (it runs at most once); no_thin_air is not
// needed.
func (l *limitProgram) closeValues(k int, rmws []rmwWrite) string {
	if len(rmws) == 0 {
		return ""
	}
	if len(rmws) > 64 {
		return fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); %s has %d read-modify-writes, more than the 64 the limits decide", l.p.locs[k], len(rmws))
	}
	type node struct {
		v    int64
		used uint64 // the read-modify-writes off cycles applied
	}
	seen := map[node]bool{}
	var queue []node
	for _, v := range l.values[k] {
		seen[node{v, 0}] = true
		queue = append(queue, node{v, 0})
	}
	size, signed := litmus.DefaultSize, true
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for j, r := range rmws {
			if r.once && n.used>>j&1 != 0 {
				continue
			}
			op := Int(truncate(r.in.Src.Imm, size, signed))
			v, err := atomValue(r.in.AtomOp, Int(n.v), op, Int(0), r.in.Src.Kind != litmus.OperandNone, size, signed)
			if err != nil {
				return err.Error()
			}
			m := node{v.N, n.used}
			if r.once {
				m.used |= 1 << j
			}
			if seen[m] {
				continue
			}
			seen[m] = true
			queue = append(queue, m)
			if !slices.Contains(l.values[k], m.v) {
				l.values[k] = append(l.values[k], m.v)
				if len(l.values[k]) > maxLimitValues {
					return fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); %s may hold more than the %d values the limits decide (%q may write %d, a loop that counts, for instance)", l.p.locs[k], maxLimitValues, r.in.Text, m.v)
				}
			}
			if len(seen) > maxValueSteps {
				return fmt.Sprintf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); the values %s may hold take more than %d steps to find", l.p.locs[k], maxValueSteps)
			}
		}
	}
	return ""
}

// writtenConstant returns the operand whose value a write instruction
// writes, when that is a constant: st and atom.exch write their source,
// atom.cas its second one.
func writtenConstant(in *litmus.Instr) (litmus.Operand, bool) {
	o := in.Src
	switch {
	case in.Op == litmus.OpStore:
	case in.Op == litmus.OpAtom && in.AtomOp == "exch":
	case in.Op == litmus.OpAtom && in.AtomOp == "cas":
		o = in.Src2
	default:
		return o, false
	}
	return o, o.Kind == litmus.OperandImm
}

// explore builds thread i's transition system with at most max states.
// A local state is the thread's program counter and registers (as in a
// state vector) followed by, for each location, the index of the value of
// its own last write to it, or -1.
func (l *limitProgram) explore(i, max int, computed map[*litmus.Instr]bool, fresh [][]int64) (limitThread, error) {
	p := l.p
	th := p.t.Threads[i]
	b, width := p.base[i], 1+len(p.regs[i])
	start := p.start()
	var lt limitThread
	var locals []fairState
	var index stateIndex
	add := func(s fairState) int {
		j, fresh := index.number(s)
		if fresh {
			locals = append(locals, s)
			lt.edges = append(lt.edges, nil)
			lt.final = append(lt.final, s[0] >= int64(len(th.Instrs)))
			lt.ownLast = append(lt.ownLast, s[width:])
			lt.pc = append(lt.pc, int(s[0]))
			lt.once = append(lt.once, s[0] < int64(len(th.Instrs)) && !onCycle(th, p.labels[i], int(s[0])))
		}
		return j
	}
	first := append(fairState(nil), start[b:b+width]...)
	for range p.locs {
		first = append(first, -1)
	}
	add(first)
	full := append(fairState(nil), start...)
	for at := 0; at < len(locals); at++ {
		if lt.final[at] {
			continue
		}
		copy(full[b:], locals[at][:width])
		ownLast := locals[at][width:]
		in := th.Instrs[locals[at][0]]
		loc := -1 // the location accessed, unless a guard skips the access
		if isAccess(in) && !(in.Guard.Kind != litmus.OperandNone && (l.operand(full, i, in.Guard) != 0) == in.GuardNeg) {
			loc = p.loc[in.Addr.Addr]
		}
		reads := loc >= 0 && in.Op != litmus.OpStore
		choices := 1
		if reads {
			choices = len(l.values[loc])
		}
		for c := range choices {
			e := limitEdge{rloc: -1, wloc: -1}
			var old int64
			if reads {
				old = l.values[loc][c]
				full[loc] = old
				e.rloc, e.rval = loc, c
				e.own = ownLast[loc] == int64(c) || ownLast[loc] < 0 && c == 0
			}
			n, err := p.step(full, i)
			if err != nil {
				return lt, err
			}
			next := append(fairState(nil), n[b:b+width]...)
			next = append(next, ownLast...)
			if loc >= 0 && l.writes(in, full, i, old) {
				e.wloc, e.wval, e.rmw = loc, slices.Index(l.values[loc], n[loc]), in.Op == litmus.OpAtom || in.Op == litmus.OpRed
				if e.wval < 0 {
					if computed[in] {
						// A value computed from registers that the
						// location's values lack yet: the fixed point
						// adds it and explores again.
						if !slices.Contains(fresh[loc], n[loc]) {
							fresh[loc] = append(fresh[loc], n[loc])
						}
						continue
					}
					// A read-modify-write of a constant that runs
					// once reading a value it made itself: the
					// location's values hold every value such
					// writes make (closeValues), so no execution
					// reads that value here.
					continue
				}
				next[width+loc] = int64(e.wval)
			}
			e.to = add(next)
			lt.edges[at] = append(lt.edges[at], e)
			if len(locals) > max {
				return lt, fmt.Errorf("its interleavings all finish, and accesses to different locations need not interleave (PTX is not sequentially consistent); its threads' own transition systems have more than %d states", max)
			}
		}
	}
	return lt, nil
}

// operand is the value of o for thread i in the state vector s.
func (l *limitProgram) operand(s fairState, i int, o litmus.Operand) int64 {
	switch o.Kind {
	case litmus.OperandReg:
		return s[l.p.base[i]+1+l.p.regs[i][o.Reg]]
	case litmus.OperandImm:
		return o.Imm
	}
	return 0
}

// writes reports whether in, executed by thread i in s and reading old,
// writes: every st and atom does but a cas whose comparison fails.
func (l *limitProgram) writes(in *litmus.Instr, s fairState, i int, old int64) bool {
	if in.Op == litmus.OpLoad {
		return false
	}
	if in.Op == litmus.OpAtom && in.AtomOp == "cas" {
		return old == truncate(l.operand(s, i, in.Src), litmus.DefaultSize, true)
	}
	return true
}
