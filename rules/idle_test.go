package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecursionIdle follows observation order, obs = (ms & rf) | (obs ;
// rmw ; obs), on one instance as rmw empties and fills: without rmw the
// stratum's recursive rules derive nothing and it is computed in one
// pass, with rmw it is a fixpoint again, and both give the tuples a brute
// force gives.
func TestRecursionIdle(t *testing.T) {
	src := `
.decl ms(x, y)
.input ms
.decl rf(x, y)
.input rf
.decl rmw(x, y)
.input rmw
.decl link(x, y)
link(X, Y) :- obs(X, Z), rmw(Z, Y).
.decl obs(x, y)
obs(X, Y) :- ms(X, Y), rf(X, Y).
obs(X, Y) :- link(X, Z), obs(Z, Y).
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b", "c", "d")
		setFacts(t, in, "ms", "a,b", "b,c", "c,d", "a,c")
		setFacts(t, in, "rf", "a,b", "c,d", "a,c", "d,a")
		obs := p.strata[p.rels[p.byName["obs"]].stratum]
		idle := func() bool {
			in.cur = obs.index
			return in.recursionIdle(obs)
		}
		steps := []struct {
			name string
			rmw  []string
			idle bool
			obs  []string
		}{
			{"no rmw", nil, true, []string{"a,b", "a,c", "c,d"}},
			// a -obs-> b -rmw-> c -obs-> d.
			{"an rmw joins two observations", []string{"b,c"}, false, []string{"a,b", "a,c", "a,d", "c,d"}},
			{"no rmw again", nil, true, []string{"a,b", "a,c", "c,d"}},
			// An rmw that leads nowhere leaves the fixpoint as it was.
			{"an rmw after every observation", []string{"d,d"}, false, []string{"a,b", "a,c", "c,d"}},
		}
		for _, st := range steps {
			setFacts(t, in, "rmw", st.rmw...)
			in.Run()
			require.NoError(t, in.Err(), st.name)
			assert.Equal(t, sorted(st.obs...), rows(t, in, "obs"), st.name)
			assert.Equal(t, st.idle, idle(), st.name)
		}
	})
}
