package report

import (
	"io"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// FuzzExpected reads fuzzed expected-results CSVs and compares a herd test
// and a .test instance with them: a CSV is read or refused with an error
// naming its file and line, and a comparison never panics. Seeds are below
// and in testdata/fuzz/FuzzExpected.
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
			if !strings.Contains(err.Error(), "f.csv") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		Compare(io.Discard, e, []*checker.Result{mp, nv})
	})
}
