package cat

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseInstructions: one case per construct of herd7's cat language,
// printed back fully parenthesised.
func TestParseInstructions(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		// Operators, with herd's precedence: | ++ ; \ & then * ~ and the
		// postfix ones.
		{"let x = a | b ; c \\ d & e", []string{`let x = (a | (b ; (c \ (d & e))))`}},
		{"let x = a ; b ; c", []string{"let x = ((a ; b) ; c)"}},
		{"let x = a \\ b \\ c", []string{`let x = ((a \ b) \ c)`}},
		{"let x = W * R & po", []string{"let x = ((W * R) & po)"}},
		{"let x = GEN * GEN | SUR * SUR", []string{"let x = ((GEN * GEN) | (SUR * SUR))"}},
		{"let x = po* ; rf", []string{"let x = ((po*) ; rf)"}},
		{"let x = po*\nlet y = z", []string{"let x = (po*)", "let y = z"}},
		{"let x = r^-1+ ? ; [W]", []string{"let x = ((((r^-1)+)?) ; [W])"}},
		{"let x = rf -1", []string{"let x = (rf^-1)"}},
		{"let x = ~a ; b", []string{"let x = (~a ; b)"}},
		{"let x = ~a+", []string{"let x = ~(a+)"}},
		{"let x = _ * _ \\ 0", []string{`let x = ((_ * _) \ 0)`}},
		{"let x = a ++ b ++ s | t", []string{"let x = ((a ++ (b ++ s)) | t)"}},
		{"let x = a ++ b ; c", []string{"let x = (a ++ (b ; c))"}},
		// Functions and application.
		{"let x = domain(po) | range(rf)", []string{"let x = (domain(po) | range(rf))"}},
		{"let f(a, b) = a ; b\nlet g x = x+\nlet y = f(po, g(rf))", []string{"let f(a, b) = (a ; b)", "let g(x) = (x+)", "let y = f(po, g(rf))"}},
		{"let y = g rf", []string{"let y = g(rf)"}},
		{"let y = f a b", []string{"let y = f(a)(b)"}},
		{"let f _ = po\nlet g() = rf", []string{"let f(_) = po", "let g() = rf"}},
		{"let f = fun x -> x ; x\nlet g = fun (a, _) -> a", []string{"let f = (fun x -> (x ; x))", "let g = (fun (a, _) -> a)"}},
		{"let strong-write = W & (RLX | REL)\nlet po.loc' = po", []string{"let strong-write = (W & (RLX | REL))", "let po.loc' = po"}},
		// Bindings.
		{"let rec a = b | a ; c and b = a", []string{"let rec a = (b | (a ; c)) and b = a"}},
		{"let rec t = r | t ; t when acyclic t as ok", []string{"let rec t = (r | (t ; t)) when acyclic t as ok"}},
		{"let a = x and b = y", []string{"let a = x and b = y"}},
		{"let (a, b) = c\nlet d, e = f", []string{"let (a, b) = c", "let (d, e) = f"}},
		{"let x = let y = a in y | b", []string{"let x = (let y = a in (y | b))"}},
		{"let x = let rec y = a | y in y", []string{"let x = (let rec y = (a | y) in y)"}},
		{"let x = a in", []string{"let x = a"}},
		{"let x = begin a | b end ; c", []string{"let x = ((a | b) ; c)"}},
		// Tuples, sets, tags.
		{"let x = (a, b, c)\nlet y = ()", []string{"let x = (a, b, c)", "let y = ()"}},
		{"let x = {}\nlet y = {a, b}", []string{"let x = {}", "let y = {a, b}"}},
		{"enum scopes = 'cta || 'gpu\nlet t = 'cta", []string{"scopes = 'cta || 'gpu", "let t = 'cta"}},
		{"enum s = || 'a || 'b", []string{"s = 'a || 'b"}},
		// match, try, if.
		{"let x = match t with 'a -> po || 'b -> rf || _ -> 0 end", []string{"let x = (match t with 'a -> po || 'b -> rf || _ -> 0 end)"}},
		{"let x = match s with || {} -> 0 || e ++ r -> e end", []string{"let x = (match s with {} -> 0 || e ++ r -> e end)"}},
		{"let x = match s with e ++ _ -> e || {} -> 0 end", []string{"let x = (match s with {} -> 0 || e ++ _ -> e end)"}},
		{"let x = match s with {} -> 0 || p | e ++ q -> e end", []string{"let x = (match s with {} -> 0 || p | e ++ q -> e end)"}},
		{"let x = try DMB with 0", []string{"let x = (try DMB with 0)"}},
		{"let x = if \"v\" then a else b", []string{`let x = (if "v" then a else b)`}},
		{"let x = if variant \"v\" && not \"w\" || \"u\" then a else b", []string{`let x = (if (("v" && not "w") || "u") then a else b)`}},
		{"let x = if a = b then c else d\nlet y = if 'a in s then c else d\nlet z = if s subset t then c else d",
			[]string{"let x = (if a = b then c else d)", "let y = (if 'a in s then c else d)", "let z = (if s subset t then c else d)"}},
		// Tests.
		{"acyclic po | rf as sc", []string{"acyclic (po | rf) as sc"}},
		{"irreflexive fr ; co\n~empty rmw as has-rmw", []string{"irreflexive (fr ; co)", "~empty rmw as has-rmw"}},
		{"flag ~empty race as data-race\nundefined_unless empty bad as ub\nassert acyclic po as a",
			[]string{"flag ~empty race as data-race", "undefined_unless empty bad as ub", "assert acyclic po as a"}},
		// Show.
		{"show po, rf\nunshow rf\nshow co ; co as coco", []string{"show po, rf", "unshow rf", "show (co ; co) as coco"}},
		// Other instructions.
		{"include \"x.cat\"", []string{`include "x.cat"`}},
		{"procedure p(a, b) = empty a \\ b let c = a acyclic c end\ncall p(po, rf) as q",
			[]string{`procedure p(a, b) = empty (a \ b) let c = a acyclic c end`, "call p (po, rf) as q"}},
		{"procedure rec q x = call q(x) end\ncall q [po]", []string{"procedure rec q(x) = call q x end", "call q [po]"}},
		{"forall x in s do empty x end", []string{"forall x in s do empty x end"}},
		{"with co from generate_cos(co0)", []string{"with co from generate_cos(co0)"}},
		{"if \"cos-opt\" include \"a.cat\" else include \"b.cat\" end\nif not \"x\" let y = po end",
			[]string{`if "cos-opt" include "a.cat" else include "b.cat" end`, `if not "x" let y = po end`}},
		{"match t with 'a -> acyclic po || _ -> empty rf end", []string{"match t with 'a -> acyclic po || _ -> empty rf end"}},
		{"debug po ; rf", []string{"debug (po ; rf)"}},
		{"instructions W['release, 'relaxed]\ndefault R['relaxed]", []string{"instructions W['release, 'relaxed]", "default R['relaxed]"}},
		// Comments.
		{"(* a (* nested *) comment *) // line\n# hash comment\nlet x = a", []string{"let x = a"}},
	}
	for _, c := range cases {
		m, errs := parseOK(c.src)
		require.Empty(t, errs, c.src)
		var got []string
		for _, in := range m.Instrs {
			got = append(got, instrString(in))
		}
		require.Equal(t, c.want, got, c.src)
	}
}

func TestModelHeader(t *testing.T) {
	cases := []struct {
		src, arch, name string
		catdep          bool
	}{
		{"PTX\nlet x = a", "PTX", "PTX", false},
		{"\"my model\"\nlet x = a", "", "my model", false},
		{"AArch64 \"ARMv8\"\nacyclic po", "AArch64", "ARMv8", false},
		{"let x = a", "", "", false},
		{"(* c *) PTX (* c *) let x = a", "PTX", "PTX", false},
		{"AArch64 catdep\nlet x = a", "AArch64", "AArch64", true},
	}
	for _, c := range cases {
		m, errs := parseOK(c.src)
		require.Empty(t, errs, c.src)
		require.Equal(t, c.arch, m.Arch, c.src)
		require.Equal(t, c.name, m.Name, c.src)
		require.Equal(t, c.catdep, m.CatDep, c.src)
	}
}

// TestParseErrors: every error has the file:line:col of the problem and says
// what was expected.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"let x = a |", `t.cat:1:12: expected an expression (a name, _, 0, a tag, (, [, {, ~, let, fun, match, try or if), found end of file`},
		{"let x = (a | b", `t.cat:1:15: expected ")" to close "(" at 1:9, found end of file`},
		{"let x = [a", `t.cat:1:11: expected "]" to close "[" at 1:9, found end of file`},
		{"let x = a^2", `t.cat:1:11: unexpected number "2": the only number in cat is 0, the empty relation`},
		{"let x = a^b", `t.cat:1:11: expected "-1" after "^" (the inverse is written ^-1), found name "b"`},
		{"let x ; a", `t.cat:1:7: expected "=" after let x, found ";"`},
		{"let f x", `t.cat:1:8: expected "=" after let f, found end of file`},
		{"let = a", `t.cat:1:5: expected a name to bind after let, found "="`},
		{"acyclic po as", `t.cat:1:14: expected a name after as, found end of file`},
		{"~foo x", `t.cat:1:2: expected acyclic, irreflexive or empty, found name "foo"`},
		{"let x = a\n) | rf", `t.cat:2:1: expected an instruction (let, include, a test such as acyclic e as name, flag, show, procedure, call, with, forall, if, match, enum), found ")"`},
		{"let x = a (* open", `t.cat:1:11: unterminated comment: expected "*)" before the end of the file`},
		{"include \"x.cat", `t.cat:1:9: unterminated string: expected a closing " before the end of the file`},
		{"include x", `t.cat:1:9: expected a string (the file to include, in double quotes) after include, found name "x"`},
		{"let x = a @ b", `t.cat:1:11: unexpected character "@"`},
		{"let x = a ; é", `t.cat:1:13: unexpected character 'é'`},
		{"let f(a b) = a", `t.cat:1:9: expected "," or ")" in the parameters of f, found name "b"`},
		{"let x = f(a, b ]", `t.cat:1:16: expected ")" to close "(" at 1:10, found "]"`},
		{"show a ; b", "t.cat:1:6: show takes names, or an expression followed by as name"},
		{"let x = let y = a", `t.cat:1:18: expected in after the bindings of let ... in (inside an expression, let needs in)`},
		{"let x = a && b", `t.cat:1:11: the operator "&&" combines variants, in the condition of an if: for relations, use &`},
		{"let x = if a then b else c", `t.cat:1:14: expected "=", subset or in in the condition of if, found keyword "then"`},
		{"let x = if \"v\" then b", `t.cat:1:22: expected else: an if expression has both branches, found end of file`},
		{"let x = match y with 'a -> z", `t.cat:1:29: expected "||" (the next clause) or end to close the match at 1:9, found end of file`},
		{"let x = match y with {} -> z end", `t.cat:1:30: expected "||" before the second clause of a match over a set, found keyword "end"`},
		{"let x = match y with po -> z end", `t.cat:1:22: expected a tag ('name), _, {} or x ++ rest to start a clause of match, found name "po"`},
		{"procedure p(x) = acyclic x", `t.cat:1:27: expected end to close procedure p at 1:1, found end of file`},
		{"forall x in s empty x end", `t.cat:1:15: expected do after forall x in ..., found keyword "empty"`},
		{"with co generate(x)", `t.cat:1:9: expected from after with co, found name "generate"`},
		{"if \"v\" let x = a", `t.cat:1:17: expected else or end to close the if at 1:1, found end of file`},
		{"if po let x = a end", `t.cat:1:4: expected a variant ("name", variant "name", not, or a parenthesised condition), found name "po"`},
		{"enum e = a", `t.cat:1:10: expected a tag ('name) in enum e, found name "a"`},
		{"procedure p() = enum e = 'a end", `t.cat:1:17: enum defines tags for the whole model: write it at the top level, not inside a block`},
		{"call p", `t.cat:1:7: expected the procedure's argument after call p, as in call p(a, b), found end of file`},
		{"let rec x = a when po", `t.cat:1:20: expected acyclic, irreflexive or empty, found name "po"`},
		{"let x = a when acyclic a", `t.cat:1:11: when follows let rec only (let rec x = e when acyclic x)`},
		{"end", `t.cat:1:1: unexpected keyword "end": no block is open`},
	}
	for _, c := range cases {
		_, errs := parseOK(c.src)
		require.NotEmpty(t, errs, c.src)
		require.True(t, strings.HasPrefix(errs[0].Error(), c.want), "%s\ngot:  %s\nwant: %s", c.src, errs[0].Error(), c.want)
		require.NotEmpty(t, errs[0].Quoted(), c.src)
	}
}

// TestErrorRecovery: after an error the parser resumes at the next
// instruction at the start of a line, so later mistakes are reported too.
func TestErrorRecovery(t *testing.T) {
	src := "let a = (b\nlet c = d |\nacyclic e\nprocedure p(x) =\n  let y = x |\n  acyclic y\nend\nempty f"
	m, errs := parseOK(src)
	require.Len(t, errs, 3, errs.Error())
	require.Contains(t, errs[0].Error(), "t.cat:2:1:")
	require.Contains(t, errs[1].Error(), "t.cat:3:1:")
	require.Contains(t, errs[2].Error(), "t.cat:6:3:")
	var got []string
	for _, in := range m.Instrs {
		got = append(got, instrString(in))
	}
	require.Equal(t, []string{"acyclic e", "procedure p(x) = acyclic y end", "empty f"}, got)
}
