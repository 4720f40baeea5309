package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tensorWith builds a herd test whose only instruction is instr (line 4,
// column 2), with global x, shared y, mbarrier b and tensor map tm (x's
// 16 bytes) declared, plus the extra init entries.
func tensorWith(extra, instr string) string {
	return "PTX T\n{ x=0; y @ shared = 0; b @ mbarrier 1; tm @ tensormap x, 16;" + extra + " }\n P0@cta 0,cluster 0,gpu 0 ;\n " + instr + " ;\nexists (x == 0)\n"
}

// TestTensorCopyForms checks what the accepted tensor copies become: the
// bulk copy of their direction on the tensor map's location, with the
// box's bytes as size.
func TestTensorCopyForms(t *testing.T) {
	cases := []struct {
		instr      string
		copy       CopyKind
		global     *Operand
		dim, nargs int
	}{
		{"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes y, [tm, {0, 1}], b", CopyBulkLoad, nil, 2, 2},
		{"cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [y], [tm, {r1}], [b], r2", CopyBulkLoad, nil, 1, 1},
		{"cp.async.bulk.tensor.mbarrier::complete_tx::bytes.shared::cluster.global.5d.cta_group::1 y, [tm, {0, 0, 0, 0, -1}], b", CopyBulkLoad, nil, 5, 5},
		{"cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [tm, {0, 0, 0}], y", CopyBulkStore, nil, 3, 3},
		{"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [tm, {0, 0}], [y]", CopyBulkReduce, nil, 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.instr, func(t *testing.T) {
			test, err := ParseHerd("t.litmus", []byte(tensorWith("", tc.instr)))
			require.NoError(t, err)
			in := test.Threads[0].Instrs[0]
			require.NotNil(t, in.Tensor)
			assert.Equal(t, OpCopy, in.Op)
			assert.Equal(t, tc.copy, in.Copy)
			assert.Equal(t, "tm", in.Tensor.Map)
			assert.Equal(t, tc.dim, in.Tensor.Dim)
			assert.Len(t, in.Tensor.Coords, tc.nargs)
			assert.Equal(t, int64(16), in.Size.Imm)
			global := in.Mem2
			if tc.copy != CopyBulkLoad {
				global = in.Addr
			}
			assert.Equal(t, "x", global.Addr)
			assert.Equal(t, LineCol{Line: 2, Col: 55}, global.At, "the global operand points at the tensor map's location")
		})
	}
}

// TestTensorCopyNV checks the .test spelling: ".tensormap tm g, BYTES;".
func TestTensorCopyNV(t *testing.T) {
	src := ".global g = 7;\n.shared s;\n.mbarrier b 1;\n.tensormap tm g, 32;\nd0.b0.t0 {\n  mbarrier.arrive.expect_tx [b], 32;\n" +
		"  cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes [s], [tm, {0}], [b];\n  ld.shared r0, [s];\n}\nassert (r0 == 7) as loaded;\n"
	tests, err := Parse("t.test", []byte(src), FormatNV)
	require.NoError(t, err)
	in := tests[0].Threads[0].Instrs[1]
	require.NotNil(t, in.Tensor)
	assert.Equal(t, "g", in.Mem2.Addr)
	assert.Equal(t, int64(32), in.Size.Imm)
	require.Len(t, tests[0].TensorMaps, 1)
}

// TestTensorCopyErrors checks the positioned errors of malformed tensor
// copies and tensor-map declarations.
func TestTensorCopyErrors(t *testing.T) {
	load := "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
	cases := []struct{ name, src, msg, at string }{
		{"no dimension", tensorWith("", "cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes y, [tm, {0}], b"), "needs the dimension of the tensor", "4:2"},
		{"two dimensions", tensorWith("", "cp.async.bulk.tensor.1d.2d.shared::cluster.global.mbarrier::complete_tx::bytes y, [tm, {0}], b"), "has two dimensions, .1d and .2d", "4:25"},
		{"six dimensions", tensorWith("", "cp.async.bulk.tensor.6d.shared::cluster.global.mbarrier::complete_tx::bytes y, [tm, {0}], b"), "unknown qualifier .6d on cp.async.bulk.tensor", "4:22"},
		{"coordinate count", tensorWith("", load+" y, [tm, {0}], b"), "has 1 tensor coordinates, but .2d needs 2", "4:86"},
		{"no mechanism", tensorWith("", "cp.async.bulk.tensor.1d.shared::cluster.global y, [tm, {0}], b"), "needs a completion mechanism", "4:2"},
		{"wrong mechanism", tensorWith("", "cp.async.bulk.tensor.1d.global.shared::cta.mbarrier::complete_tx::bytes [tm, {0}], y"), "is not supported: expected cp.async.bulk.tensor.Nd", "4:25"},
		{"im2col", tensorWith("", "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes y, [tm, {0, 0, 0}], b, {r1}"), ".im2col is not supported: ptxmm models the .tile mode", "4:48"},
		{"gather4", tensorWith("", "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes y, [tm, {0, 0, 0, 0, 0}], b"), ".tile::gather4 is not supported", "4:48"},
		{"cta pair", tensorWith("", load+".cta_group::2 y, [tm, {0, 0}], b"), ".cta_group::2 is not supported", "4:77"},
		{"reduce min", tensorWith("", "cp.reduce.async.bulk.tensor.1d.global.shared::cta.min.bulk_group [tm, {0}], y"), "needs the operation .add", "4:51"},
		{"op on a copy", tensorWith("", "cp.async.bulk.tensor.1d.global.shared::cta.add.bulk_group [tm, {0}], y"), "unknown qualifier .add on cp.async.bulk.tensor", "4:44"},
		{"not a tensor map", tensorWith("", load+" y, [x, {0, 0}], b"), "x is not a tensor map: declare it before the threads", "4:82"},
		{"plain global operand", tensorWith("", load+" y, x, b"), "expected the tensor operand [TENSORMAP, {COORDINATES}]", "4:81"},
		{"unclosed coordinates", tensorWith("", load+" y, [tm, {0, 0], b"), "expected ',' or '}' after a tensor coordinate", "4:91"},
		{"address coordinate", tensorWith("", load+" y, [tm, {0, [x]}], b"), "expected an integer or a register as the tensor coordinate", "4:90"},
		{"store without source", tensorWith("", "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [tm, {0}]"), "expected ',' after the tensor operand", "4:66"},
		{"load into global", tensorWith("", load+" x, [tm, {0, 0}], b"), "is in global memory: it must be a shared-memory location", "4:78"},
		{"box in shared memory", "PTX T\n{ y @ shared = 0; b @ mbarrier 1; tm @ tensormap y, 16; }\n P0@cta 0,gpu 0 ;\n " + load + " y, [tm, {0, 0}], b ;\nexists (0:r0 == 0)\n", "is in shared memory", "2:50"},
		{"zero box", tensorWith(" tn @ tensormap x, 0;", "fence.proxy.async"), "the box of tensor map tn must hold 1 to 1048575 bytes, found 0", "2:80"},
		{"box without size", "PTX T\n{ x=0; tm @ tensormap x; }\n P0@cta 0,gpu 0 ;\n fence.proxy.async ;\nexists (x == 0)\n", "expected ',' and the size of the box in bytes", "2:24"},
		{"twice", tensorWith(" tm @ tensormap x, 32;", "fence.proxy.async"), "tensor map \"tm\" is already declared at line 2", "2:62"},
		{"name used as an address", tensorWith("", "ld r0, tm"), "tm is declared as a tensor map and used as an address", "2:40"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireDiagnosticAt(t, tc.src, tc.msg, tc.at) })
	}
}

// requireDiagnosticAt parses the herd test src and requires a diagnostic
// containing msg at line:column at.
func requireDiagnosticAt(t *testing.T, src, msg, at string) {
	t.Helper()
	_, err := ParseHerd("t.litmus", []byte(src))
	requireDiagnostic(t, err, msg, at)
}
