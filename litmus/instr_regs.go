package litmus

// ReadOperands lists every operand an instruction reads: registers,
// constants and addresses. wgmma.mma_async also reads its accumulator
// register (D := D + A + B).
func (in *Instr) ReadOperands() []Operand {
	ops := []Operand{in.Addr, in.Src, in.Src2, in.A, in.B, in.Instance, in.BarID, in.Count, in.Pred, in.Guard, in.Mem2, in.Mem3, in.MBar, in.Size, in.CtaMask}
	if in.Op == OpWgmma && in.Dst != "" {
		ops = append(ops, Operand{Kind: OperandReg, Reg: in.Dst, At: lineColOf(in.Pos)})
	}
	return append(ops, in.VecSrc...)
}

// WrittenReg returns the register an instruction writes, or "" when it
// writes none.
func (in *Instr) WrittenReg() string {
	switch in.Op {
	case OpLoad, OpAtom, OpMov, OpArith, OpSetp, OpMBarrier, OpWgmma, OpMapa, OpTcgen05, OpAPI:
		return in.Dst
	case OpBarrier:
		return in.Dst // bar.red's result; "" for the other barriers
	}
	return ""
}

// WrittenRegs returns every register an instruction writes: WrittenReg's,
// or the registers of a vector load.
func (in *Instr) WrittenRegs() []string {
	if len(in.VecDst) > 0 {
		return in.VecDst
	}
	if d := in.WrittenReg(); d != "" {
		return []string{d}
	}
	return nil
}
