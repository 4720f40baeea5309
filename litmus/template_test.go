package litmus

import (
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mpTemplate = `.global x;
.surfref s virtually aliases x;
.global flag;

d0.b0.t0 {
  $0, 2;
  $1
  st.release.gpu [flag], 1;
}

d0.b1.t0 {
  ld.acquire.gpu r0, [flag] == 1;
  $2 r1, $3;
}

$4 (r1 $5 2) as r1;

$$
// a comment line is not a row
st   [x] |                                          | ld   | [x] | assert | ==

sust [s] | fence.proxy.surface; fence.proxy.alias;  | suld | [s] | permit | !=
`

func TestTemplateInstances(t *testing.T) {
	tests := mustNV(t, "tests/MP_tmpl.test", mpTemplate)
	require.Len(t, tests, 2)

	first, second := tests[0], tests[1]
	assert.Equal(t, "MP_tmpl[1]", first.Name)
	assert.Equal(t, 1, first.Instance)
	assert.Equal(t, "MP_tmpl[2]", second.Name)
	assert.Equal(t, 2, second.Instance)

	texts := func(th *Thread) []string {
		var out []string
		for _, in := range th.Instrs {
			out = append(out, in.Text)
		}
		return out
	}
	assert.Equal(t, []string{"st [x], 2", "st.release.gpu [flag], 1"}, texts(first.Threads[0]))
	assert.Equal(t, []string{"ld.acquire.gpu r0, [flag] == 1", "ld r1, [x]"}, texts(first.Threads[1]))
	assert.Equal(t, []string{"sust [s], 2", "fence.proxy.surface", "fence.proxy.alias", "st.release.gpu [flag], 1"}, texts(second.Threads[0]))
	assert.Equal(t, []string{"ld.acquire.gpu r0, [flag] == 1", "suld r1, [s]"}, texts(second.Threads[1]))

	assert.Equal(t, AssertAlways, first.Assertions[0].Kind)
	assert.Equal(t, "(d0.b1.t0:r1 == 2)", "("+ExprString(first, first.Assertions[0].Expr)+")")
	assert.Equal(t, AssertSometimes, second.Assertions[0].Kind)
	assert.Equal(t, "!=", second.Assertions[0].Expr.(*Cmp).Op)

	// Positions point into the original file: template text at its own
	// line, cell text at its row.
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 8, Col: 3}, first.Threads[0].Instrs[1].Pos)
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 20, Col: 1}, first.Threads[0].Instrs[0].Pos)
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 22, Col: 12}, second.Threads[0].Instrs[1].Pos)
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 22, Col: 33}, second.Threads[0].Instrs[2].Pos)
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 22, Col: 63}, second.Threads[1].Instrs[1].PosOf(second.Threads[1].Instrs[1].Addr))
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 22, Col: 68}, second.Assertions[0].Pos)
	assert.Equal(t, source.Pos{File: "tests/MP_tmpl.test", Line: 16, Col: 5}, second.Assertions[0].Expr.Position())
}

func TestTemplateErrorInTemplateTextReportedOnce(t *testing.T) {
	src := ".global x;\nd0.b0.t0 {\n  st [x], $0;\n  bogus;\n}\nassert (x == 1) as a;\n$$\n1 |\n2 |\n3 |\n"
	_, err := ParseNV("o.test", []byte(src))
	var list source.List
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 1, "the same mistake in every instance is reported once: %v", list)
	assert.Equal(t, `o.test:4:3: unknown instruction "bogus": expected ld, st, suld, sust, tld, cold, atom, red, multimem, fence, membar, bar, barrier, mbarrier, cp, wgmma, mapa, tcgen05, mov, add, sub, mul, and, or, xor, setp, beq, bne, bra or goto (template row 1)`, list[0].Error())
	assert.Equal(t, "  bogus;", list[0].Line)
}

func TestTemplateRowsWithTrailingEmptyCell(t *testing.T) {
	// With one placeholder a row still needs a '|', as rows are the lines
	// that hold one; a trailing empty cell is allowed.
	src := ".global x;\nd0.b0.t0 {\n  st [x], $0;\n  ld r0, [x];\n}\nassert (r0 == 1) as a;\n$$\n1 |\n2|\n"
	tests := mustNV(t, "one.test", src)
	require.Len(t, tests, 2)
	assert.Equal(t, imm(2), stripInstr(tests[1].Threads[0].Instrs[0]).Src)
}

func TestPlainTestIsInstanceZero(t *testing.T) {
	tests := mustNV(t, "/a/b/Plain.test", ".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 0) as z;\n")
	require.Len(t, tests, 1)
	assert.Equal(t, 0, tests[0].Instance)
	assert.Equal(t, "Plain", tests[0].Name)
}
