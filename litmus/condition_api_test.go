package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseCondition(t *testing.T) {
	herd, err := ParseHerd("mp.litmus", []byte("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1)\n"))
	require.NoError(t, err)
	nv, err := ParseNV("sb.test", []byte(".global x;\n.global y;\nd0.b0.t0 {\n st [x], 1;\n ld r0, [y];\n}\nd0.b1.t0 {\n st [y], 1;\n ld r1, [x];\n}\npermit (r0 == 0) as p;\n"))
	require.NoError(t, err)
	mm, err := ParseHerd("mm.litmus", []byte("PTX MM\n{ m @ multimem x, y; }\n P0@cta 0,gpu 0 ;\n multimem.st m, 1 ;\nexists (x == 1)\n"))
	require.NoError(t, err)
	cases := []struct {
		test      *Test
		text      string
		want, err string
	}{
		{mm, `x == 1 /\ y == 1`, `(x == 1 /\ y == 1)`, ""},
		{mm, `m == 1`, "", "cond:1:1: m is a multimem address, which has no value of its own"},
		{herd, `P1:r0 == 1 /\ P1:r1 = 0`, `(P1:r0 == 1 /\ P1:r1 == 0)`, ""},
		{herd, `1:r0 == 1 \/ ~(x == 1)`, `(P1:r0 == 1 \/ ~(x == 1))`, ""},
		{herd, `P7:r0 == 1`, "", "cond:1:1: unknown thread P7"},
		{herd, `P1:r0 == 1 junk`, "", "cond:1:12: unexpected"},
		{nv[0], `r0 == 0 && r1 == 0`, "", ""},
		{nv[0], `r9 == 0`, "", "r9"},
	}
	for _, c := range cases {
		e, err := ParseCondition(c.test, "cond", c.text)
		if c.err != "" {
			require.Error(t, err, c.text)
			require.Contains(t, err.Error(), c.err)
			continue
		}
		require.NoError(t, err, c.text)
		if c.want != "" {
			require.Equal(t, c.want, ExprString(c.test, e))
		}
	}
}
