package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plansSrc has a stratum, u, of three rules: one over the input g, one
// over e, and one over the input h, which finding the dead strata does not
// ask about (u's second rule is live); and a chain over g (a, b) that is
// dead while g is empty, which w's second rule reads.
const plansSrc = `.decl e(x, y)
.input e
.decl g(x, y)
.input g
.decl h(x, y)
.input h
.decl u(x, y)
u(X, Y) :- g(X, Y), e(Y, X).
u(X, Y) :- e(X, Y).
u(X, Y) :- h(Y, X).
.decl a(x, y)
a(X, Y) :- g(X, Y).
.decl b(x)
b(X) :- a(X, _).
.decl w(x)
w(X) :- e(X, _), !b(X).
w(X) :- b(X), e(_, X).
.check acyc: acyclic(u)
`

// TestQuietPlans: instances sharing a QuietPlans find the dead strata of a
// set of empty inputs once; the rules those inputs starve are passed over
// while they stay empty, and evaluated again once they hold tuples; every
// instance derives what one without plans derives, over Reset too.
func TestQuietPlans(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, plansSrc, opts...)
		qp := p.QuietPlans()
		derive := func(in *Instance, h []string, g ...string) map[string][]string {
			setFacts(t, in, "e", "a,b", "b,c")
			setFacts(t, in, "h", h...)
			setFacts(t, in, "g", g...)
			in.Run()
			require.NoError(t, in.err)
			out := map[string][]string{}
			for _, r := range []string{"u", "a", "b", "w"} {
				out[r] = rows(t, in, r)
			}
			return out
		}
		plain := newInst(t, p, "a", "b", "c")
		want := derive(plain, nil)
		wantH := derive(plain, []string{"c,a"})
		wantG := derive(plain, nil, "b,a", "c,c")

		first, second := newInst(t, p, "a", "b", "c"), newInst(t, p, "a", "b", "c")
		first.SetQuietPlans(qp)
		second.SetQuietPlans(qp)
		assert.Equal(t, want, derive(first, nil))
		assert.Len(t, qp.plans, 1, "the first instance leaves its plan")
		assert.Equal(t, want, derive(second, nil))
		assert.Len(t, qp.plans, 1, "the second takes it")
		assert.Same(t, first.quiet.plan, second.quiet.plan)

		u := stratumOf(t, p, "u")
		require.True(t, second.flatStrata.has(u), "u is computed flat")
		require.NotNil(t, second.quiet.starvedNow)
		assert.Equal(t, uint64(5), second.quiet.starvedNow[u], "u's rules over g and h are starved for the test")
		assert.Equal(t, uint64(2), second.quiet.starvedNow[stratumOf(t, p, "w")], "w's rule over the dead b is starved")

		// The first instance made the plan, without its starved rules: it
		// does not watch h, and must not take them now that the second
		// found them.
		assert.Nil(t, first.quiet.starvedNow)
		assert.Equal(t, wantH, derive(first, []string{"c,a"}))

		// h holds tuples, then g: the plan no longer holds, and the rules
		// over them run.
		assert.Equal(t, wantH, derive(second, []string{"c,a"}))
		assert.Equal(t, want, derive(second, nil))
		assert.Equal(t, wantG, derive(second, nil, "b,a", "c,c"))
		assert.Nil(t, second.quiet.planStarved, "a plan's starved rules are found when it is taken again")
		assert.Len(t, qp.plans, 3)

		// Back to an empty g, after Reset as a host checking many tests
		// does.
		second.Reset(Limits{})
		assert.Equal(t, want, derive(second, nil))
		assert.Equal(t, wantH, derive(second, []string{"c,a"}))
		second.Reset(Limits{})
		assert.Equal(t, wantG, derive(second, nil, "b,a", "c,c"))
		assert.Equal(t, uint64(4), second.quiet.planStarved[u], "only the rule over h is starved")
		assert.Len(t, qp.plans, 3)
	})
}

// TestQuietPlansOfAnotherProgram: an instance does not take the plans of
// another program, whose relations it does not share.
func TestQuietPlansOfAnotherProgram(t *testing.T) {
	p, q := compileSrc(t, plansSrc), compileSrc(t, plansSrc)
	in := newInst(t, p, "a")
	in.SetQuietPlans(q.QuietPlans())
	assert.Nil(t, in.quiet.plans)
	own := p.QuietPlans()
	in.SetQuietPlans(own)
	assert.Same(t, own, in.quiet.plans)
}
