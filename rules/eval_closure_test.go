package rules

import (
	"github.com/ptxmm/ptxmm/relations"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The graph of the closure tests: a chain into a cycle b -> c -> d -> b, a
// separate edge e -> f, and g isolated.
var closureHosts = []string{"a", "b", "c", "d", "e", "f", "g"}

var closureEdges = []string{"a,b", "b,c", "c,d", "d,b", "e,f"}

var closurePlus = []string{
	"a,b", "a,c", "a,d",
	"b,b", "b,c", "b,d",
	"c,b", "c,c", "c,d",
	"d,b", "d,c", "d,d",
	"e,f",
}

func withIdentity(base []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range base {
		seen[x] = true
		out = append(out, x)
	}
	for _, h := range closureHosts {
		if p := h + "," + h; !seen[p] {
			out = append(out, p)
		}
	}
	return sorted(out...)
}

func TestTransitiveClosure(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		rel     string
		want    []string
		closure bool // the default mode recognises a closure stratum
	}{
		{
			name: "right-linear",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(X,Y).
			      tc(X,Y) :- tc(X,Z), e(Z,Y).`,
			rel: "tc", want: closurePlus, closure: true,
		},
		{
			name: "left-linear",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(X,Y).
			      tc(X,Y) :- e(X,Z), tc(Z,Y).`,
			rel: "tc", want: closurePlus, closure: true,
		},
		{
			name: "doubly-recursive",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(X,Y).
			      tc(X,Y) :- tc(X,Z), tc(Z,Y).`,
			rel: "tc", want: closurePlus, closure: true,
		},
		{
			name: "two base rules and two steps",
			src: `.decl e1(x,y) .decl e2(x,y) .decl tc(x,y)
			      e1(X,Y) :- e(X,Y), X != "nothing".
			      e2(X,Y) :- e(X,Y).
			      tc(X,Y) :- e1(X,Y).
			      tc(X,Y) :- e2(X,Y).
			      tc(X,Y) :- tc(X,Z), e1(Z,Y).
			      tc(X,Y) :- tc(X,Z), e2(Z,Y).`,
			rel: "tc", want: closurePlus, closure: true,
		},
		{
			name: "mixed directions run semi-naive",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(X,Y).
			      tc(X,Y) :- tc(X,Z), e(Z,Y).
			      tc(X,Y) :- e(X,Z), tc(Z,Y).`,
			rel: "tc", want: closurePlus, closure: false,
		},
		{
			name: "non-linear body runs semi-naive",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(X,Y).
			      tc(X,Y) :- tc(X,Z), e(Z,Y), Z = Z.`,
			rel: "tc", want: closurePlus, closure: false,
		},
		{
			name: "reversed closure",
			src: `.decl tc(x,y)
			      tc(X,Y) :- e(Y,X).
			      tc(X,Y) :- tc(Z,Y), tc(X,Z).`,
			rel: "tc", want: inverse(closurePlus), closure: false,
		},
		{name: "let plus", src: `let tc = e+`, rel: "tc", want: closurePlus, closure: true},
		{name: "let star", src: `let tc = e*`, rel: "tc", want: withIdentity(closurePlus), closure: true},
		{name: "let opt", src: `let tc = e?`, rel: "tc", want: withIdentity(closureEdges)},
		{name: "let plus of inverse", src: `let tc = (e^-1)+`, rel: "tc", want: inverse(closurePlus), closure: true},
		{
			name: "recursive let",
			src:  `let tc = e | tc ; tc`, // the composition is inlined: tc :- e. tc :- tc ; tc.
			rel:  "tc", want: closurePlus, closure: true,
		},
		{
			name: "reachability from a set",
			src: `.decl start(x) start(X) :- e(X,_), !e(_,X).
			      .decl reach(x)
			      reach(X) :- start(X).
			      reach(Y) :- reach(X), e(X,Y).`,
			rel: "reach", want: []string{"a", "b", "c", "d", "e", "f"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := ".decl e(x, y)\n.input e\n" + tc.src
			forModes(t, func(t *testing.T, opts []CompileOption) {
				p := compileSrc(t, src, opts...)
				in := newInst(t, p, closureHosts...)
				setFacts(t, in, "e", closureEdges...)
				in.Run()
				assert.Equal(t, sorted(tc.want...), rows(t, in, tc.rel))
				s := p.strata[stratumOf(t, p, tc.rel)]
				if len(opts) == 0 {
					assert.Equal(t, tc.closure, s.closure != nil, "closure operator recognised")
				} else {
					assert.Nil(t, s.closure, "no closure operator with %v", opts)
				}
			})
		})
	}
}

func inverse(pairs []string) []string {
	var out []string
	for _, p := range pairs {
		for i := 0; i < len(p); i++ {
			if p[i] == ',' {
				out = append(out, p[i+1:]+","+p[:i])
				break
			}
		}
	}
	return sorted(out...)
}

// TestClosureRecomputed changes the edges of a closure stratum between runs:
// the closure must be recomputed from scratch, not accumulate.
func TestClosureRecomputed(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, ".decl e(x,y)\n.input e\nlet tc = e+\nlet rtc = e*\n", opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "e", "a,b", "b,c")
		in.Run()
		assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "tc"))
		setFacts(t, in, "e", "c,a")
		in.Run()
		assert.Equal(t, []string{"c,a"}, rows(t, in, "tc"))
		assert.Equal(t, []string{"a,a", "b,b", "c,a", "c,c"}, rows(t, in, "rtc"))
		setFacts(t, in, "e")
		in.Run()
		assert.Equal(t, []string{}, rows(t, in, "tc"))
	})
}

// TestLongChain checks a closure whose semi-naive evaluation needs many
// rounds, across the 64-bit word boundaries of the bitsets.
func TestLongChain(t *testing.T) {
	const n = 150
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, `.decl e(x,y) .input e
			.decl tc(x,y)
			tc(X,Y) :- e(X,Y).
			tc(X,Y) :- tc(X,Z), e(Z,Y).
			.decl tcl(x,y)
			tcl(X,Y) :- e(X,Y).
			tcl(X,Y) :- e(X,Z), tcl(Z,Y).
			.decl tcd(x,y)
			tcd(X,Y) :- e(X,Y).
			tcd(X,Y) :- tcd(X,Z), tcd(Z,Y).`, opts...)
		dom := NewDomain()
		for i := 0; i < n; i++ {
			_, _ = dom.AddHost("v" + strconv.Itoa(i))
		}
		in := p.NewInstance(dom)
		e := chainRel(n)
		require.NoError(t, in.SetRel("e", e))
		in.Run()
		for _, name := range []string{"tc", "tcl", "tcd"} {
			r, err := in.Rel(name)
			require.NoError(t, err)
			assert.Equal(t, n*(n-1)/2, r.Len(), name)
			assert.True(t, r.Has(0, n-1), name)
			assert.False(t, r.Has(n-1, 0), name)
		}
	})
}

// TestSparseRowsLargeDomain evaluates closures and compositions over 800
// atoms where every row of the input has two bits a word apart (i -> i+1
// and i -> i+64), the shape for which evaluation keeps the word spans of
// rows, and compares them with the relations package.
func TestSparseRowsLargeDomain(t *testing.T) {
	const n = 800
	e := relations.NewRel(n)
	for i := 0; i < n; i++ {
		for _, d := range []int{1, 64} {
			if i+d < n {
				e.Add(i, i+d)
			}
		}
	}
	plus := func(r *relations.Rel) *relations.Rel {
		c := r.Clone()
		c.TransitiveClosure()
		return c
	}
	compose := func(a, b *relations.Rel) *relations.Rel {
		c := relations.NewRel(n)
		relations.ComposeInto(c, a, b)
		return c
	}
	ee := compose(e, e)
	start := relations.NewSet(n)
	start.Add(700)
	reach := relations.NewSet(n)
	reach.Add(700)
	for j := range plus(e).Row(700).EachSet() {
		reach.Add(int(j))
	}
	want := map[string]*relations.Rel{
		"tc": plus(e), "lc": plus(e), "dc": plus(e),
		"f": ee, "fc": plus(ee), "three": compose(ee, e),
		"mixed": compose(plus(e), ee),
	}
	src := `.decl e(x, y) .input e
.decl start(x) .input start
.decl tc(x, y)
tc(X, Y) :- e(X, Y).
tc(X, Y) :- tc(X, Z), e(Z, Y).
.decl lc(x, y)
lc(X, Y) :- e(X, Y).
lc(X, Y) :- e(X, Z), lc(Z, Y).
.decl dc(x, y)
dc(X, Y) :- e(X, Y).
dc(X, Y) :- dc(X, Z), dc(Z, Y).
.decl f(x, y)
f(X, Y) :- e(X, Z), e(Z, Y).
.decl fc(x, y)
fc(X, Y) :- f(X, Y).
fc(X, Y) :- fc(X, Z), f(Z, Y).
let three = e ; e ; e
let mixed = tc ; f
.decl reach(x)
reach(X) :- start(X).
reach(Y) :- reach(X), e(X, Y).
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		dom := NewDomain()
		for i := 0; i < n; i++ {
			_, _ = dom.AddHost("v" + strconv.Itoa(i))
		}
		in := p.NewInstance(dom)
		require.NoError(t, in.SetRel("e", e))
		require.NoError(t, in.SetSet("start", start))
		in.Run()
		for name, w := range want {
			got, err := in.Rel(name)
			require.NoError(t, err)
			assert.True(t, w.Equal(got), "%s: %d pairs, want %d", name, got.Len(), w.Len())
		}
		got, err := in.Set("reach")
		require.NoError(t, err)
		assert.True(t, reach.Equal(got), "reach")
	})
}
