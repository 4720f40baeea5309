package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEachTerm: the terms of the condition come in order, left to right
// through and, or and not, then the locations clause's; repeats stay.
func TestEachTerm(t *testing.T) {
	cases := []struct {
		name, cond, locs string
		want             []string
	}{
		{"one comparison", "exists (P0:r0 == 1)", "", []string{"P0:r0", "1"}},
		{"and, or, not", `exists (~(P0:r0 == 1) /\ (x == 2 \/ P1:r1 != y))`, "", []string{"P0:r0", "1", "x", "2", "P1:r1", "y"}},
		{"a repeat", `exists (x == 1 /\ x == 2)`, "", []string{"x", "1", "x", "2"}},
		{"true", "exists (true)", "", nil},
		{"locations last", "exists (P0:r0 == 1)", "locations [y; P0:r0;]\n", []string{"P0:r0", "1", "y", "P0:r0"}},
	}
	for _, c := range cases {
		src := "PTX T\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak r0, x | ld.weak r1, y ;\n" + c.locs + c.cond + "\n"
		test, err := ParseHerd("t.litmus", []byte(src))
		require.NoError(t, err, c.name)
		var got []string
		test.EachTerm(func(tm Term) { got = append(got, tm.String()) })
		require.Equal(t, c.want, got, c.name)
	}
}
