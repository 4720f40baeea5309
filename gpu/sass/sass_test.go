package sass

import (
	"os"
	"path/filepath"
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

// TestParseCuobjdump reads cuobjdump's listing (the machine code of MP's
// threads made by ptxas for sm_90) and finds both threads kept.
func TestParseCuobjdump(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "cuobjdump.txt"))
	require.NoError(t, err)
	code := Parse(string(text))
	require.Len(t, code, 2)
	require.Equal(t, "LD.E.STRONG.GPU R4, desc[UR12][R2.64]", code["role1"][1])
	th := threads(t, mp)
	p0 := Compare(th[0], code["role0"], 1)
	require.Empty(t, p0.Changed)
	require.Equal(t, []string{"st", "|", "st"}, p0.Want)
	require.Equal(t, []string{"st", "|", "st"}, p0.Got)
	p1 := Compare(th[1], code["role1"], 3)
	require.Empty(t, p1.Changed)
}

// TestParseNvdisasm reads nvdisasm's listing, whose functions are
// sections.
func TestParseNvdisasm(t *testing.T) {
	text := `//--------------------- .text.role0            --------------------------
	.section	.text.role0,"ax",@progbits
.text.role0:
        /*0000*/                   LDG.E R2, desc[UR4][R2.64] ;
        /*0010*/                   MEMBAR.ALL.CTA ;
        /*0020*/                   STG.E.64 desc[UR4][R4.64], R2 ;
//--------------------- .nv.info                 --------------------------
        /*0000*/ 	.byte	0x04, 0x2f
`
	code := Parse(text)
	require.Equal(t, map[string][]string{"role0": {"LDG.E R2, desc[UR4][R2.64]", "MEMBAR.ALL.CTA", "STG.E.64 desc[UR4][R4.64], R2"}}, code)
}

// TestCompareChanges: merged loads, reordered accesses and a lost fence
// are reported; extra fences around a release are not.
func TestCompareChanges(t *testing.T) {
	corr := threads(t, "PTX C\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld r0, x ;\n ld r1, x ;\nexists (P0:r0 == 1)\n")[0]
	c := Compare(corr, []string{"LDG.E R2, [R4]", "MEMBAR.ALL.CTA", "STG.E.64 [R6], R2", "STG.E.64 [R6+0x8], R2", "STG.E.64 [R6+0x10], R2"}, 3)
	require.Equal(t, "changed its memory operations: ld 2 in the PTX, 1 in the machine code", c.Changed)

	sb := threads(t, "PTX S\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n ld r0, y ;\nexists (P0:r0 == 1)\n")[0]
	c = Compare(sb, []string{"LDG.E R2, [R4]", "STG.E [R8], R3", "MEMBAR.ALL.CTA", "STG.E.64 [R6], R2", "STG.E.64 [R6+0x8], R2"}, 2)
	require.Equal(t, "reordered its memory operations: st ld in the PTX, ld st in the machine code", c.Changed)

	fenced := threads(t, "PTX F\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n fence.sc.gpu ;\n ld r0, y ;\nexists (P0:r0 == 1)\n")[0]
	c = Compare(fenced, []string{"STG.E [R8], R3", "LDG.E R2, [R4]", "MEMBAR.ALL.CTA", "STG.E.64 [R6], R2", "STG.E.64 [R6+0x8], R2"}, 2)
	require.Equal(t, "lost the fence or barrier after its memory operation 1 (st)", c.Changed)

	rel := threads(t, "PTX R\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\n st.release.gpu y, 1 ;\nexists (y == 1)\n")[0]
	c = Compare(rel, []string{"STG.E [R8], R3", "MEMBAR.ALL.GPU", "ERRBAR", "STG.E.STRONG.GPU [R4], R3", "MEMBAR.ALL.CTA", "STG.E.64 [R6], R2"}, 1)
	require.Empty(t, c.Changed)

	moved := Compare(rel, []string{"STG.E [R8], R3", "STG.E.64 [R6], R2", "STG.E.STRONG.GPU [R4], R3"}, 1)
	require.Contains(t, moved.Changed, "the stores of the results are not at the end")
}

// TestFindDisassembler names what it needs when neither tool is there.
func TestFindDisassembler(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := FindDisassembler()
	require.ErrorContains(t, err, "cuobjdump or nvdisasm")
}
