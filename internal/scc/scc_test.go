package scc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestComponents(t *testing.T) {
	id := func(v int) int { return v }
	cases := []struct {
		name string
		adj  [][]int
		want [][]int
	}{
		{"empty", nil, nil},
		{"one node", [][]int{nil}, [][]int{{0}}},
		{"self loop", [][]int{{0}}, [][]int{{0}}},
		{"chain: reached first", [][]int{{1}, {2}, nil}, [][]int{{2}, {1}, {0}}},
		{"cycle", [][]int{{1}, {2}, {0}}, [][]int{{2, 1, 0}}},
		{"two cycles joined one way", [][]int{{1}, {0, 2}, {3}, {2}}, [][]int{{3, 2}, {1, 0}}},
		{"back edge to an earlier root", [][]int{nil, {0}}, [][]int{{0}, {1}}},
		{"diamond", [][]int{{1, 2}, {3}, {3}, nil}, [][]int{{3}, {1}, {2}, {0}}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Components(c.adj, id), c.name)
	}
}

// TestComponentsOrder: every edge between two components runs from a
// later one to an earlier one (or stays inside one), on random graphs, and
// every node is in exactly one component.
func TestComponentsOrder(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		n := int(seed%17) + 1
		adj := make([][]int, n)
		x := seed
		for v := range n {
			for w := range n {
				x = x*6364136223846793005 + 1442695040888963407
				if x>>61 == 0 {
					adj[v] = append(adj[v], w)
				}
			}
		}
		comps := Components(adj, func(v int) int { return v })
		of := make([]int, n)
		seen := 0
		for i, comp := range comps {
			for _, v := range comp {
				of[v] = i
				seen++
			}
		}
		require.Equal(t, n, seen, "seed %d", seed)
		for v := range n {
			for _, w := range adj[v] {
				require.GreaterOrEqual(t, of[v], of[w], "seed %d: edge %d->%d", seed, v, w)
			}
		}
	}
}

// TestComponentsLongChain: a chain far deeper than a recursive search
// could follow on a goroutine stack of modest size.
func TestComponentsLongChain(t *testing.T) {
	const n = 1_000_000
	adj := make([][]int32, n)
	for v := range n - 1 {
		adj[v] = []int32{int32(v + 1)}
	}
	adj[n-1] = []int32{0}
	comps := Components(adj, func(w int32) int { return int(w) })
	require.Len(t, comps, 1)
	require.Len(t, comps[0], n)
}
