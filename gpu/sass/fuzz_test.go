package sass

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
)

// FuzzCompare parses fuzzed disassembler listings and compares every
// function they hold with threads of several shapes (accesses, fences,
// an acquire, a barrier alone, a branch): nothing may panic, whatever the
// compiler printed. Seeds are below and in testdata/fuzz/FuzzCompare.
func FuzzCompare(f *testing.F) {
	listing, err := os.ReadFile(filepath.Join("testdata", "cuobjdump.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(listing))
	f.Add("Function : role0\n /*0000*/ BAR.SYNC 0x0 ; /* 0x0000000000007b1d */\n /* 0x000fec0000010000 */\n /*0010*/ STG.E.EF.64 [R2], R6 ;\n")
	f.Add("Function : role0\n /*0000*/ SYNCS.PHASECHK.TRANS64 P0, [R3], RZ ; /* 0x000020ff030075a7 */\n /* 0x000ea2000800007f */\n /*0010*/ LDS R4, [R3] ;\n /*0020*/ DEPBAR.LE SB2, 0x0 ;\n")
	var ths []*litmus.Thread
	for _, src := range []string{
		mp,
		"PTX E\n{ x = 0; P1:r2 = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st x, 1 | beq r2, 1, L ;\n bar.sync 0 | bar.sync 0 ;\n | L: ;\nexists (x == 1)\n",
		"PTX W\n{ x @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;\n mbarrier.test_wait r0, b ;\n ld.shared r1, x ;\n fence.sc.cta ;\nexists (P0:r0 == 1)\n",
	} {
		test, err := litmus.ParseHerd("t.litmus", []byte(src))
		if err != nil {
			f.Fatal(err)
		}
		ths = append(ths, test.Threads...)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, fn := range Parse(text) {
			for _, th := range ths {
				Compare(th, fn)
			}
		}
	})
}
