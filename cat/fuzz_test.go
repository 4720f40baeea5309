package cat

import (
	"strings"
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
		"enum e = 'a || 'b\nlet t = 'a\nlet x = match t with 'a -> po || _ -> rf end",
		"procedure p(x) = let y = x acyclic y end\ncall p(po) as q",
		"let f = fun (a, b) -> a | b\nlet x = f(po, rf)\nlet (c, d) = (po, rf)",
		"let rec tr r = match r with {} -> 0 || x ++ s -> x | tr s end\nlet y = tr {po, rf}",
		"let x = try nosuch with po\nlet y = if \"v\" then po else rf\nif not \"v\" acyclic po end",
		"with co from generate_cos(co0)\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr",
		"let lin = linearisations(W, po)\nwith o from lin\nacyclic o | po",
		"forall t in {'a, 'b} do empty 0 end\nlet s = 'a ++ {}\nlet u = {'a} | {'b}",
		"let rec t = po | (t ; t) when acyclic t as ok\nlet x = let y = rf in y ; t",
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
		m, errs := Parse("fuzz.cat", src)
		checkFile(t, src, errs)
		if errs.HasErrors() {
			return
		}
		for _, e := range modelExprs(m.Instrs) {
			text := paren(e)
			again, errs := Parse("re.cat", "let x = "+text)
			if len(errs) > 0 || len(again.Instrs) != 1 {
				t.Fatalf("%q printed as %q, which does not parse back: %v", src, text, errs)
			}
			if got := paren(again.Instrs[0].(*LetInstr).Bindings[0].Expr); got != text {
				t.Fatalf("%q printed as %q, which parses as %q", src, text, got)
			}
		}
		low, lerrs := LoadSource("fuzz.cat", src, noFiles)
		checkFile(t, src, lerrs)
		if lerrs.HasErrors() {
			return
		}
		model, aerrs := datalog.Analyze(low.Program)
		for _, e := range aerrs {
			if e.Pos.File != "fuzz.cat" && e.Pos.File != stdlibFile {
				t.Fatalf("analysis diagnostic outside the cat file: %s", e.Error())
			}
		}
		if model == nil && !aerrs.HasErrors() {
			t.Fatalf("Analyze returned no model and no error")
		}
	})
}

// checkFile checks that every diagnostic points into the fuzzed file src,
// at a line it has and a column of that line (or just past its end), or
// into ptxmm's standard library, where a function the model applies is.
func checkFile(t *testing.T, src string, errs source.List) {
	t.Helper()
	_ = errs.Quoted()
	lines := strings.Split(src, "\n")
	for _, e := range errs {
		p := e.Pos
		switch {
		case p.File == stdlibFile && p.IsValid():
		case p.File != "fuzz.cat" || p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+1:
			t.Fatalf("diagnostic without a position in the file: %s", e.Error())
		}
	}
}

// modelExprs lists the expressions of instructions, nested ones included.
func modelExprs(ins []Instr) []Expr {
	var out []Expr
	for _, in := range ins {
		switch in := in.(type) {
		case *LetInstr:
			for _, b := range in.Bindings {
				out = append(out, b.Expr)
			}
			if in.When != nil {
				out = append(out, in.When.Expr)
			}
		case *TestInstr:
			out = append(out, in.Test.Expr)
		case *ShowInstr:
			if in.Expr != nil {
				out = append(out, in.Expr)
			}
		case *ProcInstr:
			out = append(out, modelExprs(in.Body)...)
		case *CallInstr:
			out = append(out, in.Arg)
		case *ForallInstr:
			out = append(out, in.Set)
			out = append(out, modelExprs(in.Body)...)
		case *DebugInstr:
			out = append(out, in.Expr)
		case *WithInstr:
			out = append(out, in.Set)
		case *EventsInstr:
			out = append(out, in.Args...)
		case *IfVariantInstr:
			out = append(out, modelExprs(in.Then)...)
			out = append(out, modelExprs(in.Else)...)
		case *MatchInstr:
			out = append(out, in.X)
			for _, c := range in.Clauses {
				out = append(out, modelExprs(c.Body)...)
			}
			out = append(out, modelExprs(in.Default)...)
		}
	}
	return out
}
