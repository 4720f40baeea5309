package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainOrderSrc asks the search to orient every pair of the input "pairs"
// with nothing to prune it: the search takes one step per pair.
const chainOrderSrc = `
.decl pairs(x, y)
.input pairs
.order co over pairs
.check ok: acyclic(co)
`

// allPairs returns "ai,aj" for every i < j < n.
func allPairs(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			out = append(out, fmt.Sprintf("a%d,a%d", i, j))
		}
	}
	return out
}

func atomNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("a%d", i)
	}
	return out
}

// exhaustiveOrderSrc makes the search try every choice: the check that
// fails is only tested on complete choices, and fails on each (no order
// holds both a0 -> a1 and a1 -> a0).
const exhaustiveOrderSrc = chainOrderSrc + `
.decl m(x, y)
.input m
.check never: empty(m \ co)
`

// TestSolveStopsAtTheNextStepOnceCancelled cancels the context from inside
// the search (the prune hook runs at every step): the search must stop at
// the very next step, not finish the hundreds of steps the candidate needs.
func TestSolveStopsAtTheNextStepOnceCancelled(t *testing.T) {
	p := compileSrc(t, exhaustiveOrderSrc)
	in := newInst(t, p, atomNames(6)...)
	setFacts(t, in, "pairs", allPairs(6)...)
	setFacts(t, in, "m", "a0,a1", "a1,a0")
	full := in.Solve()
	require.False(t, full.Consistent)
	require.Greater(t, full.Nodes, 400)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	res := in.Solve(WithContext(ctx), WithPrune(func(*Instance) bool {
		calls++
		if calls == 3 {
			cancel()
		}
		return false
	}))
	require.ErrorIs(t, res.Err, context.Canceled)
	assert.False(t, res.Consistent)
	assert.Empty(t, res.Failures)
	assert.LessOrEqual(t, res.Nodes, 4, "the search went on after the cancellation")

	// The instance is usable again and gives the same answer.
	again := in.Solve()
	require.NoError(t, again.Err)
	assert.Equal(t, full, again)
}

// TestSolveWithAnExpiredDeadline stops before evaluating anything.
func TestSolveWithAnExpiredDeadline(t *testing.T) {
	p := compileSrc(t, chainOrderSrc)
	in := newInst(t, p, atomNames(30)...)
	setFacts(t, in, "pairs", allPairs(30)...)
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	res := in.Solve(WithContext(ctx))
	require.ErrorIs(t, res.Err, context.DeadlineExceeded)
	assert.LessOrEqual(t, res.Nodes, 1)
	for i, n := range in.sched.runs {
		assert.Zero(t, n, "stratum %d ran after the deadline", i)
	}
}

func TestRunContextStopsBeforeAnyStratumWhenDone(t *testing.T) {
	p := compileSrc(t, `
.decl e(x, y)
.input e
tc(X, Y) :- e(X, Y).
tc(X, Y) :- tc(X, Z), e(Z, Y).
.decl tc(x, y)
.output tc
`)
	in := newInst(t, p, "a", "b", "c")
	setFacts(t, in, "e", "a,b", "b,c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, in.RunContext(ctx), context.Canceled)
	for i, n := range in.sched.runs {
		assert.Zero(t, n, "stratum %d ran after the cancellation", i)
	}
	require.NoError(t, in.RunContext(context.Background()))
	assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "tc"))
}

// TestTickStopsAfterBoundedWork: once the context is done, the work inside
// one rule goes on for at most pollEvery units before evaluation stops.
func TestTickStopsAfterBoundedWork(t *testing.T) {
	p := compileSrc(t, ".decl s(x)\n.input s\n")
	in := newInst(t, p, "a")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	units := 0
	err := in.guarded(ctx, func() {
		cancel()
		for {
			in.intr.tick(1)
			units++
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, pollEvery-1, units)
}

// TestLongRulesPoll counts the looks at the context while one join and one
// large composition run: they come every pollEvery units of work, not once
// per rule.
func TestLongRulesPoll(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		atoms int
		facts func(in *Instance)
		min   int
	}{
		{"join", `
.decl s(x)
.input s
.decl t(x, y, z)
t(X, Y, Z) :- s(X), s(Y), s(Z).
.printsize t
`, 64, func(in *Instance) { setFacts(t, in, "s", atomNames(64)...) }, 64 * 64 * 64 / pollEvery},
		{"compose", `
.decl e(x, y)
.input e
let e2 = e ; e
.printsize e2
`, pollComposeAtoms + 100, func(in *Instance) {
			var chain []string
			for i := 0; i+1 < pollComposeAtoms+100; i++ {
				chain = append(chain, fmt.Sprintf("a%d,a%d", i, i+1))
			}
			setFacts(t, in, "e", chain...)
		}, (pollComposeAtoms + 100) * ((pollComposeAtoms + 100 + 63) / 64) / pollEvery},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, c.src)
			in := newInst(t, p, atomNames(c.atoms)...)
			c.facts(in)
			require.NoError(t, in.RunContext(context.Background()))
			// One poll comes from the entry.
			assert.GreaterOrEqual(t, in.intr.polls-1, max(c.min, 1), "polls inside the rule")
		})
	}
}
