package datalog

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParsePartialOrder(t *testing.T) {
	cases := []struct {
		src     string
		partial bool
		rules   int
	}{
		{".decl p(a, b)\n.input p\n.order o over p partial", true, 0},
		{".decl p(a, b)\n.input p\n.order o over p", false, 0},
		// "partial" followed by ( starts a rule for a relation called partial.
		{".decl p(a, b)\n.input p\n.decl partial(a)\n.order o over p\npartial(X) :- p(X, _).", false, 1},
		{".decl p(a, b)\n.input p\n.order o over p partial\n.decl partial(a)\npartial(X) :- p(X, _).", true, 1},
	}
	for _, c := range cases {
		prog, errs := LoadSource("t.dl", c.src)
		require.Empty(t, errs, c.src)
		require.Len(t, prog.Orders, 1, c.src)
		require.Equal(t, c.partial, prog.Orders[0].Partial, c.src)
		require.Len(t, prog.Rules, c.rules, c.src)
	}
}
