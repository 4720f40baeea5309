package report

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSanitize checks the names herd logs print: a clean name is given
// back as it is (the shortcut), others with each refused byte as _.
func TestSanitize(t *testing.T) {
	cases := []struct{ in, reg, test string }{
		{"r0", "r0", "r0"},
		{"", "_", "_"},
		{"a.b", "a.b", "a.b"},
		{"a b", "a_b", "a_b"},
		{"x+y", "x_y", "x+y"},
		{"é", "__", "__"},
		{"MP+rel.gpu", "MP_rel.gpu", "MP+rel.gpu"},
	}
	for _, c := range cases {
		require.Equal(t, c.reg, sanitize(c.in, isRegChar), "register %q", c.in)
		require.Equal(t, c.test, sanitize(c.in, isTestNameChar), "test name %q", c.in)
	}
}
