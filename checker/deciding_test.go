package checker_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/oraclecases"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// conditionVariants returns the test under its own condition and under
// others made from it, so that every quantifier and connective is tried:
// forall and ~exists of the same proposition, its negation, and a
// disjunction with a negated part.
func conditionVariants(tc *litmus.Test) []*litmus.Test {
	c := tc.Condition
	if c == nil {
		return []*litmus.Test{tc}
	}
	exprs := []litmus.Expr{c.Expr, &litmus.Not{X: c.Expr}}
	if and, ok := c.Expr.(*litmus.And); ok {
		exprs = append(exprs, &litmus.Or{L: &litmus.Not{X: and.L}, R: and.R})
	}
	var out []*litmus.Test
	for _, e := range exprs {
		for _, k := range []litmus.CondKind{litmus.CondExists, litmus.CondNotExists, litmus.CondForall} {
			v := *tc
			cond := *c
			cond.Kind, cond.Expr = k, e
			v.Condition = &cond
			out = append(out, &v)
		}
	}
	return out
}

// settles reports whether a final state settles test tc (the target of
// herd7's -speedcheck): it satisfies the proposition of exists and
// ~exists, or contradicts that of forall.
func settles(tc *litmus.Test, r *checker.Result, st checker.State) bool {
	holds := checker.Satisfies(tc.Condition.Expr, r.Observables, st)
	return holds == (tc.Condition.Kind != litmus.CondForall)
}

// undefinedFlags names the .undefined tests a result raises.
func undefinedFlags(r *checker.Result) []string {
	var out []string
	for _, f := range r.Flags {
		if f.Undefined {
			out = append(out, f.Name)
		}
	}
	return out
}

// formatStates prints a result's states, sorted.
func formatStates(tc *litmus.Test, r *checker.Result, keep func(checker.State) bool) []string {
	var out []string
	for _, st := range r.States {
		if keep(st) {
			out = append(out, checker.FormatState(tc, r.Layout, r.Observables, st))
		}
	}
	slices.Sort(out)
	return out
}

// compareDeciding checks tc in full and with OnlyDeciding (then also with
// StopAtWitness) and requires what OnlyDeciding promises: the same
// verdict and .undefined tests raised, exactly the states of the full
// check that settle the test, and the same count of consistent executions
// settling it; with StopAtWitness, the same verdict and .undefined tests
// and some of those states. It reports whether OnlyDeciding evaluated fewer candidates,
// and false with nothing compared when the full check passes the bound.
func compareDeciding(t *testing.T, m *checker.Model, tc *litmus.Test, what string) (fewer, compared bool) {
	t.Helper()
	opts := checker.DefaultOptions()
	checker.AlwaysPrune(&opts)
	opts.Timeout, opts.MaxCandidates = 0, oracleMaxCandidates
	want := m.Check(tc, opts)
	var limit *execution.LimitError
	if errors.As(want.Err, &limit) {
		return false, false
	}
	require.NoError(t, want.Err, what)
	opts.OnlyDeciding = true
	got := m.Check(tc, opts)
	require.NoError(t, got.Err, what)
	require.True(t, got.OnlyDeciding, what)
	require.Equal(t, want.Verdict, got.Verdict, what)
	require.Equal(t, undefinedFlags(want), undefinedFlags(got), what)
	keep := func(st checker.State) bool { return settles(tc, want, st) }
	require.Equal(t, formatStates(tc, want, keep), formatStates(tc, got, func(checker.State) bool { return true }), what)
	if tc.Condition.Kind == litmus.CondForall {
		require.Equal(t, want.Negative, got.Negative, what)
		require.Zero(t, got.Positive, what)
	} else {
		require.Equal(t, want.Positive, got.Positive, what)
		require.Zero(t, got.Negative, what)
	}
	opts.StopAtWitness = true
	fast := m.Check(tc, opts)
	require.NoError(t, fast.Err, what)
	require.Equal(t, want.Verdict, fast.Verdict, what)
	require.Equal(t, undefinedFlags(want), undefinedFlags(fast), what)
	require.Subset(t, formatStates(tc, want, keep), formatStates(tc, fast, func(checker.State) bool { return true }), what)
	return got.Evaluated < want.Evaluated, true
}

// TestOnlyDecidingMatchesFullCheck is the oracle of -speedcheck's search,
// which abandons a choice of reads-from as soon as the values it fixes
// rule out settling the test: on random tests under every quantifier and
// on the shipped examples, it finds the verdict, the settling states and
// the .undefined tests of the full check.
func TestOnlyDecidingMatchesFullCheck(t *testing.T) {
	m, err := oracleModel()
	require.NoError(t, err)
	shapes := []families.RandomShape{
		{Threads: 2, Locations: 2, Instrs: 4, CTAs: 2, Barriers: true},
		{Threads: 3, Locations: 2, Instrs: 3, CTAs: 2},
		{Threads: 2, Locations: 2, Instrs: 3, CTAs: 2, Sizes: true},
	}
	n := oracleCases(t) / 5
	cases, random, fewer := 0, 0, 0
	oraclecases.EachRandom(t, 0, n, shapes, func(c oraclecases.Random) {
		for _, v := range conditionVariants(c.Test) {
			what := fmt.Sprintf("seed %d, %s %s:\n%s", c.Seed, v.Condition.Kind, litmus.ExprString(v, v.Condition.Expr), c.Src)
			f, ok := compareDeciding(t, m, v, what)
			if ok {
				cases++
				random++
			}
			if f {
				fewer++
			}
		}
	})
	err = filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
			return err
		}
		tests, err := litmus.ParseFile(path)
		require.NoError(t, err, path)
		for _, tc := range tests {
			if tc.Condition == nil {
				continue
			}
			if _, ok := compareDeciding(t, m, tc, path); ok {
				cases++
			}
		}
		return nil
	})
	require.NoError(t, err)
	t.Logf("%d checks compared, %d of the %d random ones with fewer candidates evaluated", cases, fewer, random)
	// The comparison is only worth something if the search leaves
	// candidates out on a fair share of the random tests (the only ones
	// counted: with -short they are few beside the shipped examples).
	require.Greater(t, fewer, random/5, "OnlyDeciding evaluated fewer candidates in %d of %d random checks", fewer, random)
}
