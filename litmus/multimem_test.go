package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMultimemInstructions checks the multimem forms and their defaults
// (PTX ISA 9.7.9.14): ld_reduce and st are weak, red is relaxed at .sys.
func TestMultimemInstructions(t *testing.T) {
	cases := []struct {
		src  string
		want Instr
	}{
		{"multimem.st m, 1", Instr{Op: OpStore, Multimem: true, Addr: addr("m"), Src: imm(1)}},
		{"multimem.st.weak.global.b32 [m], r1", Instr{Op: OpStore, Multimem: true, SpaceQ: SpaceQGlobal, Addr: addr("m"), Src: reg("r1")}},
		{"multimem.st.release.cta.global.u32 [m], 2", Instr{Op: OpStore, Multimem: true, Sem: SemRelease, Scope: ScopeCTA, SpaceQ: SpaceQGlobal, Addr: addr("m"), Src: imm(2)}},
		{"multimem.ld_reduce.and.b32 r0, [m]", Instr{Op: OpLoad, Multimem: true, AtomOp: "and", Dst: "r0", Addr: addr("m")}},
		{"multimem.ld_reduce.acquire.gpu.global.add.u32 r0, m", Instr{Op: OpLoad, Multimem: true, Sem: SemAcquire, Scope: ScopeGPU, SpaceQ: SpaceQGlobal, AtomOp: "add", Dst: "r0", Addr: addr("m")}},
		{"multimem.red.add m, 2", Instr{Op: OpRed, Multimem: true, Sem: SemRelaxed, Scope: ScopeSys, AtomOp: "add", Addr: addr("m"), Src: imm(2)}},
		{"multimem.red.release.cluster.max.s64 [m], r1", Instr{Op: OpRed, Multimem: true, Sem: SemRelease, Scope: ScopeCluster, AtomOp: "max", Addr: addr("m"), Src: reg("r1")}},
		{"multimem.red.relaxed.min m, 3", Instr{Op: OpRed, Multimem: true, Sem: SemRelaxed, Scope: ScopeSys, AtomOp: "min", Addr: addr("m"), Src: imm(3)}},
		// Any other operation on a multimem address parses: it is undefined
		// when it runs (Flag multimem_address).
		{"ld r0, m", Instr{Op: OpLoad, Dst: "r0", Addr: addr("m")}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			src := "PTX I\n{ m @ multimem x, y; P0:r1 = 4; }\n P0@cta 0,gpu 0 ;\n " + tc.src + " ;\nexists (x == 0)\n"
			test := mustHerd(t, src)
			require.Len(t, test.Threads[0].Instrs, 1)
			assert.Equal(t, tc.want, stripInstr(test.Threads[0].Instrs[0]))
		})
	}
}

// TestMultimemDeclarations checks both formats' declarations: the targets
// in order, undeclared herd targets declared as global locations at 0.
func TestMultimemDeclarations(t *testing.T) {
	herd := mustHerd(t, "PTX D\n{ y = 3; m @ multimem x, y; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 1 /\\ y == 1)\n")
	m := herd.AddressByName("m")
	require.NotNil(t, m)
	assert.Equal(t, []string{"x", "y"}, m.Multimem)
	assert.Equal(t, SpaceGlobal, m.Space)
	x := herd.AddressByName("x")
	require.NotNil(t, x)
	assert.Equal(t, SpaceGlobal, x.Space)
	assert.False(t, x.Implicit, "a multimem target is declared, not implicit")
	assert.Empty(t, herd.Warnings, "no implicit-declaration warning")
	assert.Equal(t, int64(3), herd.AddressByName("y").Init)

	nv := mustNV(t, "d.test", ".global x;\n.global y = 2;\n.multimem m x, y;\nd0.b0.t0 { multimem.red.add [m], 1; }\nassert (x == 1 && y == 3) as both;\n")
	require.Len(t, nv, 1)
	assert.Equal(t, []string{"x", "y"}, nv[0].AddressByName("m").Multimem)
}

// TestMultimemParseErrors checks the positioned errors of multimem
// declarations, instructions and conditions.
func TestMultimemParseErrors(t *testing.T) {
	checkDiagCases(t, []diagCase{
		{"unknown operation", "t.litmus", spacesWith("multimem.ld r0, m"), "multimem.ld is not supported: expected multimem.ld_reduce, multimem.st or multimem.red", "4:10"},
		{"no operation", "t.litmus", spacesWith("multimem r0, m"), "multimem needs an operation", "4:2"},
		{"red without reduction", "t.litmus", spacesWith("multimem.red m, 1"), "multimem.red needs a reduction: .min, .max, .add, .and, .or or .xor", "4:2"},
		{"two reductions", "t.litmus", spacesWith("multimem.ld_reduce.add.min r0, m"), "multimem.ld_reduce has two reductions, .add and .min", "4:24"},
		{"strong st without scope", "t.litmus", spacesWith("multimem.st.relaxed m, 1"), "multimem.st.relaxed needs a scope: .cta, .cluster, .gpu or .sys", "4:13"},
		{"scope without order", "t.litmus", spacesWith("multimem.ld_reduce.gpu.add r0, m"), "scope .gpu needs a memory order: write multimem.ld_reduce.relaxed.gpu", "4:20"},
		{"weak with scope", "t.litmus", spacesWith("multimem.st.weak.sys m, 1"), "weak operations take no scope, found .sys", "4:18"},
		{"weak red", "t.litmus", spacesWith("multimem.red.weak.add m, 1"), "multimem.red cannot be .weak: expected .relaxed or .release", "4:14"},
		{"acquire st", "t.litmus", spacesWith("multimem.st.acquire.gpu m, 1"), "multimem.st cannot be .acquire", "4:13"},
		{"shared space", "t.litmus", spacesWith("multimem.st.shared m, 1"), "multimem.st cannot use .shared: expected .global", "4:13"},
		{"float type", "t.litmus", spacesWith("multimem.ld_reduce.add.f32 r0, m"), "unknown qualifier .f32 on multimem.ld_reduce", "4:24"},
		{"plain location operand", "t.litmus", spacesWith("multimem.st x, 1"), "x is not a multimem address", "4:14"},
		{"undeclared operand", "t.litmus", spacesWith("multimem.st q, 1"), "q is not a multimem address", "4:14"},
		{"shared target", "t.litmus", "PTX T\n{ s @ shared = 0; m @ multimem s; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (0:r0 == 0)\n", "s is in shared memory: a multimem address points to locations in global memory", "2:32"},
		{"itself", "t.litmus", "PTX T\n{ m @ multimem x, m; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 0)\n", "the multimem address m cannot point to itself", "2:19"},
		{"twice", "t.litmus", "PTX T\n{ x = 0; xa @ generic aliases x; m @ multimem x, xa; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 0)\n", "the multimem address m points to the location of x twice (x and xa)", "2:50"},
		{"multimem target", "t.litmus", "PTX T\n{ n @ multimem x; m @ multimem n, y; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 0)\n", "n is a multimem address: a multimem address points to memory locations", "2:32"},
		{"aliased multimem", "t.litmus", "PTX T\n{ m @ multimem x, y; a @ generic aliases m; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 0)\n", "m is a multimem address, which cannot be aliased", "2:42"},
		{"missing target", "t.litmus", "PTX T\n{ m @ multimem ; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 0)\n", "expected a location of the multimem address m, found \";\"", "2:16"},
		{"condition names it", "t.litmus", "PTX T\n{ m @ multimem x, y; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (m == 1)\n", "m is a multimem address, which has no value of its own: name one of its locations (x, y)", "5:9"},
		{"nv undeclared target", "t.test", ".global x;\n.multimem m x, y;\nd0.b0.t0 { multimem.st [m], 1; }\nassert (x == 1) as a;\n", "location \"y\" of the multimem address m is not declared: declare it first, e.g. .global y;", "2:16"},
		{"nv missing semicolon", "t.test", ".global x;\n.multimem m x\nd0.b0.t0 { multimem.st [m], 1; }\nassert (x == 1) as a;\n", "expected ',' or ';' after the locations of m", "3:1"},
		{"nv condition names it", "t.test", ".global x;\n.global y;\n.multimem m x, y;\nd0.b0.t0 { multimem.st [m], 1; }\nassert (m == 1) as a;\n", "m is a multimem address, which has no value of its own", "5:9"},
	})
}
