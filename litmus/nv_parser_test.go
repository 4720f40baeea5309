package litmus

import (
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nvInstrTest wraps one instruction in a one-thread .test file after the
// label L; the instruction is on line 8.
func nvInstrTest(instr string) string {
	return ".global x;\n.surfref s virtually aliases x;\n.texref t virtually aliases x;\n.constref c virtually aliases x;\n" +
		"d0.b0.t0 {\n  mov r1, 0;\nL:\n  " + instr + ";\n}\nassert (x == 0) as a;\n"
}

func TestNVInstructions(t *testing.T) {
	cases := []struct {
		src  string
		want Instr
	}{
		{"st [x], 1", Instr{Op: OpStore, Addr: addr("x"), Src: imm(1)}},
		{"st.release.cta [x], 1", Instr{Op: OpStore, Sem: SemRelease, Scope: ScopeCTA, Addr: addr("x"), Src: imm(1)}},
		{"st.relaxed.sys [x], r1", Instr{Op: OpStore, Sem: SemRelaxed, Scope: ScopeSys, Addr: addr("x"), Src: reg("r1")}},
		{"ld.acquire.cta r0, [x] == 1", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeCTA, Dst: "r0", Addr: addr("x"), Filter: int64p(1)}},
		{"ld r2, [x] == -4", Instr{Op: OpLoad, Dst: "r2", Addr: addr("x"), Filter: int64p(-4)}},
		{"ld r2, [x]", Instr{Op: OpLoad, Dst: "r2", Addr: addr("x")}},
		{"ld r2, [r1]", Instr{Op: OpLoad, Dst: "r2", Addr: reg("r1")}},
		{"sust [s], 1", Instr{Op: OpStore, Proxy: ProxySurface, Addr: addr("s"), Src: imm(1)}},
		{"suld r0, [s]", Instr{Op: OpLoad, Proxy: ProxySurface, Dst: "r0", Addr: addr("s")}},
		{"tld r0, [t]", Instr{Op: OpLoad, Proxy: ProxyTexture, Dst: "r0", Addr: addr("t")}},
		{"cold r0, [c]", Instr{Op: OpLoad, Proxy: ProxyConstant, Dst: "r0", Addr: addr("c")}},
		{"st.volatile [x], 2", Instr{Op: OpStore, Sem: SemVolatile, Addr: addr("x"), Src: imm(2)}},
		{"ld.volatile r1, [x]", Instr{Op: OpLoad, Sem: SemVolatile, Dst: "r1", Addr: addr("x")}},
		{"atom.add.acq_rel.gpu r1, [x], 1", Instr{Op: OpAtom, Sem: SemAcqRel, Scope: ScopeGPU, AtomOp: "add", Dst: "r1", Addr: addr("x"), Src: imm(1)}},
		{"atom.cas r1, [x], 0, r1", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "cas", Dst: "r1", Addr: addr("x"), Src: imm(0), Src2: reg("r1")}},
		{"red.add.release.cta [x], 1", Instr{Op: OpRed, Sem: SemRelease, Scope: ScopeCTA, AtomOp: "add", Addr: addr("x"), Src: imm(1)}},
		{"fence.sc.cta", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeCTA}},
		{"fence.acq_rel.sys", Instr{Op: OpFence, Sem: SemAcqRel, Scope: ScopeSys}},
		{"fence.proxy.surface", Instr{Op: OpProxyFence, Proxy: ProxySurface}},
		{"fence.proxy.alias", Instr{Op: OpProxyFence, Alias: true}},
		{"membar.gl", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeGPU}},
		// PTX operands: the logical barrier (which also names the
		// instance), then the thread count.
		{"bar.sync 1", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(1), BarID: imm(1)}},
		{"bar.sync 1, 64", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(1), BarID: imm(1), Count: imm(64)}},
		{"bar.arrive r1, 2", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: reg("r1"), BarID: reg("r1"), Count: imm(2)}},
		{"barrier.cta.sync 0", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(0), BarID: imm(0)}},
		{"barrier.sync.aligned 2, 64", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(2), BarID: imm(2), Count: imm(64)}},
		{"barrier.arrive 1, 64", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: imm(1), BarID: imm(1), Count: imm(64)}},
		{"bar.red.popc.u32 r2, 1, 64, !r1", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedPopc, Dst: "r2", Instance: imm(1), BarID: imm(1), Count: imm(64), Pred: reg("r1"), PredNeg: true}},
		{"barrier.cta.red.and.aligned.pred p, 0, r1", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedAnd, Dst: "p", Instance: imm(0), BarID: imm(0), Pred: reg("r1")}},
		{"bar.cta.red.or.pred p, r1, r1", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedOr, Dst: "p", Instance: reg("r1"), BarID: reg("r1"), Pred: reg("r1")}},
		{"mov r3, r1", Instr{Op: OpMov, Dst: "r3", A: reg("r1")}},
		{"add r3, r1, 2", Instr{Op: OpArith, ArithOp: "add", Dst: "r3", A: reg("r1"), B: imm(2)}},
		{"bne r1, 0, L", Instr{Op: OpBranch, Cmp: "ne", A: reg("r1"), B: imm(0), Label: "L"}},
		{"setp.ne.b32 p, r1, 0", Instr{Op: OpSetp, Cmp: "ne.b32", Dst: "p", A: reg("r1"), B: imm(0)}},
		{"@p bra L", Instr{Op: OpGoto, Label: "L", Guard: reg("p")}},
		{"@!p ld.acquire.gpu r2, [x]", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeGPU, Dst: "r2", Addr: addr("x"), Guard: reg("p"), GuardNeg: true}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			tests := mustNV(t, "i.test", nvInstrTest(tc.src))
			require.Len(t, tests, 1)
			instrs := tests[0].Threads[0].Instrs
			require.Len(t, instrs, 3)
			in := instrs[2]
			assert.Equal(t, tc.want, stripInstr(in))
			assert.Equal(t, tc.src, in.Text)
			assert.Equal(t, source.Pos{File: "i.test", Line: 8, Col: 3}, in.Pos)
		})
	}
}

func TestNVStructure(t *testing.T) {
	src := `// declarations
.global x = 5;
.global flag;
.shared sh;
.global y physically aliases x;
/* references
   through the other proxies */
.surfref s virtually aliases x;
.texref t virtually aliases y;
.constref c virtually aliases x;

d0.b0.t0 {
  st [x], 1;
  st.release.gpu [flag], 1;
}

d1.c2.b3.t4 {
  ld.acquire.gpu r0, [flag] == 1;
  ld r1, [y];
  st [sh], r1;
}

assert (r1 == 1 && x == 1) as outcome;
permit(r0 != 0 || !(r1 == 1)) as r0;
check (r0 == 1) as c1;
`
	tests := mustNV(t, "dir/Decl_test.test", src)
	require.Len(t, tests, 1)
	test := tests[0]
	assert.Equal(t, "Decl_test", test.Name)
	assert.Equal(t, "dir/Decl_test.test", test.File)
	assert.Equal(t, FormatNV, test.Format)
	assert.Equal(t, 0, test.Instance)
	assert.Nil(t, test.Condition)

	type addrWant struct {
		name, alias string
		space       Space
		kind        Proxy
		init        int64
		hasInit     bool
	}
	var got []addrWant
	for _, a := range test.Addresses {
		got = append(got, addrWant{a.Name, a.AliasOf, a.Space, a.Kind, a.Init, a.HasInit})
	}
	assert.Equal(t, []addrWant{
		{"x", "", SpaceGlobal, ProxyGeneric, 5, true},
		{"flag", "", SpaceGlobal, ProxyGeneric, 0, false},
		{"sh", "", SpaceShared, ProxyGeneric, 0, false},
		{"y", "x", SpaceGlobal, ProxyGeneric, 0, false},
		{"s", "x", SpaceGlobal, ProxySurface, 0, false},
		{"t", "y", SpaceGlobal, ProxyTexture, 0, false},
		{"c", "x", SpaceGlobal, ProxyConstant, 0, false},
	}, got)
	assert.Equal(t, source.Pos{File: "dir/Decl_test.test", Line: 8, Col: 10}, test.AddressByName("s").Pos)

	require.Len(t, test.Threads, 2)
	th := test.Threads[1]
	assert.Equal(t, "d1.c2.b3.t4", th.Name)
	assert.Equal(t, 1, th.Index)
	assert.Equal(t, [3]int{1, 2, 3}, [3]int{th.GPU, th.Cluster, th.CTA})
	assert.Equal(t, [3]int{0, 0, 0}, [3]int{test.Threads[0].GPU, test.Threads[0].Cluster, test.Threads[0].CTA})
	assert.Equal(t, test.Threads[1], test.ThreadByName("d1.c2.b3.t4"))
	assert.Equal(t, reg("r1"), stripInstr(th.Instrs[2]).Src)

	require.Len(t, test.Assertions, 3)
	kinds := []AssertKind{test.Assertions[0].Kind, test.Assertions[1].Kind, test.Assertions[2].Kind}
	assert.Equal(t, []AssertKind{AssertAlways, AssertSometimes, AssertCheck}, kinds)
	assert.Equal(t, []string{"outcome", "r0", "c1"}, []string{test.Assertions[0].Name, test.Assertions[1].Name, test.Assertions[2].Name})
	assert.Equal(t, source.Pos{File: "dir/Decl_test.test", Line: 24, Col: 1}, test.Assertions[1].Pos)
	assert.Equal(t, `(d1.c2.b3.t4:r1 == 1 /\ x == 1)`, ExprString(test, test.Assertions[0].Expr))
	assert.Equal(t, `(d1.c2.b3.t4:r0 != 0 \/ ~(d1.c2.b3.t4:r1 == 1))`, ExprString(test, test.Assertions[1].Expr))
	assert.Equal(t, `(P1:r0 != 0 \/ ~(P1:r1 == 1))`, test.Assertions[1].Expr.(*Or).String())

	and := test.Assertions[0].Expr.(*And)
	assert.Equal(t, Term{Kind: TermReg, Thread: 1, Reg: "r1", Pos: source.Pos{File: "dir/Decl_test.test", Line: 23, Col: 9}}, and.L.(*Cmp).L)
	assert.Equal(t, Term{Kind: TermLoc, Loc: "x", Pos: source.Pos{File: "dir/Decl_test.test", Line: 23, Col: 20}}, and.R.(*Cmp).L)
}

func TestNVConditionPrecedence(t *testing.T) {
	src := ".global x;\nd0.b0.t0 { ld r0, [x]; ld r1, [x]; }\nassert (r0 == 1 || r1 != 2 && !(x == 0) || true) as p;\n"
	test := mustNV(t, "p.test", src)[0]
	e := test.Assertions[0].Expr
	or, ok := e.(*Or)
	require.True(t, ok)
	_, ok = or.R.(*BoolLit)
	assert.True(t, ok)
	assert.Equal(t, `(d0.b0.t0:r0 == 1 \/ (d0.b0.t0:r1 != 2 /\ ~(x == 0)) \/ true)`, ExprString(test, e))
}

func TestNVLabelsWithoutSemicolon(t *testing.T) {
	src := ".global x;\nd0.b0.t0 {\nTOP:\n  ld r0, [x];\n  beq r0, 0, TOP;\nEND:\n}\nassert (r0 == 1) as p;\n"
	test := mustNV(t, "l.test", src)[0]
	var ops []Op
	for _, in := range test.Threads[0].Instrs {
		ops = append(ops, in.Op)
	}
	assert.Equal(t, []Op{OpLabel, OpLoad, OpBranch, OpLabel}, ops)
}
