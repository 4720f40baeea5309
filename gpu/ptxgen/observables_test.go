package ptxgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestObservablesOfTheLocationsClause: a herd `locations [...]` clause adds
// its registers and locations to what a run reads back, as it adds them to
// the checker's states, so that the two print the same columns.
func TestObservablesOfTheLocationsClause(t *testing.T) {
	cases := []struct {
		clause string
		want   []string
	}{
		{"", []string{"P1:r0"}},
		{"locations [x; 1:r1;]", []string{"P1:r0", "P1:r1", "x"}},
		{"locations [y; 1:r0;]", []string{"P1:r0", "y"}},
	}
	for _, c := range cases {
		tests, err := litmus.Parse("l.litmus", []byte("PTX L\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"+
			c.clause+"\nexists (1:r0 == 1)\n"), litmus.FormatHerd)
		require.NoError(t, err, c.clause)
		p, err := NewPlan(tests[0])
		require.NoError(t, err, c.clause)
		var got []string
		for _, o := range p.Observables {
			got = append(got, o.Label(tests[0]))
		}
		assert.Equal(t, c.want, got, c.clause)
	}
}
