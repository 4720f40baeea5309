package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// formOf is the form of address an instruction's state-space qualifier
// asks for.
func formOf(q litmus.SpaceQual) form {
	switch q {
	case litmus.SpaceQGlobal:
		return formGlobal
	case litmus.SpaceQShared:
		return formCTA
	case litmus.SpaceQCluster:
		return formCluster
	}
	return formGeneric
}

// addr returns a register holding the address of memory operand op in
// form f, computing it before the test starts the first time it is
// needed.
func (rg *roleGen) addr(op litmus.Operand, f form, in *litmus.Instr) (string, error) {
	o, err := rg.p.memOrigin(rg.r, op, in)
	if err != nil {
		return "", err
	}
	loc := rg.p.locOf(o.addr)
	if loc == nil {
		return "", fmt.Errorf("%s: %q: %s is not a location ptxmm run places", in.Pos, in.Text, rg.p.Test.Addresses[o.addr].Name)
	}
	if loc.Space == litmus.SpaceGlobal && (f == formCTA || f == formCluster) {
		return "", fmt.Errorf("%s: %q: %s is in global memory", in.Pos, in.Text, loc.Name)
	}
	if loc.Space == litmus.SpaceShared && f == formGlobal {
		return "", fmt.Errorf("%s: %q: %s is in shared memory", in.Pos, in.Text, loc.Name)
	}
	if o.cta >= 0 && f == formCTA {
		if o.cta != rg.r.CTA {
			return "", fmt.Errorf("%s: %q: a .shared::cta access reaches only the thread's own CTA, not CTA %d's copy", in.Pos, in.Text, rg.p.CTAs[o.cta].Number)
		}
	}
	if o.cta == rg.r.CTA {
		o.cta = -1 // mapa to the thread's own CTA is its own copy
	}
	if f == formCluster && o.cta < 0 {
		f = formCTA // an own-CTA .shared::cta address is a valid .shared::cluster one
	}
	key := addrKey{o: o, form: f}
	if reg, ok := rg.addrs[key]; ok {
		return reg, nil
	}
	e := rg.e
	old := e.to(&rg.pre)
	defer e.to(old)
	reg := e.rd64()
	rg.addrs[key] = reg
	switch {
	case loc.Space == litmus.SpaceGlobal:
		e.comment("%s of this instance", loc.Name)
		gen := rg.globalAddr(loc)
		if f == formGlobal {
			e.ins("cvta.to.global.u64 %s, %s", reg, gen)
		} else {
			e.ins("mov.u64 %s, %s", reg, gen)
		}
	case o.cta < 0 && f == formCTA:
		e.comment("%s of this instance in this CTA", loc.Name)
		e.ins("add.u64 %s, %%k_sm, %d", reg, loc.Offset)
	case o.cta < 0:
		e.comment("%s of this instance in this CTA, generic", loc.Name)
		cta, err := rg.addr(op, formCTA, in)
		if err != nil {
			return "", err
		}
		e.ins("cvta.shared.u64 %s, %s", reg, cta)
	default:
		c := rg.p.CTAs[o.cta]
		own, err := rg.ownCopy(o, loc, f)
		if err != nil {
			return "", err
		}
		e.comment("%s of this instance in CTA %d (rank %d of the cluster)", loc.Name, c.Number, c.Rank)
		if f == formCluster {
			e.ins("mapa.shared::cluster.u64 %s, %s, %d", reg, own, c.Rank)
		} else {
			e.ins("mapa.u64 %s, %s, %d", reg, own, c.Rank)
		}
	}
	return reg, nil
}

// ownCopy is the address of the thread's own copy of a shared location,
// in the window mapa maps from: .shared::cta for a .shared::cluster
// result, generic for a generic one.
func (rg *roleGen) ownCopy(o origin, loc *Loc, f form) (string, error) {
	own := origin{addr: o.addr, cta: -1}
	key := addrKey{o: own, form: formCTA}
	if f == formGeneric {
		key.form = formGeneric
	}
	if reg, ok := rg.addrs[key]; ok {
		return reg, nil
	}
	e := rg.e
	reg := e.rd64()
	rg.addrs[key] = reg
	if key.form == formCTA {
		e.ins("add.u64 %s, %%k_sm, %d", reg, loc.Offset)
		return reg, nil
	}
	cta := e.rd64()
	e.ins("add.u64 %s, %%k_sm, %d", cta, loc.Offset)
	e.ins("cvta.shared.u64 %s, %s", reg, cta)
	return reg, nil
}

// globalAddr is the generic address of the instance's copy of a global
// location: slot (i*globals + q)*LocMul mod (instances*globals).
func (rg *roleGen) globalAddr(loc *Loc) string {
	if reg, ok := rg.locAddr[loc.Index]; ok {
		return reg
	}
	e, p := rg.e, rg.p
	base, mul, stride := param(e, prmBase), param(e, prmLocMul), param(e, prmLocStride)
	rows, groups := param(e, prmRows), param(e, prmGroups)
	n := e.rd64()
	e.ins("mul.lo.u64 %s, %s, %s", n, rows, groups)
	e.ins("mul.lo.u64 %s, %s, %d", n, n, 32*len(p.Globals))
	x := e.rd64()
	e.ins("mad.lo.u64 %s, %%k_inst, %d, %d", x, len(p.Globals), loc.Index)
	e.ins("mul.lo.u64 %s, %s, %s", x, x, mul)
	e.ins("rem.u64 %s, %s, %s", x, x, n)
	e.ins("mad.lo.u64 %s, %s, %s, %s", x, x, stride, base)
	rg.locAddr[loc.Index] = x
	return x
}
