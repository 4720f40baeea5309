package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const limitsSrc = `
.decl e(x, y)
.input e
.decl s(x)
.input s
tc(X, Y) :- e(X, Y).
tc(X, Y) :- tc(X, Z), e(Z, Y).
.decl tc(x, y)
.decl t3(x, y, z)
t3(X, Y, Z) :- s(X), s(Y), s(Z).
.printsize tc, t3
`

func TestEstimateBytesGrowsWithTheSquareOfTheDomain(t *testing.T) {
	p := compileSrc(t, limitsSrc)
	small, big := p.EstimateBytes(10000), p.EstimateBytes(40000)
	assert.InDelta(t, 16, float64(big)/float64(small), 1.5)
	// e, tc, tc's two working copies and the scratch: at least 8 dense
	// relations of 10^4 x 10^4 bits.
	assert.Greater(t, small, int64(8*10000*10000/8))
	assert.Positive(t, p.InputBytes(10000))
	assert.Less(t, p.InputBytes(10000), small)
}

func TestNewLimitedInstanceRefusesAtOnce(t *testing.T) {
	p := compileSrc(t, limitsSrc)
	dom := NewDomain()
	for i := 0; i < 5000; i++ {
		dom.Intern(Value{Kind: KindHost, Str: fmt.Sprintf("a%d", i)})
	}
	_, err := p.NewLimitedInstance(dom, Limits{MaxBytes: 1 << 20})
	var me *MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, p.EstimateBytes(5000), me.Need)
	assert.Contains(t, err.Error(), "the relations of 5000 atoms would take about")
	assert.Contains(t, err.Error(), "raise it with -max-memory")

	in, err := p.NewLimitedInstance(dom, Limits{MaxBytes: 2 * p.EstimateBytes(5000)})
	require.NoError(t, err)
	assert.Equal(t, 5000, in.Domain().Len())
}

// TestTupleLimit: a relation of three columns stops at the limit, named
// with its position: at once when its size is certain to exceed it (a
// product), and otherwise when it reaches it.
func TestTupleLimit(t *testing.T) {
	p := compileSrc(t, limitsSrc)
	dom := NewDomain()
	var atoms []string
	for i := 0; i < 100; i++ {
		atoms = append(atoms, fmt.Sprintf("a%d", i))
		dom.Intern(Value{Kind: KindHost, Str: atoms[i]})
	}
	limit := p.EstimateBytes(100) + 1000*tupleBytes(3)
	in, err := p.NewLimitedInstance(dom, Limits{MaxBytes: limit})
	require.NoError(t, err)
	setFacts(t, in, "s", atoms...)
	err = in.RunContext(context.Background())
	var me *MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "relation t3", me.What)
	assert.Equal(t, 9, me.Pos.Line)
	assert.True(t, me.AtLeast)
	assert.Greater(t, me.Need, limit, "a product of 10^6 tuples is refused before it is derived")
	size, err := in.Size("t3")
	require.NoError(t, err)
	assert.Zero(t, size)

	// With room for the product it is derived.
	in, err = p.NewLimitedInstance(dom, Limits{MaxBytes: p.EstimateBytes(100) + 2_000_000*tupleBytes(3)})
	require.NoError(t, err)
	setFacts(t, in, "s", atoms...)
	in.Run()
	require.NoError(t, in.Err())
	size, err = in.Size("t3")
	require.NoError(t, err)
	assert.Equal(t, 1_000_000, size)
}

// TestQueryTupleLimit: a query's join has no relation of its own, so the
// memory error of a query that joins past its bound names the query (it
// indexed the program's relations with the join's head, -1, and panicked).
func TestQueryTupleLimit(t *testing.T) {
	m, msg := loadModel(".decl s(x)\n.input s\n?- s(X), s(Y), s(Z), X != Y.\n")
	require.Empty(t, msg)
	require.Len(t, m.Queries, 1)
	p, errs := Compile(m)
	require.False(t, errs.HasErrors(), errs.Quoted())
	dom := NewDomain()
	var atoms []string
	for i := 0; i < 100; i++ {
		atoms = append(atoms, fmt.Sprintf("a%d", i))
		dom.Intern(Value{Kind: KindHost, Str: atoms[i]})
	}
	in := p.NewInstance(dom)
	setFacts(t, in, "s", atoms...)
	limit := p.EstimateBytes(100) + 1000*tupleBytes(3)
	_, _, err := in.QueryContext(context.Background(), m.Queries[0], limit)
	var me *MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "the query", me.What)
	assert.Equal(t, m.Queries[0].Pos, me.Pos)
	assert.Contains(t, err.Error(), "raise it with -max-memory")
}
