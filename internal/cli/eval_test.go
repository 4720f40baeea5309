package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEvalExample runs the shipped Datalog example as the README shows it.
func TestEvalExample(t *testing.T) {
	var out, errs bytes.Buffer
	dir := filepath.Join("..", "..", "examples", "datalog")
	status := Eval(EvalConfig{Program: filepath.Join(dir, "sc.dl"), FactsDir: filepath.Join(dir, "sb-facts"), OutDir: "-"}, &out, &errs)
	require.Equal(t, ExitMismatch, status, errs.String())
	require.Empty(t, errs.String())
	require.Equal(t, `---------------
fr
===============
Ry	Wy1
Rx	Wx1
===============
hb	24
check sc violated: "Wx1" -po-> "Ry" -fr-> "Wy1" -po-> "Rx" -fr-> "Wx1"
`, out.String())
}

func TestEvalOutputsAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	prog := write("p.dl", ".decl e(a: symbol, b: number)\n.input e\nlet r = e\n.output r\n.check ok: empty(e & _ * _ \\ e)\n")
	write("e.facts", "a\t1\nb\t2\n")
	var out, errs bytes.Buffer
	require.Equal(t, ExitOK, Eval(EvalConfig{Program: prog, FactsDir: dir, OutDir: dir}, &out, &errs), errs.String())
	got, err := os.ReadFile(filepath.Join(dir, "r.csv"))
	require.NoError(t, err)
	require.Equal(t, "a\t1\nb\t2\n", string(got))
	require.Contains(t, out.String(), "all 1 checks hold")

	cases := []struct {
		facts, want string
	}{
		{"a\t1\t3\n", "e.facts:1:1: e has 2 column(s), but this line has 3 tab-separated field(s)"},
		{"a\tx\n", "e.facts:1:3: expected an integer in a number column, found \"x\""},
	}
	for _, c := range cases {
		write("e.facts", c.facts)
		out.Reset()
		errs.Reset()
		require.Equal(t, ExitError, Eval(EvalConfig{Program: prog, FactsDir: dir, OutDir: "-"}, &out, &errs))
		require.Contains(t, errs.String(), c.want)
	}
	errs.Reset()
	require.Equal(t, ExitError, Eval(EvalConfig{Program: prog, FactsDir: filepath.Join(dir, "nosuch"), OutDir: "-"}, &out, &errs))
	require.Contains(t, errs.String(), "input relation e: no file")
	errs.Reset()
	bad := write("bad.dl", ".decl p(a)\np(X) :- q(X).\n")
	require.Equal(t, ExitError, Eval(EvalConfig{Program: bad, OutDir: "-"}, &out, &errs))
	require.Contains(t, errs.String(), "bad.dl:2:9: unknown relation q")
}

// TestEvalFlags checks that raised .flag tests are reported without changing
// the exit status, and raised .undefined tests make it 1.
func TestEvalFlags(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "f.dl")
	require.NoError(t, os.WriteFile(prog, []byte(".decl e(a: symbol, b: symbol)\n.input e\n.flag cyc: acyclic(e)\n.undefined selfloop: irreflexive(e)\n"), 0o644))
	tests := []struct {
		facts  string
		status int
		want   []string
	}{
		{"a\tb\n", ExitOK, nil},
		{"a\tb\nb\ta\n", ExitOK, []string{`flag cyc raised: "a" -e-> "b" -e-> "a"`}},
		{"a\ta\n", ExitMismatch, []string{`flag cyc raised:`, `undefined selfloop raised:`}},
	}
	for _, tc := range tests {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "e.facts"), []byte(tc.facts), 0o644))
		var out, errs bytes.Buffer
		require.Equal(t, tc.status, Eval(EvalConfig{Program: prog, FactsDir: dir, OutDir: "-"}, &out, &errs), errs.String())
		for _, w := range tc.want {
			require.Contains(t, out.String(), w)
		}
		if tc.want == nil {
			require.NotContains(t, out.String(), "raised")
		}
	}
}

// TestEvalFactsWithLongLines: a facts line longer than bufio's 64 KiB
// default is read, and so are the lines after it; the scan used to stop
// there and leave them out without a word.
func TestEvalFactsWithLongLines(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.dl")
	require.NoError(t, os.WriteFile(prog, []byte(".decl e(a: symbol, b: number)\n.input e\n.printsize e\n"), 0o644))
	cases := []struct {
		name, facts, want string
	}{
		{"short lines", "a\t1\nb\t2\nc\t3\n", "e\t3\n"},
		{"a long symbol in the middle", "a\t1\n" + strings.Repeat("x", 70_000) + "\t2\nc\t3\n", "e\t3\n"},
		{"a long last line", "a\t1\n" + strings.Repeat("y", 200_000) + "\t2", "e\t2\n"},
	}
	for _, c := range cases {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "e.facts"), []byte(c.facts), 0o644))
		var out, errs bytes.Buffer
		require.Equal(t, ExitOK, Eval(EvalConfig{Program: prog, FactsDir: dir, OutDir: "-"}, &out, &errs), "%s: %s", c.name, errs.String())
		require.Equal(t, c.want, out.String(), c.name)
	}
}
