package sass

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

const mp = `PTX MP
{ x = 0; flag = 0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0          ;
 st.weak x, 1           | ld.acquire.gpu r0, flag ;
 fence.sc.gpu           | ld.weak r1, x           ;
 st.relaxed.gpu flag, 1 |                         ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

// threads parses a test's threads.
func threads(t *testing.T, src string) []*litmus.Thread {
	t.Helper()
	test, err := litmus.ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	return test.Threads
}

// code makes machine code from instruction texts, without control bits;
// "TEXT @W2" releases scoreboard 2, "TEXT @B2" waits for it.
func code(lines ...string) []Instr {
	var out []Instr
	for i, l := range lines {
		text, ctl, found := strings.Cut(l, " @")
		ins := Instr{Addr: uint64(16 * i), Text: text}
		if found {
			ins.HasControl = true
			ins.Control = Control{WriteBarrier: -1, ReadBarrier: -1}
			switch ctl[0] {
			case 'W':
				ins.Control.WriteBarrier = int(ctl[1] - '0')
			case 'B':
				ins.Control.Wait = 1 << (ctl[1] - '0')
			}
		}
		out = append(out, ins)
	}
	return out
}

// withControl gives every instruction control bits that wait for nothing.
func withControl(c []Instr) []Instr {
	for i := range c {
		if !c[i].HasControl {
			c[i].HasControl, c[i].Control = true, Control{WriteBarrier: -1, ReadBarrier: -1}
		}
	}
	return c
}

// TestParseCuobjdump reads cuobjdump's listing (the machine code of MP's
// threads made by ptxas 12.4 for sm_90) with the control bits, and finds
// both threads kept: the acquire load's scoreboard is waited for by the
// CCTL.IVALL before the second load.
func TestParseCuobjdump(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "cuobjdump.txt"))
	require.NoError(t, err)
	code := Parse(string(text))
	require.Len(t, code, 2)
	var ld, cctl Instr
	for _, ins := range code["role1"] {
		switch {
		case strings.HasPrefix(ins.Text, "LD.E.STRONG.GPU"):
			ld = ins
		case ins.Text == "CCTL.IVALL":
			cctl = ins
		}
	}
	require.Equal(t, "LD.E.STRONG.GPU R8, desc[UR12][R2.64]", ld.Text)
	require.Equal(t, uint64(0x390), ld.Addr)
	require.True(t, ld.HasControl)
	require.Equal(t, "B------:R-:W2:Y:S04", ld.Control.String())
	require.Equal(t, "B--2---:R-:W-:Y:S01", cctl.Control.String())
	th := threads(t, mp)
	p0 := Compare(th[0], code["role0"])
	require.Empty(t, p0.Changed)
	require.Equal(t, []string{"st", "|", "st"}, p0.Want)
	require.Equal(t, []string{"st", "|", "st"}, p0.Got)
	p1 := Compare(th[1], code["role1"])
	require.Empty(t, p1.Changed)
	require.Equal(t, []string{"ld", "|", "ld"}, p1.Got)
}

// TestParseNvdisasm reads nvdisasm -hex's listing, whose functions are
// sections, and one without encodings.
func TestParseNvdisasm(t *testing.T) {
	text := `//--------------------- .text.role0            --------------------------
	.section	.text.role0,"ax",@progbits
.text.role0:
        /*0000*/                   LDG.E R2, desc[UR4][R2.64] ;   /* 0x0000000402027981 */
                                                                  /* 0x000ea2000c1e1900 */
        /*0010*/                   MEMBAR.ALL.CTA ;               /* 0x0000000000007992 */
                                                                  /* 0x004fe20000000000 */
        /*0020*/                   STG.E.64 desc[UR4][R4.64], R2 ;
//--------------------- .nv.info                 --------------------------
        /*0000*/ 	.byte	0x04, 0x2f
`
	code := Parse(text)
	require.Len(t, code["role0"], 3)
	ldg, membar, stg := code["role0"][0], code["role0"][1], code["role0"][2]
	require.Equal(t, "LDG.E R2, desc[UR4][R2.64]", ldg.Text)
	require.Equal(t, 2, ldg.Control.WriteBarrier)
	require.True(t, membar.Control.Waits(2))
	require.Equal(t, uint64(0x20), stg.Addr)
	require.False(t, stg.HasControl, "an instruction printed without its encoding has no control bits")
}

// TestDecodeControl decodes the control bits of instructions ptxas 12.4
// made for sm_90 (the second word of each encoding, as cuobjdump prints
// it).
func TestDecodeControl(t *testing.T) {
	for _, c := range []struct {
		hi   uint64
		want string
	}{
		{0x000ea2000800007f, "B------:R-:W2:Y:S01"}, // SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ
		{0x000ee20000000800, "B------:R-:W3:Y:S01"}, // LDS R4, [R3]
		{0x002e220000000800, "B-1----:R-:W0:Y:S01"}, // LDS R8, [R3+0x10]
		{0x000fe20002000000, "B------:R-:W-:Y:S01"}, // CCTL.IVALL
		{0x000fea0003800000, "B------:R-:W-:Y:S05"}, // EXIT
	} {
		require.Equal(t, c.want, decodeControl(c.hi).String(), "%#x", c.hi)
	}
	require.False(t, Control{Wait: 1 << 5}.Waits(6))
}

// TestCompareChanges: merged loads, reordered accesses, a lost fence and
// an acquire that is not waited for are reported; extra fences around a
// release, the L1 invalidation of an acquire fence and result stores
// scheduled anywhere are not.
func TestCompareChanges(t *testing.T) {
	corr := threads(t, "PTX C\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\n ld r1, x ;\nexists (P0:r0 == 1)\n")[0]
	c := Compare(corr, code("LDG.E R2, [R4]", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R2", "STG.E.EF.64 [R6+0x8], R2", "STG.E.EF.64 [R6+0x10], R2"))
	require.Equal(t, "changed its memory operations: ld 2 in the PTX, 1 in the machine code", c.Changed)

	sb := threads(t, "PTX S\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n ld r0, y ;\nexists (P0:r0 == 1)\n")[0]
	c = Compare(sb, code("LDG.E R2, [R4]", "STG.E [R8], R3", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R2", "STG.E.EF.64 [R6+0x8], R2"))
	require.Equal(t, "reordered its memory operations: st ld in the PTX, ld st in the machine code", c.Changed)

	fenced := threads(t, "PTX F\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n fence.sc.gpu ;\n ld r0, y ;\nexists (P0:r0 == 1)\n")[0]
	c = Compare(fenced, code("STG.E [R8], R3", "LDG.E R2, [R4]", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R2", "STG.E.EF.64 [R6+0x8], R2"))
	require.Equal(t, "lost the fence or barrier after its memory operation 1 (st)", c.Changed)

	rel := threads(t, "PTX R\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n st.release.gpu y, 1 ;\nexists (y == 1)\n")[0]
	c = Compare(rel, code("STG.E [R8], R3", "MEMBAR.ALL.GPU", "ERRBAR", "STG.E.STRONG.GPU [R4], R3", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R2"))
	require.Empty(t, c.Changed)

	// MP+bar's threads: the driver's compiler put the result store
	// before the end fence; the stores of the results may go anywhere.
	bar := threads(t, "PTX B\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st x, 1 | bar.sync 0 ;\n bar.sync 0 | ld r0, x ;\nexists (P1:r0 == 1)\n")
	c = Compare(bar[0], code("ST.E [R4], R9", "BAR.SYNC.DEFER_BLOCKING 0x0, 0x40", "STG.E.EF.64 [R2+0x8], R6", "MEMBAR.ALL.CTA", "EXIT"))
	require.Empty(t, c.Changed)
	require.Equal(t, []string{"st"}, c.Got)
	c = Compare(bar[1], code("BAR.SYNC.DEFER_BLOCKING 0x0, 0x40", "LD.E R8, [R4]", "STG.E.EF.64 [R2], R8", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R2+0x10], R6"))
	require.Empty(t, c.Changed)

	// A thread with a barrier and no access (Bar-exited-thread's P1)
	// once made the check index before the start of the code.
	exited := threads(t, "PTX E\n{ x = 0; P1:r2 = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st x, 1 | beq r2, 1, L ;\n bar.sync 0 | bar.sync 0 ;\n | L: ;\nexists (x == 1)\n")[1]
	for _, m := range [][]Instr{
		code("BAR.SYNC.DEFER_BLOCKING 0x0, 0x40", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R2], R6", "STG.E.EF.64 [R2+0x8], R6"),
		code("STG.E.EF.64 [R2], R6", "STG.E.EF.64 [R2+0x8], R6"),
		nil,
	} {
		require.Empty(t, Compare(exited, m).Changed)
	}
	c = Compare(exited, code("STG.E.64 [R2], R6"))
	require.Equal(t, "changed its memory operations: st 0 in the PTX, 1 in the machine code", c.Changed)

	// MP+atom's reader: fence.acquire compiles to the L1 invalidation.
	atom := threads(t, "PTX A\n{ x = 0; f = 0; }\n P0@cta 0,gpu 0 ;\n atom.sys.global.add.u32 r0, [f], 1 ;\n fence.acquire.gpu ;\n ld.weak r1, [x] ;\nexists (P0:r1 == 0)\n")[0]
	c = Compare(atom, withControl(code("ATOMG.E.ADD.STRONG.SYS PT, R3, [R2], R5 @W2", "CCTL.IVALL @B2", "LDG.E R7, [R4]", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R3")))
	require.Empty(t, c.Changed)
	require.Equal(t, []string{"rmw", "|", "ld"}, c.Got)
}

// TestCompareAcquireWait: an acquire's later accesses must wait for its
// scoreboard (the mask of one in between, or a DEPBAR), unless the thread
// branches (its loads then follow a branch on the result) or the listing
// has no control bits.
func TestCompareAcquireWait(t *testing.T) {
	wait := threads(t, "PTX W\n{ x @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n mbarrier.test_wait r0, b ;\n ld.shared r1, x ;\nexists (P0:r0 == 1)\n")[0]
	unwaited := withControl(code("SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ @W2", "LDS R4, [R3] @W3", "SEL R5, RZ, 0x1, !P0 @B2", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R4"))
	c := Compare(wait, unwaited)
	require.Equal(t, "does not wait for its acquire, memory operation 1 (mbar: SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ), before memory operation 2 (ld: LDS R4, [R3]): the machine code may perform the later one first", c.Changed)

	waited := withControl(code("SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ @W2", "SEL R5, RZ, 0x1, !P0 @B2", "LDS R4, [R3] @W3", "MEMBAR.ALL.CTA", "STG.E.EF.64 [R6], R4"))
	require.Empty(t, Compare(wait, waited).Changed)
	depbar := withControl(code("SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ @W2", "DEPBAR.LE SB2, 0x0", "LDS R4, [R3] @W3", "STG.E.EF.64 [R6], R4"))
	require.Empty(t, Compare(wait, depbar).Changed)
	require.Empty(t, Compare(wait, code("SYNCS.PHASECHK.TRANS64 P0, [R3+URZ+0x20], RZ", "LDS R4, [R3]")).Changed, "without control bits the check cannot tell")

	relaxed := threads(t, "PTX W\n{ x @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n mbarrier.test_wait.relaxed r0, b ;\n ld.shared r1, x ;\nexists (P0:r0 == 1)\n")[0]
	require.Empty(t, Compare(relaxed, unwaited).Changed, "a relaxed wait orders nothing")

	branching := threads(t, "PTX W\n{ x @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n mbarrier.test_wait r0, b ;\n bne r0, 1, L ;\n ld.shared r1, x ;\n L: ;\nexists (P0:r0 == 1)\n")[0]
	require.Empty(t, Compare(branching, unwaited).Changed)
}

// TestFindDisassembler names what it needs when neither tool is there.
func TestFindDisassembler(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := FindDisassembler()
	require.ErrorContains(t, err, "cuobjdump or nvdisasm")
}

// TestParseAfterLongLine: a line longer than the scanner's old fixed bound
// (1 MiB: a listing's .byte table, say) does not end the listing; the
// functions after it are read.
func TestParseAfterLongLine(t *testing.T) {
	fn := "Function : role1\n /*0000*/ BAR.SYNC 0x0 ; /* 0x0000000000007b1d */\n"
	cases := []struct {
		name string
		long int
	}{
		{"short", 10},
		{"over 64 KiB", 70_000},
		{"over 1 MiB", 1<<20 + 10},
	}
	for _, c := range cases {
		text := "Function : role0\n /*0000*/ " + strings.Repeat("x", c.long) + "\n" + fn
		code := Parse(text)
		require.Len(t, code["role1"], 1, c.name)
		require.Equal(t, "BAR.SYNC 0x0", code["role1"][0].Text, c.name)
	}
}
