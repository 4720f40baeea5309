package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLocationsClauseJoinsStates: the registers and locations of herd's
// "locations [...]" clause are observed beside the condition's, so the
// states tell apart executions that differ only there; the verdict and
// the counts, which follow the condition, do not change.
func TestLocationsClauseJoinsStates(t *testing.T) {
	const mp = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
	m := spec(t)
	plain := check(t, m, herd(t, mp+"exists (1:r0 == 1)\n"))
	listed := check(t, m, herd(t, mp+"locations [x; 1:r1;]\nexists (1:r0 == 1)\n"))
	assert.Equal(t, []string{"P1:r0=0;", "P1:r0=1;"}, states(plain))
	assert.Equal(t, []string{
		"P1:r0=0; P1:r1=0; x=1;",
		"P1:r0=0; P1:r1=1; x=1;",
		"P1:r0=1; P1:r1=0; x=1;",
		"P1:r0=1; P1:r1=1; x=1;",
	}, states(listed))
	assert.Equal(t, plain.Verdict, listed.Verdict)
	assert.Equal(t, plain.Positive, listed.Positive)
	assert.Equal(t, plain.Negative, listed.Negative)
}
