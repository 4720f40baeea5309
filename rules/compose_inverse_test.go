package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestComposeInverse checks that a^-1 ; b, which composeInverse computes
// without transposing a, holds exactly the pairs a brute force finds: on
// full relations, on a delta (the recursive atom inside the inverse,
// which semi-naive evaluation substitutes), and at a rule's root and
// inside an intersection, on either side of it.
func TestComposeInverse(t *testing.T) {
	const n = 9
	atoms := make([]string, n)
	for i := range atoms {
		atoms[i] = fmt.Sprintf("e%d", i)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	randomPairs := func(density float64) [][2]int {
		var out [][2]int
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if rng.Float64() < density {
					out = append(out, [2]int{i, j})
				}
			}
		}
		return out
	}
	facts := func(ps [][2]int) []string {
		var out []string
		for _, p := range ps {
			out = append(out, atoms[p[0]]+","+atoms[p[1]])
		}
		return out
	}
	type rel map[[2]int]bool
	toRel := func(ps [][2]int) rel {
		r := rel{}
		for _, p := range ps {
			r[p] = true
		}
		return r
	}
	// inverseThen is a^-1 ; b.
	inverseThen := func(a, b rel) rel {
		out := rel{}
		for p := range a {
			for q := range b {
				if p[0] == q[0] {
					out[[2]int{p[1], q[1]}] = true
				}
			}
		}
		return out
	}
	text := func(r rel) []string {
		var out []string
		for p := range r {
			out = append(out, atoms[p[0]]+","+atoms[p[1]])
		}
		return sorted(out...)
	}
	for trial := 0; trial < 20; trial++ {
		aPairs, bPairs, cPairs := randomPairs(0.2), randomPairs(0.3), randomPairs(0.5)
		a, b, c := toRel(aPairs), toRel(bPairs), toRel(cPairs)
		// fix is the least t with t = b | t^-1 ; a.
		fix := rel{}
		for p := range b {
			fix[p] = true
		}
		for grew := true; grew; {
			grew = false
			for p := range inverseThen(fix, a) {
				if !fix[p] {
					fix[p], grew = true, true
				}
			}
		}
		inter := rel{}
		for p := range inverseThen(a, b) {
			if c[p] {
				inter[p] = true
			}
		}
		src := `.decl a(x, y) .decl b(x, y) .decl c(x, y) .input a, b, c
			.decl root(x, y) .decl both(x, y) .decl filtered(x, y) .decl fix(x, y)
			root(X, Y) :- a(Z, X), b(Z, Y).
			both(X, Y) :- a(Z, X), b(Z, Y), c(X, Y).
			filtered(X, Y) :- c(X, Y), a(Z, X), b(Z, Y).
			fix(X, Y) :- b(X, Y).
			fix(X, Y) :- fix(Z, X), a(Z, Y).`
		forModes(t, func(t *testing.T, opts []CompileOption) {
			p := compileSrc(t, src, opts...)
			require.Equal(t, nCompose, rulePlansOf(p, "root")[0].alg.kind)
			require.Equal(t, nInverse, rulePlansOf(p, "root")[0].alg.a.kind)
			in := newInst(t, p, atoms...)
			setFacts(t, in, "a", facts(aPairs)...)
			setFacts(t, in, "b", facts(bPairs)...)
			setFacts(t, in, "c", facts(cPairs)...)
			in.Run()
			assert.Equal(t, text(inverseThen(a, b)), rows(t, in, "root"), "trial %d", trial)
			assert.Equal(t, text(inter), rows(t, in, "both"), "trial %d", trial)
			// c is copied first unless the intersection copies the
			// composition, whose rows are listed, and filters it by c.
			assert.Equal(t, text(inter), rows(t, in, "filtered"), "trial %d", trial)
			assert.Equal(t, text(fix), rows(t, in, "fix"), "trial %d", trial)
		})
	}
}
