package litmus

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInstrTextFastPath checks parser.text against what it shortens:
// fields joined by one space, whichever path it takes, on written cases
// and on random strings of letters and white space (ASCII and not).
func TestInstrTextFastPath(t *testing.T) {
	want := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	cases := []string{"ld.acquire.gpu r0, [x]", "ld  r0, x", " ld r0", "ld r0 ", "ld\tr0", "a\nb", "x\u00a0y", "x\u0085y",
		"st [x+4], 1", "a", " ", "a\vb", "a\fb", "a\rb", "é b", "a  ", "  a"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", " ", " ", "\t", "\n", "\u00a0", "é", ",", "\u2003"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) + 1 {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		p := &parser{src: []byte(c)}
		require.Equal(t, want(c), p.text(0, len(c)), "%q", c)
		if singleSpaced([]byte(c)) {
			require.Equal(t, c, want(c), "%q is its own text", c)
		}
	}
}
