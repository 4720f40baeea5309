package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBreadthFirst(t *testing.T) {
	// Edges are named "from>to"; succ yields them in the listed order.
	graph := map[string][]string{
		"a": {"b", "c"},
		"b": {"d"},
		"c": {"d", "a"},
		"d": {"a"},
		"e": {"e"},
	}
	succ := func(v string, yield func(string, string)) {
		for _, w := range graph[v] {
			yield(v+">"+w, w)
		}
	}
	cases := []struct {
		name, from, to string
		want           []string
		ok             bool
	}{
		{"one edge", "a", "b", []string{"a>b"}, true},
		{"the first edge to reach a vertex wins a tie", "a", "d", []string{"a>b", "b>d"}, true},
		{"back to the start takes at least one edge", "a", "a", []string{"a>c", "c>a"}, true},
		{"a self loop", "e", "e", []string{"e>e"}, true},
		{"unreachable", "b", "e", nil, false},
		{"no edge out", "x", "a", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := breadthFirst(c.from, succ, func(v string) bool { return v == c.to })
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.want, got)
		})
	}
}
