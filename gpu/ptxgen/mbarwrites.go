package ptxgen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// checkMBarrierWrites refuses a store, atomic or reduction into a location
// the test uses as an mbarrier (declared as one, or named by an mbarrier
// instruction or a completion: usedAsMBarrier), directly or through a
// register: undefined by the mbarrier pages (9.7.13.15), and on an H200
// such a store faulted the kernel and lost the CUDA context
// (docs/hardware.md, the fourth run). A location an mbarrier.inval names is
// left alone: a test may use its memory again after the inval
// (examples/async/MBar-inval-reuse).
func (p *Plan) checkMBarrierWrites() error {
	invalidated := map[int]bool{}
	for ri, r := range p.Roles {
		for _, in := range r.Thread.Instrs {
			if in.Op == litmus.OpMBarrier && in.MBarOp == litmus.MBarInval {
				if a, ok := p.operandRoot(ri, in.Addr); ok {
					invalidated[a] = true
				}
			}
		}
	}
	for ri, r := range p.Roles {
		for _, in := range r.Thread.Instrs {
			if in.Op != litmus.OpStore && in.Op != litmus.OpAtom && in.Op != litmus.OpRed {
				continue
			}
			a, ok := p.operandRoot(ri, in.Addr)
			if !ok || invalidated[a] {
				continue
			}
			if loc := p.locOf(a); loc != nil && (loc.MBarrier > 0 || p.usedAsMBarrier(loc)) {
				return fmt.Errorf("%s: %q: writes %s, an mbarrier object, with an instruction that is not an mbarrier operation: undefined (mbarrier pages, 9.7.13.15), and on an H200 such a store faulted the kernel and lost the CUDA context (docs/hardware.md, the fourth run)", in.Pos, in.Text, p.layout.Addrs[a].Name)
			}
		}
	}
	return nil
}
