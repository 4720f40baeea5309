package checker

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAdjusted: -skipchecks, -strictskip and -through change which checks
// apply, as in herd7.
func TestAdjusted(t *testing.T) {
	tc := herd(t, sbFenceSC)
	cases := []struct {
		name    string
		adj     Adjustments
		verdict string
		states  int
	}{
		{"none", Adjustments{}, "No", 3},
		{"skip causality", Adjustments{Skip: []string{"causality"}}, "Ok", 4},
		// Only the executions that fail causality (and pass the rest) under
		// some choice of the run-time orders: the outcome spec.dl forbids,
		// and the two in which one load reads the initial value, which fail
		// causality when the Fence-SC order goes the other way.
		{"strict skip causality", Adjustments{Skip: []string{"causality"}, Strict: true}, "Ok", 3},
		{"strict skip of a check that always holds", Adjustments{Skip: []string{"atomicity"}, Strict: true}, "No", 0},
		{"through all", Adjustments{Through: ThroughAll}, "Ok", 4},
		{"through invalid", Adjustments{Through: ThroughInvalid}, "Ok", 4},
	}
	for _, c := range cases {
		m, err := spec(t).Adjusted(c.adj)
		require.NoError(t, err, c.name)
		r := check(t, m, tc)
		require.Equal(t, c.verdict, r.Verdict, c.name)
		require.Len(t, r.States, c.states, c.name)
	}
	_, err := spec(t).Adjusted(Adjustments{Skip: []string{"nosuch"}})
	require.ErrorContains(t, err, "-skipchecks nosuch: the model has no check named nosuch (checks: ")
	require.ErrorContains(t, err, "atomicity, atomicity_rmw, barrier_red_mixed, causality, coherence")
	same, err := spec(t).Adjusted(Adjustments{})
	require.NoError(t, err)
	require.Same(t, spec(t), same)
}

func TestParseThrough(t *testing.T) {
	for s, want := range map[string]Through{"all": ThroughAll, "INVALID": ThroughInvalid, "none": ThroughNone} {
		got, err := ParseThrough(s)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := ParseThrough("some")
	require.ErrorContains(t, err, "-through some: expected all, invalid or none")
}
