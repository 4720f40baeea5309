package execution

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

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

// possible reports whether the limit (each location's, and the threads
// in the set forever running for ever, the others finishing) survives:
// the greatest fixed point of the values that may be written leaves each
// thread a path to its end or to a component of steps that read as the
// limit says, and the limit's values are written where it says.
func (l *limitProgram) possible(limit []locLimit, forever int) bool {
	nloc, nth := len(l.values), len(l.threads)
	// others[i][k]: the values of k that thread i may read from another
	// thread's write (it reads its own last write, or the initial value
	// before it writes k, in any case: limitEdge.own).
	others := make([][]uint64, nth)
	mine := make([][]uint64, nth) // the values each thread writes on its paths
	// late[i][k]: for a location written for ever, the values of it that
	// thread i may read in the limit from another thread's write: from
	// some point on, every read of it reads a write made in a component
	// (from-read is prefix-finite, and only finitely many writes are made
	// elsewhere), so one of another thread that runs for ever, or its own
	// last write.
	late := make([][]uint64, nth)
	ownComps := make([]limitComponents, nth) // each thread's components
	for i := range others {
		others[i], mine[i], late[i] = make([]uint64, nloc), make([]uint64, nloc), make([]uint64, nloc)
		for k := range nloc {
			others[i][k] = 1<<len(l.values[k]) - 1
			late[i][k] = others[i][k]
		}
	}
	written := make([]uint64, nloc) // on some thread's path
	var comps limitComponents       // of the threads that run for ever
	targets := make([][]bool, nth)
	paths := make([][]bool, nth) // the states on a path to a target
	for {
		comps.reset(nloc)
		for i, lt := range l.threads {
			ok := l.readable(others[i])
			reach := lt.reach(0, ok)
			var target []bool
			if forever>>i&1 != 0 {
				ownComps[i].reset(nloc)
				target = lt.stays(reach, inLimit(limit, ok, late[i]), &ownComps[i])
				comps.add(&ownComps[i])
			} else {
				target = make([]bool, len(lt.edges))
				for v := range target {
					target[v] = reach[v] && lt.final[v]
				}
			}
			if !slices.Contains(target, true) {
				return false
			}
			back := lt.coreach(reach, target, ok)
			targets[i], paths[i] = target, back
			clear(mine[i])
			for v, es := range lt.edges {
				for _, e := range es {
					if back[v] && back[e.to] && ok(e) && e.wloc >= 0 {
						mine[i][e.wloc] |= 1 << e.wval
					}
				}
			}
		}
		same := true
		clear(written)
		for i := range others {
			for k := range nloc {
				written[k] |= mine[i][k]
				var next uint64
				for j := range mine {
					if j != i {
						next |= mine[j][k]
					}
				}
				same = same && next == others[i][k]
				others[i][k] = next
				next = 0
				for j := range ownComps {
					if j != i && forever>>j&1 != 0 {
						next |= ownComps[j].writes[k]
					}
				}
				same = same && next == late[i][k]
				late[i][k] = next
			}
		}
		if same {
			break
		}
	}
	for k, lim := range limit {
		if lim.forever {
			if lim.often&^(written[k]&comps.writes[k]) != 0 || !comps.rmwRead(k, lim.often) || !l.entered(k, lim.often, others, targets, paths) {
				return false
			}
			continue
		}
		if !l.lastWrite(k, lim.last, targets) || !l.entered(k, 1<<lim.last, others, targets, paths) {
			return false
		}
	}
	// The runs with one location's accesses in order, first without
	// the writes of the others (fewer states), then with them.
	for _, writes := range []bool{false, true} {
		for k := range limit {
			if !l.sequenced(k, limit, forever, others, late, paths, writes) {
				return false
			}
		}
	}
	return true
}

// inLimit is the steps a thread that runs for ever may take after the
// limit point: those ok allows that write only locations written for ever,
// and only values they are written for ever, and read a location written
// finitely often only at its last value and one written for ever only at
// a value written for ever, its own last write or, from another thread,
// one of late.
func inLimit(limit []locLimit, ok func(limitEdge) bool, late []uint64) func(limitEdge) bool {
	return func(e limitEdge) bool {
		if !ok(e) || e.wloc >= 0 && limit[e.wloc].often>>e.wval&1 == 0 {
			return false
		}
		if e.rloc < 0 {
			return true
		}
		if lim := limit[e.rloc]; lim.forever {
			return lim.often>>e.rval&1 != 0 && (e.own || late[e.rloc]>>e.rval&1 != 0)
		}
		return limit[e.rloc].last == e.rval
	}
}

// readable is the steps a thread may take when others are the values it
// may read from other threads' writes.
func (l *limitProgram) readable(others []uint64) func(limitEdge) bool {
	return func(e limitEdge) bool { return e.rloc < 0 || e.own || others[e.rloc]>>e.rval&1 != 0 }
}

// limitComponents is what the steps inside the components that threads
// running for ever may stay in do to each location (bit sets of value
// indices).
type limitComponents struct {
	writes   []uint64 // the values written
	rmwReads []uint64 // the values read by a read-modify-write that writes
	stores   []bool   // whether some step writes it without reading it
	// moves[k][a] holds the values b that a read-modify-write of k
	// writes when it reads a.
	moves [][maxLimitValues]uint64
}

func (c *limitComponents) reset(nloc int) {
	c.writes, c.rmwReads, c.stores = make([]uint64, nloc), make([]uint64, nloc), make([]bool, nloc)
	c.moves = make([][maxLimitValues]uint64, nloc)
}

// add adds what d's steps do to c's.
func (c *limitComponents) add(d *limitComponents) {
	for k := range c.writes {
		c.writes[k] |= d.writes[k]
		c.rmwReads[k] |= d.rmwReads[k]
		c.stores[k] = c.stores[k] || d.stores[k]
		for a := range c.moves[k] {
			c.moves[k][a] |= d.moves[k][a]
		}
	}
}

// rmwRead reports whether the values of often can follow one another in
// k's coherence order by writes of the components, each value again and
// again. Every write after the limit point is one of theirs. When those
// are all read-modify-writes, each reads the write before it (8.10.3: no
// write comes between the write an atom reads and its own), so the values
// of k's writes from the limit point on, in coherence order, are a walk of
// the components' moves (a value read to the value written), and one that
// visits every value of often again and again: those values must lie in
// one strongly connected part of the moves. (For a single value, some
// read-modify-write must take it and write it back.)
func (c *limitComponents) rmwRead(k int, often uint64) bool {
	if c.stores[k] {
		return true
	}
	first := bits.TrailingZeros64(often)
	forth := c.walk(k, often, first, false)
	back := c.walk(k, often, first, true)
	return often&^forth == 0 && often&^back == 0
}

// walk returns the values of often reachable from value a by one or more
// of location k's moves within often (backwards when back is set).
func (c *limitComponents) walk(k int, often uint64, a int, back bool) uint64 {
	next := func(v int) uint64 {
		if !back {
			return c.moves[k][v] & often
		}
		var out uint64
		for u := range c.moves[k] {
			if c.moves[k][u]>>v&1 != 0 {
				out |= 1 << u
			}
		}
		return out & often
	}
	var seen uint64
	stack := []int{a}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for n := next(v) &^ seen; n != 0; n &= n - 1 {
			u := bits.TrailingZeros64(n)
			seen |= 1 << u
			stack = append(stack, u)
		}
	}
	return seen
}

// entered reports whether location k can come to be written only values
// of the set often (a location written for ever, as the limit says),
// given the values each thread may read from the others' writes, each thread's targets and
// the states on its paths to them. When some write of a value outside
// often surely exists (the initial write, or one that some thread writes
// on every path to its target), let w be the last in coherence; the write
// after it writes a value of often. If no thread's path stores such a
// value with st, that write is an atom's, which reads w (8.10.3: no write
// comes between the write an atom reads and its own; by coherence, that
// one precedes its own), and its thread then reads k only at w's
// successors, all of values of often (8.10.5), until its target.
func (l *limitProgram) entered(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	in := func(v int) bool { return often>>v&1 != 0 }
	surely := !in(0) // the initial value is one of the values at index 0
	for v := range l.values[k] {
		for i, lt := range l.threads {
			if surely || in(v) {
				break
			}
			ok := l.readable(others[i])
			r := lt.reach(0, func(e limitEdge) bool { return ok(e) && !(e.wloc == k && e.wval == v) })
			surely = !anyBoth(r, targets[i])
		}
	}
	if !surely {
		return true
	}
	if !in(0) && l.entriesOnce(k, often, others, targets, paths) && l.lastReadsSet(k, often, others, targets, paths) {
		return false
	}
	// Some entry into often reaches its thread's target.
	return !l.pathWritesOf(k, others, paths, func(i, _ int, e limitEdge, ok func(limitEdge) bool) bool {
		if !entry(e, k, often) {
			return true
		}
		after := func(f limitEdge) bool {
			return ok(f) && (f.rloc != k || in(f.rval)) && (f.wloc != k || in(f.wval))
		}
		return !anyBoth(l.threads[i].reach(e.to, after), targets[i])
	})
}

// lastWrite reports whether value v (an index) can be location k's last
// value, as the limit of a location written finitely often says: the last
// write in coherence is its thread's last write of k in program order
// (8.10.5: coherence follows program order between a thread's writes of
// one location), so the value some thread's own last write has at its
// target; or the initial value when every thread can reach its target
// without writing k.
func (l *limitProgram) lastWrite(k, v int, targets [][]bool) bool {
	none := true
	for i, lt := range l.threads {
		unwritten := false
		for s, t := range targets[i] {
			if !t {
				continue
			}
			switch lt.ownLast[s][k] {
			case int64(v):
				return true
			case -1:
				unwritten = true
			}
		}
		none = none && unwritten
	}
	return v == 0 && none
}

// An entry into a set of values S of location k is a write of a value of
// S whose predecessor in coherence is of a value outside S: an st of a
// value of S, or an atom taking a value outside S and writing one of S
// (8.10.3). When the initial value is outside S and the last write outside
// S (w, which surely exists: entered) takes a value of S, two entries are
// needed: the first write of a value of S, before w in coherence (w's
// predecessor is one), and the write after w. entriesOnce and
// lastReadsSet find when there can be only one.

// entriesOnce reports whether every entry into often on the threads' paths
// is made by one and the same instruction, which lies on no cycle of its
// thread's control flow, so that the execution has at most one entry.
func (l *limitProgram) entriesOnce(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	thread, pc := -1, -1
	return l.pathWritesOf(k, others, paths, func(i, v int, e limitEdge, _ func(limitEdge) bool) bool {
		if !entry(e, k, often) {
			return true
		}
		lt := &l.threads[i]
		switch {
		case !lt.once[v]:
			return false
		case thread < 0:
			thread, pc = i, lt.pc[v]
		case thread != i || pc != lt.pc[v]:
			return false
		}
		return true
	})
}

// lastReadsSet reports whether every write that can be the last one of a
// value outside often is an atom taking a value of often: a write of such
// a value on a thread's path after which its thread reaches its target
// writing only values of often to k (its later writes follow it in
// coherence, 8.10.5), and there is at least one.
func (l *limitProgram) lastReadsSet(k int, often uint64, others [][]uint64, targets, paths [][]bool) bool {
	in := func(v int) bool { return often>>v&1 != 0 }
	found := false
	all := l.pathWritesOf(k, others, paths, func(i, _ int, e limitEdge, ok func(limitEdge) bool) bool {
		if in(e.wval) {
			return true
		}
		after := func(f limitEdge) bool { return ok(f) && (f.wloc != k || in(f.wval)) }
		if !anyBoth(l.threads[i].reach(e.to, after), targets[i]) {
			return true
		}
		if !e.rmw || e.rloc != k || !in(e.rval) {
			return false
		}
		found = true
		return true
	})
	return all && found
}

// pathWritesOf calls f on each step of the threads' paths (paths) that
// writes location k and that its thread may take given the values it may
// read from the others' writes (others), with the thread, the state the
// step leaves and the steps that thread may take, until f returns false;
// it reports whether f never did.
func (l *limitProgram) pathWritesOf(k int, others [][]uint64, paths [][]bool, f func(i, v int, e limitEdge, ok func(limitEdge) bool) bool) bool {
	for i, lt := range l.threads {
		ok := l.readable(others[i])
		for v, es := range lt.edges {
			for _, e := range es {
				if !paths[i][v] || !paths[i][e.to] || !ok(e) || e.wloc != k {
					continue
				}
				if !f(i, v, e, ok) {
					return false
				}
			}
		}
	}
	return true
}

// entry reports whether e, a step writing location k, is an entry into
// the values of often: it writes one of them, and is no read-modify-write
// taking one of them (or reading elsewhere).
func entry(e limitEdge, k int, often uint64) bool {
	return often>>e.wval&1 != 0 && !(e.rmw && (e.rloc != k || often>>e.rval&1 != 0))
}

func anyBoth(a, b []bool) bool {
	for i := range a {
		if a[i] && b[i] {
			return true
		}
	}
	return false
}

// reach returns the states reachable from from by the steps ok allows.
func (lt limitThread) reach(from int, ok func(limitEdge) bool) []bool {
	seen := make([]bool, len(lt.edges))
	seen[from] = true
	stack := []int{from}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range lt.edges[v] {
			if !seen[e.to] && ok(e) {
				seen[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	return seen
}

// coreach returns the states of reach from which the steps ok allows
// lead, within reach, to a state of target.
func (lt limitThread) coreach(reach, target []bool, ok func(limitEdge) bool) []bool {
	pred := make([][]int, len(lt.edges))
	for v, es := range lt.edges {
		if !reach[v] {
			continue
		}
		for _, e := range es {
			if ok(e) {
				pred[e.to] = append(pred[e.to], v)
			}
		}
	}
	seen := make([]bool, len(lt.edges))
	var stack []int
	for v, t := range target {
		if t && reach[v] {
			seen[v] = true
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range pred[v] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return seen
}

// stays returns the states of reach that lie in a strongly connected
// component of the steps limit allows (a thread can stay there for ever),
// adding what those components' steps do to comps.
func (lt limitThread) stays(reach []bool, limit func(limitEdge) bool, comps *limitComponents) []bool {
	succ := make([][]int, len(lt.edges))
	for v, es := range lt.edges {
		if !reach[v] {
			continue
		}
		for _, e := range es {
			if limit(e) {
				succ[v] = append(succ[v], e.to)
			}
		}
	}
	in := make([]int, len(lt.edges))
	out := make([]bool, len(lt.edges))
	for c, comp := range components(succ) {
		for _, v := range comp {
			in[v], out[v] = c+1, true
		}
	}
	for v, es := range lt.edges {
		if !out[v] {
			continue
		}
		for _, e := range es {
			if in[e.to] != in[v] || !limit(e) || e.wloc < 0 {
				continue
			}
			comps.writes[e.wloc] |= 1 << e.wval
			if !e.rmw || e.rloc != e.wloc {
				comps.stores[e.wloc] = true
			} else {
				comps.rmwReads[e.wloc] |= 1 << e.rval
				comps.moves[e.wloc][e.rval] |= 1 << e.wval
			}
		}
	}
	return out
}

// describe says what a surviving limit is: which threads run for ever,
// and what each location's limit is.
func (l *limitProgram) describe(limit []locLimit, forever int) string {
	var who []string
	for i, th := range l.p.t.Threads {
		if forever>>i&1 != 0 {
			who = append(who, th.Name)
		}
	}
	var locs []string
	for k, lim := range limit {
		if !lim.forever {
			locs = append(locs, fmt.Sprintf("%s's last value is %d", l.p.locs[k], l.values[k][lim.last]))
			continue
		}
		var vs []string
		for v := range l.values[k] {
			if lim.often>>v&1 != 0 {
				vs = append(vs, fmt.Sprint(l.values[k][v]))
			}
		}
		locs = append(locs, fmt.Sprintf("%s is written %s for ever", l.p.locs[k], strings.Join(vs, " and ")))
	}
	verb := "runs"
	if bits.OnesCount(uint(forever)) > 1 {
		verb = "run"
	}
	return fmt.Sprintf("%s %s for ever while %s", strings.Join(who, " and "), verb, strings.Join(locs, " and "))
}
