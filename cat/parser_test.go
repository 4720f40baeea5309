package cat

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseStatements(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"let x = a | b ; c \\ d & e", []string{`let x = (a | (b ; (c \ (d & e))))`}},
		{"let x = a ; b ; c", []string{"let x = ((a ; b) ; c)"}},
		{"let x = a \\ b \\ c", []string{`let x = ((a \ b) \ c)`}},
		{"let x = W * R & po", []string{"let x = ((W * R) & po)"}},
		{"let x = GEN * GEN | SUR * SUR", []string{"let x = ((GEN * GEN) | (SUR * SUR))"}},
		{"let x = po* ; rf", []string{"let x = ((po*) ; rf)"}},
		{"let x = po*\nlet y = z", []string{"let x = (po*)", "let y = z"}},
		{"let x = r^-1+ ? ; [W]", []string{"let x = ((((r^-1)+)?) ; [W])"}},
		{"let x = ~a ; b", []string{"let x = (~a ; b)"}},
		{"let x = ~a+", []string{"let x = ~(a+)"}},
		{"let x = _ * _ \\ 0", []string{`let x = ((_ * _) \ 0)`}},
		{"let x = domain(po) | range(rf)", []string{"let x = (domain(po) | range(rf))"}},
		{"let f(a, b) = a ; b\nlet g x = x+\nlet y = f(po, g(rf))", []string{"let f(a, b) = (a ; b)", "let g(x) = (x+)", "let y = f(po, g(rf))"}},
		{"let y = g rf", []string{"let y = g(rf)"}},
		{"let strong-write = W & (RLX | REL)\nlet po.loc' = po", []string{"let strong-write = (W & (RLX | REL))", "let po.loc' = po"}},
		{"let rec a = b | a ; c and b = a", []string{"let rec a = (b | (a ; c)) and b = a"}},
		{"let a = x and b = y", []string{"let a = x and b = y"}},
		{"let x = begin a | b end ; c", []string{"let x = ((a | b) ; c)"}},
		{"acyclic po | rf as sc", []string{"acyclic (po | rf) as sc"}},
		{"irreflexive fr ; co\n~empty rmw as has-rmw", []string{"irreflexive (fr ; co)", "~empty rmw as has-rmw"}},
		{"flag ~empty race as data-race\nundefined_unless empty bad as ub", []string{"flag ~empty race as data-race", "undefined_unless empty bad as ub"}},
		{"show po, rf\nunshow rf\nshow co ; co as coco", []string{"show po, rf", "unshow rf", "show (co ; co) as coco"}},
		{"(* a (* nested *) comment *) // line\n# hash comment\nlet x = a", []string{"let x = a"}},
	}
	for _, c := range cases {
		m, errs := Parse("t.cat", c.src, noFiles)
		require.Empty(t, errs, c.src)
		var got []string
		for _, s := range m.Stmts {
			got = append(got, stmtString(s))
		}
		require.Equal(t, c.want, got, c.src)
	}
}

func TestModelName(t *testing.T) {
	cases := map[string]string{
		"PTX\nlet x = a":                "PTX",
		"\"my model\"\nlet x = a":       "my model",
		"AArch64 \"ARMv8\"\nacyclic po": "ARMv8",
		"let x = a":                     "",
		"(* c *) PTX (* c *) let x = a": "PTX",
	}
	for src, want := range cases {
		m, errs := Parse("t.cat", src, noFiles)
		require.Empty(t, errs, src)
		require.Equal(t, want, m.Name, src)
	}
}

// TestParseErrors: every error has the file:line:col of the problem and says
// what was expected or which construct is outside the subset.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"let x = match y with 'a -> z end\nlet y = w", "t.cat:1:9: match ... with is outside the cat subset ptxmm reads"},
		{"with co from generate(x)", "t.cat:1:1: with ... from is outside the cat subset ptxmm reads"},
		{"procedure p(x) = let y = x acyclic y end\nlet z = a", "t.cat:1:1: procedures is outside the cat subset ptxmm reads"},
		{"call p(po)", "t.cat:1:1: procedure calls is outside the cat subset ptxmm reads"},
		{"if \"v\" let x = a else let x = b end", "t.cat:1:1: if ... then ... else (and if variant) is outside the cat subset ptxmm reads"},
		{"enum scopes = 'cta || 'gpu", "t.cat:1:1: enum is outside the cat subset ptxmm reads"},
		{"let f = fun x -> x", "t.cat:1:9: fun (anonymous functions) is outside the cat subset ptxmm reads"},
		{"let x = a ++ b", `t.cat:1:11: the operator "++" is outside the cat subset ptxmm reads`},
		{"let x = {a, b}", "t.cat:1:9: explicit sets {...} are outside the cat subset ptxmm reads"},
		{"let x = 'cta", "t.cat:1:9: tags ('cta) are outside the cat subset ptxmm reads"},
		{"let (a, b) = c", "t.cat:1:5: tuple bindings such as let (a, b) = e are outside the cat subset ptxmm reads"},
		{"let x = let y = a in y", "t.cat:1:9: let ... in expressions are outside the cat subset ptxmm reads"},
		{"let rec x = a | x when acyclic x", "t.cat:1:19: let rec ... when is outside the cat subset ptxmm reads"},
		{"assert empty x", "t.cat:1:1: assert tests is outside the cat subset ptxmm reads"},
		{"let x = a |", `t.cat:1:12: expected a relation name, _, 0, (, [ or ~ to start an expression, found end of file`},
		{"let x = (a | b", `t.cat:1:15: expected ")" to close "(" at 1:9, found end of file`},
		{"let x = [a", `t.cat:1:11: expected "]" to close "[" at 1:9, found end of file`},
		{"let x = a^2", `t.cat:1:11: unexpected number "2": the only number in cat is 0, the empty relation`},
		{"let x = a^b", `t.cat:1:11: expected "-1" after "^" (the inverse is written ^-1), found name "b"`},
		{"let x ; a", `t.cat:1:7: expected "=" after let x, found ";"`},
		{"let f x", `t.cat:1:8: expected "=" after let f, found end of file`},
		{"let = a", `t.cat:1:5: expected a name to bind after let, found "="`},
		{"acyclic po as", `t.cat:1:14: expected a name after as, found end of file`},
		{"~foo x", `t.cat:1:2: expected acyclic, irreflexive or empty, found name "foo"`},
		{"let x = a\nshow x\npo | rf", `t.cat:3:1: expected a statement (let, let rec, include, a test such as acyclic e as name, flag, show), found name "po"`},
		{"let x = a (* open", `t.cat:1:11: unterminated comment: expected "*)" before the end of the file`},
		{"include \"x.cat", `t.cat:1:9: unterminated string: expected a closing " before the end of the file`},
		{"include x", `t.cat:1:9: expected a string (the file to include, in double quotes) after include, found name "x"`},
		{"let x = a @ b", `t.cat:1:11: unexpected character "@"`},
		{"let x = a ; é", `t.cat:1:13: unexpected character 'é'`},
		{"let f(a b) = a", `t.cat:1:9: expected "," or ")" in the parameters of f, found name "b"`},
		{"let x = f(a, b ]", `t.cat:1:16: expected "," or ")" to close the arguments opened at 1:10, found "]"`},
		{"show a ; b", "t.cat:1:6: show takes names, or an expression followed by as name"},
		{"include \"missing.cat\"", `t.cat:1:1: cannot include "missing.cat": no such file next to the including file (add a search directory with -I DIR)`},
	}
	for _, c := range cases {
		_, errs := Parse("t.cat", c.src, noFiles)
		require.NotEmpty(t, errs, c.src)
		require.True(t, strings.HasPrefix(errs[0].Error(), c.want), "%s\ngot:  %s\nwant: %s", c.src, errs[0].Error(), c.want)
		require.NotEmpty(t, errs[0].Quoted(), c.src)
	}
}

// TestErrorRecovery: after an error the parser resumes at the next
// statement, so later mistakes are reported too, and a construct outside the
// subset is skipped to its end.
func TestErrorRecovery(t *testing.T) {
	src := "procedure p(x) =\n  let y = x\n  acyclic y\nend\nlet a = (b\nlet c = d |\nacyclic e"
	m, errs := Parse("t.cat", src, noFiles)
	require.Len(t, errs, 3, errs.Error())
	require.Contains(t, errs[0].Error(), "t.cat:1:1: procedures")
	require.Contains(t, errs[1].Error(), "t.cat:6:1:")
	require.Contains(t, errs[2].Error(), "t.cat:7:1:")
	require.Len(t, m.Stmts, 1)
	require.Equal(t, "acyclic e", stmtString(m.Stmts[0]))
}

func TestIncludes(t *testing.T) {
	files := memFiles(map[string]string{
		"dir/a.cat":       "\"A\"\ninclude \"common.cat\"\nlet a = x",
		"dir/common.cat":  "let x = po",
		"lib/other.cat":   "include \"common.cat\"\nlet y = rf",
		"dir/cycle1.cat":  "include \"cycle2.cat\"",
		"dir/cycle2.cat":  "include \"cycle1.cat\"",
		"lib/common.cat":  "let z = co",
		"dir/diamond.cat": "include \"a.cat\"\ninclude \"common.cat\"\nlet d = a",
	})
	m, errs := Parse("dir/a.cat", "\"A\"\ninclude \"common.cat\"\ninclude \"other.cat\"\nlet a = x", Options{Read: files.Read, IncludeDirs: []string{"lib"}})
	require.Empty(t, errs)
	require.Equal(t, "A", m.Name, "the name is the main file's")
	var got []string
	for _, s := range m.Stmts {
		got = append(got, stmtString(s))
	}
	// other.cat's own include finds lib/common.cat next to it, not dir's.
	require.Equal(t, []string{"let x = po", "let z = co", "let y = rf", "let a = x"}, got)

	_, errs = Parse("dir/cycle1.cat", "include \"cycle2.cat\"", files)
	require.Len(t, errs, 1)
	require.Contains(t, errs[0].Error(), "include cycle: dir/cycle1.cat -> dir/cycle2.cat -> dir/cycle1.cat")

	m, errs = Parse("dir/diamond.cat", "include \"a.cat\"\ninclude \"common.cat\"\nlet d = a", files)
	require.Empty(t, errs)
	require.Len(t, m.Stmts, 3, "common.cat is read once")
}
