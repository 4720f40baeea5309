package litmus

import (
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// herdInstrTest wraps one instruction in a one-thread herd test whose
// first instruction is the label L, so that branches resolve.
func herdInstrTest(instr string) string {
	return "PTX I\n{ x=0; y=0; s @ surface aliases x; t @ texture aliases x; c @ constant aliases x; P0:r1=0; P0:r9=x; }\n" +
		" P0@cta 0,gpu 0 ;\n L: ;\n " + instr + " ;\nexists (x == 0)\n"
}

func TestHerdInstructions(t *testing.T) {
	cases := []struct {
		src  string
		want Instr
	}{
		// Loads.
		{"ld r0, x", Instr{Op: OpLoad, Dst: "r0", Addr: addr("x")}},
		{"ld.weak r0, [x]", Instr{Op: OpLoad, Dst: "r0", Addr: addr("x")}},
		{"ld.relaxed.gpu r0, x", Instr{Op: OpLoad, Sem: SemRelaxed, Scope: ScopeGPU, Dst: "r0", Addr: addr("x")}},
		{"ld.acquire.sys r0, y", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeSys, Dst: "r0", Addr: addr("y")}},
		{"ld.gpu.acquire r0, x", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeGPU, Dst: "r0", Addr: addr("x")}},
		{"ld.volatile r0, x", Instr{Op: OpLoad, Sem: SemVolatile, Dst: "r0", Addr: addr("x")}},
		{"ld.mmio.relaxed.sys r0, x", Instr{Op: OpLoad, Sem: SemMMIO, Scope: ScopeSys, Dst: "r0", Addr: addr("x")}},
		{"ld.sys.relaxed.mmio r0, x", Instr{Op: OpLoad, Sem: SemMMIO, Scope: ScopeSys, Dst: "r0", Addr: addr("x")}},
		{"ld.global.u32.relaxed.cluster %r0, x", Instr{Op: OpLoad, Sem: SemRelaxed, Scope: ScopeCluster, SpaceQ: SpaceQGlobal, Dst: "%r0", Addr: addr("x"), Type: dtype("u32")}},
		{"ld.shared::cta r0, [r9]", Instr{Op: OpLoad, SpaceQ: SpaceQShared, Dst: "r0", Addr: reg("r9")}},
		{"ld.shared r0, [r9]", Instr{Op: OpLoad, SpaceQ: SpaceQShared, Dst: "r0", Addr: reg("r9")}},
		{"ld r0, [r9]", Instr{Op: OpLoad, Dst: "r0", Addr: reg("r9")}},
		{"ld.acquire.cta r0, [%rd2]", Instr{Op: OpLoad, Sem: SemAcquire, Scope: ScopeCTA, Dst: "r0", Addr: reg("%rd2")}},
		{"suld.weak r0, s", Instr{Op: OpLoad, Proxy: ProxySurface, Dst: "r0", Addr: addr("s")}},
		{"tld r0, t", Instr{Op: OpLoad, Proxy: ProxyTexture, Dst: "r0", Addr: addr("t")}},
		{"cold.weak r0, [c]", Instr{Op: OpLoad, Proxy: ProxyConstant, Dst: "r0", Addr: addr("c")}},
		{"ld.global.nc r0, [x]", Instr{Op: OpLoad, Proxy: ProxyTexture, SpaceQ: SpaceQGlobal, Dst: "r0", Addr: addr("x")}},
		{"ld.nc.global.cg.u32 r0, [r9]", Instr{Op: OpLoad, Proxy: ProxyTexture, SpaceQ: SpaceQGlobal, Dst: "r0", Addr: reg("r9"), Type: dtype("u32")}},
		{"ld.global.nc.L1::no_allocate.weak r0, x", Instr{Op: OpLoad, Proxy: ProxyTexture, SpaceQ: SpaceQGlobal, Dst: "r0", Addr: addr("x")}},
		// Register moves written as loads, and mov.
		{"ld r0, 5", Instr{Op: OpMov, Dst: "r0", A: imm(5)}},
		{"ld r0, -5", Instr{Op: OpMov, Dst: "r0", A: imm(-5)}},
		{"ld r0, r1", Instr{Op: OpMov, Dst: "r0", A: reg("r1")}},
		{"ld.u32 r0, %r7", Instr{Op: OpMov, Dst: "r0", A: reg("%r7"), Type: dtype("u32")}},
		{"mov r0, 3", Instr{Op: OpMov, Dst: "r0", A: imm(3)}},
		{"mov.u32 r0, r1", Instr{Op: OpMov, Dst: "r0", A: reg("r1"), Type: dtype("u32")}},
		{"mov r0, y", Instr{Op: OpMov, Dst: "r0", A: addr("y")}},
		// Stores.
		{"st x, 1", Instr{Op: OpStore, Addr: addr("x"), Src: imm(1)}},
		{"st.weak [x], r1", Instr{Op: OpStore, Addr: addr("x"), Src: reg("r1")}},
		{"st.release.gpu y, r1", Instr{Op: OpStore, Sem: SemRelease, Scope: ScopeGPU, Addr: addr("y"), Src: reg("r1")}},
		{"st.relaxed.cluster x, y", Instr{Op: OpStore, Sem: SemRelaxed, Scope: ScopeCluster, Addr: addr("x"), Src: addr("y")}},
		{"st.release.cta x, -1", Instr{Op: OpStore, Sem: SemRelease, Scope: ScopeCTA, Addr: addr("x"), Src: imm(-1)}},
		{"st.volatile x, 0x10", Instr{Op: OpStore, Sem: SemVolatile, Addr: addr("x"), Src: imm(16)}},
		{"st.mmio.relaxed.sys x, 1", Instr{Op: OpStore, Sem: SemMMIO, Scope: ScopeSys, Addr: addr("x"), Src: imm(1)}},
		{"st [r9], 4", Instr{Op: OpStore, Addr: reg("r9"), Src: imm(4)}},
		{"st.relaxed.cluster.shared::cluster [r9], 4", Instr{Op: OpStore, Sem: SemRelaxed, Scope: ScopeCluster, SpaceQ: SpaceQCluster, Addr: reg("r9"), Src: imm(4)}},
		{"sust.weak s, 2", Instr{Op: OpStore, Proxy: ProxySurface, Addr: addr("s"), Src: imm(2)}},
		// Atomics and reductions.
		{"atom.acq_rel.gpu.add r0, x, 1", Instr{Op: OpAtom, Sem: SemAcqRel, Scope: ScopeGPU, AtomOp: "add", Dst: "r0", Addr: addr("x"), Src: imm(1)}},
		{"atom.add r0, x, r1", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "add", Dst: "r0", Addr: addr("x"), Src: reg("r1")}},
		{"atom.cas.acquire.sys r0, x, 0, 1", Instr{Op: OpAtom, Sem: SemAcquire, Scope: ScopeSys, AtomOp: "cas", Dst: "r0", Addr: addr("x"), Src: imm(0), Src2: imm(1)}},
		{"atom.relaxed.gpu.inc r0, x", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "inc", Dst: "r0", Addr: addr("x")}},
		{"atom.dec.relaxed.cta r0, x, 3", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeCTA, AtomOp: "dec", Dst: "r0", Addr: addr("x"), Src: imm(3)}},
		{"atom.global.exch.b32 r0, [x], 2", Instr{Op: OpAtom, Sem: SemRelaxed, Scope: ScopeGPU, SpaceQ: SpaceQGlobal, AtomOp: "exch", Dst: "r0", Addr: addr("x"), Src: imm(2), Type: dtype("b32")}},
		{"red.shared::cluster.add [r9], 2", Instr{Op: OpRed, Sem: SemRelaxed, Scope: ScopeGPU, SpaceQ: SpaceQCluster, AtomOp: "add", Addr: reg("r9"), Src: imm(2)}},
		{"atom.release.sub r0, x, 1", Instr{Op: OpAtom, Sem: SemRelease, Scope: ScopeGPU, AtomOp: "sub", Dst: "r0", Addr: addr("x"), Src: imm(1)}},
		{"red.release.sys.or x, 3", Instr{Op: OpRed, Sem: SemRelease, Scope: ScopeSys, AtomOp: "or", Addr: addr("x"), Src: imm(3)}},
		{"red.max x, r1", Instr{Op: OpRed, Sem: SemRelaxed, Scope: ScopeGPU, AtomOp: "max", Addr: addr("x"), Src: reg("r1")}},
		{"red.acq_rel.cta.add x, 1", Instr{Op: OpRed, Sem: SemAcqRel, Scope: ScopeCTA, AtomOp: "add", Addr: addr("x"), Src: imm(1)}},
		// Fences.
		{"fence.sc.cta", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeCTA}},
		{"fence.acq_rel.gpu", Instr{Op: OpFence, Sem: SemAcqRel, Scope: ScopeGPU}},
		{"fence.acquire.cluster", Instr{Op: OpFence, Sem: SemAcquire, Scope: ScopeCluster}},
		{"fence.release.sys", Instr{Op: OpFence, Sem: SemRelease, Scope: ScopeSys}},
		{"fence.gpu", Instr{Op: OpFence, Sem: SemAcqRel, Scope: ScopeGPU}},
		{"membar.cta", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeCTA}},
		{"membar.gl", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeGPU}},
		{"membar.sys", Instr{Op: OpFence, Sem: SemSC, Scope: ScopeSys}},
		{"fence.proxy.alias", Instr{Op: OpProxyFence, Alias: true}},
		{"fence.proxy.surface", Instr{Op: OpProxyFence, Proxy: ProxySurface}},
		{"fence.proxy.texture", Instr{Op: OpProxyFence, Proxy: ProxyTexture}},
		{"fence.proxy.constant", Instr{Op: OpProxyFence, Proxy: ProxyConstant}},
		// Barriers: instance, logical barrier, thread count.
		{"bar.cta.sync 1", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(1), BarID: imm(0)}},
		{"bar.cta.arrive 1, 2, 3", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: imm(1), BarID: imm(2), Count: imm(3)}},
		{"bar.sync 0, r1", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(0), BarID: reg("r1")}},
		{"bar.arrive 4", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: imm(4), BarID: imm(0)}},
		{"barrier.sync 2", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(2), BarID: imm(0)}},
		{"barrier.cta.sync 1, 1, r1", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(1), BarID: imm(1), Count: reg("r1")}},
		{"barrier.cta.arrive 3", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: imm(3), BarID: imm(0)}},
		{"barrier.sync.aligned 1", Instr{Op: OpBarrier, BarKind: BarSync, Instance: imm(1), BarID: imm(0)}},
		{"barrier.cta.arrive.aligned 0, 0, 2", Instr{Op: OpBarrier, BarKind: BarArrive, Instance: imm(0), BarID: imm(0), Count: imm(2)}},
		// bar.red: the destination, the barrier operands, the predicate.
		{"bar.red.popc.u32 r1, 0, p0", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedPopc, Dst: "r1", Instance: imm(0), BarID: imm(0), Pred: reg("p0")}},
		{"bar.cta.red.and.pred p1, 1, 1, 2, !p0", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedAnd, Dst: "p1", Instance: imm(1), BarID: imm(1), Count: imm(2), Pred: reg("p0"), PredNeg: true}},
		{"barrier.cta.red.or.aligned.pred %p1, r2, %p0", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedOr, Dst: "%p1", Instance: reg("r2"), BarID: imm(0), Pred: reg("%p0")}},
		{"barrier.red.popc.u32 r1, 0, 1, ! p0", Instr{Op: OpBarrier, BarKind: BarSync, BarRed: BarRedPopc, Dst: "r1", Instance: imm(0), BarID: imm(1), Pred: reg("p0"), PredNeg: true}},
		// Register arithmetic and branches.
		{"add r0, r1, 1", Instr{Op: OpArith, ArithOp: "add", Dst: "r0", A: reg("r1"), B: imm(1)}},
		{"sub.s32 r0, 5, r1", Instr{Op: OpArith, ArithOp: "sub", Dst: "r0", A: imm(5), B: reg("r1"), Type: dtype("s32")}},
		{"mul r0, r0, r1", Instr{Op: OpArith, ArithOp: "mul", Dst: "r0", A: reg("r0"), B: reg("r1")}},
		{"and.b32 r0, r1, 6", Instr{Op: OpArith, ArithOp: "and", Dst: "r0", A: reg("r1"), B: imm(6), Type: dtype("b32")}},
		{"or r0, r1, 6", Instr{Op: OpArith, ArithOp: "or", Dst: "r0", A: reg("r1"), B: imm(6)}},
		{"xor r0, r1, 6", Instr{Op: OpArith, ArithOp: "xor", Dst: "r0", A: reg("r1"), B: imm(6)}},
		{"beq r1, 0, L", Instr{Op: OpBranch, Cmp: "eq", A: reg("r1"), B: imm(0), Label: "L"}},
		{"bne 1, r1, L", Instr{Op: OpBranch, Cmp: "ne", A: imm(1), B: reg("r1"), Label: "L"}},
		{"goto L", Instr{Op: OpGoto, Label: "L"}},
		// PTX's bra, setp and guard predicates.
		{"bra L", Instr{Op: OpGoto, Label: "L"}},
		{"@p bra.uni L", Instr{Op: OpGoto, Label: "L", Guard: reg("p")}},
		{"@!%p1 st.relaxed.gpu x, 1", Instr{Op: OpStore, Sem: SemRelaxed, Scope: ScopeGPU, Addr: addr("x"), Src: imm(1), Guard: reg("%p1"), GuardNeg: true}},
		{"setp.lt.s32 p, r1, -2", Instr{Op: OpSetp, Cmp: "lt.s32", Dst: "p", A: reg("r1"), B: imm(-2)}},
		{"setp.hs.u64 %p2, 3, r1", Instr{Op: OpSetp, Cmp: "hs.u64", Dst: "%p2", A: imm(3), B: reg("r1")}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			test := mustHerd(t, herdInstrTest(tc.src))
			require.Len(t, test.Threads[0].Instrs, 2)
			in := test.Threads[0].Instrs[1]
			assert.Equal(t, tc.want, stripInstr(in))
			assert.Equal(t, tc.src, in.Text)
			assert.Equal(t, source.Pos{File: "t.litmus", Line: 5, Col: 2}, in.Pos)
		})
	}
}

func TestHerdInstrTextAndPositions(t *testing.T) {
	test := mustHerd(t, herdInstrTest("ld.acquire.gpu   r1,\t[ y ]"))
	in := test.Threads[0].Instrs[1]
	assert.Equal(t, "ld.acquire.gpu r1, [ y ]", in.Text)
	assert.Equal(t, source.Pos{File: "t.litmus", Line: 5, Col: 25}, in.PosOf(in.Addr))
	label := test.Threads[0].Instrs[0]
	assert.Equal(t, Instr{Op: OpLabel, Label: "L"}, stripInstr(label))
	assert.Equal(t, "L:", label.Text)
}

func TestHerdStructure(t *testing.T) {
	src := `PTX MP+fence.sc-x_1.v2
"a quoted comment
spanning two lines" "and another"
(* a herd comment (* nested *) *)
{
x=1; y = -3; // two entries on a line
P1:r0=0; 1:r1=x;
a @ generic aliases x; s @ surface aliases a;
t @ texture aliases y ; c @ constant aliases x;
P2:%r5 = 7
}
 P0@cta 0, gpu 0       | P1@gpu 1,cta 2,cluster 5 | P2@cta 3,gpu 0          ;
 st.weak z, 1          | ld.acquire.gpu r2, y     | LC00:                   ;
 st.release.cta [w], 2 |                          | ld.relaxed.cta r6, [%r5] ;
                       | ld r3, [r1]              | bne r6, 0, LC00         ;
~ exists (P1:r2 == 1 \/ 2:r6 = -1 /\ ~(z != 2)) // trailing comment
`
	test := mustHerd(t, src)
	assert.Equal(t, "MP+fence.sc-x_1.v2", test.Name)
	assert.Equal(t, "t.litmus", test.File)
	assert.Equal(t, FormatHerd, test.Format)
	assert.Equal(t, 0, test.Instance)
	assert.Equal(t, source.Pos{File: "t.litmus", Line: 1, Col: 1}, test.Pos)

	type addrWant struct {
		name, alias string
		kind        Proxy
		init        int64
		hasInit     bool
	}
	var got []addrWant
	for _, a := range test.Addresses {
		got = append(got, addrWant{a.Name, a.AliasOf, a.Kind, a.Init, a.HasInit})
		assert.Equal(t, SpaceGlobal, a.Space)
	}
	assert.Equal(t, []addrWant{
		{"x", "", ProxyGeneric, 1, true},
		{"y", "", ProxyGeneric, -3, true},
		{"a", "x", ProxyGeneric, 0, false},
		{"s", "a", ProxySurface, 0, false},
		{"t", "y", ProxyTexture, 0, false},
		{"c", "x", ProxyConstant, 0, false},
		// Implicit declarations, in the order of first use (row by row).
		{"z", "", ProxyGeneric, 0, false},
		{"w", "", ProxyGeneric, 0, false},
	}, got)
	assert.Equal(t, source.Pos{File: "t.litmus", Line: 13, Col: 10}, test.AddressByName("z").Pos)
	assert.Nil(t, test.AddressByName("nope"))

	require.Len(t, test.RegInits, 3)
	assert.Equal(t, RegInit{Thread: 1, Reg: "r0", Pos: source.Pos{File: "t.litmus", Line: 7, Col: 1}}, *test.RegInits[0])
	assert.Equal(t, RegInit{Thread: 1, Reg: "r1", Addr: "x", Pos: source.Pos{File: "t.litmus", Line: 7, Col: 10}}, *test.RegInits[1])
	assert.Equal(t, RegInit{Thread: 2, Reg: "%r5", Value: 7, Pos: source.Pos{File: "t.litmus", Line: 10, Col: 1}}, *test.RegInits[2])

	require.Len(t, test.Threads, 3)
	type place struct {
		name                string
		index, gpu, cl, cta int
	}
	var places []place
	for _, th := range test.Threads {
		places = append(places, place{th.Name, th.Index, th.GPU, th.Cluster, th.CTA})
	}
	assert.Equal(t, []place{{"P0", 0, 0, 0, 0}, {"P1", 1, 1, 5, 2}, {"P2", 2, 0, 3, 3}}, places)
	assert.Equal(t, source.Pos{File: "t.litmus", Line: 12, Col: 26}, test.Threads[1].Pos)

	assert.Len(t, test.Threads[0].Instrs, 2)
	assert.Len(t, test.Threads[1].Instrs, 2)
	assert.Len(t, test.Threads[2].Instrs, 3)
	assert.Equal(t, reg("r1"), stripInstr(test.Threads[1].Instrs[1]).Addr, "a register initialised with an address is a register")
	assert.Equal(t, reg("%r5"), stripInstr(test.Threads[2].Instrs[1]).Addr)

	require.NotNil(t, test.Condition)
	assert.Equal(t, CondNotExists, test.Condition.Kind)
	assert.Equal(t, source.Pos{File: "t.litmus", Line: 16, Col: 1}, test.Condition.Pos)
	assert.Equal(t, `~exists (P1:r2 == 1 \/ (P2:r6 == -1 /\ ~(z != 2)))`, test.Condition.String())
	or, ok := test.Condition.Expr.(*Or)
	require.True(t, ok, "\\/ binds weaker than /\\")
	and, ok := or.R.(*And)
	require.True(t, ok)
	not, ok := and.R.(*Not)
	require.True(t, ok)
	cmp, ok := not.X.(*Cmp)
	require.True(t, ok)
	assert.Equal(t, Term{Kind: TermLoc, Loc: "z", Pos: source.Pos{File: "t.litmus", Line: 16, Col: 40}}, cmp.L)
	assert.Equal(t, "!=", cmp.Op)
	left := and.L.(*Cmp)
	assert.Equal(t, "==", left.Op, "= is ==")
	assert.Equal(t, Term{Kind: TermReg, Thread: 2, Reg: "r6", Pos: source.Pos{File: "t.litmus", Line: 16, Col: 25}}, left.L)
	assert.Equal(t, Term{Kind: TermConst, Value: -1, Pos: source.Pos{File: "t.litmus", Line: 16, Col: 32}}, left.R)
}

func TestHerdConditionKinds(t *testing.T) {
	base := "PTX K\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\n"
	cases := []struct {
		cond string
		kind CondKind
		text string
	}{
		{"exists (P0:r0 == 1)", CondExists, "exists (P0:r0 == 1)"},
		{"~exists (P0:r0 == 1)", CondNotExists, "~exists (P0:r0 == 1)"},
		{"~ exists P0:r0 != 1", CondNotExists, "~exists (P0:r0 != 1)"},
		{"forall\n(x == 0 \\/ 0:r0 == x)", CondForall, `forall (x == 0 \/ P0:r0 == x)`},
		{"exists true", CondExists, "exists (true)"},
		{"exists ~false", CondExists, "exists (~false)"},
		{"exists (((P0:r0 == 1)))", CondExists, "exists (P0:r0 == 1)"},
		{"exists ((x == 1 /\\ x == 2) /\\ (x == 3 /\\ x == 4))", CondExists, `exists (x == 1 /\ x == 2 /\ x == 3 /\ x == 4)`},
		{"exists ~~(x == 1 \\/ x == 2)", CondExists, `exists (~~(x == 1 \/ x == 2))`},
		{"exists (P0:r0 == 1) (* comment *)", CondExists, "exists (P0:r0 == 1)"},
	}
	for _, tc := range cases {
		t.Run(tc.cond, func(t *testing.T) {
			test := mustHerd(t, base+tc.cond)
			assert.Equal(t, tc.kind, test.Condition.Kind)
			assert.Equal(t, tc.text, test.Condition.String())
			// The printed condition parses back to the same condition.
			again := mustHerd(t, base+test.Condition.String())
			assert.Equal(t, tc.text, again.Condition.String())
		})
	}
}

func TestHerdUndeclaredRegisterInCondition(t *testing.T) {
	// A register the thread never writes keeps its initial value; naming
	// it is fine.
	test := mustHerd(t, "PTX U\n{ }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st x, 1 | ;\nexists (P1:r7 == 0)\n")
	assert.Equal(t, "exists (P1:r7 == 0)", test.Condition.String())
	assert.Empty(t, test.Threads[1].Instrs)
}

func TestHerdEmptyCellsAndLabelCells(t *testing.T) {
	test := mustHerd(t, "PTX E\n{}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n | LC0: ;\n | LC1: goto LC0 ;\n  |  ;\nexists (P0:r0 == 0)\n")
	assert.Empty(t, test.Threads[0].Instrs)
	var ops []Op
	for _, in := range test.Threads[1].Instrs {
		ops = append(ops, in.Op)
	}
	assert.Equal(t, []Op{OpLabel, OpLabel, OpGoto}, ops)
	assert.Empty(t, test.Addresses)
}

func TestHerdLastInitEntryWithoutSemicolon(t *testing.T) {
	test := mustHerd(t, "PTX S\n{\nx=0;\nP0:r0=0\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n")
	require.Len(t, test.RegInits, 1)
	assert.Equal(t, "r0", test.RegInits[0].Reg)
}

func TestHerdTextCollapsesWhitespace(t *testing.T) {
	test := mustHerd(t, herdInstrTest("atom.acq_rel.gpu.cas   r0 ,x,\t0 ,  1"))
	assert.Equal(t, "atom.acq_rel.gpu.cas r0 ,x, 0 , 1", test.Threads[0].Instrs[1].Text)
	assert.False(t, strings.Contains(test.Threads[0].Instrs[1].Text, "  "))
}

// TestHerdQuotedWordInComment: a quoted comment may quote a word, as
// Dartagnan's corpus does (`means "No, but ..."`): a quote closes the
// comment only when the init block, a (* *) comment or another comment
// that closes follows it. Comments without quotes in them read as before.
func TestHerdQuotedWordInComment(t *testing.T) {
	body := "{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n"
	cases := []struct{ name, comments string }{
		{"quoted word", "\"\nThe tool says\nUNKNOWN // <-- means \"No, but loops were not fully unrolled\"\n\"\n"},
		{"quoted word then a comment", "\"he said \"hi\" twice\"\n\"a second comment\"\n"},
		{"two comments", "\"one\" \"two\"\n"},
		{"a comment with braces", "\"{ not the init block }\"\n"},
		{"a herd comment after", "\"a \"word\" here\" (* and *)\n"},
		{"no comment", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc, err := ParseHerd("t.litmus", []byte("PTX T\n"+c.comments+body))
			require.NoError(t, err)
			require.Len(t, tc.Threads, 1)
		})
	}
	// With no quote that closes so, the next quote closes the comment.
	_, err := ParseHerd("t.litmus", []byte("PTX T\n\"one \"two\n"+body))
	require.ErrorContains(t, err, `2:7: expected '{' to start the init block, found "two"`)
}
