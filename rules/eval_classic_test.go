package rules

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSameGeneration(t *testing.T) {
	// r is the root; a, b its children; c, d children of a; e of b; f of
	// e; g of d. The generations are {a,b}, {c,d,e}, {f,g}.
	src := `
.decl par(child, parent)
.input par
.decl sg(x, y)
sg(X, Y) :- par(X, P), par(Y, P).
sg(X, Y) :- par(X, XP), sg(XP, YP), par(Y, YP).
`
	var want []string
	for _, gen := range [][]string{{"a", "b"}, {"c", "d", "e"}, {"f", "g"}} {
		for _, x := range gen {
			for _, y := range gen {
				want = append(want, x+","+y)
			}
		}
	}
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "r", "a", "b", "c", "d", "e", "f", "g")
		setFacts(t, in, "par", "a,r", "b,r", "c,a", "d,a", "e,b", "f,e", "g,d")
		in.Run()
		assert.Equal(t, sorted(want...), rows(t, in, "sg"))
		for _, rp := range rulePlansOf(p, "sg") {
			assert.NotNil(t, rp.alg, "a chain body compiles to an algebra plan")
		}
	})
}

func TestMutualRecursion(t *testing.T) {
	src := `
.decl succ(x, y)
succ(0, 1). succ(1, 2). succ(2, 3). succ(3, 4). succ(4, 5). succ(5, 6).
.decl even(x)
.decl odd(x)
even(0).
even(Y) :- odd(X), succ(X, Y).
odd(Y) :- even(X), succ(X, Y).
.decl oddpath(x, y)
.decl evenpath(x, y)
oddpath(X, Y) :- succ(X, Y).
evenpath(X, Y) :- oddpath(X, Z), succ(Z, Y).
oddpath(X, Y) :- evenpath(X, Z), succ(Z, Y).
`
	var odd, even []string
	for i := 0; i <= 6; i++ {
		for j := i + 1; j <= 6; j++ {
			if (j-i)%2 == 1 {
				odd = append(odd, fmt.Sprintf("%d,%d", i, j))
			} else {
				even = append(even, fmt.Sprintf("%d,%d", i, j))
			}
		}
	}
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p)
		in.Run()
		assert.Equal(t, []string{"0", "2", "4", "6"}, rows(t, in, "even"))
		assert.Equal(t, []string{"1", "3", "5"}, rows(t, in, "odd"))
		assert.Equal(t, sorted(odd...), rows(t, in, "oddpath"))
		assert.Equal(t, sorted(even...), rows(t, in, "evenpath"))
		assert.Equal(t, stratumOf(t, p, "even"), stratumOf(t, p, "odd"), "even and odd form one stratum")
		assert.True(t, p.strata[stratumOf(t, p, "even")].recursive)
		assert.Equal(t, stratumOf(t, p, "oddpath"), stratumOf(t, p, "evenpath"))
	})
}

func TestStratifiedNegation(t *testing.T) {
	src := `
.decl e(x, y)
.input e
.decl node(x)
.input node
.decl start(x)
.input start
.decl reach(x)
reach(X) :- start(X).
reach(Y) :- reach(X), e(X, Y).
.decl unreach(x)
unreach(X) :- node(X), !reach(X).
.decl bad(x)
bad(X) :- unreach(X), e(X, Y), reach(Y).
.decl good(x)
good(X) :- unreach(X), !bad(X).
.decl linked(x)
linked(X) :- good(X), e(X, Y), good(Y).
.decl lonely(x)
lonely(X) :- good(X), !linked(X).
.decl nonedge(x, y)
nonedge(X, Y) :- reach(X), reach(Y), !e(X, Y), !e(Y, X).
let farther = (e+ \ e) \ e^-1
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b", "c", "d", "e", "f", "g", "h")
		setFacts(t, in, "node", "a", "b", "c", "d", "e", "f", "g", "h")
		setFacts(t, in, "start", "a")
		setFacts(t, in, "e", "a,b", "b,c", "d,b", "e,d", "f,g", "g,f", "h,h")
		in.Run()
		assert.Equal(t, []string{"a", "b", "c"}, rows(t, in, "reach"))
		assert.Equal(t, []string{"d", "e", "f", "g", "h"}, rows(t, in, "unreach"))
		assert.Equal(t, []string{"d"}, rows(t, in, "bad"))
		assert.Equal(t, []string{"e", "f", "g", "h"}, rows(t, in, "good"))
		assert.Equal(t, []string{"f", "g", "h"}, rows(t, in, "linked"))
		assert.Equal(t, []string{"e"}, rows(t, in, "lonely"))
		assert.Equal(t, []string{"a,a", "a,c", "b,b", "c,a", "c,c"}, rows(t, in, "nonedge"))
		// e+ = e plus a->c, e->b, e->c, d->c, f->f, g->g; minus e and e^-1.
		assert.Equal(t, []string{"a,c", "d,c", "e,b", "e,c", "f,f", "g,g"}, rows(t, in, "farther"))

		// Each negation puts its head in a later stratum.
		chain := []string{"reach", "unreach", "bad", "good", "linked", "lonely"}
		for i := 1; i < len(chain); i++ {
			require.Less(t, stratumOf(t, p, chain[i-1]), stratumOf(t, p, chain[i]), "%s before %s", chain[i-1], chain[i])
		}

		// Moving the start changes every stratum after it.
		setFacts(t, in, "start", "e")
		in.Run()
		assert.Equal(t, []string{"b", "c", "d", "e"}, rows(t, in, "reach"))
		assert.Equal(t, []string{"a", "f", "g", "h"}, rows(t, in, "unreach"))
		assert.Equal(t, []string{"a"}, rows(t, in, "bad"))
		assert.Equal(t, []string{"f", "g", "h"}, rows(t, in, "good"))
		assert.Equal(t, []string{}, rows(t, in, "lonely"))
	})
}

func TestNegationCycleRejected(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			name: "self",
			src:  ".decl p(x) .decl q(x) .input q\np(X) :- q(X), !p(X).",
			want: "negation inside a recursive cycle: p -> !p",
		},
		{
			name: "through another relation",
			src:  ".decl p(x) .decl r(x) .decl q(x) .input q\np(X) :- q(X), !r(X).\nr(X) :- p(X).",
			want: "negation inside a recursive cycle: p -> !r -> p",
		},
		{
			name: "through a definition",
			src:  ".decl q(x,y) .input q\nlet r = q \\ r",
			want: "negation inside a recursive cycle",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, msg := loadModel(tc.src)
			require.Empty(t, msg)
			p, errs := Compile(m)
			require.True(t, errs.HasErrors())
			assert.Nil(t, p)
			assert.Contains(t, errs.Quoted(), tc.want)
		})
	}
}
