package datalog

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
)

// FuzzLoad runs the front end on arbitrary text: loading and analyzing must
// never panic, every diagnostic must have a position in the file, and every
// expression the parser accepted must print (ExprString) as text that parses
// back to the same tree.
//
// Seeds: the golden programs, the f.Add calls below, and the corpus in
// testdata/fuzz/FuzzLoad (which also keeps the crashers found so far).
func FuzzLoad(f *testing.F) {
	files, _ := fs.Glob(goldenFS, "testdata/golden/*.dl")
	for _, file := range files {
		if text, err := fs.ReadFile(goldenFS, file); err == nil {
			f.Add(string(text))
		}
	}
	for _, s := range []string{
		"",
		".decl p(a)\np(1).p(2).\n.output p",
		"let x = ~(a | b)* ; [c] \\ d^-1 & e * f?",
		"let x = r*\np(X) :- q(X).",
		".check c: acyclic(_ * _)",
		".decl t(a, b, c)\nlet x = ~t | _",
		".redefine x = y\n.recheck c: empty(z)\n.uncheck d",
		".order o over p\n.decl p(a)",
		"?- p(X), !q(Y), X = Y.",
		"/* unterminated",
		"(* herd",
		"\"unterminated",
		"p(-9223372036854775808).",
		"p(9223372036854775808).",
		"let x = ((((((((a))))))))",
		".include \"x.dl\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// Includes are never read: a fuzzed program must not touch the disk.
		noFiles := WithReader(func(name string) ([]byte, error) { return nil, fs.ErrNotExist })
		prog, errs := LoadSource("fuzz.dl", src, noFiles)
		checkDiagnostics(t, src, errs)
		for _, d := range prog.Defs {
			checkReparse(t, d.Expr)
		}
		for _, c := range prog.Checks {
			checkReparse(t, c.Expr)
		}
		for _, e := range prog.Edits {
			if e.Def != nil {
				checkReparse(t, e.Def.Expr)
			}
			if e.Check != nil {
				checkReparse(t, e.Check.Expr)
			}
		}
		m, errs := Analyze(prog)
		checkDiagnostics(t, src, errs)
		if _, again := Analyze(prog); again.Error() != errs.Error() {
			t.Fatalf("Analyze is not deterministic:\n%s\nthen\n%s", errs.Error(), again.Error())
		}
		if m == nil {
			if !errs.HasErrors() {
				t.Fatalf("Analyze returned no model and no error")
			}
			return
		}
		checkDiagnostics(t, src, m.Warnings)
		for _, r := range m.Rules {
			rel := m.Relation(r.Head.Pred)
			if rel == nil || rel.Arity != len(r.Head.Args) {
				t.Fatalf("rule %s does not match its relation", ruleText(r))
			}
		}
		for _, c := range m.Checks {
			if m.Relation(c.Rel) == nil {
				t.Fatalf("check %s tests an unknown relation %q", c.Name, c.Rel)
			}
		}
	})
}

// checkDiagnostics checks that every diagnostic points into the fuzzed
// file src, at a line it has and a column of that line (or just past its
// end), and that quoting it works.
func checkDiagnostics(t *testing.T, src string, errs source.List) {
	t.Helper()
	_ = errs.Quoted()
	lines := strings.Split(src, "\n")
	for _, e := range errs {
		p := e.Pos
		if p.File != "fuzz.dl" || p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+1 {
			t.Fatalf("diagnostic outside the file: %s", e.Error())
		}
	}
}

// checkReparse checks that e prints as an expression that parses back to
// the same tree.
func checkReparse(t *testing.T, e Expr) {
	t.Helper()
	text := ExprString(e)
	prog, errs := LoadSource("re.dl", "let x = "+text)
	if len(errs) > 0 {
		t.Fatalf("ExprString gave %q, which does not parse: %s", text, errs.Error())
	}
	if len(prog.Defs) != 1 {
		t.Fatalf("ExprString gave %q, which parses as %d definitions", text, len(prog.Defs))
	}
	if got, want := parenExpr(prog.Defs[0].Expr), parenExpr(e); got != want {
		t.Fatalf("ExprString gave %q, which parses as %s instead of %s", text, got, want)
	}
}
