package ptxgen

import (
	"fmt"
	"sort"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// Plan is how a test runs on the GPU: its roles (the test's threads),
// where they are placed, its locations and its results.
type Plan struct {
	Test *litmus.Test
	// Roles are the test's threads in the test's order.
	Roles []Role
	// CTAs are the test's CTAs in order of first appearance; Clusters its
	// clusters, each a list of CTA indices (its ranks, in order).
	CTAs     []CTA
	Clusters [][]int
	// ClusterSize is the CTAs per physical cluster: the most CTAs of one
	// test cluster. WarpsPerGroup is the most threads of one test CTA:
	// each instance group of a CTA has that many warps, one per thread.
	ClusterSize, WarpsPerGroup int
	// Globals are the global locations, Shared the shared ones (each
	// instance has a copy per CTA); Loc.Index is the position in these.
	Globals, Shared []*Loc
	// GlobalBytes is the bytes of one global location's slot; SharedBytes
	// the bytes of one instance's shared memory in a CTA.
	GlobalBytes, SharedBytes int
	// Observables are the registers and locations the test's condition
	// and commands name, ordered as the checker orders them.
	Observables []Observable
	// Results is the number of 8-byte results of each instance: the
	// observed registers and shared locations, then one status word per
	// role.
	Results int
	// Version is the PTX ISA version the module declares.
	Version string
	// Async is set when the test uses the async proxy (bulk copies): the
	// harness then fences its own initial stores to shared memory.
	Async bool

	layout *execution.Layout
	// barrierIDs maps a test barrier (instance, logical barrier) of a CTA
	// to a PTX barrier number.
	barrierIDs map[barKey]int
}

// Role is one test thread.
type Role struct {
	Thread *litmus.Thread
	Index  int
	// CTA indexes Plan.CTAs; Warp is the role's warp in its instance
	// group (its rank among its CTA's threads).
	CTA, Warp int
	// Status is the result slot of the role's status word.
	Status int
	// Regs are the role's registers that hold numbers: those it reads or
	// writes, initialises, or the condition names. Each is written to the
	// results at the end (so that the compiler keeps every load), at
	// RegSlots.
	Regs     []string
	RegSlots map[string]int
	// addrs are the registers holding fixed addresses (addrs.go).
	addrs map[string]origin
}

// CTA is one CTA of the test.
type CTA struct {
	GPU, Number int
	// Cluster indexes Plan.Clusters, Rank is the CTA's place in it.
	Cluster, Rank int
	// Roles lists the role indices of the CTA's threads.
	Roles []int
}

// Loc is one location of the test (a plain declaration).
type Loc struct {
	Name  string
	Addr  int // the address index of its declaration
	Index int // its place in Plan.Globals or Plan.Shared
	Space litmus.Space
	Size  int
	// Init is the initial value; MBarrier the expected count of an
	// mbarrier declared in the init block (0 otherwise).
	Init     int64
	MBarrier int64
	// Offset is the byte offset of a shared location in an instance's
	// shared memory; Slot the bytes it takes there.
	Offset, Slot int
}

// Observable is a register or location the condition names.
type Observable struct {
	IsLoc  bool
	Thread int    // registers: the role
	Reg    string // registers: the register
	Name   string // locations: the name
	Loc    *Loc   // locations
	Size   int    // locations: the bytes of the value
	Signed bool   // locations: whether the value reads signed
	// Result is the result slot holding the value, -1 for a global
	// location (read from memory after the launch).
	Result int
}

// Label names the observable as the test writes it.
func (o Observable) Label(t *litmus.Test) string {
	if o.IsLoc {
		return o.Name
	}
	return t.Threads[o.Thread].Name + ":" + o.Reg
}

// barKey identifies a test barrier within a CTA.
type barKey struct {
	cta            int
	instance, name string
}

// NewPlan makes the plan of a test that Support accepted.
func NewPlan(t *litmus.Test) (*Plan, error) {
	l, err := execution.NewLayout(t)
	if err != nil {
		return nil, err
	}
	p := &Plan{Test: t, layout: l, Version: "8.4", barrierIDs: map[barKey]int{}}
	p.placeRoles()
	if err := p.placeLocations(); err != nil {
		return nil, err
	}
	if err := p.checkMBarrierWrites(); err != nil {
		return nil, err
	}
	for i := range p.Roles {
		p.listRegisters(i)
	}
	if err := p.findObservables(); err != nil {
		return nil, err
	}
	for i := range p.Roles {
		p.Roles[i].Status = p.Results
		p.Results++
	}
	p.Version = versionFor(t)
	p.Async = usesAsyncProxy(t)
	if err := p.numberBarriers(); err != nil {
		return nil, err
	}
	return p, nil
}

// placeRoles numbers the CTAs and clusters and places each thread.
func (p *Plan) placeRoles() {
	ctaOf := map[[2]int]int{}
	clusterOf := map[[2]int]int{}
	for i, th := range p.Test.Threads {
		key := [2]int{th.GPU, th.CTA}
		c, ok := ctaOf[key]
		if !ok {
			ck := [2]int{th.GPU, th.Cluster}
			cl, ok := clusterOf[ck]
			if !ok {
				cl = len(p.Clusters)
				clusterOf[ck] = cl
				p.Clusters = append(p.Clusters, nil)
			}
			c = len(p.CTAs)
			ctaOf[key] = c
			p.CTAs = append(p.CTAs, CTA{GPU: th.GPU, Number: th.CTA, Cluster: cl, Rank: len(p.Clusters[cl])})
			p.Clusters[cl] = append(p.Clusters[cl], c)
		}
		cta := &p.CTAs[c]
		p.Roles = append(p.Roles, Role{Thread: th, Index: i, CTA: c, Warp: len(cta.Roles)})
		cta.Roles = append(cta.Roles, i)
	}
	for _, cl := range p.Clusters {
		p.ClusterSize = max(p.ClusterSize, len(cl))
	}
	for _, c := range p.CTAs {
		p.WarpsPerGroup = max(p.WarpsPerGroup, len(c.Roles))
	}
}

// ctaByNumber finds the test CTA numbered n on a GPU, -1 when none.
func (p *Plan) ctaByNumber(gpu, n int) int {
	for i, c := range p.CTAs {
		if c.GPU == gpu && c.Number == n {
			return i
		}
	}
	return -1
}

// placeLocations lists the locations and sizes their slots: each holds the
// largest access and the largest copy that reaches it, at least 16 bytes
// (cp.async and the bulk copies need 16-byte alignment and whole 16-byte
// units).
func (p *Plan) placeLocations() error {
	t := p.Test
	sizes := map[int]int{}
	for _, li := range p.layout.Locs {
		sizes[li.Root] = max(sizes[li.Root], li.Size)
	}
	copies := map[int]int{}
	for i := range p.Roles {
		if err := p.findAddressRegs(i); err != nil {
			return err
		}
	}
	for ri, r := range p.Roles {
		for _, in := range r.Thread.Instrs {
			if in.Op == litmus.OpCopy && in.Size.Kind == litmus.OperandImm {
				for _, op := range []litmus.Operand{in.Addr, in.Mem2} {
					if a, ok := p.operandRoot(ri, op); ok {
						copies[a] = max(copies[a], int(in.Size.Imm))
					}
				}
			}
			if isSizedAccess(in) {
				if a, ok := p.operandRoot(ri, in.Addr); ok {
					off, n := in.Extent()
					sizes[a] = max(sizes[a], int(off)+n)
				}
			}
		}
	}
	for i, a := range t.Addresses {
		if a.AliasOf != "" || len(a.Multimem) > 0 {
			continue
		}
		size := max(sizes[i], 4)
		if a.MBarrier > 0 {
			size = 8
		}
		slot := roundUp(max(size, copies[i], 16), 16)
		loc := &Loc{Name: a.Name, Addr: i, Space: a.Space, Size: size, Init: a.Init, MBarrier: a.MBarrier, Slot: slot}
		switch a.Space {
		case litmus.SpaceGlobal:
			loc.Index = len(p.Globals)
			p.Globals = append(p.Globals, loc)
			p.GlobalBytes = max(p.GlobalBytes, slot)
		case litmus.SpaceShared:
			loc.Index, loc.Offset = len(p.Shared), p.SharedBytes
			p.Shared = append(p.Shared, loc)
			p.SharedBytes += slot
		default:
			return fmt.Errorf("%s: %s is in %s memory, which ptxmm run does not place", a.Pos, a.Name, a.Space)
		}
	}
	if p.GlobalBytes == 0 {
		p.GlobalBytes = 16
	}
	return nil
}

// isSizedAccess reports whether ld, st, atom or red access part of a
// location.
func isSizedAccess(in *litmus.Instr) bool {
	switch in.Op {
	case litmus.OpLoad, litmus.OpStore, litmus.OpAtom, litmus.OpRed:
		return in.Addr.Kind != litmus.OperandNone
	}
	return false
}

func roundUp(n, to int) int { return (n + to - 1) / to * to }

// locOf returns the location of an address index.
func (p *Plan) locOf(addr int) *Loc {
	for _, l := range p.Globals {
		if l.Addr == addr {
			return l
		}
	}
	for _, l := range p.Shared {
		if l.Addr == addr {
			return l
		}
	}
	return nil
}

// findObservables lists what the condition, the commands and a locations
// clause name, ordered as the checker orders its observables (registers by
// thread and name, then locations by name), and gives each a result slot.
func (p *Plan) findObservables() error {
	t := p.Test
	seen := map[string]bool{}
	var err error
	add := func(tm litmus.Term) {
		switch tm.Kind {
		case litmus.TermReg:
			k := fmt.Sprintf("r%d:%s", tm.Thread, tm.Reg)
			if _, isAddr := p.Roles[tm.Thread].addrs[tm.Reg]; isAddr {
				err = fmt.Errorf("%s: the condition names register %s of %s, which holds an address: ptxmm run cannot show addresses", tm.Pos, tm.Reg, p.Roles[tm.Thread].Thread.Name)
				return
			}
			if !seen[k] {
				seen[k] = true
				p.Observables = append(p.Observables, Observable{Thread: tm.Thread, Reg: tm.Reg})
			}
		case litmus.TermLoc:
			if seen["l:"+tm.Loc] {
				return
			}
			seen["l:"+tm.Loc] = true
			a, ok := p.layout.Addr(tm.Loc)
			if !ok {
				err = fmt.Errorf("%s: unknown location %s in the condition", tm.Pos, tm.Loc)
				return
			}
			loc := p.locOf(p.layout.Addrs[a].Root)
			if loc == nil {
				err = fmt.Errorf("%s: %s is not a location ptxmm run places", tm.Pos, tm.Loc)
				return
			}
			if loc.MBarrier > 0 || p.usedAsMBarrier(loc) {
				err = fmt.Errorf("%s: the condition names %s, an mbarrier, whose state ptxmm run cannot read back", tm.Pos, tm.Loc)
				return
			}
			signed := false
			for _, li := range p.layout.Locs {
				if li.Root == loc.Addr {
					signed = li.Signed
				}
			}
			p.Observables = append(p.Observables, Observable{IsLoc: true, Name: tm.Loc, Loc: loc, Size: min(loc.Size, 8), Signed: signed})
		}
	}
	// The terms of the condition, the assertions and a herd `locations`
	// clause, as the checker collects them: the states a run prints have
	// the columns the checker's states have.
	t.EachTerm(add)
	if err != nil {
		return err
	}
	sort.SliceStable(p.Observables, func(i, j int) bool {
		a, b := p.Observables[i], p.Observables[j]
		if a.IsLoc != b.IsLoc {
			return !a.IsLoc
		}
		if a.IsLoc {
			return a.Name < b.Name
		}
		if a.Thread != b.Thread {
			return a.Thread < b.Thread
		}
		return a.Reg < b.Reg
	})
	for i := range p.Observables {
		o := &p.Observables[i]
		o.Result = -1
		switch {
		case !o.IsLoc:
			o.Result = p.Roles[o.Thread].RegSlots[o.Reg]
		case o.Loc.Space == litmus.SpaceShared:
			o.Result = p.Results
			p.Results++
		}
	}
	return nil
}

// Layout is the test's layout of addresses and locations, as the checker
// sees it.
func (p *Plan) Layout() *execution.Layout { return p.layout }

// CheckerObservables are the plan's observables as the checker describes
// them, for printing and evaluating states.
func (p *Plan) CheckerObservables() []checker.Observable {
	var out []checker.Observable
	for _, o := range p.Observables {
		co := checker.Observable{IsLoc: o.IsLoc, Thread: o.Thread, Reg: o.Reg, Name: o.Name, Size: o.Size, Signed: o.Signed}
		if o.IsLoc {
			cta := -1
			if o.Loc.Space.PerCTA() {
				cta = execution.CTAKey(p.Roles[0].Thread)
			}
			co.Loc = p.layout.Loc(o.Loc.Addr, cta)
		}
		out = append(out, co)
	}
	return out
}

// usedAsMBarrier reports whether an mbarrier instruction or a bulk load's
// completion names the location.
func (p *Plan) usedAsMBarrier(loc *Loc) bool {
	for ri, r := range p.Roles {
		for _, in := range r.Thread.Instrs {
			var op litmus.Operand
			switch {
			case in.Op == litmus.OpMBarrier, in.Op == litmus.OpCopyArrive:
				op = in.Addr
			case in.Op == litmus.OpCopy && in.Copy == litmus.CopyBulkLoad, in.Op == litmus.OpStAsync:
				op = in.MBar
			default:
				continue
			}
			if a, ok := p.operandRoot(ri, op); ok && a == loc.Addr {
				return true
			}
		}
	}
	return false
}

// listRegisters lists role ri's number registers and gives each a result
// slot.
func (p *Plan) listRegisters(ri int) {
	r := &p.Roles[ri]
	set := map[string]bool{}
	for _, in := range r.Thread.Instrs {
		for _, op := range in.ReadOperands() {
			if op.Kind == litmus.OperandReg {
				set[op.Reg] = true
			}
		}
		for _, w := range in.WrittenRegs() {
			set[w] = true
		}
	}
	for _, init := range p.Test.RegInits {
		if init.Thread == r.Index {
			set[init.Reg] = true
		}
	}
	walk := func(e litmus.Expr) {
		litmus.WalkCmps(e, func(c *litmus.Cmp) {
			for _, tm := range []litmus.Term{c.L, c.R} {
				if tm.Kind == litmus.TermReg && tm.Thread == r.Index {
					set[tm.Reg] = true
				}
			}
		})
	}
	if p.Test.Condition != nil {
		walk(p.Test.Condition.Expr)
	}
	for _, a := range p.Test.Assertions {
		walk(a.Expr)
	}
	r.RegSlots = map[string]int{}
	for reg := range set {
		if _, isAddr := r.addrs[reg]; !isAddr {
			r.Regs = append(r.Regs, reg)
		}
	}
	sort.Strings(r.Regs)
	for _, reg := range r.Regs {
		r.RegSlots[reg] = p.Results
		p.Results++
	}
}
