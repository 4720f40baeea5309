package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostDomain returns a domain of n host atoms.
func hostDomain(t *testing.T, n int) *Domain {
	dom := NewDomain()
	for i := range n {
		_, err := dom.AddHost(fmt.Sprint("e", i))
		require.NoError(t, err)
	}
	return dom
}

// TestNewInstanceContext: making and resetting the relations of a domain
// look at the context (relations.NewBlockContext stops part way, in its
// own test), and stop with its error once it is done; a live context makes
// the instance NewInstance makes, and resets it as Reset does.
func TestNewInstanceContext(t *testing.T) {
	p := compileSrc(t, quietSrc)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{20, 3000} {
		in, err := p.NewInstanceContext(done, hostDomain(t, n), Limits{})
		require.ErrorIs(t, err, context.Canceled, "%d atoms", n)
		assert.Nil(t, in)
	}

	// 3000 atoms: 1.1 MB a relation, in two arrays.
	in, err := p.NewInstanceContext(context.Background(), hostDomain(t, 3000), Limits{})
	require.NoError(t, err)
	setFacts(t, in, "e", "e1,e2", "e2,e3")
	in.Run()
	assert.Equal(t, []string{"e1", "e2"}, rows(t, in, "f"))
	require.ErrorIs(t, in.ResetContext(done, Limits{}), context.Canceled)
	require.NoError(t, in.ResetContext(context.Background(), Limits{}))
	assert.Empty(t, rows(t, in, "f"))
	assert.Empty(t, rows(t, in, "e"))
	setFacts(t, in, "e", "e3,e1")
	in.Run()
	assert.Equal(t, []string{"e3"}, rows(t, in, "f"))

	// A small domain's relations are one array: resetting them does not
	// look at the context.
	in, err = p.NewInstanceContext(context.Background(), hostDomain(t, 20), Limits{})
	require.NoError(t, err)
	require.NoError(t, in.ResetContext(done, Limits{}))
}
