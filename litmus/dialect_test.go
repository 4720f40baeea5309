package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDialectSpellingsWarnOncePerFile: the spellings PTX lacks that
// Dartagnan's herd tests write (red.acq_rel, atom.sub, red.sub) are accepted
// in herd files with the meaning Dartagnan gives them and one warning per
// spelling and file, at the first use; before, they were accepted silently.
func TestDialectSpellingsWarnOncePerFile(t *testing.T) {
	src := "PTX D\n{ x=2; }\n" +
		" P0@cta 0,gpu 0          | P1@cta 1,gpu 0          ;\n" +
		" red.acq_rel.sys.sub x, 1 | red.acq_rel.sys.sub x, 1 ;\n" +
		" atom.acq_rel.gpu.sub r0, x, 1 | red.release.gpu.add x, 1 ;\n" +
		"exists (P0:r0 == 0)\n"
	test := mustHerd(t, src)
	w := test.Warnings
	require.Len(t, w, 3, "%s", w.Quoted())
	assert.Contains(t, w[0].Error(), "t.litmus:4:5: warning: red.acq_rel is not PTX: PTX red takes .relaxed or .release (default .relaxed).")
	assert.Contains(t, w[0].Error(), "(2 uses in this file)")
	assert.Contains(t, w[1].Error(), "t.litmus:4:17: warning: red.sub is not PTX: PTX red has no .sub.")
	assert.Contains(t, w[1].Error(), "write red.add with the negated operand (2 uses in this file)")
	assert.Contains(t, w[2].Error(), "t.litmus:5:18: warning: atom.sub is not PTX")
	assert.NotContains(t, w[2].Error(), "uses in this file")

	// The meaning is Dartagnan's: an acq_rel update that subtracts.
	in := test.Threads[0].Instrs[0]
	assert.Equal(t, OpRed, in.Op)
	assert.Equal(t, SemAcqRel, in.Sem)
	assert.Equal(t, "sub", in.AtomOp)
	assert.Equal(t, "sub", test.Threads[0].Instrs[1].AtomOp)
}

// TestPTXSpellingsDrawNoWarning: ordinary PTX atom and red spellings are
// accepted silently.
func TestPTXSpellingsDrawNoWarning(t *testing.T) {
	test := mustHerd(t, "PTX D\n{ x=0; }\n P0@cta 0,gpu 0 ;\n red.release.gpu.add x, 1 ;\n atom.acq_rel.gpu.add r0, x, -1 ;\n ld.acquire.gpu r1, x ;\nexists (P0:r0 == 0)\n")
	assert.Empty(t, test.Warnings)
}
