package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// withLocations builds a two-thread MP test with the given locations
// clause (line 6) before its condition (line 7).
func withLocations(clause string) string {
	return "PTX L\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n" +
		clause + "\nexists (1:r0 == 1)\n"
}

func TestLocationsClause(t *testing.T) {
	cases := []struct {
		clause string
		want   []string
	}{
		{"locations [x; 1:r1;]", []string{"x", "P1:r1"}},
		{"locations [x; 1:r1]", []string{"x", "P1:r1"}},
		{"locations [P1:r1; y;]", []string{"P1:r1", "y"}},
		{"locations []", nil},
	}
	for _, c := range cases {
		tc := mustHerd(t, withLocations(c.clause))
		var got []string
		for _, tm := range tc.Locations {
			got = append(got, tm.String())
		}
		assert.Equal(t, c.want, got, c.clause)
		assert.Empty(t, tc.Warnings, c.clause)
	}
	plain := mustHerd(t, withLocations(""))
	listed := mustHerd(t, withLocations("locations [x;]"))
	assert.NotEqual(t, Hash(plain), Hash(listed), "the observed locations are part of the hash, as in herd7")
}

func TestLocationsClauseDuplicateWarns(t *testing.T) {
	tc := mustHerd(t, withLocations("locations [x; x;]"))
	require.Len(t, tc.Locations, 1)
	require.Len(t, tc.Warnings, 1)
	assert.Contains(t, tc.Warnings[0].Error(), "6:15: warning: x is listed twice in the locations clause")
}

func TestLocationsClauseErrors(t *testing.T) {
	cases := []struct{ clause, msg, at string }{
		{"locations x;", "expected '[' after locations", "6:11"},
		{"locations [x; 3;]", "expected a register (1:r0) or a location in the locations clause, found the integer 3", "6:15"},
		{"locations [x 1:r1]", "expected ';' or ']' after x in the locations clause", "6:14"},
		{"locations [z;]", `unknown location "z" in the condition`, "6:12"},
		{"locations [5:r1;]", "unknown thread 5", "6:12"},
	}
	for _, c := range cases {
		_, err := ParseHerd("l.litmus", []byte(withLocations(c.clause)))
		require.Error(t, err, c.clause)
		var list source.List
		require.ErrorAs(t, err, &list)
		var found []string
		ok := false
		for _, e := range list {
			at := fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col)
			ok = ok || (strings.Contains(e.Msg, c.msg) && at == c.at)
			found = append(found, e.Error())
		}
		assert.True(t, ok, "%s: no %q at %s in:\n%s", c.clause, c.msg, c.at, strings.Join(found, "\n"))
	}
	_, err := ParseHerd("l.litmus", []byte("PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nlocations [x;"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "expected ']' to close the locations clause, found end of file")
}

// TestForeignConnectives: C's && and || in a herd condition, and herd's
// /\ and \/ in a .test condition, say which spelling the format uses.
func TestForeignConnectives(t *testing.T) {
	herd := func(cond string) string {
		return "PTX C\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists " + cond + "\n"
	}
	nv := func(cond string) string {
		return ".global x;\nd0.b0.t0 {\n  ld r0, [x];\n}\nassert " + cond + " as a;\n"
	}
	cases := []struct{ file, src, msg string }{
		{"c.litmus", herd("(0:r0 == 1 && x == 0)"), `5:19: && is not how a herd condition writes "and": write /\`},
		{"c.litmus", herd("(0:r0 == 1 || x == 0)"), `5:19: || is not how a herd condition writes "or": write \/`},
		{"c.litmus", herd("0:r0 == 1 && x == 0"), `5:18: && is not how a herd condition writes "and": write /\`},
		{"c.test", nv(`(r0 == 1 /\ x == 0)`), `5:17: /\ is not how a .test condition writes "and": write &&`},
		{"c.test", nv(`(r0 == 1 \/ x == 0)`), `5:17: \/ is not how a .test condition writes "or": write ||`},
	}
	for _, c := range cases {
		f, err := FormatForPath(c.file)
		require.NoError(t, err)
		_, err = Parse(c.file, []byte(c.src), f)
		require.Error(t, err, c.src)
		assert.Contains(t, err.Error(), c.msg, c.src)
	}
}
