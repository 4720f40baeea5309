package checker_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

// TestDiffPair compares, on every shipped example (.litmus and .test),
// spec.dl with itself and with each shipped variant it is paired with
// through DiffPair and through DiffContext: the verdicts, the assertions'
// outcomes, whether the models differ and what ptxmm diff prints of the
// test are the same. Where DiffPair answers through the merged program
// alone, the models must raise no .undefined test: an Undef verdict on
// either side, which only the merged program's tests tell, would show in
// the verdicts. The variants not paired are checked as DiffContext does,
// by construction.
func TestDiffPair(t *testing.T) {
	spec, tests := pairExamples(t)
	opts := checker.DefaultOptions()
	ctx := context.Background()
	for _, v := range pairVariants {
		t.Run(v.name, func(t *testing.T) {
			b := pairVariant(t, spec, v.name)
			p := checker.NewDiffPair(spec, b)
			require.Equal(t, v.paired, p.Why == "", p.Why)
			if !v.paired {
				return
			}
			for _, lt := range tests {
				want := checker.DiffContext(ctx, spec, b, lt, opts)
				got := checker.DiffPair(ctx, p, lt, opts)
				if want.Err != nil {
					require.Error(t, got.Err, lt.Name)
					continue
				}
				require.NoError(t, got.Err, lt.Name)
				require.Equal(t, want.Differs(), got.Differs(), lt.Name)
				for k, r := range []*checker.Result{want.A, want.B} {
					g := []*checker.Result{got.A, got.B}[k]
					require.Equal(t, r.Verdict, g.Verdict, "%s, model %d", lt.Name, k)
					require.Equal(t, assertionOutcomes(r), assertionOutcomes(g), "%s, model %d", lt.Name, k)
				}
				var w, g bytes.Buffer
				report.Diff(&w, want, "A", "B")
				report.Diff(&g, got, "A", "B")
				require.Equal(t, w.String(), g.String(), lt.Name)
			}
		})
	}
}

func assertionOutcomes(r *checker.Result) []bool {
	var out []bool
	for _, a := range r.Assertions {
		out = append(out, a.Holds, a.Sometimes)
	}
	return out
}
