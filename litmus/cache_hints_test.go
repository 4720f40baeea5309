package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheHintsAccepted checks that each instruction with cache
// qualifiers parses to the same instruction as without them (they have no
// effect on the model), and that Instr.Text keeps them for display.
func TestCacheHintsAccepted(t *testing.T) {
	cases := []struct{ name, with, without string }{
		{"ld cache operator", "ld.global.ca.u32 r1, [x]", "ld.global.u32 r1, [x]"},
		{"ld .cv", "ld.cv r1, x", "ld r1, x"},
		{"ld .lu weak", "ld.weak.lu r1, x", "ld.weak r1, x"},
		{"ld L1 eviction", "ld.L1::evict_last r1, x", "ld r1, x"},
		{"ld no_allocate relaxed", "ld.relaxed.gpu.L1::no_allocate r1, x", "ld.relaxed.gpu r1, x"},
		{"ld L1 and L2 eviction", "ld.acquire.sys.global.L1::evict_first.L2::evict_last.u64 r1, [x]", "ld.acquire.sys.global.u64 r1, [x]"},
		{"ld cache hint register", "ld.global.L2::cache_hint.u32 r1, [x], r9", "ld.global.u32 r1, [x]"},
		{"ld cache hint integer", "ld.relaxed.cta.L2::cache_hint r1, [x], 0x1234", "ld.relaxed.cta r1, [x]"},
		{"ld everything", "ld.weak.global.L1::evict_unchanged.L2::evict_normal.L2::cache_hint.L2::64B.v2.u32 {r1, r2}, [x], r9", "ld.weak.global.v2.u32 {r1, r2}, [x]"},
		{"ld cop cache hint prefetch", "ld.cg.L2::cache_hint.L2::256B r1, [x], r9", "ld r1, [x]"},
		{"ld volatile prefetch", "ld.volatile.L2::128B r1, x", "ld.volatile r1, x"},
		{"st cache operator", "st.global.wt.u32 [x], 1", "st.global.u32 [x], 1"},
		{"st .wb", "st.wb x, 1", "st x, 1"},
		{"st release eviction", "st.release.gpu.L1::evict_normal.L2::evict_first x, 1", "st.release.gpu x, 1"},
		{"st cache hint", "st.relaxed.sys.L2::cache_hint [x], r3, r9", "st.relaxed.sys [x], r3"},
		{"st cop cache hint", "st.cs.L2::cache_hint [x], 1, r9", "st [x], 1"},
		{"atom cache hint", "atom.acq_rel.gpu.global.add.L2::cache_hint.u32 r1, [x], 1, r9", "atom.acq_rel.gpu.global.add.u32 r1, [x], 1"},
		{"atom inc cache hint", "atom.inc.L2::cache_hint.u32 r1, [x], 5, r9", "atom.inc.u32 r1, [x], 5"},
		{"red cache hint", "red.release.gpu.add.L2::cache_hint.u64 [x], 1, r9", "red.release.gpu.add.u64 [x], 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			with := mustHerd(t, herdWith(" "+tc.with+" | ld r0, x ;"))
			without := mustHerd(t, herdWith(" "+tc.without+" | ld r0, x ;"))
			in := with.Threads[0].Instrs[0]
			assert.Equal(t, stripInstr(without.Threads[0].Instrs[0]), stripInstr(in))
			assert.Equal(t, tc.with, in.Text, "the text keeps the cache qualifiers")
		})
	}
}

// TestCacheHintsNV checks the .test format, where a load may end with a
// filter after its cache-policy operand.
func TestCacheHintsNV(t *testing.T) {
	tests := mustNV(t, "t.test", nvWith("  st.L1::evict_last.L2::cache_hint [x], 1, r9;\n  ld.L2::cache_hint r1, [x], r9 == 1;"))
	require.Len(t, tests, 1)
	ld := tests[0].Threads[0].Instrs[1]
	require.NotNil(t, ld.Filter)
	assert.Equal(t, int64(1), *ld.Filter)
}

// TestCacheHintErrors checks that cache qualifiers are rejected where the
// PTX ISA does not allow them, with the position of the qualifier or
// operand at fault.
func TestCacheHintErrors(t *testing.T) {
	cases := []struct{ name, row, msg, at string }{
		{"ld store cache operator", " ld.wb r1, x | ld r0, x ;", "the cache operators of ld are .ca, .cg, .cs, .lu and .cv", "4:4"},
		{"st load cache operator", " st.global.ca [x], 1 | ld r0, x ;", "the cache operators of st are .wb, .cg, .cs and .wt", "4:11"},
		{"cache operator on strong ld", " ld.relaxed.gpu.cg r1, x | ld r0, x ;", "a cache operator goes only with a weak ld", "4:16"},
		{"cache operator with eviction", " ld.ca.L1::evict_last r1, x | ld r0, x ;", "a cache operator and an eviction priority do not go together", "4:4"},
		{"two cache operators", " ld.ca.cg r1, x | ld r0, x ;", "ld has two cache operators, .ca and .cg", "4:7"},
		{"two L1 evictions", " st.L1::evict_first.L1::evict_last x, 1 | ld r0, x ;", "st has two L1 eviction priorities", "4:20"},
		{"st prefetch", " st.L2::128B x, 1 | ld r0, x ;", "prefetch sizes are for loads: st takes none", "4:4"},
		{"volatile ld eviction", " ld.volatile.L1::evict_last r1, x | ld r0, x ;", "ld.volatile takes only a prefetch size", "4:13"},
		{"volatile st cache hint", " st.volatile.L2::cache_hint x, 1, r9 | ld r0, x ;", "st.volatile takes no cache qualifiers", "4:13"},
		{"mmio ld prefetch", " ld.mmio.relaxed.sys.global.L2::64B r1, [x] | ld r0, x ;", "ld.mmio takes no cache qualifiers", "4:28"},
		{"atom eviction", " atom.add.L1::evict_last r1, x, 1 | ld r0, x ;", "atom takes only .L2::cache_hint among the cache qualifiers", "4:10"},
		{"red cache operator", " red.add.cg x, 1 | ld r0, x ;", "red takes only .L2::cache_hint", "4:9"},
		{"atom cas cache hint", " atom.cas.L2::cache_hint r1, [x], 0, 1 | ld r0, x ;", "atom.cas takes no .L2::cache_hint", "4:10"},
		{"cache hint without policy", " ld.L2::cache_hint r1, [x] | ld r0, x ;", "ld.L2::cache_hint needs a cache-policy operand", "4:28"},
		{"policy without cache hint", " st [x], 1, r9 | ld r0, x ;", "a cache-policy operand needs .L2::cache_hint", "4:11"},
		{"bad policy", " red.add.L2::cache_hint [x], 1, [r9] | ld r0, x ;", "expected a register or an integer as the cache-policy operand of red", "4:33"},
		{"inc without operand or policy", " atom.inc.L2::cache_hint r1, [x] | ld r0, x ;", "atom.L2::cache_hint needs a cache-policy operand", "4:34"},
		{"register move", " ld.ca r1, 1 | ld r0, x ;", "a register move (ld DST, IMM) takes no cache qualifier, found .ca", "4:4"},
		{"unknown on surface", " suld.ca r1, x | ld r0, x ;", "unknown qualifier .ca on suld", "4:6"},
		{"misspelt L1", " ld.L1::evict_most r1, x | ld r0, x ;", "unknown qualifier .L1::evict_most on ld", "4:4"},
		{"cache hint on shared ld", " ld.shared.L2::cache_hint r1, [x], r9 | ld r0, x ;", ".L2::cache_hint goes only with global memory", "4:4"},
		{"cache hint on shared atom", " atom.shared::cluster.add.L2::cache_hint r1, [x], 1, r9 | ld r0, x ;", ".L2::cache_hint goes only with global memory", "4:6"},
		{"cache hint on shared red", " red.add.shared::cta.L2::cache_hint [x], 1, r9 | ld r0, x ;", "not with .shared::cta", "4:9"},
		{"prefetch on shared", " ld.L2::128B.shared r1, [x] | ld r0, x ;", "the prefetch size .L2::128B goes only with global memory", "4:13"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseHerd("t.litmus", []byte(herdWith(tc.row)))
			requireDiagnostic(t, err, tc.msg, tc.at)
		})
	}
}

// TestCacheHintsCopies checks the cache qualifiers of the asynchronous
// copies: cp.async takes .L2::cache_hint and a prefetch size, the bulk
// copies .L2::cache_hint, each with an optional cache-policy operand.
func TestCacheHintsCopies(t *testing.T) {
	copyTest := func(instr string) string {
		return "PTX C\n{ x=1; y @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,cluster 0,gpu 0 ;\n " + instr + " ;\nexists (x == 1)\n"
	}
	ok := []struct{ with, without string }{
		{"cp.async.ca.shared.global.L2::cache_hint.L2::128B y, x, 4, 4, r9", "cp.async.ca.shared.global y, x, 4, 4"},
		{"cp.async.cg.shared.global.L2::256B y, x, 16", "cp.async.cg.shared.global y, x, 16"},
		{"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint y, x, 16, b, r9", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b"},
		{"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint x, y, 16, 7", "cp.async.bulk.global.shared::cta.bulk_group x, y, 16"},
	}
	for _, tc := range ok {
		t.Run(tc.with, func(t *testing.T) {
			with := mustHerd(t, copyTest(tc.with))
			without := mustHerd(t, copyTest(tc.without))
			assert.Equal(t, stripInstr(without.Threads[0].Instrs[0]), stripInstr(with.Threads[0].Instrs[0]))
		})
	}
	bad := []struct{ instr, msg, at string }{
		{"cp.async.ca.shared.global.L2::evict_last y, x, 4", "unknown qualifier .L2::evict_last on cp.async.ca", "4:27"},
		{"cp.async.bulk.global.shared::cta.bulk_group.L2::128B x, y, 16", "unknown qualifier .L2::128B on cp.async.bulk", "4:45"},
		{"cp.async.bulk.global.shared::cta.bulk_group x, y, 16, 7", `unexpected "," after the operands of cp.async.bulk`, "4:54"},
		{"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint x, y, 16, [r9]", "expected a register or an integer as the cache-policy operand of cp.async.bulk", "4:71"},
	}
	for _, tc := range bad {
		t.Run(tc.instr, func(t *testing.T) {
			_, err := ParseHerd("t.litmus", []byte(copyTest(tc.instr)))
			requireDiagnostic(t, err, tc.msg, tc.at)
		})
	}
}
