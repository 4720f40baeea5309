package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/relations"
)

// phasesSrc is an order over every pair of three atoms, with a check that
// rejects the pairs of an input relation.
const phasesSrc = `
.decl pairs(x, y)
.input pairs
.decl bad(x, y)
.input bad
.order co over pairs
.check ok: acyclic(co)
.check notBad: empty(co & bad)
`

// TestSolveWithPhases: the directions of WithPhases are taken first where
// the checks allow them, and only without witnesses; the verdict is the
// same in every case.
func TestSolveWithPhases(t *testing.T) {
	reverse := []string{"c,b", "c,a", "b,a"}
	cases := []struct {
		name      string
		phase     []string // the phase order's pairs; nil for no phase
		phaseSize int      // its domain size (the instance's when 0)
		bad       []string
		witnesses bool
		want      []string
	}{
		{name: "without a phase the smaller atom comes first", want: []string{"a,b", "a,c", "b,c"}},
		{name: "a phase is followed", phase: reverse, want: []string{"b,a", "c,a", "c,b"}},
		{name: "a phase is ignored when witnesses are asked for", phase: reverse, witnesses: true, want: []string{"a,b", "a,c", "b,c"}},
		{name: "a phase is ignored over another domain size", phase: reverse, phaseSize: 4, want: []string{"a,b", "a,c", "b,c"}},
		{name: "a direction the checks reject is turned", phase: reverse, bad: []string{"b,a"}, want: []string{"a,b", "c,a", "c,b"}},
		{name: "a phase naming some pairs only", phase: []string{"c,a"}, want: []string{"a,b", "c,a", "c,b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, phasesSrc)
			in := newInst(t, p, "a", "b", "c")
			setFacts(t, in, "pairs", "a,b", "a,c", "b,c")
			setFacts(t, in, "bad", c.bad...)
			var opts []SolveOption
			if !c.witnesses {
				opts = append(opts, WithoutWitnesses())
			}
			if c.phase != nil {
				n := c.phaseSize
				if n == 0 {
					n = in.Domain().Len()
				}
				ph := relations.NewRel(n)
				for _, tu := range c.phase {
					x := parseTuple(t, in.Domain(), tu)
					ph.Add(x[0], x[1])
				}
				opts = append(opts, WithPhases(map[string]*relations.Rel{"co": ph}))
			}
			res := in.Solve(opts...)
			require.NoError(t, res.Err)
			require.True(t, res.Consistent)
			assert.Equal(t, c.want, rows(t, in, "co"))
		})
	}
}

// TestSolveWithPhasesSameVerdict: a phase cannot make an inconsistent
// choice consistent, or the reverse.
func TestSolveWithPhasesSameVerdict(t *testing.T) {
	p := compileSrc(t, phasesSrc)
	in := newInst(t, p, "a", "b")
	setFacts(t, in, "pairs", "a,b")
	setFacts(t, in, "bad", "a,b", "b,a")
	ph := relations.NewRel(in.Domain().Len())
	ph.Add(atomIndex(t, in.Domain(), "b"), atomIndex(t, in.Domain(), "a"))
	res := in.Solve(WithoutWitnesses(), WithPhases(map[string]*relations.Rel{"co": ph}))
	require.NoError(t, res.Err)
	assert.False(t, res.Consistent, "both directions are rejected")
	assert.Equal(t, "notBad", res.Failures[0].Name)
}
