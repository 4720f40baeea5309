package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplayOps replays an evaluation's operations (the reference of
// BenchmarkEvaluate) and finds what the evaluation derived: the rules of
// each arity union into the scratch of that arity (r's and, where no
// closure operator computes it, tc's), and a closure stratum's replay is
// the closure. Replaying again changes nothing. (A semi-naive round reads
// a delta as the evaluation left it, so replaying the rounds of tc finds
// part of tc only.)
func TestReplayOps(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, `.decl e(x,y) .input e
			.decl s(x) .input s
			.decl r(x,y)
			r(X,Y) :- e(X,Y), s(X), !e(Y,X).
			r(X,Y) :- e(X,Z), e(Z,Y), X != Y.
			.decl d(x)
			d(X) :- r(X,_), !s(X).
			d(X) :- s(X), e(X,X).
			let tc = e+
			`, opts...)
		in := newInst(t, p, "a", "b", "c", "x")
		setFacts(t, in, "e", "a,b", "b,c", "c,a", "x,x", "x,a", "a,x")
		setFacts(t, in, "s", "a", "x")
		tr := in.TraceRules(func() { in.Run() })
		require.NotZero(t, tr.Rules())
		for range 2 {
			tr.ReplayOps()
			assert.NotZero(t, tr.Ops())
			r, err := in.Rel("r")
			require.NoError(t, err)
			d, err := in.Set("d")
			require.NoError(t, err)
			assert.True(t, tr.scratchStore(1).set.Equal(d), "d")
			tc, err := in.Rel("tc")
			require.NoError(t, err)
			got := tr.scratchStore(2).rel
			if len(tr.closed) > 0 {
				assert.True(t, got.Equal(r), "r")
			} else {
				both := r.Clone()
				both.UnionWith(tc)
				withR := got.Clone()
				withR.UnionWith(r)
				withAll := got.Clone()
				withAll.UnionWith(both)
				assert.True(t, withR.Equal(got) && withAll.Equal(both), "r, and some of tc")
			}
			for cp, c := range tr.closed {
				assert.Equal(t, p.byName["tc"], cp.rel)
				assert.True(t, c.Equal(tc), "tc")
			}
		}
	})
}
