package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMulticastForms checks the .multicast::cluster loads: the ctaMask
// operand after the mbarrier (before a cache policy) and its width.
func TestMulticastForms(t *testing.T) {
	bulk := "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
	tensor := "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
	cases := []struct {
		instr string
		mask  Operand
		bits  int
	}{
		{bulk + ".multicast::cluster y, x, 16, b, 3", Operand{Kind: OperandImm, Imm: 3}, 16},
		{bulk + ".multicast::cluster::16b.L2::cache_hint [y], [x], 16, [b], r1, r2", Operand{Kind: OperandReg, Reg: "r1"}, 16},
		{bulk + ".multicast::cluster::32b y, x, 16, b, 0x80000000", Operand{Kind: OperandImm, Imm: 1 << 31}, 32},
		{tensor + ".multicast::cluster y, [tm, {0, 0}], b, 2", Operand{Kind: OperandImm, Imm: 2}, 16},
		{"cp.async.bulk.tensor.1d.multicast::cluster.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint y, [tm, {0}], b, 1, 5", Operand{Kind: OperandImm, Imm: 1}, 16},
	}
	for _, tc := range cases {
		t.Run(tc.instr, func(t *testing.T) {
			test, err := ParseHerd("t.litmus", []byte(tensorWith("", tc.instr)))
			require.NoError(t, err)
			in := test.Threads[0].Instrs[0]
			assert.Equal(t, CopyBulkLoad, in.Copy)
			assert.Equal(t, tc.bits, in.CtaMaskBits)
			assert.Equal(t, tc.mask.Kind, in.CtaMask.Kind)
			assert.Equal(t, tc.mask.Imm, in.CtaMask.Imm)
			assert.Equal(t, tc.mask.Reg, in.CtaMask.Reg)
			assert.Contains(t, in.ReadOperands(), in.CtaMask, "the mask is an operand the instruction reads")
		})
	}
	plain, err := ParseHerd("t.litmus", []byte(tensorWith("", bulk+" y, x, 16, b")))
	require.NoError(t, err)
	assert.Equal(t, OperandNone, plain.Threads[0].Instrs[0].CtaMask.Kind, "a unicast load has no mask")
}

// TestMulticastNV checks the .test spelling, with bracketed operands.
func TestMulticastNV(t *testing.T) {
	src := ".global g = 7;\n.shared s;\n.mbarrier b 1;\nd0.b0.t0 {\n  mbarrier.arrive.expect_tx [b], 16;\n" +
		"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [s], [g], 16, [b], 1;\n  ld.shared r0, [s];\n}\nassert (r0 == 7) as loaded;\n"
	tests, err := Parse("t.test", []byte(src), FormatNV)
	require.NoError(t, err)
	in := tests[0].Threads[0].Instrs[1]
	assert.Equal(t, int64(1), in.CtaMask.Imm)
}

// TestMulticastErrors checks the positioned errors of malformed multicast
// loads.
func TestMulticastErrors(t *testing.T) {
	bulk := "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
	cases := []struct{ name, src, msg, at string }{
		{"no mask", tensorWith("", bulk+".multicast::cluster y, x, 16, b"), "expected ',' after the mbarrier of cp.async.bulk, found \";\"", "4:99"},
		{"zero mask", tensorWith("", bulk+".multicast::cluster y, x, 16, b, 0"), "the ctaMask of cp.async.bulk must name at least one CTA with its 16 bits, found 0", "4:100"},
		{"wide mask", tensorWith("", bulk+".multicast::cluster y, x, 16, b, 0x10000"), "with its 16 bits, found 65536", "4:100"},
		{"two qualifiers", tensorWith("", bulk+".multicast::cluster.multicast::cluster::32b y, x, 16, b, 1"), "has two multicast qualifiers", "4:86"},
		{"unknown width", tensorWith("", bulk+".multicast::cluster::64b y, x, 16, b, 1"), "unknown qualifier .multicast::cluster::64b on cp.async.bulk", "4:67"},
		{"into one CTA", tensorWith("", "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster y, x, 16, b, 1"), "needs the direction .shared::cluster.global", "4:63"},
		{"store", tensorWith("", "cp.async.bulk.global.shared::cta.bulk_group.multicast::cluster x, y, 16, 1"), "copies into the shared memory of several CTAs", "4:45"},
		{"reduction", tensorWith("", "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.multicast::cluster x, y, 16"), "copies into the shared memory of several CTAs", "4:56"},
		{"tensor no mask", tensorWith("", "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster y, [tm, {0}], b"), "expected ',' after the mbarrier of cp.async.bulk.tensor.1d", "4:113"},
		{"tensor store", tensorWith("", "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.multicast::cluster [tm, {0}], y"), "needs the direction .shared::cluster.global", "4:55"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireDiagnosticAt(t, tc.src, tc.msg, tc.at) })
	}
}
