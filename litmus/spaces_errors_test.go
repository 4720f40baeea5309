package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spacesWith builds a herd test whose first thread's only instruction is
// instr (line 4, starting at column 2), with global x, shared s and
// multimem m (over x and y) declared.
func spacesWith(instr string) string {
	return "PTX T\n{ x=0; s @ shared = 0; m @ multimem x, y; }\n P0@cta 0,gpu 0 ;\n " + instr + " ;\nexists (x == 0)\n"
}

// requireDiagnostic checks that err holds a diagnostic containing msg at
// line:col at.
func requireDiagnostic(t *testing.T, err error, msg, at string) {
	t.Helper()
	require.Error(t, err, "input must be rejected")
	var list source.List
	require.ErrorAs(t, err, &list)
	var found []string
	for _, e := range list {
		if strings.Contains(e.Msg, msg) && fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col) == at {
			return
		}
		found = append(found, e.Error())
	}
	assert.Fail(t, "diagnostic not found", "want %q at %s; got:\n%s", msg, at, strings.Join(found, "\n"))
}

// diagCase is an input that must be rejected with a diagnostic holding
// msg at line:col at.
type diagCase struct {
	name, file, src, msg, at string
}

// checkDiagCases parses each case (its format from its file name) and
// checks its diagnostic.
func checkDiagCases(t *testing.T, cases []diagCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FormatForPath(tc.file)
			require.NoError(t, err)
			_, err = Parse(tc.file, []byte(tc.src), f)
			requireDiagnostic(t, err, tc.msg, tc.at)
		})
	}
}

// TestSpaceParseErrors checks that an access naming a state space its
// location is not in is a positioned error (8.3).
func TestSpaceParseErrors(t *testing.T) {
	checkDiagCases(t, []diagCase{
		{"shared store to global", "t.litmus", spacesWith("st.shared x, 1"), "st.shared reaches shared memory, but x is in global memory: declare x @ shared = 0", "4:12"},
		{"shared::cta load of global", "t.litmus", spacesWith("ld.shared::cta r0, x"), "ld.shared::cta reaches shared memory, but x is in global memory", "4:21"},
		{"shared::cluster atom on global", "t.litmus", spacesWith("atom.shared::cluster.add r0, x, 1"), "atom.shared::cluster.add reaches shared memory, but x is in global memory", "4:31"},
		{"global load of shared", "t.litmus", spacesWith("ld.global r0, s"), "ld.global reaches global memory, but s is in shared memory: write .shared", "4:16"},
		{"global red on shared", "t.litmus", spacesWith("red.global.add s, 1"), "red.global.add reaches global memory, but s is in shared memory", "4:17"},
		{"implicit location is global", "t.litmus", spacesWith("st.shared z, 1"), "z is in global memory: declare z @ shared = 0", "4:12"},
		{"alias of a global", "t.litmus", "PTX T\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n ld.shared r0, y ;\nexists (x == 0)\n", "y (an alias of x) is in global memory", "4:16"},
		{"two state spaces", "t.litmus", spacesWith("ld.shared.global r0, s"), "ld has two state spaces, .shared and .global", "4:11"},
		{"register move with a state space", "t.litmus", "PTX T\n{ P0:r1 = 3; }\n P0@cta 0,gpu 0 ;\n ld.shared r0, r1 ;\nexists (0:r0 == 0)\n", "a register move (ld DST, REG) takes no state space", "4:2"},
		{"immediate move with a state space", "t.litmus", spacesWith("ld.global r0, 5"), "a register move (ld DST, IMM) takes no state space", "4:4"},
		{"nv shared load of global", "t.test", ".global x;\nd0.b0.t0 { ld.shared r0, [x]; }\nassert (r0 == 0) as a;\n", "ld.shared reaches shared memory, but x is in global memory", "2:27"},
		{"nv global store to shared", "t.test", ".shared s;\nd0.b0.t0 { st.global [s], 1; ld r0, [s]; }\nassert (r0 == 1) as a;\n", "st.global reaches global memory, but s is in shared memory", "2:23"},
	})
}

// TestSpaceQualifiersAccepted checks the state spaces an access to a
// location of that space may name, and generic addressing.
func TestSpaceQualifiersAccepted(t *testing.T) {
	for _, instr := range []string{
		"st.shared s, 1", "st.shared::cta s, 1", "ld.shared::cluster r0, s", "atom.shared::cta.add r0, s, 1",
		"red.shared.add s, 1", "st.global x, 1", "ld.global r0, x", "ld r0, s", "st x, 1",
	} {
		t.Run(instr, func(t *testing.T) {
			mustHerd(t, strings.Replace(spacesWith(instr), "m @ multimem x, y; ", "", 1))
		})
	}
}
