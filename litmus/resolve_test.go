package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// herdOneThread wraps rows of a one-thread herd test.
func herdOneThread(init, rows string) string {
	return "PTX R\n{ " + init + " }\n P0@cta 0,gpu 0 ;\n" + rows + "exists (P0:r0 == 0)\n"
}

func TestNameResolution(t *testing.T) {
	cases := []struct {
		name, init, rows string
		want             []Instr // the thread's instructions, without positions
		addrs            []string
	}{
		{
			name: "undeclared memory operands are implicit locations, in order of first use",
			rows: " ld r0, b ;\n st a, 1 ;\n ld r1, [b] ;\n",
			want: []Instr{
				{Op: OpLoad, Dst: "r0", Addr: addr("b")},
				{Op: OpStore, Addr: addr("a"), Src: imm(1)},
				{Op: OpLoad, Dst: "r1", Addr: addr("b")},
			},
			addrs: []string{"b", "a"},
		},
		{
			name: "a name the thread writes is a register, wherever it is used first",
			rows: " ld r1, [r2] ;\n ld r2, 5 ;\n",
			want: []Instr{
				{Op: OpLoad, Dst: "r1", Addr: reg("r2")},
				{Op: OpMov, Dst: "r2", A: imm(5)},
			},
		},
		{
			name: "a stored name that is not a declared address is a register, in every use",
			rows: " st x, v ;\n ld r0, v ;\n",
			want: []Instr{
				{Op: OpStore, Addr: addr("x"), Src: reg("v")},
				{Op: OpMov, Dst: "r0", A: reg("v")},
			},
			addrs: []string{"x"},
		},
		{
			name:  "a declared address is an address even as a value",
			init:  "v=1;",
			rows:  " st x, v ;\n ld r0, v ;\n",
			want:  []Instr{{Op: OpStore, Addr: addr("x"), Src: addr("v")}, {Op: OpLoad, Dst: "r0", Addr: addr("v")}},
			addrs: []string{"v", "x"},
		},
		{
			name:  "a %name is always a register",
			init:  "q=0;",
			rows:  " ld r0, %q ;\n st [%q], 1 ;\n",
			want:  []Instr{{Op: OpMov, Dst: "r0", A: reg("%q")}, {Op: OpStore, Addr: reg("%q"), Src: imm(1)}},
			addrs: []string{"q"},
		},
		{
			name:  "a register initialised with an address holds it",
			init:  "P0:r5=y;",
			rows:  " st [r5], 1 ;\n ld r0, r5 ;\n",
			want:  []Instr{{Op: OpStore, Addr: reg("r5"), Src: imm(1)}, {Op: OpMov, Dst: "r0", A: reg("r5")}},
			addrs: []string{"y"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			test := mustHerd(t, herdOneThread(tc.init, tc.rows))
			var got []Instr
			for _, in := range test.Threads[0].Instrs {
				got = append(got, stripInstr(in))
			}
			assert.Equal(t, tc.want, got)
			var names []string
			for _, a := range test.Addresses {
				names = append(names, a.Name)
			}
			assert.Equal(t, tc.addrs, names)
		})
	}
}

func TestRegistersAreScopedByThread(t *testing.T) {
	// r1 is a register of P1 only; in P0 the same name is a location.
	test := mustHerd(t, "PTX S\n{}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld r0, r1 | ld r1, 2 ;\nexists (P0:r0 == 0 /\\ r1 == 0)\n")
	assert.Equal(t, Instr{Op: OpLoad, Dst: "r0", Addr: addr("r1")}, stripInstr(test.Threads[0].Instrs[0]))
	assert.Equal(t, Instr{Op: OpMov, Dst: "r1", A: imm(2)}, stripInstr(test.Threads[1].Instrs[0]))
}

func TestLineEndingsAndByteOrderMark(t *testing.T) {
	herd := "\xEF\xBB\xBFPTX CRLF\r\n{ x=0; }\r\n P0@cta 0,gpu 0 ;\r\n ld.acquire.gpu r0, x ;\r\nexists (P0:r0 == 0)\r\n"
	test := mustHerd(t, herd)
	assert.Equal(t, "CRLF", test.Name)
	assert.Equal(t, "ld.acquire.gpu r0, x", test.Threads[0].Instrs[0].Text)

	nv := ".global x;\r\nd0.b0.t0 {\r\n  $0 [x], $1;\r\n  ld r0, [x];\r\n}\r\nassert (r0 == 1) as a;\r\n$$\r\nst | 1\r\nst.relaxed.gpu | 2\r\n"
	tests := mustNV(t, "crlf.test", nv)
	require.Len(t, tests, 2)
	assert.Equal(t, "st.relaxed.gpu [x], 2", tests[1].Threads[0].Instrs[0].Text)
}

func TestNVRegisterAddresses(t *testing.T) {
	// A register loaded from memory may serve as an address; a name that
	// is neither declared nor a register is an error.
	test := mustNV(t, "r.test", ".global x;\nd0.b0.t0 { ld r1, [x]; st [r1], 2; }\nassert (x == 0) as a;\n")[0]
	assert.Equal(t, reg("r1"), stripInstr(test.Threads[0].Instrs[1]).Addr)
}

func TestParseFileDispatch(t *testing.T) {
	_, err := ParseFile("nope.txt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "expected .litmus (herd) or .test (NVIDIA mixed-proxy)")

	f, err := FormatForPath("a/b/MP.LITMUS")
	require.NoError(t, err)
	assert.Equal(t, FormatHerd, f)
	f, err = FormatForPath("x.test")
	require.NoError(t, err)
	assert.Equal(t, FormatNV, f)

	_, err = ParseFile("does-not-exist.litmus")
	require.Error(t, err)

	tests, err := Parse("m.litmus", []byte(herdOneThread("", " ld r0, x ;\n")), FormatHerd)
	require.NoError(t, err)
	require.Len(t, tests, 1)
	assert.Equal(t, "R", tests[0].Name)
}

func TestNeverPanicsOnTruncations(t *testing.T) {
	// Every prefix of valid inputs must be parsed or rejected, never crash.
	inputs := map[string]string{
		"t.litmus": herdOneThread("x=0; y @ surface aliases x; P0:r2=x;", " L: ;\n atom.cas r0, [x], 0, 1 ;\n bar.cta.sync 1, r2, 2 ;\n bne r0, 0, L ;\n"),
		"t.test":   mpTemplate,
	}
	for file, src := range inputs {
		f, err := FormatForPath(file)
		require.NoError(t, err)
		for i := range len(src) {
			assert.NotPanics(t, func() { _, _ = Parse(file, []byte(src[:i]), f) }, "prefix %q", src[:i])
			mutated := src[:i] + strings.Repeat("|", 2) + src[i:]
			assert.NotPanics(t, func() { _, _ = Parse(file, []byte(mutated), f) }, "mutation %q", mutated)
		}
	}
}
