package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raisedNames solves the instance and returns the names of the flags
// RaisedFlags raises.
func raisedNames(t *testing.T, in *Instance) []string {
	t.Helper()
	require.True(t, in.Solve().Consistent)
	var got []string
	for _, f := range in.RaisedFlags() {
		got = append(got, f.Name)
	}
	return got
}

// TestFlagBounds asks RaisedFlags about a run of candidates that differ in
// a varying relation, long enough for each flag's bound to be decided, then
// changes the inputs and checks that every flag a candidate fails is still
// raised: a bound may rule out only flags no value of the varying relation
// raises, and only while the other inputs keep their values.
func TestFlagBounds(t *testing.T) {
	src := `
.decl rf(x, y)
.decl m(x, y)
.decl p(x, y)
.decl a_atom(x)
.decl c_atom(x)
.input rf, m, p, a_atom, c_atom
.order o over p
/// Shrinks as rf grows: bounded by m.
.flag unread: empty(m \ rf)
/// Grows with rf: RaisedFlags takes no varying relation whole, so no
/// bound.
.flag read: empty(m & rf)
/// Grows with the order, which may relate a to c through b although
/// (a, c) is not a pair.
.flag ac: empty(o & (a_atom * c_atom))
`
	p := compileSrc(t, src)
	type step struct {
		rf, m  []string
		raised []string
	}
	tests := []struct {
		name  string
		pairs []string
		steps []step
	}{
		{
			name: "a fixed input changes after the bound is decided",
			steps: []step{
				{rf: nil}, {rf: []string{"a,b"}}, {rf: nil}, {rf: []string{"b,a"}},
				{rf: []string{"a,b"}, m: []string{"b,c"}, raised: []string{"unread"}},
			},
		},
		{
			name: "a flag growing with the varying relation is never ruled out",
			steps: []step{
				{m: []string{"a,b"}, raised: []string{"unread"}},
				{m: []string{"a,b"}, raised: []string{"unread"}},
				{m: []string{"a,b"}, raised: []string{"unread"}},
				{m: []string{"a,b"}, raised: []string{"unread"}},
				{m: []string{"a,b"}, rf: []string{"a,b"}, raised: []string{"read"}},
			},
		},
		{
			name:  "an order's largest value relates what its pairs relate transitively",
			pairs: []string{"a,b", "b,a", "b,c", "c,b"},
			steps: []step{
				{raised: []string{"ac"}}, {raised: []string{"ac"}}, {raised: []string{"ac"}},
				{raised: []string{"ac"}}, {raised: []string{"ac"}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Atoms in this order, the first consistent choice orients
			// a -> b and c -> b, which relates neither way a and c.
			in := newInst(t, p, "a", "c", "b")
			in.SetVarying(p.Varying("rf", "unknown"))
			setFacts(t, in, "p", tc.pairs...)
			setFacts(t, in, "a_atom", "a")
			setFacts(t, in, "c_atom", "c")
			for i, s := range tc.steps {
				setFacts(t, in, "rf", s.rf...)
				setFacts(t, in, "m", s.m...)
				assert.ElementsMatch(t, s.raised, raisedNames(t, in), "candidate %d", i)
			}
		})
	}
}

// TestFlagBoundsRuleOut checks that a bound does rule a flag out: once
// decided, the flag is not evaluated again while the fixed inputs stay.
func TestFlagBoundsRuleOut(t *testing.T) {
	p := compileSrc(t, `
.decl rf(x, y)
.decl m(x, y)
.input rf, m
.flag unread: empty(m \ rf)
`)
	in := newInst(t, p, "a", "b")
	in.SetVarying(p.Varying("rf"))
	setFacts(t, in, "m", "a,b")
	for range boundAfter + 2 {
		setFacts(t, in, "rf", "a,b")
		assert.Empty(t, raisedNames(t, in))
		setFacts(t, in, "rf", "a,b", "b,a")
		assert.Empty(t, raisedNames(t, in))
	}
	require.True(t, in.bounds.vary.flags[0].usable)
	assert.False(t, in.beyondReach(0), "m is not empty: rf empty raises the flag")

	setFacts(t, in, "m")
	for range boundAfter {
		setFacts(t, in, "rf", "a,b")
		assert.Empty(t, raisedNames(t, in))
	}
	assert.True(t, in.beyondReach(0), "with m empty no rf raises the flag")
	setFacts(t, in, "m", "b,a")
	setFacts(t, in, "rf", "a,b")
	assert.Equal(t, []string{"unread"}, raisedNames(t, in), "a change of m forgets the bound")
}

// TestMayRaiseOver: a test is ruled out over some varying relations only
// where its bound over them holds; the instance's inputs are kept.
func TestMayRaiseOver(t *testing.T) {
	p := compileSrc(t, `
.decl rf(x, y)
.decl u(x)
.decl m(x, y)
.input rf, u, m
/// Shrinks as rf grows: bounded by m.
.undefined unread: empty(m \ rf)
/// Grows with rf: bounded by m at rf whole.
.undefined read: empty(m & rf)
/// Grows and shrinks with rf: no bound.
.undefined once: empty(rf \ (rf ; rf))
/// Grows with u: raised at u whole, unless u is fixed.
.undefined used: empty(u)
`)
	tests := []struct {
		name    string
		m, u    []string
		varying []string
		may     map[string]bool
	}{
		{name: "m empty, u empty and fixed", varying: []string{"rf"},
			may: map[string]bool{"unread": false, "read": false, "once": true, "used": false}},
		{name: "m empty, u varying", varying: []string{"rf", "u"},
			may: map[string]bool{"unread": false, "read": false, "once": true, "used": true}},
		{name: "m not empty", m: []string{"a,b"}, varying: []string{"rf"},
			may: map[string]bool{"unread": true, "read": true, "once": true, "used": false}},
		{name: "u fixed and not empty", u: []string{"a"}, varying: []string{"rf", "unknown"},
			may: map[string]bool{"unread": false, "read": false, "once": true, "used": true}},
		{name: "rf fixed", m: []string{"a,b"}, varying: nil,
			may: map[string]bool{"unread": false, "read": true, "once": true, "used": false, "no such test": true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newInst(t, p, "a", "b")
			setFacts(t, in, "m", tc.m...)
			setFacts(t, in, "u", tc.u...)
			setFacts(t, in, "rf", "a,b")
			for name, want := range tc.may {
				assert.Equal(t, want, in.MayRaiseOver(name, tc.varying...), name)
			}
			in.Run()
			assert.Equal(t, []string{"a,b"}, rows(t, in, "rf"), "rf is kept")
		})
	}
}

// TestFlagPersists: a test's witnesses persist when events are removed
// when its relation keeps its tuples over the events left: no projection,
// positive atoms that persist, negated ones that gain nothing; and its
// check looks at tuples one by one.
func TestFlagPersists(t *testing.T) {
	p := compileSrc(t, `
.decl w(x, y)
.decl po(x, y)
.input w, po
let hb = po+
let via = po ; po
/// A race: w not ordered by hb, which only loses pairs as events go.
.flag race: empty(w \ (hb | hb^-1))
/// Projects the middle event away.
.flag through: empty(via)
/// Negates a relation that may gain pairs when events go.
.flag unordered: empty(w \ (w \ hb))
/// A cycle may pass through an event removed.
.flag cycle: acyclic(w)
`)
	for name, want := range map[string]bool{"race": true, "through": false, "unordered": false, "cycle": false, "none": false} {
		assert.Equal(t, want, p.FlagPersists(name), name)
	}
	assert.Equal(t, 2, p.FlagArity("race"))
	assert.Equal(t, 0, p.FlagArity("none"))
}

// TestMayRaiseThrough: a persisting test may be raised anew only through
// a tuple of its bound holding one of the events named.
func TestMayRaiseThrough(t *testing.T) {
	p := compileSrc(t, `
.decl rf(x, y)
.decl m(x, y)
.input rf, m
.undefined unread: empty(m \ rf)
.undefined read: empty(m & rf)
.undefined once: empty(rf \ (rf ; rf))
`)
	in := newInst(t, p, "a", "b", "c")
	setFacts(t, in, "m", "a,b")
	setFacts(t, in, "rf", "a,b")
	idx := func(name string) int { return in.Domain().Intern(Value{Kind: KindHost, Str: name}) }
	assert.True(t, in.MayRaiseThrough([]string{"unread"}, []int{idx("b")}, "rf"), "b is in m's tuple")
	assert.False(t, in.MayRaiseThrough([]string{"unread"}, []int{idx("c")}, "rf"), "no tuple holds c")
	assert.False(t, in.MayRaiseThrough([]string{"read"}, []int{idx("c")}, "rf"), "at rf whole, only m's tuple")
	assert.True(t, in.MayRaiseThrough([]string{"read"}, []int{idx("b")}, "rf"), "at rf whole, m's tuple holds b")
	assert.True(t, in.MayRaiseThrough([]string{"unread", "read", "once"}, []int{idx("c")}, "rf"), "no bound: grows and shrinks with rf")
	assert.False(t, in.MayRaiseThrough(nil, []int{idx("c")}, "rf"))
	in.Run()
	assert.Equal(t, []string{"a,b"}, rows(t, in, "rf"), "rf is kept")
}

// TestMayRaiseOverWholeAndOrders: a test that grows with a varying
// relation and with an order is bounded with the relation whole and the
// order at its largest only where the order's pairs are largest there
// too: they must not shrink as the relation grows.
func TestMayRaiseOverWholeAndOrders(t *testing.T) {
	tests := []struct {
		name  string
		pairs string
		q     string
		may   bool
	}{
		{name: "pairs fixed", pairs: "let pairs = p", q: "a,c", may: false},
		{name: "pairs grow with rf", pairs: "let pairs = p | rf", q: "a,c", may: true},
		// With rf whole the pairs are empty, and so is the order: taking
		// that as the bound would rule the test out.
		{name: "pairs shrink as rf grows", pairs: "let pairs = p \\ rf", q: "a,b", may: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compileSrc(t, `
.decl rf(x, y)
.decl p(x, y)
.decl q(x, y)
.decl m(x, y)
.input rf, p, q, m
`+tc.pairs+`
.order o over pairs
/// Grows with rf and with o.
.undefined oq: empty((o & q) | (rf & m))
`)
			in := newInst(t, p, "a", "b", "c")
			setFacts(t, in, "p", "a,b", "b,a")
			setFacts(t, in, "q", tc.q)
			assert.Equal(t, tc.may, in.MayRaiseOver("oq", "rf"))
		})
	}
}
