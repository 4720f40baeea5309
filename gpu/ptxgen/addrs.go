package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// origin is the fixed address a register holds: a location's copy in the
// thread's own CTA (cta -1) or in test CTA cta (after mapa).
type origin struct {
	addr int // the address index of the location's declaration
	cta  int
}

// findAddressRegs finds the registers of role ri that hold addresses:
// those the init block sets to an address, mov sets to one, or mapa
// computes. On the GPU such a register stands for the instance's copy of
// the location, computed where it is used, so it must always hold the
// same address and never be used as a number.
func (p *Plan) findAddressRegs(ri int) error {
	r := &p.Roles[ri]
	r.addrs = map[string]origin{}
	set := func(reg string, o origin, pos fmt.Stringer) error {
		if old, ok := r.addrs[reg]; ok && old != o {
			return fmt.Errorf("%s: register %s of %s holds two different addresses, which ptxmm run cannot place: it computes each address register once", pos, reg, r.Thread.Name)
		}
		r.addrs[reg] = o
		return nil
	}
	for _, ri := range p.Test.RegInits {
		if ri.Thread == r.Index && ri.Addr != "" {
			a, ok := p.layout.Addr(ri.Addr)
			if !ok {
				return fmt.Errorf("%s: unknown address %s", ri.Pos, ri.Addr)
			}
			if err := set(ri.Reg, origin{addr: p.layout.Addrs[a].Root, cta: -1}, ri.Pos); err != nil {
				return err
			}
		}
	}
	// Two passes: a mov or mapa from a register may come before the
	// instruction that makes that register an address in the text.
	for pass := 0; pass < 2; pass++ {
		for _, in := range r.Thread.Instrs {
			switch in.Op {
			case litmus.OpMov:
				if o, ok := p.valueOrigin(r, in.A); ok {
					if err := set(in.Dst, o, in.Pos); err != nil {
						return err
					}
				}
			case litmus.OpMapa:
				o, ok := p.valueOrigin(r, in.A)
				if !ok {
					if pass == 1 {
						return fmt.Errorf("%s: %q: mapa's address operand must be a shared location or a register holding one", in.Pos, in.Text)
					}
					continue
				}
				if in.B.Kind != litmus.OperandImm {
					return fmt.Errorf("%s: %q: ptxmm run needs mapa's CTA as a number, not a register", in.Pos, in.Text)
				}
				c := p.ctaByNumber(r.Thread.GPU, int(in.B.Imm))
				if c < 0 {
					return fmt.Errorf("%s: %q: CTA %d has no thread in the test", in.Pos, in.Text, in.B.Imm)
				}
				if p.CTAs[c].Cluster != p.CTAs[r.CTA].Cluster {
					return fmt.Errorf("%s: %q: CTA %d is not in the cluster of thread %s", in.Pos, in.Text, in.B.Imm, r.Thread.Name)
				}
				o.cta = c
				if err := set(in.Dst, o, in.Pos); err != nil {
					return err
				}
			}
		}
	}
	for _, in := range r.Thread.Instrs {
		if in.Op == litmus.OpMov || in.Op == litmus.OpMapa {
			continue
		}
		for _, w := range in.WrittenRegs() {
			if _, ok := r.addrs[w]; ok {
				return fmt.Errorf("%s: %q writes a number to %s, which elsewhere holds an address: ptxmm run keeps addresses and numbers in different registers", in.Pos, in.Text, w)
			}
		}
	}
	return nil
}

// valueOrigin is the address a value operand denotes, if it denotes one.
func (p *Plan) valueOrigin(r *Role, op litmus.Operand) (origin, bool) {
	switch op.Kind {
	case litmus.OperandAddr:
		if a, ok := p.layout.Addr(op.Addr); ok {
			return origin{addr: p.layout.Addrs[a].Root, cta: -1}, true
		}
	case litmus.OperandReg:
		o, ok := r.addrs[op.Reg]
		return o, ok
	}
	return origin{}, false
}

// operandRoot is the declaration a memory operand of role ri reaches.
func (p *Plan) operandRoot(ri int, op litmus.Operand) (int, bool) {
	o, ok := p.valueOrigin(&p.Roles[ri], op)
	return o.addr, ok
}

// memOrigin is where a memory operand points.
func (p *Plan) memOrigin(r *Role, op litmus.Operand, in *litmus.Instr) (origin, error) {
	if o, ok := p.valueOrigin(r, op); ok {
		return o, nil
	}
	if op.Kind == litmus.OperandReg {
		return origin{}, fmt.Errorf("%s: %q: register %s does not hold a fixed address (set it by the init block, mov or mapa)", in.Pos, in.Text, op.Reg)
	}
	return origin{}, fmt.Errorf("%s: %q: unknown address %s", in.Pos, in.Text, op.Addr)
}
