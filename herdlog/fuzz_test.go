package herdlog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
)

// FuzzRead reads arbitrary text as a herd log: the reader must never
// panic, an error must point into the file (a line it has, a column of
// that line or just past its end), each entry's text must be the
// log's own text at the entry's line, and the merged log must read back
// to the same entries and merge into itself.
//
// Seeds: the f.Add calls below and the corpus in testdata/fuzz/FuzzRead
// (logs of ptxmm check -shard, herd7-style logs, msum7's output).
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"",
		mpBlock,
		"Test T Allow\nHistogram (1 states)\n3 :> [x]=2;\nOk\nWitnesses\nPositive: 3, Negative: 0\nCondition exists (x=2) is validated\nHash=ab\n",
		"Error E: timeout\n\n# ptxmm shard=0/2 plan=ab tests=1/2 logged=1\nTest T\nStates 0\nOk\n",
		"Test T Allowed\nFatal: x\n",
		"Test T\r\nStates 1\r\n0:r0=0x1f; a[1]=b+4; c={1,-2}; ~Fault(P0,x);\r\nLoop ??\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Read("fuzz.log", data)
		if err != nil {
			errs, ok := err.(source.List)
			if !ok || len(errs) == 0 {
				t.Fatalf("the error is not a source.List: %v", err)
			}
			lines := strings.Split(string(data), "\n")
			for _, e := range errs {
				p := e.Pos
				if p.File != "fuzz.log" || p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+1 {
					t.Fatalf("error without a position in the file: %v", e)
				}
			}
			return
		}
		lines := strings.SplitAfter(string(data), "\n")
		for _, e := range l.Entries {
			if e.Line < 1 || e.Line > len(lines) {
				t.Fatalf("entry %s at line %d of %d", e.Name, e.Line, len(lines))
			}
			if !strings.HasPrefix(strings.Join(lines[e.Line-1:], ""), e.Text) {
				t.Fatalf("entry %s: its text %q is not the log's at line %d", e.Name, e.Text, e.Line)
			}
		}
		m := Merge([]*Log{l})
		var out bytes.Buffer
		if err := m.WriteLog(&out); err != nil {
			t.Fatal(err)
		}
		again, err := Read("merged.log", out.Bytes())
		if err != nil {
			t.Fatalf("the merged log does not read back: %v\n%s", err, out.String())
		}
		if len(again.Entries) != len(m.Entries) {
			t.Fatalf("the merged log has %d entries, reads back as %d:\n%s", len(m.Entries), len(again.Entries), out.String())
		}
		for i, e := range again.Entries {
			if d := e.Differences(m.Entries[i]); len(d) > 0 || e.Name != m.Entries[i].Name || e.Text != m.Entries[i].Text {
				t.Fatalf("entry %s reads back otherwise: %v", e.Name, d)
			}
		}
		var twice bytes.Buffer
		if err := Merge([]*Log{again}).WriteLog(&twice); err != nil {
			t.Fatal(err)
		}
		if twice.String() != out.String() {
			t.Fatalf("merging the merged log changes it:\n%s\n---\n%s", out.String(), twice.String())
		}
	})
}
