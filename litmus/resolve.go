package litmus

import (
	"fmt"
	"strings"
)

// nameRole says what a name written as an operand may denote. Neither
// format marks registers lexically (herd tests name locations "rd1" and
// registers "r1"), so the meaning of a name is settled only once the whole
// test is known; see resolve.go.
type nameRole int

const (
	// roleMem is a memory operand: an address, or a register holding one.
	roleMem nameRole = iota
	// roleValue is a value: a register, or the address of a declared location.
	roleValue
	// roleLdSrc is the source of herd "ld DST, NAME": a register to move
	// (then the ld is an OpMov) or an address to load from.
	roleLdSrc
)

// nameRef is an operand written as a name whose kind resolution decides.
// Until then the operand holds the name as an OperandAddr.
type nameRef struct {
	in     *Instr
	op     *Operand
	role   nameRole
	thread int
	// qualOff is the offset of the first memory-order or scope qualifier of
	// an ld whose source is a name, or -1: a register move takes none.
	qualOff int
}

// labelRef is a branch target, kept with its offset for the diagnostic
// when the label does not exist.
type labelRef struct {
	in  *Instr
	off int
}

// threadBuild is what the parsers learn about a thread besides the Thread
// itself: its branch targets and label definitions with their offsets.
type threadBuild struct {
	th      *Thread
	targets []labelRef
	labels  []labelRef
	// clusterNamed records that the placement names the thread's cluster
	// (herd "cluster N", .test "dD.cC.bB.tT").
	clusterNamed bool
}

// resolve settles what every name operand denotes, declares the locations
// a herd test uses without declaring them, and checks branch labels.
//
// A name is a register when it is written %name, or when it is not an
// address declared by the test and either it stands where only a value
// makes sense (a stored value, an atom operand, a mov source) or the thread
// uses it as a register elsewhere (destination, arithmetic or branch
// operand, herd register initialisation). Otherwise a memory operand names
// an address: in herd files one declared implicitly (initial value 0), in
// .test files an error, since .test files declare every address.
func (p *parser) resolve(t *Test) {
	// addrs holds the addresses the test declares; the ones declared
	// implicitly below go to implicit, so that they do not change what
	// later names mean: the outcome does not depend on the order of uses.
	addrs := map[string]*Address{}
	for _, a := range t.Addresses {
		addrs[a.Name] = a
	}
	implicit := map[string]bool{}
	regs := make([]map[string]bool, len(t.Threads))
	for i, th := range t.Threads {
		regs[i] = threadRegs(th)
	}
	for _, ri := range t.RegInits {
		if ri.Thread >= 0 && ri.Thread < len(regs) {
			regs[ri.Thread][ri.Reg] = true
		}
	}
	for _, r := range p.refs {
		name := r.op.Addr
		if r.thread < 0 || r.thread >= len(regs) {
			continue
		}
		if strings.HasPrefix(name, "%") || (addrs[name] == nil && r.role == roleValue) {
			regs[r.thread][name] = true
		}
	}
	for _, r := range p.refs {
		name := r.op.Addr
		isReg := false
		switch {
		case strings.HasPrefix(name, "%"):
			isReg = true
		case addrs[name] != nil:
		case r.role == roleValue:
			isReg = true
		case r.thread >= 0 && r.thread < len(regs) && regs[r.thread][name]:
			isReg = true
		case p.format == FormatHerd:
			if !implicit[name] {
				implicit[name] = true
				t.Addresses = append(t.Addresses, &Address{Name: name, Space: SpaceGlobal, Kind: ProxyGeneric, Pos: p.opPos(r.op.At), Implicit: true})
			}
		default:
			p.errs.Add(p.opPos(r.op.At), "undeclared address %q: declare it first, e.g. .global %s;", name, name)
		}
		if !isReg {
			continue
		}
		*r.op = Operand{Kind: OperandReg, Reg: name, At: r.op.At}
		if r.role == roleLdSrc {
			if r.qualOff >= 0 {
				p.errorf(r.qualOff, "a register move (ld DST, REG) takes no memory order or scope; to load through a register write ld DST, [%s]", name)
				continue
			}
			if r.in.SpaceQ != SpaceQNone {
				p.errs.Add(r.in.Pos, "a register move (ld DST, REG) takes no state space; to load through a register write %s DST, [%s]", strings.SplitN(r.in.Text, " ", 2)[0], name)
				continue
			}
			src := *r.op
			toMov(r.in)
			r.in.A = src
		}
	}
	for _, tb := range p.threads {
		p.checkLabels(tb)
	}
	p.checkOperandSpaces(t, implicit)
}

// threadRegs returns the names a thread's instructions use as registers.
func threadRegs(th *Thread) map[string]bool {
	regs := map[string]bool{}
	for _, in := range th.Instrs {
		if in.Dst != "" {
			regs[in.Dst] = true
		}
		for _, r := range in.VecDst {
			regs[r] = true
		}
		for _, o := range in.ReadOperands() {
			if o.Kind == OperandReg {
				regs[o.Reg] = true
			}
		}
	}
	return regs
}

// checkLabels reports duplicate labels and branches to labels the thread
// does not have.
func (p *parser) checkLabels(tb *threadBuild) {
	defined := map[string]labelRef{}
	for _, l := range tb.labels {
		if first, dup := defined[l.in.Label]; dup {
			p.errorf(l.off, "duplicate label %q in thread %s (first defined at line %d)", l.in.Label, tb.th.Name, p.pos(first.off).Line)
			continue
		}
		defined[l.in.Label] = l
	}
	for _, b := range tb.targets {
		if _, ok := defined[b.in.Label]; !ok {
			p.errorf(b.off, "unknown label %q: thread %s has no such label", b.in.Label, tb.th.Name)
		}
	}
}

// checkPlacement numbers the kernel launches (numberLaunches), places the
// threads that name no cluster (placeClusters) and reports a CTA placed in
// two different clusters.
func (p *parser) checkPlacement(t *Test) {
	numberLaunches(t)
	p.placeClusters()
	seen := map[ctaKey]*Thread{}
	type laneKey struct {
		cta        ctaKey
		warp, lane int
	}
	lanes := map[laneKey]*Thread{}
	for _, th := range t.Threads {
		if th.Host {
			continue
		}
		k := ctaOf(th)
		if th.LaneNamed && p.format != FormatNV { // .test files: the thread number is the lane, checked with the name
			lk := laneKey{k, th.Warp, th.Lane}
			if other := lanes[lk]; other != nil {
				p.errs.Add(th.Pos, "threads %s and %s are both lane %d of warp %d of CTA %d: a lane holds one thread", other.Name, th.Name, th.Lane, th.Warp, th.CTA)
			}
			lanes[lk] = th
		}
		first, ok := seen[k]
		if !ok {
			seen[k] = th
			continue
		}
		if first.Cluster != th.Cluster {
			grid := fmt.Sprintf("GPU %d", th.GPU)
			if th.Kernel != "" {
				grid = "kernel " + th.Kernel
			}
			p.errs.Add(th.Pos, "thread %s puts CTA %d of %s in cluster %d, but thread %s puts it in cluster %d", th.Name, th.CTA, grid, th.Cluster, first.Name, first.Cluster)
		}
	}
}
