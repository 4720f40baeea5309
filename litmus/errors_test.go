package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// herdWith builds a two-thread herd test whose single instruction row is
// row (cells separated by '|'), so that each error case only spells out what
// it breaks. The row is on line 4.
func herdWith(row string) string {
	return "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n" + row + "\nexists (P1:r0 == 1)\n"
}

// nvWith builds a .test file whose first thread's body is body; the body
// starts on line 3.
func nvWith(body string) string {
	return ".global x;\nd0.b0.t0 {\n" + body + "\n}\nd0.b1.t0 {\n  ld r0, [x];\n}\nassert (r0 == 0) as a;\n"
}

// errorCases are inputs that must be rejected, with a substring of the
// expected message and its line:col.
var errorCases = []struct {
	name, file, src, msg, at string
}{
	// Herd format.
	{"unknown instruction", "t.litmus", herdWith(" ldx.weak r0, x | ld r0, x ;"), `unknown instruction "ldx.weak": expected ld, st`, "4:2"},
	{"ld.nc without .global", "t.litmus", herdWith(" ld.nc r0, x | ld r0, x ;"), `ld.nc needs .global: PTX defines the non-coherent load on global memory only (write ld.global.nc)`, "4:4"},
	{"ld.nc on shared", "t.litmus", herdWith(" ld.shared.nc r0, x | ld r0, x ;"), `ld.nc needs .global`, "4:11"},
	{"ld.global.nc twice", "t.litmus", herdWith(" ld.global.nc.nc r0, x | ld r0, x ;"), `ld has two .nc qualifiers`, "4:14"},
	{"ld.global.nc relaxed", "t.litmus", herdWith(" ld.global.nc.relaxed.gpu r0, x | ld r0, x ;"), `ld.global.nc cannot be .relaxed: expected .weak`, "4:14"},
	{"ld.global.nc acquire", "t.litmus", herdWith(" ld.acquire.gpu.global.nc r0, x | ld r0, x ;"), `ld.global.nc cannot be .acquire: expected .weak`, "4:4"},
	{"ld.global.nc cache operator", "t.litmus", herdWith(" ld.global.nc.lu r0, x | ld r0, x ;"), `cache qualifier .lu is not allowed here: the cache operators of ld.global.nc are .ca, .cg and .cs`, "4:14"},
	{"ld.global.nc store", "t.litmus", herdWith(" st.global.nc x, 1 | ld r0, x ;"), `unknown qualifier .nc on st`, "4:11"},
	{"ld.global.nc register move", "t.litmus", herdWith(" ld.global.nc r0, 5 | ld r0, x ;"), `expected an address or a register as the memory operand of ld.global.nc, found "5"`, "4:19"},
	{"unknown qualifier", "t.litmus", herdWith(" ld.foo r0, x | ld r0, x ;"), `unknown qualifier .foo on ld`, "4:4"},
	{"mmio on shared", "t.litmus", herdWith(" ld.mmio.relaxed.sys.shared r1, [x] | ld r0, x ;"), `ld.mmio goes only with global memory: PTX allows it with .global or generic addressing, not with .shared`, "4:21"},
	{"mmio vector", "t.litmus", herdWith(" st.mmio.relaxed.sys.v2.u32 [x], {1, 2} | ld r0, x ;"), `st.mmio takes no vector qualifier`, "4:21"},
	{"sink in a vector store", "t.litmus", herdWith(" st.v2.u32 [x], {1, _} | ld r0, x ;"), `the sink symbol _ is not supported in the elements of st`, "4:21"},
	{"sink in a vector load", "t.litmus", herdWith(" ld.v2.u32 {_, r1}, [x] | ld r0, x ;"), `the sink symbol _ is not supported in the elements of ld`, "4:13"},
	{"store to a constant reference", "t.litmus", "PTX T\n{ x=0; c @ constant aliases x; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st [c], 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `c is a constant reference, and "st [c], 1" writes: stores to constant memory are illegal`, "4:6"},
	{"sink in a .test vector store", "t.test", nvWith("  st.v2.u32 [x], {1, _};"), `the sink symbol _ is not supported in the elements of st`, "3:22"},
	{"atom on a constant reference", "t.litmus", "PTX T\n{ x=0; c @ constant aliases x; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n atom.add r1, [c], 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `c is a constant reference`, "4:16"},
	{"store cannot acquire", "t.litmus", herdWith(" st.acquire.gpu x, 1 | ld r0, x ;"), `st cannot be .acquire: expected .weak, .relaxed, .release, .volatile or .mmio`, "4:4"},
	{"fence without scope", "t.litmus", herdWith(" fence.sc | ld r0, x ;"), `fence.sc needs a scope`, "4:2"},
	{"weak with scope", "t.litmus", herdWith(" ld.weak.gpu r1, x | ld r0, x ;"), `weak operations take no scope`, "4:9"},
	{"scope without order", "t.litmus", herdWith(" ld.gpu r1, x | ld r0, x ;"), `scope .gpu needs a memory order`, "4:4"},
	{"volatile with scope", "t.litmus", herdWith(" st.volatile.cta x, 1 | ld r0, x ;"), `volatile operations take no scope`, "4:13"},
	{"unknown label", "t.litmus", herdWith(" goto L9 | ld r0, x ;"), `unknown label "L9": thread P0 has no such label`, "4:7"},
	{"duplicate label", "t.litmus", "PTX T\n{ }\n P0@cta 0,gpu 0 ;\n L1: ;\n L1: ;\nexists (x == 0)\n", `duplicate label "L1" in thread P0 (first defined at line 4)`, "5:2"},
	{"too many cells", "t.litmus", herdWith(" ld r1, x | ld r0, x | st x, 1 ;"), `row has 3 cells, expected 2`, "4:22"},
	{"too few cells", "t.litmus", herdWith(" ld r1, x ;"), `row has 1 cells, expected 2`, "4:11"},
	{"missing row terminator", "t.litmus", herdWith(" ld r1, x | ld r0, x"), `expected ';' at the end of the row, found "exists"`, "5:1"},
	{"alias of undeclared", "t.litmus", "PTX T\n{ x=0; y @ generic aliases z; }\n P0@cta 0,gpu 0 ;\n ld r0, y ;\nexists (P0:r0 == 1)\n", `alias target "z" is not declared`, "2:28"},
	{"alias cycle", "t.litmus", "PTX T\n{ y @ generic aliases z;\n z @ surface aliases y; }\n P0@cta 0,gpu 0 ;\n ld r0, y ;\nexists (P0:r0 == 1)\n", `alias cycle: y -> z -> y`, "2:3"},
	{"unknown alias kind", "t.litmus", "PTX T\n{ x=0; y @ shared aliases x; }\n P0@cta 0,gpu 0 ;\n ld r0, y ;\nexists (P0:r0 == 1)\n", `shared is a state space, not a kind of alias: expected generic, surface, texture or constant`, "2:12"},
	{"duplicate address", "t.litmus", "PTX T\n{ x=0;\nx=1; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (P0:r0 == 1)\n", `address "x" is already declared at line 2`, "3:1"},
	{"unknown thread in condition", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (P0:r0 == 1 /\\ P5:r0 == 0)\n", `unknown thread P5 in the condition: the test has threads P0 to P0`, "5:23"},
	{"unknown location in condition", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (z == 1)\n", `unknown location "z" in the condition`, "5:9"},
	{"bar.red without type", "t.litmus", herdWith(" bar.red.popc 0 | ld r0, x ;"), `bar.red.popc needs the type .u32 (after the reduction), found none`, "4:2"},
	{"bar.red wrong type", "t.litmus", herdWith(" barrier.cta.red.and.aligned.u32 r1, 0, p | ld r0, x ;"), `barrier.red.and needs the type .pred (after the reduction), found .u32`, "4:29"},
	{"bar.red unknown reduction", "t.litmus", herdWith(" bar.red.xor.pred r1, 0, p | ld r0, x ;"), `unknown reduction .xor on bar.red: expected .popc, .and or .or`, "4:9"},
	{"warp sync without a lane", "t.litmus", herdWith(" bar.warp.sync 0x3 | ld r0, x ;"), `bar.warp.sync needs the lane of P0: write P0@cta N,gpu M,warp W,lane L`, "4:2"},
	{"warp sync outside its mask", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 2 | P1@cta 0,gpu 0,lane 1 ;\n bar.warp.sync 0x3 | ld r0, x ;\nexists (P1:r0 == 1)\n", `the member mask 0x3 of bar.warp.sync leaves out the lane 2 of P0`, "4:16"},
	{"warp sync register mask", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 0 | P1@cta 0,gpu 0,lane 1 ;\n bar.warp.sync r1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `the member mask of bar.warp.sync must be an integer`, "4:16"},
	{"warp sync zero mask", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 0 | P1@cta 0,gpu 0,lane 1 ;\n bar.warp.sync 0 | ld r0, x ;\nexists (P1:r0 == 1)\n", `must be a non-zero 32-bit mask, found 0`, "4:16"},
	{"warp sync qualifier", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 0 | P1@cta 0,gpu 0,lane 1 ;\n bar.warp.sync.aligned 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `bar.warp.sync.aligned is not supported: expected bar.warp.sync membermask`, "4:2"},
	{"two threads in one lane", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 1 | P1@cta 0,gpu 0,warp 0,lane 1 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `threads P0 and P1 are both lane 1 of warp 0 of CTA 0`, "3:26"},
	{"lane out of range", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,lane 32 | P1@cta 0,gpu 0 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `lane number 32 is out of range`, "3:22"},
	{"warp without lane", "t.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,warp 1 | P1@cta 0,gpu 0 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 1)\n", `the placement of P0 gives a warp but no lane`, "3:2"},
	{"bar.aligned", "t.litmus", herdWith(" bar.cta.sync.aligned 0 | ld r0, x ;"), `bar takes no .aligned: bar.cta.sync already is barrier.cta.sync.aligned`, "4:14"},
	{"bar.red immediate predicate", "t.litmus", herdWith(" bar.red.popc.u32 r1, 0, 1 | ld r0, x ;"), `the predicate of bar.red.popc.u32 must be a register (a predicate holding 0 or 1), found 1`, "4:26"},
	{"bar.red without barrier", "t.litmus", herdWith(" bar.red.or.pred r1, !p | ld r0, x ;"), `bar.red.or.pred needs a barrier operand`, "4:22"},
	{"bar.red without predicate", "t.litmus", herdWith(" bar.red.or.pred r1, 0 | ld r0, x ;"), `bar.red.or.pred needs a barrier and a predicate after its destination: bar.red.or.pred d, a{, b}, {!}c`, "4:24"},
	{"bar.red without kind", "t.litmus", herdWith(" bar.cta 0 | ld r0, x ;"), `bar.cta needs .sync, .arrive or .red`, "4:2"},
	{"bar qualifier order", "t.litmus", herdWith(" bar.sync.cta 0 | ld r0, x ;"), `bar.sync.cta is not supported: expected bar{.cta}.sync`, "4:10"},
	{"fence.proxy kind unsupported", "t.litmus", herdWith(" fence.proxy.tensormap | ld r0, x ;"), `fence.proxy.tensormap is not supported`, "4:13"},
	{"trailing garbage", "t.litmus", herdWith(" st x, 1 | ld r0, x ;") + "bogus\n", `unexpected "bogus" after the condition`, "6:1"},
	{"unterminated herd comment", "t.litmus", "PTX T\n(* never closed\n{ x=0; }\n", `unterminated comment: expected *) before the end of the file`, "2:1"},
	{"unterminated string", "t.litmus", "PTX T\n\"a comment\n{ x=0; }\n", `unterminated string`, "2:1"},
	{"architecture", "t.litmus", "AArch64 T\n{ }\n P0 ;\n", `unsupported architecture "AArch64": expected PTX`, "1:1"},
	{"missing placement", "t.litmus", "PTX T\n{ }\n P0 | P1@cta 0,gpu 0 ;\n ld r0, x | ld r1, x ;\nexists (x == 0)\n", `thread P0 has no placement: write P0@cta N,gpu M`, "3:2"},
	{"missing gpu", "t.litmus", "PTX T\n{ }\n P0@cta 0 ;\n ld r0, x ;\nexists (x == 0)\n", `the placement of P0 lacks gpu`, "3:2"},
	{"threads out of order", "t.litmus", "PTX T\n{ }\n P0@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n ld r0, x | ld r1, x ;\nexists (x == 0)\n", `expected thread P1 (threads are named P0, P1, ... in order), found "P2"`, "3:19"},
	{"locations without a list", "t.litmus", herdWith(" st x, 1 | ld r0, x ;\nlocations x;"), `expected '[' after locations`, "5:11"},
	{"missing condition", "t.litmus", "PTX T\n{ }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\n", `expected the final condition (exists, ~exists or forall), found end of file`, "5:1"},
	{"register init of missing thread", "t.litmus", "PTX T\n{ P7:r0=1; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (x == 0)\n", `register init for thread P7, but the test has threads P0 to P0`, "2:3"},
	{"atom without operation", "t.litmus", herdWith(" atom.relaxed.gpu r1, x, 1 | ld r0, x ;"), `atom needs an operation`, "4:2"},
	{"red.cas", "t.litmus", herdWith(" red.relaxed.gpu.cas x, 1, 2 | ld r0, x ;"), `red.cas is not supported`, "4:17"},
	{"load filter in herd", "t.litmus", herdWith(" ld r1, x == 1 | ld r0, x ;"), `load filters (== V) are only supported in .test files`, "4:11"},
	{"malformed integer", "t.litmus", "PTX T\n{ x=12ab; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (x == 0)\n", `malformed integer "12ab"`, "2:5"},
	{"integer overflow", "t.litmus", herdWith(" st x, 99999999999999999999 | ld r0, x ;"), `does not fit in 64 bits`, "4:8"},
	{"unexpected character", "t.litmus", herdWith(" st x, 1 # | ld r0, x ;"), `unexpected character '#'`, "4:10"},
	{"qualified register move", "t.litmus", "PTX T\n{ P0:r1=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, r1 ;\nexists (x == 0)\n", `a register move (ld DST, REG) takes no memory order or scope`, "4:4"},
	{"membar level", "t.litmus", herdWith(" membar.gpu | ld r0, x ;"), `membar.gpu is not supported: expected membar.cta, membar.gl, membar.sys or membar.proxy.KIND`, "4:8"},
	{"membar.proxy without a kind", "t.litmus", herdWith(" membar.proxy | ld r0, x ;"), `membar.proxy needs a kind: .alias or .async`, "4:2"},
	{"membar.proxy kind", "t.litmus", herdWith(" membar.proxy.surface | ld r0, x ;"), `membar.proxy.surface is not supported: expected membar.proxy.alias or membar.proxy.async`, "4:14"},
	{"membar.proxy.alias qualifier", "t.litmus", herdWith(" membar.proxy.alias.gpu | ld r0, x ;"), `unexpected qualifier .gpu after membar.proxy.alias`, "4:20"},
	{"membar.proxy.async scope", "t.litmus", herdWith(" membar.proxy.async.gpu | ld r0, x ;"), `membar.proxy.async cannot be .gpu: it takes no scope`, "4:20"},
	{"negative barrier", "t.litmus", herdWith(" bar.sync -1 | ld r0, x ;"), `barrier operands must not be negative`, "4:11"},
	{"herd logical barrier 16", "t.litmus", herdWith(" bar.sync 0, 16 | ld r0, x ;"), `bar.sync names logical barrier 16: a CTA has barriers 0 to 15`, "4:14"},
	{"surface load with order", "t.litmus", herdWith(" suld.acquire.gpu r1, x | ld r0, x ;"), `suld cannot be .acquire: expected .weak`, "4:6"},
	{"missing operand", "t.litmus", herdWith(" st x | ld r0, x ;"), `expected ',' after the address of st, found "|"`, "4:7"},
	{"two memory orders", "t.litmus", herdWith(" ld.relaxed.acquire r1, x | ld r0, x ;"), `ld has two memory-order qualifiers, .relaxed and .acquire`, "4:12"},
	{"two scopes", "t.litmus", herdWith(" ld.relaxed.gpu.cta r1, x | ld r0, x ;"), `ld has two scopes, .gpu and .cta`, "4:16"},
	{"two operations", "t.litmus", herdWith(" atom.add.or r1, x, 1 | ld r0, x ;"), `atom has two operations, .add and .or`, "4:10"},
	{"init entry", "t.litmus", "PTX T\n{ int x = 0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (x == 0)\n", `expected an init entry (x=0, P0:r0=0, a @ shared = 0, b @ mbarrier 1, m @ multimem x, y or y @ generic aliases x), found "int"`, "2:3"},
	// Spellings PTX does not have (item 7 of issue 10): what PTX allows is
	// said at the qualifier.
	{"ld.acquire without scope", "t.litmus", herdWith(" ld.acquire r1, x | ld r0, x ;"), `ld.acquire needs a scope: PTX requires one on a strong ld (.cta, .cluster, .gpu or .sys) and has no default`, "4:4"},
	{"st.relaxed without scope", "t.litmus", herdWith(" st.global.relaxed.u32 x, 1 | ld r0, x ;"), `st.relaxed needs a scope`, "4:11"},
	{"st.release without scope", "t.litmus", herdWith(" st.release x, 1 | ld r0, x ;"), `st.release needs a scope`, "4:4"},
	{"mmio without relaxed", "t.litmus", herdWith(" ld.mmio.sys r1, x | ld r0, x ;"), `ld.mmio must be written ld.mmio.relaxed.sys: PTX requires .mmio and .relaxed together, at .sys scope only`, "4:4"},
	{"mmio without scope", "t.litmus", herdWith(" st.mmio.relaxed x, 1 | ld r0, x ;"), `st.mmio must be written st.mmio.relaxed.sys`, "4:4"},
	{"mmio at gpu scope", "t.litmus", herdWith(" st.mmio.relaxed.gpu x, 1 | ld r0, x ;"), `st.mmio must be written st.mmio.relaxed.sys`, "4:17"},
	{"red.acquire", "t.litmus", herdWith(" red.acquire.gpu.add x, 1 | ld r0, x ;"), `red cannot be .acquire: PTX red takes .relaxed or .release (default .relaxed); use atom.acquire for an acquire read-modify-write`, "4:5"},
	{"red.acquire in .test", "t.test", nvWith("  red.add.acquire.gpu [x], 1;"), `red cannot be .acquire: PTX red takes .relaxed or .release`, "3:10"},
	{"red.acq_rel in .test", "t.test", nvWith("  red.acq_rel.gpu.add [x], 1;"), `red cannot be .acq_rel: PTX red takes .relaxed or .release (default .relaxed); use atom.acq_rel for an acquire-release read-modify-write`, "3:6"},
	{"red.weak", "t.litmus", herdWith(" red.weak.add x, 1 | ld r0, x ;"), `red cannot be .weak: expected .relaxed or .release`, "4:5"},
	{"atom.sc", "t.litmus", herdWith(" atom.sc.gpu.add r1, x, 1 | ld r0, x ;"), `atom cannot be .sc: expected .relaxed, .acquire, .release or .acq_rel`, "4:6"},
	{"atom.sub in .test", "t.test", nvWith("  atom.sub.gpu r1, [x], 1;"), `atom.sub does not exist in PTX: atom takes .add, .inc, .dec, .exch, .cas, .and, .or, .xor, .min, .max; subtract with atom.add and the negated operand`, "3:7"},
	{"red.sub in .test", "t.test", nvWith("  red.relaxed.gpu.sub [x], 1;"), `red.sub does not exist in PTX: red takes .add, .inc, .dec, .and, .or, .xor, .min, .max`, "3:18"},
	{"red.mul", "t.litmus", herdWith(" red.mul x, 2 | ld r0, x ;"), `unknown qualifier .mul on red: expected a memory order (.relaxed or .release), a scope (.cta, .cluster, .gpu or .sys), an operation (.add, .inc, .dec, .and, .or, .xor, .min, .max)`, "4:5"},
	{"setp without comparison", "t.litmus", herdWith(" setp.u32 p, r1, 0 | ld r0, x ;"), `setp needs an integer comparison first: .eq, .ne, .lt, .le, .gt, .ge, .lo, .ls, .hi or .hs, found .u32`, "4:6"},
	{"setp without type", "t.litmus", herdWith(" setp.eq p, r1, 0 | ld r0, x ;"), `setp.eq needs a type`, "4:2"},
	{"setp float", "t.litmus", herdWith(" setp.eq.f32 p, r1, 0 | ld r0, x ;"), `setp cannot compare .f32: expected an integer type`, "4:9"},
	{"setp bool op", "t.litmus", herdWith(" setp.eq.and.u32 p, r1, 0, q | ld r0, x ;"), `setp.eq.and is not supported`, "4:9"},
	{"setp bits ordered", "t.litmus", herdWith(" setp.lt.b32 p, r1, 0 | ld r0, x ;"), `setp.lt.b32: the bit-size types compare only with .eq and .ne; use .u32 or .s32`, "4:6"},
	{"setp signed lo", "t.litmus", herdWith(" setp.lo.s32 p, r1, 0 | ld r0, x ;"), `setp.lo.s32: .lo, .ls, .hi and .hs are unsigned comparisons; use .u32`, "4:6"},
	{"guard without instruction", "t.litmus", herdWith(" @p | ld r0, x ;"), `expected an instruction after the guard @p, found "|"`, "4:5"},
	{"guard immediate", "t.litmus", herdWith(" @1 bra L | ld r0, x ;"), `expected a register as the guard predicate of @, found "1"`, "4:3"},
	{"bra qualifier", "t.litmus", herdWith(" L: bra.div L | ld r0, x ;"), `unknown qualifier .div on bra: expected bra or bra.uni`, "4:8"},
	{"unclosed paren", "t.litmus", "PTX T\n{ }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\nexists (x == 0\n", `expected ')' to close the '(' at column 8, found end of file`, "6:1"},

	// NV format.
	{"ambiguous register", "t.test", ".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.b1.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `register "r0" is ambiguous: it is used by threads d0.b0.t0 and d0.b1.t0`, "4:9"},
	{"unknown name in condition", "t.test", nvWith("  st [x], 1;") + "permit (r9 == 1) as b;\n", `unknown name "r9": not a declared address nor a register of any thread`, "9:9"},
	{"undeclared address", "t.test", nvWith("  st [z], 1;"), `undeclared address "z"`, "3:7"},
	{"nv unbracketed address", "t.test", nvWith("  st x, 1;"), `expected a bracketed address such as [x] as the memory operand of st, found "x"`, "3:6"},
	{"unterminated block comment", "t.test", ".global x;\n/* open\nd0.b0.t0 { }\n", `unterminated comment: expected */ before the end of the file`, "2:1"},
	{"surfref physically", "t.test", ".global x;\n.surfref s physically aliases x;\n" + "d0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `.surfref aliases are declared with "virtually"`, "2:12"},
	{"surfref without alias", "t.test", ".global x;\n.surfref s;\n" + "d0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `.surfref s must name the address it reaches`, "2:10"},
	{"nv alias of undeclared", "t.test", ".global y physically aliases q;\nd0.b0.t0 { ld r0, [y]; }\nassert (r0 == 0) as a;\n", `alias target "q" is not declared`, "1:30"},
	{"missing as", "t.test", nvWith("  st [x], 1;") + "permit (r0 == 1);\n", `expected 'as NAME' after the condition of permit, found ";"`, "9:17"},
	{"malformed thread name", "t.test", ".global x;\nd0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `malformed thread name "d0.t0"`, "2:1"},
	{"duplicate thread", "t.test", ".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.b0.t0 { ld r1, [x]; }\nassert (r0 == 0) as a;\n", `duplicate thread d0.b0.t0 (first at line 2)`, "3:1"},
	{"same thread twice", "t.test", ".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.c0.b0.t0 { ld r1, [x]; }\nassert (r0 == 0) as a;\n", `thread d0.c0.b0.t0 is the same thread as d0.b0.t0`, "3:1"},
	{"cluster conflict", "t.test", ".global x;\nd0.c0.b1.t0 { ld r0, [x]; }\nd0.c1.b1.t1 { ld r1, [x]; }\nassert (r0 == 0) as a;\n", `thread d0.c1.b1.t1 puts CTA 1 of GPU 0 in cluster 1, but thread d0.c0.b1.t0 puts it in cluster 0`, "3:1"},
	{"nv barrier operands", "t.test", nvWith("  bar.sync 0, 2, 3;"), `unexpected "," after the operands of bar.sync`, "3:16"},
	{"nv logical barrier 16", "t.test", nvWith("  barrier.sync.aligned 16, 64;"), `barrier.sync.aligned names logical barrier 16: a CTA has barriers 0 to 15`, "3:24"},
	{"nv bar.red operands", "t.test", nvWith("  bar.red.popc.u32 r1, 0, 2, 3, p;"), `unexpected "," after the operands of bar.red.popc.u32`, "3:31"},
	{"nv arrive without count", "t.test", nvWith("  barrier.arrive.aligned 1;"), `barrier.arrive.aligned needs a thread count: PTX writes barrier.arrive.aligned a, b, and b is required for arrive`, "3:27"},
	{"nv unknown declaration", "t.test", ".local x;\nd0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n", `unknown declaration .local`, "1:1"},
	{"nv filter operator", "t.test", nvWith("  ld r1, [x] != 1;"), `expected '==' in a load filter, found "!="`, "3:14"},
	{"nv herd connective", "t.test", nvWith("  st [x], 1;") + "permit (r0 == 1 /\\ r0 == 0) as b;\n", `/\ is not how a .test condition writes "and": write &&`, "9:17"},
	{"nv no threads", "t.test", ".global x;\n", `the test has no threads`, "2:1"},
	{"nv no commands", "t.test", ".global x;\nd0.b0.t0 { st [x], 1; }\n", `the test has no assert, permit or check command`, "3:1"},
	{"nv missing semicolon", "t.test", nvWith("  st [x], 1\n  ld r1, [x];"), `unexpected "ld" after the operands of st`, "4:3"},
	{"nv missing brace", "t.test", ".global x;\nd0.b0.t0 {\n  st [x], 1;\n", `expected '}' to close thread d0.b0.t0 opened at line 2, found end of file`, "4:1"},

	// Templates.
	{"placeholder without cell", "t.test", ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n  ld r0, [x];\n}\nassert (r0 == 1) as a;\n$$\nst | 1\nst\n", `template row 2 has 1 cells, but the template uses $1 (it needs 2 cells)`, "9:1"},
	{"too many template cells", "t.test", ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n  ld r0, [x];\n}\nassert (r0 == 1) as a;\n$$\nst | 1 | 2\n", `template row 1 has 3 cells, but the template only uses 2`, "8:10"},
	{"error in a cell", "t.test", ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n  ld r0, [x];\n}\nassert (r0 == 1) as a;\n$$\nst | 1\n\nstx | 2\n", `unknown instruction "stx": expected ld, st, suld, sust, tld, cold, atom, red, multimem, fence, membar, bar, barrier, mbarrier, cp, wgmma, mapa, tcgen05, mov, add, sub, mul, and, or, xor, setp, beq, bne, bra or goto (template row 2)`, "10:1"},
	{"error in a cell column", "t.test", ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n  ld r0, [x];\n}\nassert (r0 == 1) as a;\n$$\nst.release.gpu  |  1x\n", `malformed integer "1x" (template row 1)`, "8:20"},
	{"error in template text", "t.test", ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n  ldd r0, [x];\n}\nassert (r0 == 1) as a;\n$$\nst | 1\nst | 2\n", `unknown instruction "ldd": expected ld, st, suld, sust, tld, cold, atom, red, multimem, fence, membar, bar, barrier, mbarrier, cp, wgmma, mapa, tcgen05, mov, add, sub, mul, and, or, xor, setp, beq, bne, bra or goto (template row 1)`, "4:3"},
	{"template without rows", "t.test", ".global x;\nd0.b0.t0 { st [x], $0; }\nassert (x == 1) as a;\n$$\n\n", `template has no rows after $$`, "4:1"},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FormatForPath(tc.file)
			require.NoError(t, err)
			tests, err := Parse(tc.file, []byte(tc.src), f)
			require.Error(t, err, "input must be rejected")
			assert.Nil(t, tests)
			var list source.List
			require.ErrorAs(t, err, &list)
			var found []string
			for _, e := range list {
				assert.Equal(t, tc.file, e.Pos.File, "every diagnostic names the file")
				assert.LessOrEqual(t, e.Pos.Line, strings.Count(tc.src, "\n")+1, "diagnostics point into the file: %s", e)
				assert.GreaterOrEqual(t, e.Pos.Col, 1, "diagnostics have a column: %s", e)
				at := fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col)
				if strings.Contains(e.Msg, tc.msg) && at == tc.at {
					return
				}
				found = append(found, e.Error())
			}
			t.Errorf("no diagnostic %q at %s; got:\n%s", tc.msg, tc.at, strings.Join(found, "\n"))
		})
	}
}

func TestErrorsAccumulate(t *testing.T) {
	src := herdWith(" ldx r1, x | ld.foo r0, x ;\n st.acquire x, 1 | fence.sc ;")
	_, err := ParseHerd("t.litmus", []byte(src))
	var list source.List
	require.ErrorAs(t, err, &list)
	assert.Len(t, list, 4, "one diagnostic per broken cell: %v", list)
	assert.Contains(t, list.Quoted(), "    ^", "diagnostics quote their line with a caret")
}

func TestErrorCasesCount(t *testing.T) {
	assert.GreaterOrEqual(t, len(errorCases), 25)
}

func TestDeepNestingIsRejected(t *testing.T) {
	deep := "PTX D\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\nexists " + strings.Repeat("(", 5000) + "x == 1" + strings.Repeat(")", 5000) + "\n"
	_, err := ParseHerd("d.litmus", []byte(deep))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "d.litmus:5:")
	assert.Contains(t, err.Error(), "condition nested too deeply")

	nots := ".global x;\nd0.b0.t0 { st [x], 1; }\nassert " + strings.Repeat("!", 5000) + "(x == 1) as a;\n"
	_, err = ParseNV("d.test", []byte(nots))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "condition nested too deeply")
}
