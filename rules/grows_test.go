package rules

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMonotoneIn checks when adding tuples to some inputs can only add
// violations: negations of those inputs (or of the orders) in an axiom, or
// in the pairs of an order, are in the way; negations of other inputs,
// double negations, and negations in .flag tests are not.
func TestMonotoneIn(t *testing.T) {
	const decls = `.decl rf(x, y) .input rf
.decl po(x, y) .input po
.decl bar(x, y) .input bar
.decl W(x) .input W
`
	cases := []struct {
		name, src string
		ok        bool
		why       string
	}{
		{"positive", `let com = rf | po
.check ax: acyclic(com ; bar)`, true, ""},
		{"negation of a fixed input", `let r = rf \ po
.check ax: acyclic(r)`, true, ""},
		{"double negation", `let r = po \ (po \ rf)
.check ax: acyclic(r)`, true, ""},
		{"negation of rf", `let r = po \ rf
.check ax: acyclic(r)`, false, "axiom ax depends on rf through a negation"},
		{"negation of another growing input", `let r = po \ bar
.check ax: irreflexive(r)`, false, "axiom ax depends on bar through a negation"},
		{"negation of an order", `.order co over po
let r = po \ co
.check ax: acyclic(r ; rf)`, false, "axiom ax depends on co through a negation"},
		{"order pairs shrink with rf", `let pairs = po \ rf
.order co over pairs
.check ax: acyclic(co)`, false, "the pairs of .order co (pairs) depend on rf through a negation"},
		{"negation in a flag only", `let race = po \ rf
.check ax: acyclic(rf)
.flag race: empty(race)`, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, decls+c.src+"\n")
			ok, why := p.MonotoneIn([]string{"rf", "bar", "unknown"})
			assert.Equal(t, c.ok, ok)
			if c.why == "" {
				assert.Empty(t, why)
			} else {
				assert.Contains(t, why, c.why)
			}
		})
	}
}

// TestSpecMonotoneInChoices: the PTX model's axioms only fail more as
// reads-from and what depends on read values grow, so the reads-from
// search may abandon partial candidates (docs/model.md).
func TestSpecMonotoneInChoices(t *testing.T) {
	src, err := os.ReadFile("../spec.dl")
	require.NoError(t, err)
	p := compileSrc(t, string(src))
	ok, why := p.MonotoneIn([]string{"rf", "bar", "cbar", "MBAR_UNINIT"})
	assert.True(t, ok, why)
}
