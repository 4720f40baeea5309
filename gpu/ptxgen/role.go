package ptxgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// roleGen writes the code of one role: its registers, the addresses of
// its locations (computed before the start barrier, in pre), its
// instructions (in body) and the writing of its results.
type roleGen struct {
	p *Plan
	r *Role
	e *emitter
	// regs names the PTX register of each test register.
	regs map[string]string
	// pre holds the address computations, made before the test starts;
	// addrs the registers already computed.
	pre   strings.Builder
	addrs map[addrKey]string
	// gens are the generic addresses of the instance's global locations.
	locAddr map[int]string
	labels  map[string]int // the thread's labels and their instruction
	// bare leaves out the pre-stress, the start barrier and the shared
	// results: the code the -sass check compiles (optcheck.go).
	bare bool
}

// addrKey is an address in one form.
type addrKey struct {
	o    origin
	form form
}

// form is the state space an address is needed in.
type form int

const (
	formGeneric form = iota
	formGlobal
	formCTA     // .shared::cta window
	formCluster // .shared::cluster window
)

func newRoleGen(p *Plan, i int, e *emitter) *roleGen {
	rg := &roleGen{p: p, r: &p.Roles[i], e: e, regs: map[string]string{}, addrs: map[addrKey]string{}, locAddr: map[int]string{}, labels: map[string]int{}}
	for _, name := range rg.registers() {
		rg.regs[name] = fmt.Sprintf("%%t%d_%s", i, sanitize(name))
	}
	// Two registers that sanitize alike ("%r0" and "r0") get numbers.
	seen := map[string]bool{}
	for _, name := range rg.registers() {
		if seen[rg.regs[name]] {
			rg.regs[name] = fmt.Sprintf("%%t%d_%d", i, len(seen))
		}
		seen[rg.regs[name]] = true
	}
	for k, in := range rg.r.Thread.Instrs {
		if in.Op == litmus.OpLabel {
			rg.labels[in.Label] = k
		}
	}
	return rg
}

// registers lists the role's number registers (plan.go).
func (rg *roleGen) registers() []string { return rg.r.Regs }

// declarations declares the role's registers.
func (rg *roleGen) declarations() string {
	if len(rg.regs) == 0 {
		return ""
	}
	var names []string
	for _, n := range rg.regs {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Sprintf("\t.reg .b64 %s; // %s\n", strings.Join(names, ", "), rg.regComment())
}

func (rg *roleGen) regComment() string {
	var parts []string
	for _, name := range rg.registers() {
		parts = append(parts, rg.regs[name]+" = "+name)
	}
	return rg.r.Thread.Name + ": " + strings.Join(parts, ", ")
}

// emit writes the role's code.
func (rg *roleGen) emit() error {
	e, r, p := rg.e, rg.r, rg.p
	e.mark(fmt.Sprintf("$ROLE%d", r.Index))
	e.comment("%s", rg.regComment())
	e.ins("mov.u64 %%k_st, 1")
	e.ins("ld.param.u64 %%k_bnd, [prm+%d]", prmSpinBound)
	inits := map[string]int64{}
	for _, ri := range p.Test.RegInits {
		if ri.Thread == r.Index && ri.Addr == "" {
			inits[ri.Reg] = ri.Value
		}
	}
	for _, name := range rg.registers() {
		e.ins("mov.u64 %s, %d", rg.regs[name], inits[name])
	}
	var body strings.Builder
	old := e.to(&body)
	for k, in := range r.Thread.Instrs {
		if err := rg.instr(k, in); err != nil {
			e.to(old)
			return err
		}
	}
	e.to(old)
	e.out.WriteString(rg.pre.String())
	if !rg.bare {
		rg.startBarrier()
	}
	e.comment("%s's instructions", r.Thread.Name)
	e.out.WriteString(body.String())
	e.mark(fmt.Sprintf("$END%d", r.Index))
	rg.results()
	e.ins("ret")
	return nil
}

// startBarrier emits the optional pre-stress and the spin barrier at
// which all test threads of the launch meet before they start.
func (rg *roleGen) startBarrier() {
	e, i := rg.e, rg.r.Index
	e.comment("pre-stress, then the start barrier")
	n := param(e, prmPreStress)
	stressLoop(e, fmt.Sprintf("PRE%d_", i), n, "%k_inst", "%k_lane")
	target := param(e, prmBarrierTarget)
	pr := e.pred()
	goLabel := fmt.Sprintf("$GO%d", i)
	e.ins("setp.eq.u64 %s, %s, 0", pr, target)
	e.ins("@%s bra %s", pr, goLabel)
	ctr := param(e, prmCounter)
	e.ins("cvta.to.global.u64 %s, %s", ctr, ctr)
	e.ins("red.relaxed.gpu.global.add.u64 [%s], 1", ctr)
	k := param(e, prmBarrierBound)
	v := e.rd64()
	spin := fmt.Sprintf("$SPIN%d", i)
	e.mark(spin)
	e.ins("ld.relaxed.gpu.global.u64 %s, [%s]", v, ctr)
	e.ins("setp.ge.u64 %s, %s, %s", pr, v, target)
	e.ins("@%s bra %s", pr, goLabel)
	e.ins("sub.u64 %s, %s, 1", k, k)
	e.ins("setp.ne.u64 %s, %s, 0", pr, k)
	e.ins("@%s bra %s", pr, spin)
	e.mark(goLabel)
}

// results writes the role's observed registers, the shared locations the
// condition names (once every thread of the CTA is done) and the status.
func (rg *roleGen) results() {
	e, p, r := rg.e, rg.p, rg.r
	store := "st.global.u64"
	if rg.bare {
		// The -sass check tells the result stores from the thread's own
		// by their evict-first hint (STG.E.EF in the machine code), which
		// no test instruction has, wherever the compiler schedules them;
		// the fence ends the thread's code.
		e.ins("fence.acq_rel.cta")
		store = "st.global.cs.u64"
	}
	var shared []Observable
	for _, name := range r.Regs {
		e.ins("%s [%%k_res+%d], %s", store, 8*r.RegSlots[name], rg.regs[name])
	}
	for _, o := range p.Observables {
		if o.IsLoc && o.Loc.Space == litmus.SpaceShared {
			shared = append(shared, o)
		}
	}
	if len(shared) > 0 && !rg.bare {
		users := len(p.CTAs[r.CTA].Roles)
		cnt := e.r32()
		e.ins("mul.lo.u32 %s, %%k_g32, %d", cnt, users)
		e.ins("barrier.sync %d, %s", harnessBarrier, cnt)
		if r.Warp == 0 {
			for _, o := range shared {
				v := e.rd64()
				e.ins("ld.shared.%s %s, [%%k_sm+%d]", loadType(o.Size, o.Signed), v, o.Loc.Offset)
				e.ins("st.global.u64 [%%k_res+%d], %s", 8*o.Result, v)
			}
		}
	}
	e.ins("%s [%%k_res+%d], %%k_st", store, 8*r.Status)
	if p.ClusterSize > 1 && !rg.bare {
		rg.keepClusterAlive()
	}
}

// keepClusterAlive makes the test threads of a cluster wait for each
// other before they exit: the shared memory of a CTA that has exited
// cannot be accessed (distributed shared memory), and another CTA of the
// cluster may still write or arrive on it. They count themselves on a
// counter of their cluster in global memory, after a fence that completes
// their remote accesses and after all of the test's operations, so that
// it orders none the test observes.
func (rg *roleGen) keepClusterAlive() {
	e, p, r := rg.e, rg.p, rg.r
	e.comment("wait for the cluster's other test threads before leaving")
	users := 0
	for _, c := range p.Clusters[p.CTAs[r.CTA].Cluster] {
		users += len(p.CTAs[c].Roles)
	}
	ctr := param(e, prmCounter)
	e.ins("cvta.to.global.u64 %s, %s", ctr, ctr)
	e.ins("mad.lo.u64 %s, %%k_pc, 8, %s", ctr, ctr)
	e.ins("add.u64 %s, %s, 8", ctr, ctr)
	// The fence makes the thread's accesses to other CTAs' shared
	// memory (remote stores and arrives, which the thread does not wait
	// for) complete before it counts itself, so that no CTA exits while
	// they are in flight. It comes after the thread's last test
	// instruction and its results, so it orders nothing the test
	// observes.
	e.ins("fence.acq_rel.gpu")
	e.ins("red.relaxed.gpu.global.add.u64 [%s], 1", ctr)
	target := e.r32()
	e.ins("mul.lo.u32 %s, %%k_g32, %d", target, users)
	t64 := e.rd64()
	e.ins("cvt.u64.u32 %s, %s", t64, target)
	k := param(e, prmBarrierBound)
	v, pr := e.rd64(), e.pred()
	spin, done := fmt.Sprintf("$ALIVE%d", r.Index), fmt.Sprintf("$LEAVE%d", r.Index)
	e.mark(spin)
	e.ins("ld.relaxed.gpu.global.u64 %s, [%s]", v, ctr)
	e.ins("setp.ge.u64 %s, %s, %s", pr, v, t64)
	e.ins("@%s bra %s", pr, done)
	e.ins("sub.u64 %s, %s, 1", k, k)
	e.ins("setp.ne.u64 %s, %s, 0", pr, k)
	e.ins("@%s bra %s", pr, spin)
	e.mark(done)
}

// loadType is the PTX type of a load of size bytes extended as signed
// says.
func loadType(size int, signed bool) string {
	if signed {
		return fmt.Sprintf("s%d", 8*size)
	}
	return fmt.Sprintf("u%d", 8*size)
}
