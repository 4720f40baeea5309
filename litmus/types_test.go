package litmus

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizedInstructions checks that data types, vectors, packed types and
// address offsets reach the instruction, in both formats.
func TestSizedInstructions(t *testing.T) {
	u32, u16 := dtype("u32"), dtype("u16")
	cases := []struct {
		cell string
		want Instr
	}{
		{"st.relaxed.gpu.u8 x, 257", Instr{Op: OpStore, Sem: SemRelaxed, Scope: ScopeGPU, Addr: addr("x"), Src: imm(257), Type: dtype("u8")}},
		{"ld.u16 r0, [x+2]", Instr{Op: OpLoad, Dst: "r0", Addr: addr("x"), Type: u16, Offset: 2}},
		{"ld.s8 r0, [x + 3]", Instr{Op: OpLoad, Dst: "r0", Addr: addr("x"), Type: dtype("s8"), Offset: 3}},
		{"ld.global.v2.u32 {r0, r1}, [x]", Instr{Op: OpLoad, SpaceQ: SpaceQGlobal, Addr: addr("x"), Type: u32, Vec: 2, VecDst: []string{"r0", "r1"}}},
		{"st.release.gpu.v4.u16 [x+8], {1, r1, 3, 4}", Instr{Op: OpStore, Sem: SemRelease, Scope: ScopeGPU, Addr: addr("x"), Type: u16, Vec: 4, Offset: 8,
			VecSrc: []Operand{imm(1), reg("r1"), imm(3), imm(4)}}},
		{"ld.acquire.gpu.f16x2 r0, [x]", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeGPU, Dst: "r0", Addr: addr("x"), Type: dtype("f16x2")}},
		{"st.bf16x2 [x], 65537", Instr{Op: OpStore, Addr: addr("x"), Src: imm(65537), Type: dtype("bf16x2")}},
		{"atom.add.u64 r0, [x+8], 1", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "add", Dst: "r0", Addr: addr("x"), Src: imm(1), Type: dtype("u64"), Offset: 8}},
		{"atom.cas.b16 r0, [x], 0, 5", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "cas", Dst: "r0", Addr: addr("x"), Src: imm(0), Src2: imm(5), Type: dtype("b16")}},
		{"ld r0, [r1+4]", Instr{Op: OpLoad, Dst: "r0", Addr: reg("r1"), Offset: 4}},
	}
	for _, c := range cases {
		t.Run(c.cell, func(t *testing.T) {
			src := fmt.Sprintf("PTX T\n{ x=0; P0:r1=x; }\n P0@cta 0,gpu 0 ;\n %s ;\nexists (x == 0)\n", c.cell)
			test := mustHerd(t, src)
			assert.Equal(t, c.want, stripInstr(test.Threads[0].Instrs[0]))
		})
	}
}

// TestElements lists the scalar operations of vector and packed accesses
// (8.2.4, 8.2.5).
func TestElements(t *testing.T) {
	cases := []struct {
		cell string
		want []Element
	}{
		{"ld r0, x", []Element{{Off: 0, Size: 4, Reg: "r0"}}},
		{"ld.u8 r0, [x+3]", []Element{{Off: 3, Size: 1, Reg: "r0"}}},
		{"ld.v2.u32 {r0, r1}, [x+8]", []Element{{Off: 8, Size: 4, Reg: "r0"}, {Off: 12, Size: 4, Reg: "r1"}}},
		{"ld.f16x2 r0, [x]", []Element{{Off: 0, Size: 2, Reg: "r0"}, {Off: 2, Size: 2, Reg: "r0", Shift: 16}}},
		{"st.v2.b64 [x], {1, 2}", []Element{{Off: 0, Size: 8, Val: imm(1)}, {Off: 8, Size: 8, Val: imm(2)}}},
	}
	for _, c := range cases {
		t.Run(c.cell, func(t *testing.T) {
			test := mustHerd(t, fmt.Sprintf("PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n %s ;\nexists (x == 0)\n", c.cell))
			els := test.Threads[0].Instrs[0].Elements()
			for i := range els {
				els[i].Val.At = LineCol{}
			}
			assert.Equal(t, c.want, els)
		})
	}
}

// TestNVSizes reads vectors in thread bodies (whose braces must not close
// the thread) and typed and array declarations.
func TestNVSizes(t *testing.T) {
	src := `.global .u16 x[4] = 0;
.shared .s8 y;
.global z;
d0.b0.t0 {
  st.global.v2.u16 [x], {1, 2};
  ld.global.v4.u16 {r0, r1, r2, r3}, [x];
  st.s8 [y], -1;
}
assert (x == 0) as a;
`
	tests := mustNV(t, "s.test", src)
	require.Len(t, tests, 1)
	test := tests[0]
	assert.Equal(t, dtype("u16"), test.Addresses[0].Type)
	assert.Equal(t, 4, test.Addresses[0].Elems)
	assert.Equal(t, 8, DeclSize(test.Addresses[0].Type, test.Addresses[0].Elems))
	assert.Equal(t, dtype("s8"), test.Addresses[1].Type)
	assert.Equal(t, "", test.Addresses[2].Type.Name)
	ins := test.Threads[0].Instrs
	require.Len(t, ins, 3)
	assert.Equal(t, []string{"r0", "r1", "r2", "r3"}, ins[1].VecDst)
	assert.Len(t, ins[0].VecSrc, 2)
}

// TestSizeErrors: what PTX does not allow, or ptxmm cannot model, is a
// positioned error that says what is expected.
func TestSizeErrors(t *testing.T) {
	checkDiagCases(t, []diagCase{
		{"misaligned offset", "t.litmus", herdWith(" ld.u32 r1, [x+2] | ld r0, x ;"), `ld at offset 2 is not aligned: a 4-byte access needs an offset that is a multiple of 4`, "4:16"},
		{"misaligned vector", "t.litmus", herdWith(" ld.v2.u32 {r1, r2}, [x+4] | ld r0, x ;"), `an offset that is a multiple of 8`, "4:25"},
		{"negative offset", "t.litmus", herdWith(" ld.u8 r1, [x-1] | ld r0, x ;"), `negative address offsets are not supported`, "4:14"},
		{"offset not a number", "t.litmus", herdWith(" ld.u8 r1, [x+y] | ld r0, x ;"), `expected a byte offset after '+'`, "4:15"},
		{"offset on another instruction", "t.litmus", "PTX T\n{ b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n mbarrier.arrive [b+8] ;\nexists (b == 0)\n", `address offsets are supported on ld, st, atom and red only`, "4:20"},
		{"two types", "t.litmus", herdWith(" ld.u8.u16 r1, x | ld r0, x ;"), `ld has two data types, .u8 and .u16`, "4:7"},
		{"two vectors", "t.litmus", herdWith(" ld.v2.v4.u32 {r1, r2}, [x] | ld r0, x ;"), `ld has two vector qualifiers, .v2 and .v4`, "4:7"},
		{"vector without type", "t.litmus", herdWith(" ld.v2 {r1, r2}, x | ld r0, x ;"), `ld.v2 needs a data type for its elements`, "4:4"},
		{"vector count", "t.litmus", herdWith(" ld.v4.u32 {r1, r2}, x | ld r0, x ;"), `ld.v4 has 4 elements, found 2`, "4:12"},
		{"vector too long", "t.litmus", herdWith(" ld.v2.u32 {r1, r2, r3}, x | ld r0, x ;"), `ld.v2 has 2 elements, found more`, "4:21"},
		{"vector without braces", "t.litmus", herdWith(" st.v2.u32 x, r1 | ld r0, x ;"), `expected '{' to open the 2 elements of st.v2`, "4:15"},
		{"vector of packed", "t.litmus", herdWith(" ld.v2.f16x2 {r1, r2}, x | ld r0, x ;"), `a vector of .f16x2 is not supported`, "4:4"},
		{"vector atom", "t.litmus", herdWith(" atom.v2.add.u32 r1, x, 1 | ld r0, x ;"), `atom.v2 is not supported: vectors are supported on ld and st`, "4:6"},
		{"8-bit atom", "t.litmus", herdWith(" atom.add.u8 r1, x, 1 | ld r0, x ;"), `atom has no .u8 form`, "4:10"},
		{"16-bit add", "t.litmus", herdWith(" red.add.u16 x, 1 | ld r0, x ;"), `red has no .u16 form`, "4:9"},
		{"filter wider than a typed load", "t.test", ".global x;\nd0.b0.t0 { ld.u8 r0, [x] == 257; }\nassert (r0 == 0) as a;\n", `a 1-byte load never returns 257`, "2:29"},
		{"filter wider than an untyped load", "t.test", ".global x;\nd0.b0.t0 { ld r0, [x] == 4294967296; }\nassert (r0 == 0) as a;\n", `a 4-byte load never returns 4294967296`, "2:26"},
		{"16-bit cas other than b16", "t.litmus", herdWith(" atom.cas.u16 r1, x, 0, 1 | ld r0, x ;"), `atom has no .u16 form: expected .u32, .s32, .b32, .u64, .s64 or .b64 (and .b16 for atom.cas)`, "4:10"},
		{"float atom", "t.litmus", herdWith(" atom.add.f32 r1, x, 1 | ld r0, x ;"), `ptxmm has no floating-point arithmetic`, "4:10"},
		{"vector filter", "t.test", nvWith("  ld.v2.u32 {r1, r2}, [x] == 1;"), `a vector load takes no filter`, "3:27"},
		{"declared type on alias", "t.test", ".global x;\n.global .u32 y physically aliases x;\nd0.b0.t0 { ld r0, [y]; }\nassert (r0 == 0) as a;\n", `alias y takes no data type`, "2:14"},
		{"array without type", "t.test", ".global x[2];\nd0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `an array needs an element type`, "1:10"},
		{"array length", "t.test", ".global .u8 x[0];\nd0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `array length 0 is out of range`, "1:15"},
		{"packed declaration", "t.test", ".global .f16x2 x;\nd0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `expected an address name or a data type`, "1:9"},
	})
}

// TestUnsignedLiterals: 64-bit constants keep their bits.
func TestUnsignedLiterals(t *testing.T) {
	test := mustHerd(t, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.u64 x, 0xFFFFFFFFFFFFFFFF ;\nexists (x == 18446744073709551615)\n")
	assert.Equal(t, int64(-1), test.Threads[0].Instrs[0].Src.Imm)
}
