package litmus

// ReadOperands lists every operand an instruction reads: registers,
// constants and addresses. wgmma.mma_async also reads its accumulator
// register (D := D + A + B).
func (in *Instr) ReadOperands() []Operand {
	ops := []Operand{in.Addr, in.Src, in.Src2, in.A, in.B, in.Instance, in.BarID, in.Count, in.Pred, in.Guard, in.Mem2, in.Mem3, in.MBar, in.Size}
	if in.Op == OpWgmma && in.Dst != "" {
		ops = append(ops, Operand{Kind: OperandReg, Reg: in.Dst, Pos: in.Pos})
	}
	return ops
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
