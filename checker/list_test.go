package checker

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// TestListCandidates checks that ListCandidates lists what
// CandidatesContext returns, candidate for candidate in the same order
// (the execution's runs and reads-from, whether it has a final state, and
// its final state as printed), on every shipped example (every fourth in
// -short), with the model and with one that has no axiom; and that it
// stops where yield says so.
func TestListCandidates(t *testing.T) {
	tests := testcorpus.Tree(t, filepath.Join("..", "examples"), ".litmus", ".test")
	require.NotEmpty(t, tests)
	if testing.Short() {
		var some []*litmus.Test
		for i := 0; i < len(tests); i += 4 {
			some = append(some, tests[i])
		}
		tests = some
	}
	opts := DefaultOptions()
	for _, m := range []*Model{spec(t), noAxioms(t, spec(t))} {
		for _, tc := range tests {
			want, r := m.CandidatesContext(context.Background(), tc, opts, 0)
			var got []string
			err := m.ListCandidates(context.Background(), tc, opts, func(c Listed) bool {
				assert.Equal(t, r.Observables, c.Observables, tc.Name)
				for i := range c.States {
					got = append(got, listedKey(c.Execution, c.NoFinalState())+c.Format(i))
				}
				return true
			})
			if r.Err != nil {
				assert.Error(t, err, "%s: %s", m.Name, tc.Name)
				continue
			}
			require.NoError(t, err, "%s: %s", m.Name, tc.Name)
			var keys []string
			for _, c := range want {
				keys = append(keys, listedKey(c.Execution, c.NoFinalState())+FormatState(tc, r.Layout, r.Observables, c.State))
			}
			assert.Equal(t, keys, got, "%s: %s", m.Name, tc.Name)
		}
	}
	// Yield's false ends the listing after the first execution.
	n := 0
	err := spec(t).ListCandidates(context.Background(), tests[0], opts, func(Listed) bool {
		n++
		return false
	})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}

// TestListCandidatesLimits checks that a listing stops at the check's
// limits with the check's errors.
func TestListCandidatesLimits(t *testing.T) {
	tc := herd(t, `PTX SB
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.weak x, 1 | st.weak y, 1 ;
ld.weak r0, y | ld.weak r0, x ;
exists (P0:r0 == 0 /\ P1:r0 == 0)
`)
	for _, tt := range []struct {
		name string
		opts func(*Options)
		ctx  func() context.Context
		is   func(error) bool
	}{
		{"max-candidates", func(o *Options) { o.MaxCandidates = 1 }, context.Background,
			func(err error) bool { _, ok := err.(*execution.LimitError); return ok }},
		{"cancelled", func(*Options) {}, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, func(err error) bool { return err != nil && !IsTimeout(err) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			tt.opts(&opts)
			err := spec(t).ListCandidates(tt.ctx(), tc, opts, func(Listed) bool { return true })
			assert.True(t, tt.is(err), "%v", err)
		})
	}
}

// listedKey names a candidate execution: its runs and reads-from, and
// why it has no final state.
func listedKey(x *execution.Execution, noFinal string) string {
	return fmt.Sprintf("%v %v %q ", x.Combo, x.RF, noFinal)
}

// noAxioms returns m without its checks, flags and undefined tests: a
// model that allows every candidate.
func noAxioms(t *testing.T, m *Model) *Model {
	t.Helper()
	syntax := *m.Syntax
	syntax.Checks = nil
	p, errs := rules.Compile(&syntax)
	require.False(t, errs.HasErrors(), "%v", errs)
	return (&Compiled{Syntax: &syntax, Program: p}).Model("no axioms")
}
