package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHash(t *testing.T) {
	base := `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`
	hash := func(src string) string {
		tc, err := ParseHerd("t.litmus", []byte(src))
		require.NoError(t, err)
		return Hash(tc)
	}
	h := hash(base)
	require.Regexp(t, `^[0-9a-f]{32}$`, h)
	same := map[string]string{
		"another name and comment": `PTX Other
"a comment"
{ y=0; x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak   x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1,   x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another condition on the same registers": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
~exists (P1:r0 == 1 /\ P1:r1 == 0)`,
	}
	for what, src := range same {
		require.Equal(t, h, hash(src), what)
	}
	differ := map[string]string{
		"another value stored": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 2   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another CTA": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another initial value": `PTX MP
{ x=3; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"other observed registers": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1)`,
	}
	for what, src := range differ {
		require.NotEqual(t, h, hash(src), what)
	}
	// Labels are renamed in order of appearance.
	loop := func(label string) string {
		return `PTX L
{ x=0; }
 P0@cta 0,gpu 0 ;
 ` + label + `: ;
 ld.weak r0, x ;
 beq r0, 0, ` + label + ` ;
exists (P0:r0 == 1)`
	}
	require.Equal(t, hash(loop("LOOP")), hash(loop("again")))
}
