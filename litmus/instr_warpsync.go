package litmus

// This file parses bar.warp.sync (PTX ISA 9.7.13.2):
//
//	bar.warp.sync membermask
//
// The executing thread waits until every thread of its warp whose lane the
// 32-bit member mask names has executed a bar.warp.sync with the same mask
// or has exited (the CUDA guide's __syncwarp: "all non-exited threads named
// in mask"), and the instruction page says it "also guarantee[s] memory
// ordering among threads participating in barrier" (docs/model.md,
// "bar.warp.sync"). The mask is an immediate: which threads meet must be
// known from the test.

// parseWarpSync parses bar.warp.sync for thread (its index in the test).
func (p *parser) parseWarpSync(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) != 2 || m.qs[1].name != "sync" {
		p.errorf(m.off, "%s is not supported: expected bar.warp.sync membermask", m.text)
		return false
	}
	off := c.peek().off
	if !startsInt(c) {
		p.errorf(off, "the member mask of bar.warp.sync must be an integer (such as 0x3, lanes 0 and 1), found %s", c.peek().describe())
		return false
	}
	mask, _, ok := p.intLit(c)
	if !ok {
		return false
	}
	if mask <= 0 || mask > 0xffffffff {
		p.errorf(off, "the member mask of bar.warp.sync must be a non-zero 32-bit mask, found %d", mask)
		return false
	}
	th := p.threads[thread].th
	switch {
	case th.Host:
		p.errorf(m.off, "bar.warp.sync is a device instruction: host thread %s cannot execute it", th.Name)
		return false
	case !th.LaneNamed:
		p.errorf(m.off, "bar.warp.sync needs the lane of %s: write %s@cta N,gpu M,warp W,lane L", th.Name, th.Name)
		return false
	case mask&(1<<uint(th.Lane)) == 0:
		// "The behavior of bar.warp.sync is undefined if the executing
		// thread is not in the membermask."
		p.errorf(off, "the member mask %#x of bar.warp.sync leaves out the lane %d of %s, which executes it: the behaviour is undefined (PTX ISA, bar.warp.sync)", mask, th.Lane, th.Name)
		return false
	}
	pos := p.pos(off)
	in.Op, in.BarKind, in.BarWarp = OpBarrier, BarSync, true
	in.Instance = Operand{Kind: OperandImm, Imm: mask, At: lineColOf(pos)}
	in.BarID = Operand{Kind: OperandImm, Imm: 0, At: lineColOf(pos)}
	// No count: the barrier waits for the mask's threads that have not
	// exited, as barrier.sync without a count waits for its CTA's.
	return p.endOperands(c, m.text)
}
