package rules

import (
	"slices"
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRaisedFlags checks that flags never make a candidate inconsistent and
// are raised when some consistent choice of the orders fails them, even if
// the first consistent choice Solve finds does not.
func TestRaisedFlags(t *testing.T) {
	src := `
.decl p(x, y)
.input p
.decl bad(x)
.input bad
.order o over p
/// The order may not point from b to a.
.check noBA: empty(o & (b_atom * a_atom))
.decl a_atom(x)
.decl b_atom(x)
.input a_atom, b_atom
/// Raised when the order points from a to b.
.flag ab: empty(o & (a_atom * b_atom))
/// Raised when bad holds anything; independent of the order.
.undefined badness: empty(bad)
/// Never raised: the order is irreflexive.
.flag loop: irreflexive(o)
`
	p := compileSrc(t, src)
	require.Len(t, p.Checks(), 1, "flags are not axioms")
	require.Len(t, p.Flags(), 3)
	assert.Equal(t, datalog.ModeFlag, p.Flags()[0].Mode)
	assert.Equal(t, datalog.ModeUndefined, p.Flags()[1].Mode)

	tests := []struct {
		name   string
		pairs  []string
		bad    []string
		raised []string
	}{
		{"no pairs, nothing raised", nil, nil, nil},
		{"the only consistent direction raises ab", []string{"a,b", "b,a"}, nil, []string{"ab"}},
		{"undefined test independent of orders", nil, []string{"a"}, []string{"badness"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newInst(t, p, "a", "b")
			setFacts(t, in, "p", tc.pairs...)
			setFacts(t, in, "bad", tc.bad...)
			setFacts(t, in, "a_atom", "a")
			setFacts(t, in, "b_atom", "b")
			for _, witnesses := range []bool{true, false} {
				var opts []SolveOption
				if !witnesses {
					opts = append(opts, WithoutWitnesses())
				}
				sol := in.Solve()
				require.True(t, sol.Consistent, "flags never reject a candidate")
				var got []string
				for _, f := range in.RaisedFlags(opts...) {
					assert.False(t, f.Holds)
					assert.Equal(t, witnesses, f.Witness != nil, "a witness only when asked for")
					got = append(got, f.Name)
				}
				assert.ElementsMatch(t, tc.raised, got)
			}
		})
	}
}

// TestRaisedFlagsSearchesOtherChoices checks the search for a consistent
// choice that raises a flag the first solution does not raise.
func TestRaisedFlagsSearchesOtherChoices(t *testing.T) {
	src := `
.decl p(x, y)
.input p
.order o over p
.decl a_atom(x)
.decl b_atom(x)
.input a_atom, b_atom
.flag ab: empty(o & (a_atom * b_atom))
.flag ba: empty(o & (b_atom * a_atom))
`
	p := compileSrc(t, src)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "p", "a,b", "b,a")
	setFacts(t, in, "a_atom", "a")
	setFacts(t, in, "b_atom", "b")
	require.True(t, in.Solve().Consistent)
	var got []string
	for _, f := range in.RaisedFlags() {
		got = append(got, f.Name)
	}
	assert.ElementsMatch(t, []string{"ab", "ba"}, got, "each direction is consistent, so both flags are raised")
}

// TestRaisedFlagsBounds checks flags that grow or shrink with the orders,
// which are decided by one evaluation at the orders' bound, against flags
// whose raising needs a search.
func TestRaisedFlagsBounds(t *testing.T) {
	src := `
.decl p(x, y)
.decl a_atom(x)
.decl b_atom(x)
.input p, a_atom, b_atom
.order o over p
/// Grows with o: raised, since some choice relates a to b.
.flag grows: empty(o & (a_atom * b_atom))
/// Shrinks as o grows: raised when some pair of p is left out of o, which
/// no choice does (o relates every pair one way).
.flag shrinks: empty((p & p^-1) \ (o | o^-1))
/// Neither: raised when o holds exactly (a, b) among a and b.
.flag exact: empty((o & (a_atom * b_atom)) \ (o^-1 & (a_atom * b_atom))^-1)
`
	p := compileSrc(t, src)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "p", "a,b", "b,a")
	setFacts(t, in, "a_atom", "a")
	setFacts(t, in, "b_atom", "b")
	require.True(t, in.Solve().Consistent)
	var got []string
	for _, f := range in.RaisedFlags() {
		got = append(got, f.Name)
	}
	assert.ElementsMatch(t, []string{"grows", "exact"}, got)
}

// TestRaisedFlagsAtBound: when the solution found already holds the orders
// at the bound a flag is decided at (here, no pair to relate: the orders
// are empty), the flag is decided without evaluating anything again.
func TestRaisedFlagsAtBound(t *testing.T) {
	p := compileSrc(t, `
.decl p(x, y)
.decl e(x, y)
.input p, e
.order o over p
.check c: acyclic(o | e)
/// Shrinks as o grows.
.flag gap: empty(e \ o)
`)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "e", "a,b")
	require.True(t, in.Solve().Consistent)
	var got []string
	for _, f := range in.RaisedFlags() {
		got = append(got, f.Name)
	}
	assert.Equal(t, []string{"gap"}, got, "raised under the solution found")
	setFacts(t, in, "e")
	require.True(t, in.Solve().Consistent)
	// The inputs set again (to the same value, through another), as a
	// host does between candidates: the search's trail is gone.
	setFacts(t, in, "e", "b,a")
	setFacts(t, in, "e")
	in.Run()
	before := slices.Clone(in.sched.runs)
	assert.Empty(t, in.RaisedFlags())
	assert.Equal(t, before, in.sched.runs, "no stratum ran again")
}
