package report

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// errorPos matches the position an error of ParseExpected starts with.
var errorPos = regexp.MustCompile(`^f\.csv:([0-9]+)(?::([0-9]+))?: `)

// FuzzExpected reads fuzzed expected-results CSVs and compares a herd test
// and a .test instance with them: a CSV is read or refused with an error
// that starts with its file, a line of the text and maybe a column of that
// line, and a comparison never panics. Seeds are below and in
// testdata/fuzz/FuzzExpected.
func FuzzExpected(f *testing.F) {
	for _, seed := range []string{
		"# test,verdict\nMP.litmus,No\nSB.litmus,Ok empty\n",
		"A/MP.litmus,No,Ok\nT.test[1],holds empty\nT.test#2,fails\n",
		"x.litmus,- \n\n  y.litmus , Undef  \n",
		"a,b,c,d\n,\n#\n",
	} {
		f.Add(seed, 1)
	}
	mp := &checker.Result{Test: &litmus.Test{File: "MP.litmus", Name: "MP", Format: litmus.FormatHerd}, Verdict: "No"}
	nv := &checker.Result{Test: &litmus.Test{File: "T.test", Format: litmus.FormatNV, Instance: 1},
		Assertions: []checker.AssertionResult{{Name: "a", Kind: litmus.AssertAlways, Holds: true}},
		Empty:      &checker.EmptyReason{Kind: checker.EmptyRestrictions, Text: "no candidate"}}
	f.Fuzz(func(t *testing.T, text string, column int) {
		e, err := ParseExpected("f.csv", 1+(column&3), []byte(text))
		if err != nil {
			m := errorPos.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("an error that does not name the file and line: %v", err)
			}
			lines := strings.Split(text, "\n")
			line, _ := strconv.Atoi(m[1])
			if line < 1 || line > len(lines) {
				t.Fatalf("an error outside the file's %d lines: %v", len(lines), err)
			}
			if col, _ := strconv.Atoi(m[2]); m[2] != "" && (col < 1 || col > len(lines[line-1])+1) {
				t.Fatalf("an error outside its line %q: %v", lines[line-1], err)
			}
			return
		}
		Compare(io.Discard, e, []*checker.Result{mp, nv})
	})
}
