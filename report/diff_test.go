package report

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

const lbCtrls = `PTX LB+ctrls
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 beq r0, 0, A   | beq r1, 0, B   ;
 st.weak y, 1   | st.weak x, 1   ;
 A:             | B:             ;
exists (P0:r0 == 1 /\ P1:r1 == 1)
`

// TestDiffOutput prints the verdict difference, the outcome only one model
// allows, the candidate reaching it, and how the other model rejects it.
func TestDiffOutput(t *testing.T) {
	variant, err := loader.LoadFile(filepath.Join("..", "variants", "nta-data-only.dl"))
	require.NoError(t, err)
	tc := parse(t, "LB+ctrls.litmus", lbCtrls)[0]
	d := checker.Diff(spec(t), variant, tc, checker.DefaultOptions())
	require.NoError(t, d.Err)
	var b bytes.Buffer
	Diff(&b, d, "spec", "data-only")
	assert.Equal(t, `Test LB+ctrls
  verdict: spec No, data-only Ok  (condition exists (P0:r0 == 1 /\ P1:r1 == 1))
  outcome P0:r0=1; P1:r1=1;  allowed by data-only, forbidden by spec
    candidate: P0:ld.weak r0, x =1 reads P1:st.weak x, 1; P1:ld.weak r1, y =1 reads P0:st.weak y, 1
    spec rejects it by no_thin_air: P0:ld.weak r0, x =1 -ctrl-> P0:st.weak y, 1 -rf-> P1:ld.weak r1, y =1 -ctrl-> P1:st.weak x, 1 -rf-> P0:ld.weak r0, x =1

`, b.String())

	// Without an explanation, the witness is printed instead.
	d.OnlyB[0].Explanations = nil
	b.Reset()
	Diff(&b, d, "spec", "data-only")
	assert.Contains(t, b.String(), "    spec rejects it: no_thin_air: cycle in ")

	// Models that agree print nothing; an error prints one line.
	same := checker.Diff(spec(t), spec(t), tc, checker.DefaultOptions())
	b.Reset()
	Diff(&b, same, "a", "b")
	assert.Empty(t, b.String())
	b.Reset()
	Diff(&b, &checker.DiffResult{Test: tc, Err: errors.New("boom")}, "a", "b")
	assert.Equal(t, "Test LB+ctrls: error: boom\n\n", b.String())
}

// TestDiffOutputAssertions: a .test whose assertion outcome differs prints
// one line per differing assertion.
func TestDiffOutputAssertions(t *testing.T) {
	tc := parse(t, "T.test", ".global x;\nd0.b0.t0 { st [x], 1; }\nassert (x == 1) as one;\npermit (x == 1) as p;\n")[0]
	a := &checker.Result{Test: tc, Assertions: []checker.AssertionResult{{Name: "one", Holds: true}, {Name: "p", Kind: litmus.AssertSometimes, Holds: true}}}
	bRes := &checker.Result{Test: tc, Assertions: []checker.AssertionResult{{Name: "one", Holds: false}, {Name: "p", Kind: litmus.AssertSometimes, Holds: true}}}
	var b bytes.Buffer
	Diff(&b, &checker.DiffResult{Test: tc, A: a, B: bRes}, "A", "B")
	assert.Equal(t, "Test T\n  assert one: A holds, B fails\n\n", b.String())
}
