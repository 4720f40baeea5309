package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asyncInstrTest wraps one instruction in a herd test with global, shared
// and mbarrier locations.
func asyncInstrTest(instr string) string {
	return "PTX A\n{ x=0; y @ shared = 0; a @ shared = 1; b @ mbarrier 2; }\n" +
		" P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n " + instr + " | ld r9, x ;\nexists (x == 0)\n"
}

func TestAsyncInstructions(t *testing.T) {
	one := imm(1)
	zero := imm(0)
	typ := func(name string) DataType {
		dt, ok := dataTypeOf(name)
		require.True(t, ok, name)
		return dt
	}
	u32, u64, b64, s32 := typ("u32"), typ("u64"), typ("b64"), typ("s32")
	cases := []struct {
		src  string
		want Instr
	}{
		// mbarrier: defaults .release.cta for arrives, .acquire.cta for waits.
		{"mbarrier.init b, 2", Instr{Op: OpMBarrier, MBarOp: MBarInit, Addr: addr("b"), Src: imm(2)}},
		{"mbarrier.init.shared::cta.b64 [b], 1", Instr{Op: OpMBarrier, MBarOp: MBarInit, Addr: addr("b"), Src: one, SpaceQ: SpaceQShared}},
		{"mbarrier.arrive b", Instr{Op: OpMBarrier, MBarOp: MBarArrive, Sem: SemRelease, Scope: ScopeCTA, Addr: addr("b"), Src: one, Src2: zero}},
		{"mbarrier.arrive.relaxed.cluster b, 2", Instr{Op: OpMBarrier, MBarOp: MBarArrive, Sem: SemRelaxed, Scope: ScopeCluster, Addr: addr("b"), Src: imm(2), Src2: zero}},
		{"mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b]", Instr{Op: OpMBarrier, MBarOp: MBarArrive, Sem: SemRelease, Scope: ScopeCluster, SpaceQ: SpaceQCluster, Addr: addr("b"), Src: one, Src2: zero}},
		{"mbarrier.arrive.expect_tx b, 16", Instr{Op: OpMBarrier, MBarOp: MBarArrive, Sem: SemRelease, Scope: ScopeCTA, Addr: addr("b"), Src: one, Src2: imm(16)}},
		{"mbarrier.expect_tx.relaxed.cta b, 8", Instr{Op: OpMBarrier, MBarOp: MBarExpectTx, Sem: SemRelaxed, Scope: ScopeCTA, Addr: addr("b"), Src: one, Src2: imm(8)}},
		{"mbarrier.complete_tx b, 8", Instr{Op: OpMBarrier, MBarOp: MBarCompleteTx, Sem: SemRelaxed, Scope: ScopeCTA, Addr: addr("b"), Src: one, Src2: imm(8)}},
		{"mbarrier.test_wait r0, b", Instr{Op: OpMBarrier, MBarOp: MBarTestWait, Sem: SemAcquire, Scope: ScopeCTA, Dst: "r0", Addr: addr("b"), Src: zero}},
		{"mbarrier.test_wait.parity.relaxed.cluster r0, b, 1", Instr{Op: OpMBarrier, MBarOp: MBarTestWait, Parity: true, Sem: SemRelaxed, Scope: ScopeCluster, Dst: "r0", Addr: addr("b"), Src: one}},
		{"mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 r0, [b], r1, 100", Instr{Op: OpMBarrier, MBarOp: MBarTryWait, Parity: true, Sem: SemAcquire, Scope: ScopeCTA, SpaceQ: SpaceQShared, Dst: "r0", Addr: addr("b"), Src: reg("r1"), Src2: imm(100)}},
		// arrive_drop: the arrive's defaults and operands (9.7.13.15.14).
		{"mbarrier.arrive_drop b", Instr{Op: OpMBarrier, MBarOp: MBarArriveDrop, Sem: SemRelease, Scope: ScopeCTA, Addr: addr("b"), Src: one, Src2: zero}},
		{"mbarrier.arrive_drop.relaxed.cluster.shared::cluster.b64 _, [b], 2", Instr{Op: OpMBarrier, MBarOp: MBarArriveDrop, Sem: SemRelaxed, Scope: ScopeCluster, SpaceQ: SpaceQCluster, Addr: addr("b"), Src: imm(2), Src2: zero}},
		{"mbarrier.arrive_drop.expect_tx.shared::cta.release.cluster.b64 _, [b], 16", Instr{Op: OpMBarrier, MBarOp: MBarArriveDrop, Sem: SemRelease, Scope: ScopeCluster, SpaceQ: SpaceQShared, Addr: addr("b"), Src: one, Src2: imm(16)}},
		// inval: a weak write, like init (9.7.13.15.10).
		{"mbarrier.inval b", Instr{Op: OpMBarrier, MBarOp: MBarInval, Addr: addr("b")}},
		{"mbarrier.inval.shared::cta.b64 [b]", Instr{Op: OpMBarrier, MBarOp: MBarInval, SpaceQ: SpaceQShared, Addr: addr("b")}},
		// Cluster barriers.
		{"barrier.cluster.arrive", Instr{Op: OpClusterBarrier, BarKind: BarArrive, Sem: SemRelease, Scope: ScopeCluster}},
		{"barrier.cluster.arrive.relaxed.aligned", Instr{Op: OpClusterBarrier, BarKind: BarArrive, Sem: SemRelaxed, Scope: ScopeCluster}},
		{"barrier.cluster.wait.acquire.aligned", Instr{Op: OpClusterBarrier, BarKind: BarSync, Sem: SemAcquire, Scope: ScopeCluster}},
		// cp.async and its groups.
		{"cp.async.ca.shared.global y, x", Instr{Op: OpCopy, Copy: CopyAsync, SpaceQ: SpaceQShared, Addr: addr("y"), Mem2: addr("x")}},
		{"cp.async.cg.shared::cta.global [y], [x], 16", Instr{Op: OpCopy, Copy: CopyAsync, SpaceQ: SpaceQShared, Addr: addr("y"), Mem2: addr("x"), Size: imm(16)}},
		// An immediate src-size is kept (the copy zero-fills the rest); a
		// register is not (it may be ignore-src or a cache policy).
		{"cp.async.ca.shared.global y, x, 4, 2", Instr{Op: OpCopy, Copy: CopyAsync, SpaceQ: SpaceQShared, Addr: addr("y"), Mem2: addr("x"), Size: imm(4), Src: imm(2)}},
		{"cp.async.ca.shared.global y, x, 4, r1", Instr{Op: OpCopy, Copy: CopyAsync, SpaceQ: SpaceQShared, Addr: addr("y"), Mem2: addr("x"), Size: imm(4)}},
		{"cp.async.commit_group", Instr{Op: OpAsyncGroup, Family: GroupCpAsync, GroupOp: GroupCommit}},
		{"cp.async.wait_group 1", Instr{Op: OpAsyncGroup, Family: GroupCpAsync, GroupOp: GroupWait, Count: one}},
		{"cp.async.wait_all", Instr{Op: OpAsyncGroup, Family: GroupCpAsync, GroupOp: GroupWaitAll}},
		{"cp.async.mbarrier.arrive.noinc.shared.b64 b", Instr{Op: OpCopyArrive, NoInc: true, SpaceQ: SpaceQShared, Addr: addr("b")}},
		{"cp.async.mbarrier.arrive b", Instr{Op: OpCopyArrive, Addr: addr("b")}},
		// Bulk copies.
		{"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b", Instr{Op: OpCopy, Copy: CopyBulkLoad, SpaceQ: SpaceQCluster, Addr: addr("y"), Mem2: addr("x"), Size: imm(16), MBar: addr("b")}},
		{"cp.async.bulk.global.shared::cta.bulk_group x, y, 16", Instr{Op: OpCopy, Copy: CopyBulkStore, SpaceQ: SpaceQGlobal, Addr: addr("x"), Mem2: addr("y"), Size: imm(16)}},
		{"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 x, y, 16", Instr{Op: OpCopy, Copy: CopyBulkReduce, SpaceQ: SpaceQGlobal, AtomOp: "add", Addr: addr("x"), Mem2: addr("y"), Size: imm(16)}},
		{"cp.async.bulk.commit_group", Instr{Op: OpAsyncGroup, Family: GroupBulk, GroupOp: GroupCommit}},
		{"cp.async.bulk.wait_group.read 0", Instr{Op: OpAsyncGroup, Family: GroupBulk, GroupOp: GroupWait, ReadOnly: true, Count: zero}},
		// Proxy and mbarrier_init fences.
		{"fence.proxy.async", Instr{Op: OpProxyFence, Proxy: ProxyAsync}},
		{"fence.proxy.async.shared::cta", Instr{Op: OpProxyFence, Proxy: ProxyAsync, SpaceQ: SpaceQShared}},
		{"fence.proxy.async.global", Instr{Op: OpProxyFence, Proxy: ProxyAsync, SpaceQ: SpaceQGlobal}},
		{"fence.mbarrier_init.release.cluster", Instr{Op: OpMBarInitFence, Sem: SemRelease, Scope: ScopeCluster}},
		// wgmma.
		{"wgmma.fence.sync.aligned", Instr{Op: OpWgmmaFence}},
		{"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 r1, y, a", Instr{Op: OpWgmma, Dst: "r1", Addr: addr("y"), Mem2: addr("a")}},
		{"wgmma.commit_group.sync.aligned", Instr{Op: OpAsyncGroup, Family: GroupWgmma, GroupOp: GroupCommit}},
		{"wgmma.wait_group.sync.aligned 0", Instr{Op: OpAsyncGroup, Family: GroupWgmma, GroupOp: GroupWait, Count: zero}},
		// st.async and red.async (9.7.9.12, 9.7.13.7): a weak store and a
		// .relaxed.cluster reduction, completing on an mbarrier.
		{"st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [y], 1, [b]", Instr{Op: OpStAsync, Sem: SemWeak, Scope: ScopeCluster, SpaceQ: SpaceQCluster, Type: u32, Addr: addr("y"), Src: one, MBar: addr("b")}},
		{"st.async.weak.mbarrier::complete_tx::bytes.b64 y, r3, b", Instr{Op: OpStAsync, Sem: SemWeak, Scope: ScopeCluster, Type: b64, Addr: addr("y"), Src: reg("r3"), MBar: addr("b")}},
		{"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [y], 2, [b]", Instr{Op: OpStAsync, Sem: SemRelaxed, Scope: ScopeCluster, SpaceQ: SpaceQCluster, AtomOp: "add", Type: u64, Addr: addr("y"), Src: imm(2), MBar: addr("b")}},
		{"red.async.max.s32 y, r1, b", Instr{Op: OpStAsync, Sem: SemRelaxed, Scope: ScopeCluster, AtomOp: "max", Type: s32, Addr: addr("y"), Src: reg("r1"), MBar: addr("b")}},
		// Their .release forms into global memory (PTX ISA 8.7).
		{"st.async.release.gpu.global.u32 x, 1", Instr{Op: OpStAsync, Sem: SemRelease, Scope: ScopeGPU, SpaceQ: SpaceQGlobal, Type: u32, Addr: addr("x"), Src: one}},
		{"st.async.sys.release.b64 [x], r2", Instr{Op: OpStAsync, Sem: SemRelease, Scope: ScopeSys, Type: b64, Addr: addr("x"), Src: reg("r2")}},
		{"red.async.release.sys.global.add.u64 x, 2", Instr{Op: OpStAsync, Sem: SemRelease, Scope: ScopeSys, SpaceQ: SpaceQGlobal, AtomOp: "add", Type: u64, Addr: addr("x"), Src: imm(2)}},
		// mapa.
		{"mapa.shared::cluster.u64 r2, y, 1", Instr{Op: OpMapa, SpaceQ: SpaceQCluster, Dst: "r2", A: addr("y"), B: one}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			test := mustHerd(t, asyncInstrTest(tc.src))
			require.Len(t, test.Threads[0].Instrs, 1)
			assert.Equal(t, tc.want, stripInstr(test.Threads[0].Instrs[0]))
		})
	}
}

func TestAsyncDeclarations(t *testing.T) {
	test := mustHerd(t, "PTX D\n{ x=0; a @ shared = 3; s @ shared; t @ tmem = 5; b @ mbarrier 4; g @ global = 2; }\n P0@cta 0,gpu 0 ;\n ld r0, a ;\nexists (x == 0)\n")
	got := map[string]Address{}
	for _, a := range test.Addresses {
		c := *a
		c.Pos = test.Pos
		got[a.Name] = c
	}
	assert.Equal(t, SpaceShared, got["a"].Space)
	assert.Equal(t, int64(3), got["a"].Init)
	assert.Equal(t, SpaceShared, got["s"].Space)
	assert.Equal(t, SpaceTensor, got["t"].Space)
	assert.Equal(t, int64(5), got["t"].Init)
	assert.Equal(t, int64(4), got["b"].MBarrier)
	assert.Equal(t, SpaceShared, got["b"].Space)
	assert.Equal(t, SpaceGlobal, got["g"].Space)

	nv := mustNV(t, "d.test", ".shared a = 1;\n.mbarrier b 2;\n.tmem t;\nd0.b0.t0 {\n mbarrier.arrive [b];\n ld r0, [a];\n}\npermit (r0 == 1) as p;\n")
	require.Len(t, nv, 1)
	b := nv[0].AddressByName("b")
	require.NotNil(t, b)
	assert.Equal(t, int64(2), b.MBarrier)
	assert.Equal(t, SpaceTensor, nv[0].AddressByName("t").Space)
}

func TestTcgen05Instructions(t *testing.T) {
	cases := []struct {
		src  string
		want Instr
	}{
		{"tcgen05.st t, 3", Instr{Op: OpTcgen05, Tc: TcSt, CtaGroup: 1, Addr: addr("t"), Src: imm(3)}},
		{"tcgen05.st.sync.aligned.16x64b.x1.b32 [t], r1", Instr{Op: OpTcgen05, Tc: TcSt, CtaGroup: 1, Shape: "16x64b.x1", Addr: addr("t"), Src: reg("r1")}},
		{"tcgen05.ld.sync.aligned.32x32b.x2.b32 r0, [t]", Instr{Op: OpTcgen05, Tc: TcLd, CtaGroup: 1, Shape: "32x32b.x2", Dst: "r0", Addr: addr("t")}},
		{"tcgen05.wait::st.sync.aligned", Instr{Op: OpTcgen05, Tc: TcWaitSt, CtaGroup: 1}},
		{"tcgen05.wait::ld", Instr{Op: OpTcgen05, Tc: TcWaitLd, CtaGroup: 1}},
		{"tcgen05.mma.cta_group::2.kind::f16 t, y, a", Instr{Op: OpTcgen05, Tc: TcMma, CtaGroup: 2, Shape: "kind::f16", Addr: addr("t"), Mem2: addr("y"), Mem3: addr("a")}},
		{"tcgen05.mma t, u, a, 1", Instr{Op: OpTcgen05, Tc: TcMma, CtaGroup: 1, Acc: true, Addr: addr("t"), Mem2: addr("u"), Mem3: addr("a")}},
		{"tcgen05.cp.cta_group::1.4x256b t, y", Instr{Op: OpTcgen05, Tc: TcCp, CtaGroup: 1, Shape: "4x256b", Addr: addr("t"), Mem2: addr("y")}},
		{"tcgen05.shift.cta_group::1.down t", Instr{Op: OpTcgen05, Tc: TcShift, CtaGroup: 1, Addr: addr("t")}},
		{"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 b", Instr{Op: OpTcgen05, Tc: TcCommit, CtaGroup: 1, SpaceQ: SpaceQCluster, Addr: addr("b")}},
		{"tcgen05.fence::before_thread_sync", Instr{Op: OpTcgen05, Tc: TcFenceBefore, CtaGroup: 1}},
		{"tcgen05.fence::after_thread_sync", Instr{Op: OpTcgen05, Tc: TcFenceAfter, CtaGroup: 1}},
		{"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [y], 32", Instr{Op: OpTcgen05, Tc: TcAlloc, CtaGroup: 1, Addr: addr("y"), Src: imm(32)}},
		{"tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 y, r1", Instr{Op: OpTcgen05, Tc: TcAlloc, CtaGroup: 2, Addr: addr("y"), Src: reg("r1")}},
		{"tcgen05.dealloc.cta_group::1.sync.aligned.b32 r3, 32", Instr{Op: OpTcgen05, Tc: TcDealloc, CtaGroup: 1}},
		{"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned", Instr{Op: OpTcgen05, Tc: TcRelinquish, CtaGroup: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			src := "PTX T\n{ x=0; y @ shared = 0; a @ shared = 1; u @ tmem = 2; t @ tmem = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n " + tc.src + " ;\nexists (x == 0)\n"
			test := mustHerd(t, src)
			require.Len(t, test.Threads[0].Instrs, 1)
			assert.Equal(t, tc.want, stripInstr(test.Threads[0].Instrs[0]))
		})
	}
}
