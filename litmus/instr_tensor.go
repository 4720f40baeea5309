package litmus

import (
	"slices"
	"strconv"
)

// This file parses the tensor copies (TMA) in their tile mode (PTX ISA,
// cp.async.bulk.tensor and cp.reduce.async.bulk.tensor):
//
//	cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes y, [tm, {c...}], b
//	cp.async.bulk.tensor.Nd.shared::cta.global{.tile}.mbarrier::complete_tx::bytes y, [tm, {c...}], b
//	cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [tm, {c...}], x
//	cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add{.tile}.bulk_group [tm, {c...}], x
//
// A tensor copy becomes the bulk copy of the same direction (Copy
// CopyBulkLoad, CopyBulkStore or CopyBulkReduce) whose global operand is
// the location of its tensor map and whose size is the box's bytes: the
// page gives it the memory semantics of cp.async.bulk (docs/model.md,
// "Tensor copies").

// tensorForms lists the supported tensor copies for diagnostics.
const tensorForms = "cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes, " +
	"cp.async.bulk.tensor.Nd.shared::cta.global.mbarrier::complete_tx::bytes, " +
	"cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group or " +
	"cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add.bulk_group (N from 1 to 5, .tile optional)"

// tensorModes are the load modes of the page other than .tile, which
// ptxmm does not model: they rearrange the box's elements, and ptxmm
// copies a box as one whole value.
var tensorModes = []string{"tile::gather4", "tile::scatter4", "im2col", "im2col::w", "im2col::w::128", "im2col_no_offs", "im2col_no_offs::w"}

// parseTensorCopy parses a tensor copy from qualifier index first on (the
// one after .tensor).
func (p *parser) parseTensorCopy(c *cursor, in *Instr, m mnemonic, thread, first int, reduce bool) bool {
	mn := "cp.async.bulk.tensor"
	if reduce {
		mn = "cp.reduce.async.bulk.tensor"
	}
	var b bulkQuals
	var dimQ *qual
	dim := 0
	for i := first; i < len(m.qs); i++ {
		x := &m.qs[i]
		taken, ok := p.bulkQual(&b, x, mn, reduce)
		switch {
		case !ok:
			return false
		case taken, x.name == "tile", x.name == "cta_group::1", hintKindOf(x.name) == hintCachePol:
		case len(x.name) == 2 && x.name[1] == 'd' && x.name[0] >= '1' && x.name[0] <= '5':
			if dimQ != nil {
				p.errorf(x.off, "%s has two dimensions, .%s and .%s", mn, dimQ.name, x.name)
				return false
			}
			dimQ, dim = x, int(x.name[0]-'0')
		case x.name == "cta_group::2":
			p.errorf(x.off, "%s.cta_group::2 is not supported: ptxmm models .cta_group::1, the default (the mbarrier in the destination's CTA)", mn)
			return false
		case slices.Contains(tensorModes, x.name):
			p.errorf(x.off, "%s.%s is not supported: ptxmm models the .tile mode, which copies the box as it is (the box is one whole location)", mn, x.name)
			return false
		default:
			p.errorf(x.off, "unknown qualifier .%s on %s: expected %s", x.name, mn, tensorForms)
			return false
		}
	}
	if dimQ == nil {
		p.errorf(m.off, "%s needs the dimension of the tensor: .1d, .2d, .3d, .4d or .5d", mn)
		return false
	}
	if !p.bulkQualsComplete(&b, m, mn, mn+"."+dimQ.name) || !p.bulkDirection(in, mn, tensorForms, &b, reduce) ||
		!p.multicastForm(in, &b, mn) {
		return false
	}
	mnd := mn + "." + strconv.Itoa(dim) + "d"
	if in.Copy == CopyBulkLoad {
		if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mnd, false, -1); !ok {
			return false
		}
		if !p.expectComma(c, mnd, "destination") || !p.tensorOperand(c, in, &in.Mem2, thread, dim, mnd) || !p.expectComma(c, mnd, "tensor operand") {
			return false
		}
		if _, ok := p.memOperandTo(c, in, &in.MBar, thread, mnd, false, -1); !ok || !p.ctaMask(c, in, mnd) {
			return false
		}
	} else {
		if !p.tensorOperand(c, in, &in.Addr, thread, dim, mnd) || !p.expectComma(c, mnd, "tensor operand") {
			return false
		}
		if _, ok := p.memOperandTo(c, in, &in.Mem2, thread, mnd, false, -1); !ok {
			return false
		}
	}
	if !p.copyPolicy(c, m, mnd) {
		return false
	}
	return p.endOperands(c, mnd)
}
