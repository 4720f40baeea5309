package execution

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file decides whether some thread of a test can run forever under a
// fair scheduler when its loops write memory (exchange and CAS loops),
// which the spin-loop reduction cannot decide: a failed iteration of such
// a loop changes what the other threads see (docs/model.md, "Loops that
// write: termination under fair scheduling").
//
// It does so for one fragment only, where the executions the model allows
// are the interleavings of the threads: every memory access of the test is
// a morally strong ld, st, atom or red of one and the same location, and
// the rest is register arithmetic, branches and thread fences (left out:
// fair_fences.go). Coherence orders the
// writes of that location totally, sequential consistency per location and
// the atomicity of read-modify-writes forbid everything else, so an
// execution is a sequence of steps, each reading the last value written.
// The program is then a finite transition system over (each thread's
// program counter and registers, the location's value), and a fair
// infinite run exists exactly when a reachable strongly connected
// component has, for each thread that has not finished, a transition of
// that thread inside it.

// DefaultMaxFairStates bounds the states FairTermination explores.
const DefaultMaxFairStates = 200_000

// Termination is the verdict on whether some thread can run forever under
// a fair scheduler.
type Termination struct {
	// Decided is false when the test is outside the fragment decided (Why
	// says how).
	Decided bool
	// Spins is set when some thread can run forever: a reachable cycle of
	// the interleavings in which every thread that has not finished takes
	// a step. Where then says, for each thread that runs forever, the
	// first memory instruction (in program order) it executes on that
	// cycle, or its first instruction there if it executes none
	// ("P0: atom.relaxed.gpu.exch r0, Mem0, 0").
	Spins bool
	Where []string
	// States counts the states of the interleavings explored.
	States int
	// Limits counts, for a test with several locations whose runs all
	// finish, the limits of its executions ruled out (fair_limit.go).
	Limits int
	Why    string
}

// Verdict is the termination verdict as the -json line gives it:
// "terminates", "livelock", or "not decided: " and why.
func (t *Termination) Verdict() string {
	switch {
	case !t.Decided:
		return "not decided: " + t.Why
	case t.Spins:
		return "livelock"
	}
	return "terminates"
}

// WritingLoop returns an instruction of t that writes memory and lies on a
// cycle of its thread's control flow (a loop that writes), or nil.
func WritingLoop(t *litmus.Test) *litmus.Instr {
	for _, th := range t.Threads {
		labels := labelIndex(th)
		for i, in := range th.Instrs {
			if writesMemory(in) && onCycle(th, labels, i) {
				return in
			}
		}
	}
	return nil
}

// writesMemory reports whether an instruction may change what other
// threads see: any instruction but loads, mbarrier waits, CUDA queries,
// register operations, branches, labels and fences.
func writesMemory(in *litmus.Instr) bool {
	switch in.Op {
	case litmus.OpLoad, litmus.OpMov, litmus.OpArith, litmus.OpSetp, litmus.OpBranch, litmus.OpGoto, litmus.OpLabel,
		litmus.OpFence, litmus.OpProxyFence, litmus.OpMapa:
		return false
	case litmus.OpMBarrier:
		return in.MBarOp != litmus.MBarTestWait && in.MBarOp != litmus.MBarTryWait
	case litmus.OpAPI:
		return in.API == nil || !in.API.Fn.Queries()
	}
	return true
}

func labelIndex(th *litmus.Thread) map[string]int {
	labels := map[string]int{}
	for i, in := range th.Instrs {
		if in.Op == litmus.OpLabel {
			labels[in.Label] = i
		}
	}
	return labels
}

// successors lists where control may go after instruction i.
func successors(th *litmus.Thread, labels map[string]int, i int) []int {
	in := th.Instrs[i]
	var out []int
	jumps := in.Op == litmus.OpBranch || in.Op == litmus.OpGoto
	if !jumps || in.Op == litmus.OpBranch || in.Guard.Kind != litmus.OperandNone {
		out = append(out, i+1)
	}
	if jumps {
		if t, ok := labels[in.Label]; ok {
			out = append(out, t)
		}
	}
	return out
}

// onCycle reports whether control can come back to instruction i.
func onCycle(th *litmus.Thread, labels map[string]int, i int) bool {
	seen := make([]bool, len(th.Instrs)+1)
	stack := successors(th, labels, i)
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if j >= len(th.Instrs) || seen[j] {
			continue
		}
		if j == i {
			return true
		}
		seen[j] = true
		stack = append(stack, successors(th, labels, j)...)
	}
	return false
}

// fairProgram is a test in the fragment: threads of register
// operations, branches and strong accesses to a few locations.
type fairProgram struct {
	t    *litmus.Test
	locs []string // the locations accessed, in order of first access
	init []int64  // their initial values
	// loc maps a location's name to its index in locs, which is also
	// where its value sits in a state vector.
	loc     map[string]int
	labels  []map[string]int
	regs    []map[string]int // each thread's registers, numbered
	regInit [][]int64
	// base[i] is where thread i's program counter sits in a state vector
	// (its registers follow); the locations' values come first.
	base []int
}

// fairFragment reads t as a program of the fragment, or says why it is
// not one.
func fairFragment(t *litmus.Test) (*fairProgram, string) {
	p := &fairProgram{t: t, loc: map[string]int{}}
	var users [][]*litmus.Thread // for each location, the threads accessing it
	var scopes [][]litmus.Scope  // and the scopes of its accesses
	for _, th := range t.Threads {
		if th.Host || th.Kernel != "" {
			return nil, fmt.Sprintf("%s is a host thread or runs in a kernel launched by one", th.Name)
		}
		for _, in := range th.Instrs {
			if why := fairInstr(in); why != "" {
				return nil, fmt.Sprintf("%s's %q %s", th.Name, in.Text, why)
			}
			if !isAccess(in) {
				continue
			}
			k, ok := p.loc[in.Addr.Addr]
			if !ok {
				k = len(p.locs)
				p.loc[in.Addr.Addr] = k
				p.locs = append(p.locs, in.Addr.Addr)
				users, scopes = append(users, nil), append(scopes, nil)
			}
			if n := len(users[k]); n == 0 || users[k][n-1] != th {
				users[k] = append(users[k], th)
			}
			scopes[k] = append(scopes[k], in.Scope)
		}
	}
	for k, loc := range p.locs {
		for _, sc := range scopes[k] {
			if !scopeHolds(sc, users[k]) {
				return nil, fmt.Sprintf("a .%s access does not include every thread accessing %s, so not every pair of its accesses is morally strong", sc, loc)
			}
		}
	}
	for _, loc := range p.locs {
		a := addressNamed(t, loc)
		switch {
		case a == nil:
			return nil, fmt.Sprintf("%s is not declared", loc)
		case a.AliasOf != "" || a.Kind != litmus.ProxyGeneric || len(a.Multimem) > 0 || a.MBarrier != 0:
			return nil, fmt.Sprintf("%s is an alias, a multimem address or an mbarrier", loc)
		case a.Space != litmus.SpaceGlobal:
			return nil, fmt.Sprintf("%s is in %s memory; only global locations are decided", loc, a.Space)
		case a.Type.Name != "" || a.Elems > 0:
			return nil, fmt.Sprintf("%s has a declared type or is an array; only untyped locations are decided", loc)
		}
		p.init = append(p.init, truncate(a.Init, litmus.DefaultSize, true))
	}
	p.base = make([]int, len(t.Threads))
	next := max(1, len(p.locs))
	for i, th := range t.Threads {
		p.labels = append(p.labels, labelIndex(th))
		regs := map[string]int{}
		for _, in := range th.Instrs {
			for _, r := range instrRegs(in) {
				if _, ok := regs[r]; !ok {
					regs[r] = len(regs)
				}
			}
			if in.Op == litmus.OpBranch || in.Op == litmus.OpGoto {
				if _, ok := p.labels[i][in.Label]; !ok {
					return nil, fmt.Sprintf("%s: unknown label %s", th.Name, in.Label)
				}
			}
		}
		init := make([]int64, len(regs))
		for _, ri := range t.RegInits {
			if ri.Thread != i {
				continue
			}
			if ri.Addr != "" {
				return nil, fmt.Sprintf("%s:%s holds an address", th.Name, ri.Reg)
			}
			if k, ok := regs[ri.Reg]; ok {
				init[k] = ri.Value
			}
		}
		p.regs, p.regInit = append(p.regs, regs), append(p.regInit, init)
		p.base[i] = next
		next += 1 + len(regs)
	}
	return p, ""
}

func addressNamed(t *litmus.Test, name string) *litmus.Address {
	for _, a := range t.Addresses {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func isAccess(in *litmus.Instr) bool {
	switch in.Op {
	case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
		return true
	}
	return false
}

// fairInstr says why an instruction is outside the fragment ("" when it
// is in it).
func fairInstr(in *litmus.Instr) string {
	for _, o := range []litmus.Operand{in.A, in.B, in.Src, in.Src2, in.Guard} {
		if o.Kind == litmus.OperandAddr {
			return "uses an address as a value"
		}
	}
	switch in.Op {
	case litmus.OpLabel, litmus.OpGoto, litmus.OpBranch, litmus.OpMov, litmus.OpArith, litmus.OpSetp:
		return ""
	case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
	default:
		return "is outside the fragment decided (ld, st, atom and red of one location, register operations, branches and thread fences)"
	}
	switch {
	case in.Addr.Kind != litmus.OperandAddr:
		return "reaches memory through a register"
	case in.Multimem || in.Proxy != litmus.ProxyGeneric || in.Vec > 0 || in.Offset != 0 || in.Filter != nil || in.SpaceQ != litmus.SpaceQNone:
		return "is a multimem, proxy, vector, offset, state-space or restricted access"
	case in.Type.Name != "":
		return "has a data type; only untyped accesses are decided"
	}
	switch in.Sem {
	case litmus.SemRelaxed, litmus.SemAcquire, litmus.SemRelease, litmus.SemAcqRel:
	default:
		return fmt.Sprintf("is .%s: only .relaxed, .acquire, .release and .acq_rel accesses are morally strong here", in.Sem)
	}
	if in.Scope == litmus.ScopeNone {
		return "has no scope"
	}
	if in.Op == litmus.OpAtom || in.Op == litmus.OpRed {
		switch in.AtomOp {
		case "exch", "cas", "add", "sub", "inc", "dec", "and", "or", "xor", "min", "max":
		default:
			return fmt.Sprintf("is atom.%s", in.AtomOp)
		}
	}
	return ""
}

// scopeHolds reports whether scope sc of an access includes every thread of
// users, as moral strength needs (8.7): the same CTA, cluster or GPU.
func scopeHolds(sc litmus.Scope, users []*litmus.Thread) bool {
	for _, u := range users[1:] {
		v := users[0]
		switch sc {
		case litmus.ScopeCTA:
			if u.GPU != v.GPU || u.Launch != v.Launch || u.CTA != v.CTA {
				return false
			}
		case litmus.ScopeCluster:
			if u.GPU != v.GPU || u.Launch != v.Launch || u.Cluster != v.Cluster {
				return false
			}
		case litmus.ScopeGPU:
			if u.GPU != v.GPU {
				return false
			}
		}
	}
	return true
}

// instrRegs lists the registers an instruction reads or writes.
func instrRegs(in *litmus.Instr) []string {
	var out []string
	for _, o := range []litmus.Operand{in.A, in.B, in.Src, in.Src2, in.Guard} {
		if o.Kind == litmus.OperandReg {
			out = append(out, o.Reg)
		}
	}
	if in.Dst != "" {
		out = append(out, in.Dst)
	}
	return out
}

// FairTermination decides whether some thread of t can run forever under
// a fair scheduler, exploring at most maxStates states (0: the default),
// when t is in the fragment decided (its thread fences left out, as
// withoutThreadFences argues): with one location, by the
// interleavings (see above); with several, by the interleavings when they
// loop forever and by the limits of fair executions (fair_limit.go) when
// those show that every execution ends.
func FairTermination(t *litmus.Test, maxStates int) Termination {
	if maxStates <= 0 {
		maxStates = DefaultMaxFairStates
	}
	p, why := fairFragment(withoutThreadFences(t))
	if why != "" {
		return Termination{Why: why}
	}
	g, err := p.explore(maxStates)
	if err != nil {
		return Termination{Why: err.Error()}
	}
	res := Termination{Decided: true, States: len(g.states)}
	for _, comp := range g.components() {
		if where := p.fairCycle(g, comp); where != nil {
			res.Spins, res.Where = true, where
			return res
		}
	}
	if len(p.locs) > 1 {
		// Every interleaving ends, but PTX is not sequentially consistent
		// across locations: only the limit argument can say every
		// execution does.
		limits, why := p.limitsEnd(maxStates)
		if why != "" {
			return Termination{Why: why}
		}
		res.Limits = limits
	}
	return res
}

// fairCycle returns, when the strongly connected component comp holds a
// transition of every thread that has not finished in it, where each such
// thread runs; nil otherwise.
func (p *fairProgram) fairCycle(g *fairGraph, comp []int) []string {
	in := make(map[int]bool, len(comp))
	for _, s := range comp {
		in[s] = true
	}
	steps := make([][]int, len(p.t.Threads)) // the pcs each thread steps from inside comp
	for _, s := range comp {
		for _, e := range g.edges[s] {
			if in[e[0]] {
				steps[e[1]] = append(steps[e[1]], int(g.states[s][p.base[e[1]]]))
			}
		}
	}
	var where []string
	for i, th := range p.t.Threads {
		if p.finished(g.states[comp[0]], i) {
			continue
		}
		if len(steps[i]) == 0 {
			return nil
		}
		at := -1 // the first access it makes on the cycle, else its first instruction there
		for _, pc := range steps[i] {
			better := isAccess(th.Instrs[pc]) && (at < 0 || !isAccess(th.Instrs[at]) || pc < at)
			if at < 0 || better || !isAccess(th.Instrs[at]) && pc < at {
				at = pc
			}
		}
		where = append(where, fmt.Sprintf("%s: %s", th.Name, th.Instrs[at].Text))
	}
	if len(where) == 0 {
		return nil
	}
	return where
}
