package datalog

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNamesWithDash: "-" followed by a letter continues a name (cat names
// such as po-loc); elsewhere it keeps its meaning.
const eof = " end of file"

func TestNamesWithDash(t *testing.T) {
	cases := map[string]string{
		"po-loc":           "name(po-loc)" + eof,
		"morally-strong_2": "name(morally-strong_2)" + eof,
		"a-1":              "name(a) integer(-1)" + eof,
		"p(X):-q(X)":       `name(p) ( name(X) ) :- name(q) ( name(X) )` + eof,
		"r^-1":             "name(r) ^-1" + eof,
	}
	for src, want := range cases {
		toks, _ := lexAll(src)
		require.Equal(t, want, tokStrings(toks), src)
	}
}
