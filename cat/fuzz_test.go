package cat

import (
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// FuzzParse runs the cat front end on arbitrary text: parsing, lowering
// and analysing the lowered program must never panic, every diagnostic
// must point into the file, and every expression the parser accepted must
// print (fully parenthesised) as text that parses back to the same tree.
//
// Seeds: the f.Add calls below and the corpus in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"PTX\nlet co = co+\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc",
		"let strong-write = W & (RLX | REL)\nlet ms = ((M * M) & vloc) | ((_ * _) \\ (M * M))",
		"let rec obs = (ms & rf) | (obs ; rmw ; obs) and ms = sr \\ id",
		"let f(a, b) = a ; b\nlet g x = x+\nlet y = f(po, g(rf))\nlet z = g g po",
		"flag ~empty rf & ext as race\nundefined_unless empty 0 as u\n~acyclic po as c",
		"show po, rf\nunshow rf\nshow po ; po as p2",
		"let x = match y with 'a -> z end",
		"procedure p(x) = let y = x end\ncall p(po)",
		"let x = (a | b\nlet y = [c",
		"(* open comment",
		"include \"x.cat\"",
		"let x = domain(po) * range(rf) ^-1",
		"let f(a) = f(a)\nlet x = f(po)",
		"let x = ~~~_*_*_",
		"\"name\" let x = 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, errs := Parse("fuzz.cat", src, noFiles)
		checkFile(t, errs)
		if errs.HasErrors() {
			return
		}
		for _, s := range m.Stmts {
			for _, e := range stmtExprs(s) {
				text := paren(e)
				again, errs := Parse("re.cat", "let x = "+text, noFiles)
				if len(errs) > 0 || len(again.Stmts) != 1 {
					t.Fatalf("%q printed as %q, which does not parse back: %v", src, text, errs)
				}
				if got := paren(again.Stmts[0].(*Let).Bindings[0].Expr); got != text {
					t.Fatalf("%q printed as %q, which parses as %q", src, text, got)
				}
			}
		}
		low, lerrs := Lower(m)
		checkFile(t, lerrs)
		if lerrs.HasErrors() {
			return
		}
		model, aerrs := datalog.Analyze(low.Program)
		for _, e := range aerrs {
			if e.Pos.File != "fuzz.cat" {
				t.Fatalf("analysis diagnostic outside the cat file: %s", e.Error())
			}
		}
		if model == nil && !aerrs.HasErrors() {
			t.Fatalf("Analyze returned no model and no error")
		}
	})
}

// checkFile checks that every diagnostic points into the fuzzed file.
func checkFile(t *testing.T, errs source.List) {
	t.Helper()
	_ = errs.Quoted()
	for _, e := range errs {
		if e.Pos.File != "fuzz.cat" || !e.Pos.IsValid() {
			t.Fatalf("diagnostic without a position in the file: %s", e.Error())
		}
	}
}

// stmtExprs lists a statement's expressions.
func stmtExprs(s Stmt) []Expr {
	switch s := s.(type) {
	case *Let:
		return bindingExprs(s.Bindings)
	case *LetRec:
		return bindingExprs(s.Bindings)
	case *Test:
		return []Expr{s.Expr}
	case *Show:
		if s.Expr != nil {
			return []Expr{s.Expr}
		}
	}
	return nil
}

func bindingExprs(bs []*Binding) []Expr {
	var out []Expr
	for _, b := range bs {
		out = append(out, b.Expr)
	}
	return out
}
