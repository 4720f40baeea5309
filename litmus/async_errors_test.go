package litmus

import "testing"

// asyncWith builds a herd test whose first thread's only instruction is
// instr (line 4, starting at column 2), with global x, shared y and
// mbarrier b declared.
func asyncWith(instr string) string {
	return "PTX T\n{ x=0; y @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n " + instr + " ;\nexists (x == 0)\n"
}

// TestAsyncParseErrors checks that forms PTX does not have are positioned
// errors naming what is allowed.
func TestAsyncParseErrors(t *testing.T) {
	cases := []struct {
		name, src, msg, at string
	}{
		{"release on a wait", asyncWith("mbarrier.test_wait.release r0, b"), "mbarrier.test_wait cannot be .release: expected .acquire or .relaxed", "4:20"},
		{"acquire on an arrive", asyncWith("mbarrier.arrive.acquire b"), "mbarrier.arrive cannot be .acquire: expected .release or .relaxed", "4:17"},
		{"remote wait", asyncWith("mbarrier.try_wait.shared::cluster r0, b"), "cannot use a .shared::cluster mbarrier", "4:19"},
		{"sys scope on an arrive", asyncWith("mbarrier.arrive.release.sys b"), "mbarrier.arrive cannot be .sys: expected .cta or .cluster", "4:25"},
		{"release on expect_tx", asyncWith("mbarrier.expect_tx.release b, 4"), "mbarrier.expect_tx cannot be .release: expected .relaxed", "4:20"},
		{"unsupported mbarrier op", asyncWith("mbarrier.pending_count r0, b"), "mbarrier.pending_count is not supported", "4:10"},
		{"acquire on an arrive_drop", asyncWith("mbarrier.arrive_drop.acquire b"), "mbarrier.arrive_drop cannot be .acquire: expected .release or .relaxed", "4:22"},
		{"sys scope on an arrive_drop", asyncWith("mbarrier.arrive_drop.relaxed.sys b"), "mbarrier.arrive_drop cannot be .sys: expected .cta or .cluster", "4:30"},
		{"arrive_drop.expect_tx without tx", asyncWith("mbarrier.arrive_drop.expect_tx b"), "expected ',' after the mbarrier of mbarrier.arrive_drop", "4:35"},
		{"arrive_drop state result", asyncWith("mbarrier.arrive_drop r1, b"), "b is an address, not a count, in \"mbarrier.arrive_drop r1, b\"", "4:27"},
		{"arrive_drop in global memory", asyncWith("mbarrier.arrive_drop x"), "mbarrier objects live in shared memory", "4:23"},
		{"noComplete relaxed", asyncWith("mbarrier.arrive.noComplete.relaxed.cta b, 1"), "mbarrier.arrive.noComplete cannot be .relaxed: the form is mbarrier.arrive.noComplete{.release.cta}", "4:28"},
		{"noComplete cluster scope", asyncWith("mbarrier.arrive.noComplete.release.cluster b, 1"), "mbarrier.arrive.noComplete cannot be .cluster", "4:36"},
		{"noComplete shared::cluster", asyncWith("mbarrier.arrive_drop.noComplete.shared::cluster b, 1"), "mbarrier.arrive_drop.noComplete cannot be .shared::cluster", "4:33"},
		{"noComplete expect_tx", asyncWith("mbarrier.arrive.noComplete.expect_tx b, 1"), "mbarrier.arrive.noComplete cannot be .expect_tx", "4:28"},
		{"noComplete without count", asyncWith("mbarrier.arrive.noComplete b"), "mbarrier.arrive.noComplete needs the arrival count", "4:17"},
		{"st.async without mechanism", asyncWith("st.async.shared::cluster.u32 y, 1, b"), "st.async needs its completion mechanism", "4:2"},
		{"st.async global without release", asyncWith("st.async.global.u32 x, 1"), "st.async.global belongs to the .release form into global memory", "4:10"},
		{"st.async.release without scope", asyncWith("st.async.release.global.u32 x, 1"), "st.async.release needs a scope: .gpu or .sys", "4:2"},
		{"st.async.release cluster scope", asyncWith("st.async.release.cluster.u32 x, 1"), "st.async.release cannot be .cluster: expected .gpu or .sys", "4:18"},
		{"st.async.release two scopes", asyncWith("st.async.release.gpu.sys.u32 x, 1"), "st.async.release has two scopes, .gpu and .sys", "4:22"},
		{"st.async.release mmio", asyncWith("st.async.mmio.release.sys.u32 x, 1"), "st.async.mmio is not supported", "4:10"},
		{"st.async.release mechanism", asyncWith("st.async.release.gpu.mbarrier::complete_tx::bytes.u32 x, 1, b"), "st.async.release takes no completion mechanism", "4:22"},
		{"st.async.release shared", asyncWith("st.async.release.gpu.shared::cluster.u32 y, 1"), "st.async.release cannot use .shared::cluster", "4:22"},
		{"st.async.release 128-bit", asyncWith("st.async.release.gpu.b128 x, 1"), "st.async.release.b128 is not supported: expected .b8, .b16, .b32", "4:22"},
		{"red.async.release 8-bit", asyncWith("red.async.release.gpu.add.u8 x, 1"), "red.async.release.u8 is not supported: expected .u32, .s32, .u64, .s64", "4:27"},
		{"st.async.release without type", asyncWith("st.async.release.gpu x, 1"), "st.async.release needs a data type", "4:2"},
		{"st.async.release into shared memory", asyncWith("st.async.release.gpu.u32 y, 1"), "is in shared memory", "4:27"},
		{"st.async.release extra operand", asyncWith("st.async.release.gpu.u32 x, 1, b"), "after the operands of st.async.release", "4:31"},
		{"st.async.release acquire too", asyncWith("st.async.release.acquire.gpu.u32 x, 1"), "st.async.release cannot also be .acquire", "4:18"},
		{"st.async relaxed", asyncWith("st.async.relaxed.mbarrier::complete_tx::bytes.u32 y, 1, b"), "st.async cannot be .relaxed: expected .weak", "4:10"},
		{"st.async gpu scope", asyncWith("st.async.gpu.mbarrier::complete_tx::bytes.u32 y, 1, b"), "st.async cannot be .gpu: expected .cluster", "4:10"},
		{"st.async shared::cta", asyncWith("st.async.shared::cta.mbarrier::complete_tx::bytes.u32 y, 1, b"), "st.async cannot use .shared::cta: expected .shared::cluster", "4:10"},
		{"st.async vector", asyncWith("st.async.mbarrier::complete_tx::bytes.v2.u32 y, 1, b"), "st.async.v2 is not supported", "4:39"},
		{"st.async without type", asyncWith("st.async.mbarrier::complete_tx::bytes y, 1, b"), "st.async needs a data type: .b32, .b64", "4:2"},
		{"st.async 16-bit", asyncWith("st.async.mbarrier::complete_tx::bytes.u16 y, 1, b"), "st.async has no .u16 form", "4:39"},
		{"st.async without mbarrier", asyncWith("st.async.mbarrier::complete_tx::bytes.u32 y, 1"), "expected ',' after the value of st.async", "4:49"},
		{"st.async into global memory", asyncWith("st.async.mbarrier::complete_tx::bytes.u32 x, 1, b"), "the destination x of \"st.async.mbarrier::complete_tx::bytes.u32 x, 1, b\" is in global memory", "4:44"},
		{"st.async mbarrier in global memory", asyncWith("st.async.mbarrier::complete_tx::bytes.u32 y, 1, x"), "mbarrier objects live in shared memory", "4:50"},
		{"red.async without operation", asyncWith("red.async.relaxed.cluster.u32 y, 1, b"), "red.async needs an operation", "4:2"},
		{"red.async inc on s32", asyncWith("red.async.inc.s32 y, 1, b"), "red.async.inc has no .s32 form: expected .u32", "4:15"},
		{"red.async exch", asyncWith("red.async.exch.b32 y, 1, b"), "unknown qualifier .exch on red.async", "4:11"},
		{"red.async release min", asyncWith("red.async.release.gpu.global.min.u32 x, 1"), "red.async.release.min is not a PTX form: the .release form has only .add", "4:30"},
		{"red.async release without add", asyncWith("red.async.release.gpu.u32 x, 1"), "red.async.release needs the operation .add", "4:2"},
		{"red.async release b32", asyncWith("red.async.release.gpu.add.b32 x, 1"), "red.async.release.b32 is not supported: expected .u32, .s32, .u64, .s64", "4:27"},
		{"red.async weak", asyncWith("red.async.weak.add.u32 y, 1, b"), "red.async cannot be .weak: expected .relaxed", "4:11"},
		{"inval with a memory order", asyncWith("mbarrier.inval.release b"), "mbarrier.inval cannot be .release: it takes no memory order", "4:16"},
		{"inval with a scope", asyncWith("mbarrier.inval.cta b"), "mbarrier.inval cannot be .cta: it takes no scope", "4:16"},
		{"inval of another CTA", asyncWith("mbarrier.inval.shared::cluster b"), "mbarrier.inval cannot use .shared::cluster: expected .shared::cta", "4:16"},
		{"inval with a count", asyncWith("mbarrier.inval b, 1"), "unexpected \",\" after the operands of mbarrier.inval", "4:18"},
		{"mbarrier in global memory", asyncWith("mbarrier.arrive x"), "mbarrier objects live in shared memory", "4:18"},
		{"undeclared mbarrier", asyncWith("mbarrier.arrive q"), "the mbarrier q of \"mbarrier.arrive q\" is not declared", "4:18"},
		{"init count zero", asyncWith("mbarrier.init b, 0"), "mbarrier.init expects 1 to 1048575 arrivals per phase, found 0", "4:19"},
		{"init count 2^20", asyncWith("mbarrier.init.shared.b64 b, 1048576"), "mbarrier.init expects 1 to 1048575 arrivals per phase, found 1048576", "4:30"},
		{"mbarrier count zero", "PTX T\n{ b @ mbarrier 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.arrive b ;\nexists (0:r0 == 0)\n", "an mbarrier expects 1 to 1048575 arrivals per phase, found 0", "2:16"},
		{"release on a cluster wait", asyncWith("barrier.cluster.wait.release"), "barrier.cluster.wait cannot be .release: expected .acquire", "4:22"},
		{"cluster barrier without kind", asyncWith("barrier.cluster"), "barrier.cluster needs .arrive or .wait", "4:2"},
		{"copy direction", asyncWith("cp.async.ca.global.shared y, x"), "is not a PTX copy direction", "4:13"},
		{"copy into global", asyncWith("cp.async.ca.shared.global x, x"), "is in global memory: it must be a shared-memory location", "4:28"},
		{"src-size above cp-size", asyncWith("cp.async.ca.shared.global y, x, 4, 8"), "the source size 8 of cp.async.ca is larger than its size 4", "4:37"},
		{"negative src-size", asyncWith("cp.async.ca.shared.global y, x, 4, -1"), "the source size of cp.async.ca must not be negative", "4:37"},
		{"copy without cache operator", asyncWith("cp.async.shared.global y, x"), "cp.async needs a cache operator", "4:10"},
		{"bulk prefetch", asyncWith("cp.async.bulk.prefetch.L2.global x, 16"), "cp.async.bulk.prefetch is not supported: its page makes it \"a weak memory operation in the Memory Consistency Model\"", "4:15"},
		{"tensor prefetch", asyncWith("cp.async.bulk.prefetch.tensor.1d.L2.global.tile [x, {0}]"), "cp.async.bulk.prefetch.tensor is not supported: its page makes it", "4:15"},
		{"prefetch", asyncWith("prefetch.global.L2 [x]"), "prefetch is not supported: its page (prefetch, prefetchu) says which cache line", "4:2"},
		{"prefetch tensormap", asyncWith("prefetch.tensormap [x]"), "prefetch is not supported", "4:2"},
		{"prefetchu", asyncWith("prefetchu.L1 [x]"), "prefetchu is not supported", "4:2"},
		{"bulk load without mbarrier", asyncWith("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16"), "expected ',' after the size of cp.async.bulk", "4:77"},
		{"bulk store without mechanism", asyncWith("cp.async.bulk.global.shared::cta x, y, 16"), "cp.async.bulk needs a completion mechanism", "4:2"},
		{"reduce without add", asyncWith("cp.reduce.async.bulk.global.shared::cta.bulk_group.min x, y, 16"), "cp.reduce.async.bulk needs the operation .add", "4:52"},
		{"negative wait_group", asyncWith("cp.async.wait_group -1"), "cp.async.wait_group needs a group count of 0 or more", "4:22"},
		{"mbarrier_init fence without scope", asyncWith("fence.mbarrier_init.release"), "needs .release and .cluster", "4:2"},
		{"mbarrier_init fence acquire", asyncWith("fence.mbarrier_init.acquire.cluster"), "fence.mbarrier_init cannot be .acquire: expected .release", "4:21"},
		{"proxy async sys scope", asyncWith("fence.proxy.async.sys"), "fence.proxy.async cannot be .sys: it takes no scope", "4:19"},
		{"wgmma unknown", asyncWith("wgmma.arrive"), "wgmma.arrive is not supported", "4:7"},
		{"wgmma operand in global memory", asyncWith("wgmma.mma_async r0, x, y"), "the A operand x of \"wgmma.mma_async r0, x, y\" is in global memory", "4:22"},
		{"state result", asyncWith("mbarrier.arrive r1, b"), "b is an address, not a count, in \"mbarrier.arrive r1, b\"", "4:22"},
		{"shared aliases", "PTX T\n{ x=0; y @ shared aliases x; }\n P0@cta 0,gpu 0 ;\n ld r0, y ;\nexists (0:r0 == 0)\n", "shared is a state space, not a kind of alias", "2:12"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireDiagnosticAt(t, tc.src, tc.msg, tc.at) })
	}
}

// TestTcgen05ParseErrors checks the positioned errors of tcgen05 forms.
func TestTcgen05ParseErrors(t *testing.T) {
	with := func(instr string) string {
		return "PTX T\n{ x=0; y @ shared = 0; t @ tmem = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n " + instr + " ;\nexists (x == 0)\n"
	}
	cases := []struct{ name, src, msg, at string }{
		{"unknown op", with("tcgen05.wait::all"), "tcgen05.wait::all is not supported", "4:9"},
		{"bad cta group", with("tcgen05.mma.cta_group::3 t, y, y"), ".cta_group::3 is not a CTA group", "4:13"},
		{"shift without down", with("tcgen05.shift t"), "tcgen05.shift needs .down", "4:2"},
		{"commit without mechanism", with("tcgen05.commit b"), "tcgen05.commit needs its completion mechanism", "4:2"},
		{"mma accumulator in shared memory", with("tcgen05.mma y, y, y"), "the accumulator d y of \"tcgen05.mma y, y, y\" is in shared memory: it must be tensor memory", "4:14"},
		{"ld from global memory", with("tcgen05.ld r0, x"), "it must be tensor memory", "4:17"},
		{"acc not 0 or 1", with("tcgen05.mma t, y, y, 2"), "is 0 (d := a + b) or 1 (d := d + a + b), found 2", "4:23"},
		{"unknown qualifier", with("tcgen05.st.relaxed t, 1"), "unknown qualifier .relaxed on tcgen05.st", "4:12"},
		{"alloc into tensor memory", with("tcgen05.alloc t, 32"), "the destination t of \"tcgen05.alloc t, 32\" is in tensor memory: it must be a shared-memory location", "4:16"},
		{"alloc without a column count", with("tcgen05.alloc y"), "expected ',' after the shared-memory destination of tcgen05.alloc", "4:18"},
		{"ld of tensor memory", with("ld r0, t"), "the address t of \"ld r0, t\" is in tensor memory, which only tcgen05 instructions reach", "4:9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireDiagnosticAt(t, tc.src, tc.msg, tc.at) })
	}
}
