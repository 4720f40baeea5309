package datalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDecl(t *testing.T) {
	prog := parseOK(t, "/// Program order.\n/// Same thread.\n.decl po(a: event, b: event)\n.decl val(e, v: number, s: symbol)")
	require.Len(t, prog.Decls, 2)
	po := prog.Decls[0]
	assert.Equal(t, "po", po.Name)
	assert.Equal(t, "Program order.\nSame thread.", po.Doc)
	assert.Equal(t, pos(3, 7), po.Pos)
	assert.Equal(t, []Param{
		{Name: "a", Type: "event", Pos: pos(3, 10)},
		{Name: "b", Type: "event", Pos: pos(3, 20)},
	}, po.Params)
	assert.Equal(t, 2, po.Arity())
	val := prog.Decls[1]
	assert.Equal(t, "", val.Doc)
	assert.Equal(t, 3, val.Arity())
	assert.Equal(t, []string{"", "number", "symbol"}, []string{val.Params[0].Type, val.Params[1].Type, val.Params[2].Type})
}

func TestParseIO(t *testing.T) {
	prog := parseOK(t, ".decl a(x)\n.decl b(x)\n.input a, b\n.output a\n.printsize a,b")
	var got []string
	for _, io := range prog.IO {
		got = append(got, io.Kind.String()+" "+io.Name+" "+io.Pos.String())
	}
	assert.Equal(t, []string{
		"input a t.dl:3:8", "input b t.dl:3:11",
		"output a t.dl:4:9",
		"printsize a t.dl:5:12", "printsize b t.dl:5:14",
	}, got)
}

func TestParseRulesAndFacts(t *testing.T) {
	prog := parseOK(t, `e("a", 1). e("b", -2).
p(X, Y) :- e(X, Y), !q(Y, _), X != "c", Y = 1, 2 = Z, Z = Y.
q(X, 3) :- e(X, _).
`)
	var got []string
	for _, r := range prog.Rules {
		got = append(got, ruleText(r))
	}
	assert.Equal(t, []string{
		`e("a", 1).`,
		`e("b", -2).`,
		`p(X, Y) :- e(X, Y), !q(Y, _), X != "c", Y = 1, 2 = Z, Z = Y.`,
		`q(X, 3) :- e(X, _).`,
	}, got)
	r := prog.Rules[2]
	assert.Equal(t, pos(2, 1), r.Pos)
	assert.Equal(t, pos(2, 1), r.Head.Pos)
	assert.Equal(t, "", r.Origin)
	neg := r.Body[1].(*Atom)
	assert.True(t, neg.Negated)
	assert.Equal(t, pos(2, 21), neg.Pos, "a negated atom starts at its !")
	assert.Equal(t, pos(2, 24), neg.Args[0].Pos)
	assert.Equal(t, TermWildcard, neg.Args[1].Kind)
	cmp := r.Body[2].(*Compare)
	assert.Equal(t, "!=", cmp.Op)
	assert.Equal(t, pos(2, 31), cmp.Pos)
	assert.Equal(t, Term{Kind: TermString, Name: "c", Pos: pos(2, 36)}, cmp.R)
	assert.Equal(t, Term{Kind: TermInt, Int: 2, Pos: pos(2, 48)}, r.Body[4].(*Compare).L)
	assert.True(t, cmp.R.IsConst())
	assert.False(t, cmp.L.IsConst())
	assert.Empty(t, prog.Rules[0].Body)
	assert.Equal(t, int64(-2), prog.Rules[1].Head.Args[1].Int)
}

func TestParseDefinitions(t *testing.T) {
	prog := parseOK(t, "/// doc of x\nlet x = po ; rf\nlet y = x+.\n\nlet z = _")
	require.Len(t, prog.Defs, 3)
	x := prog.Defs[0]
	assert.Equal(t, "x", x.Name)
	assert.Equal(t, "doc of x", x.Doc)
	assert.Equal(t, pos(2, 5), x.Pos)
	assert.Equal(t, "(po ; rf)", parenExpr(x.Expr))
	assert.Equal(t, pos(2, 12), x.Expr.Position(), "a binary expression is at its operator")
	assert.Equal(t, "(x+)", parenExpr(prog.Defs[1].Expr))
	assert.Equal(t, "", prog.Defs[1].Doc)
	assert.Equal(t, "_", parenExpr(prog.Defs[2].Expr))
	assert.Equal(t, pos(5, 9), prog.Defs[2].Expr.Position())
}

func TestParseChecks(t *testing.T) {
	prog := parseOK(t, `/// No thin air.
.check no_thin_air: acyclic(po | rf)
.check sc: irreflexive(hb ; eco?)
.check atomic: empty(rmw & (fre ; coe))`)
	require.Len(t, prog.Checks, 3)
	var got []string
	for _, c := range prog.Checks {
		got = append(got, c.Pos.String()+" "+c.Name+" "+c.Kind.String()+" "+parenExpr(c.Expr))
	}
	assert.Equal(t, []string{
		"t.dl:2:8 no_thin_air acyclic (po | rf)",
		"t.dl:3:8 sc irreflexive (hb ; (eco?))",
		"t.dl:4:8 atomic empty (rmw & (fre ; coe))",
	}, got)
	assert.Equal(t, "No thin air.", prog.Checks[0].Doc)
	assert.Equal(t, "", prog.Checks[1].Doc)
	assert.Equal(t, "", prog.Checks[0].Rel, "Rel is set by Analyze")
}

func TestParseOrder(t *testing.T) {
	prog := parseOK(t, "/// coherence\n.order co over co_pairs")
	require.Len(t, prog.Orders, 1)
	assert.Equal(t, &Order{Name: "co", Over: "co_pairs", Doc: "coherence", Pos: pos(2, 8)}, prog.Orders[0])
}

func TestParseQuery(t *testing.T) {
	prog := parseOK(t, "?- p(X, _), !q(X), X != 1.")
	require.Len(t, prog.Queries, 1)
	q := prog.Queries[0]
	assert.Equal(t, pos(1, 1), q.Pos)
	require.Len(t, q.Body, 3)
	assert.Equal(t, "p(X, _)", literalText(q.Body[0]))
	assert.Equal(t, "!q(X)", literalText(q.Body[1]))
	assert.Equal(t, "X != 1", literalText(q.Body[2]))
}

func TestParseEdits(t *testing.T) {
	prog := parseOK(t, `/// new x
.redefine x = po ; rf.
.redefine y = rf
.redefine p(X) :- q(X).
.redefine r("a").
/// new c
.recheck c: acyclic(x)
.uncheck d
`)
	require.Len(t, prog.Edits, 6)
	e := prog.Edits
	assert.Equal(t, EditRedefine, e[0].Kind)
	assert.Equal(t, "x", e[0].Name)
	assert.Equal(t, pos(2, 1), e[0].Pos)
	require.NotNil(t, e[0].Def)
	assert.Equal(t, "new x", e[0].Def.Doc)
	assert.Equal(t, pos(2, 11), e[0].Def.Pos)
	assert.Equal(t, "(po ; rf)", parenExpr(e[0].Def.Expr))
	assert.Nil(t, e[0].Rules)

	assert.Equal(t, "y", e[1].Name)
	assert.Equal(t, "rf", parenExpr(e[1].Def.Expr))

	assert.Equal(t, EditRedefine, e[2].Kind)
	assert.Equal(t, "p", e[2].Name)
	assert.Nil(t, e[2].Def)
	require.Len(t, e[2].Rules, 1)
	assert.Equal(t, "p(X) :- q(X).", ruleText(e[2].Rules[0]))
	assert.Equal(t, `r("a").`, ruleText(e[3].Rules[0]))

	assert.Equal(t, EditRecheck, e[4].Kind)
	assert.Equal(t, "c", e[4].Name)
	assert.Equal(t, pos(7, 1), e[4].Pos)
	require.NotNil(t, e[4].Check)
	assert.Equal(t, CheckAcyclic, e[4].Check.Kind)
	assert.Equal(t, "new c", e[4].Check.Doc)
	assert.Equal(t, pos(7, 10), e[4].Check.Pos)

	assert.Equal(t, EditUncheck, e[5].Kind)
	assert.Equal(t, "d", e[5].Name)
	assert.Equal(t, pos(8, 1), e[5].Pos)

	assert.Empty(t, prog.Defs, "edits are not definitions")
	assert.Empty(t, prog.Rules)
	assert.Empty(t, prog.Checks)
}

func TestParseDocComments(t *testing.T) {
	prog := parseOK(t, `/// lost: a rule comes next
p(1).
/// decl doc
// a plain comment in between does not break it
.decl p(x)
/// lost: .input takes no doc
.input p
/// let doc
let x = p
/// order doc
.order o over q
/// check doc
.check c: empty(x)
/// lost at the end of the file`)
	assert.Equal(t, "decl doc", prog.Decls[0].Doc)
	assert.Equal(t, "let doc", prog.Defs[0].Doc)
	assert.Equal(t, "order doc", prog.Orders[0].Doc)
	assert.Equal(t, "check doc", prog.Checks[0].Doc)
}

func TestParseLetAsRelationName(t *testing.T) {
	// "let" is only a keyword when a name follows it.
	prog := parseOK(t, "let(X) :- p(X).\nlet x = let")
	require.Len(t, prog.Rules, 1)
	assert.Equal(t, "let(X) :- p(X).", ruleText(prog.Rules[0]))
	require.Len(t, prog.Defs, 1)
	assert.Equal(t, "let", parenExpr(prog.Defs[0].Expr))
}

func TestParseDefinitionEndings(t *testing.T) {
	// A definition ends without a period where the next item begins.
	tests := []struct {
		name  string
		src   string
		defs  []string
		rules []string
	}{
		{"closure then rule", "let x = r*\np(X) :- q(X).", []string{"(r*)"}, []string{"p(X) :- q(X)."}},
		{"closure then fact", "let x = r*\np(1).", []string{"(r*)"}, []string{"p(1)."}},
		{"closure then let", "let x = r*\nlet y = s*", []string{"(r*)", "(s*)"}, nil},
		{"closure then period", "let x = r*.\nlet y = s", []string{"(r*)", "s"}, nil},
		{"closure then directive", "let x = r*\n.decl y(a)", []string{"(r*)"}, nil},
		{"name then rule", "let x = r\np(X) :- q(X).", []string{"r"}, []string{"p(X) :- q(X)."}},
		{"product then rule", "let x = W * R\np(1).", []string{"(W * R)"}, []string{"p(1)."}},
		{"closure then domain", "let x = r* domain(s)", []string{"(r * domain(s))"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := parseOK(t, tt.src)
			var defs, rules []string
			for _, d := range prog.Defs {
				defs = append(defs, parenExpr(d.Expr))
			}
			for _, r := range prog.Rules {
				rules = append(rules, ruleText(r))
			}
			assert.Equal(t, tt.defs, defs)
			assert.Equal(t, tt.rules, rules)
		})
	}
}

func TestParseRecovery(t *testing.T) {
	// One error per broken statement; the statements around it still parse.
	prog, errs := LoadSource("t.dl", `.decl a(x)
p(X :- a(X).
.decl b(x)
let y = (a |
let z = a
q(X) :- a(X) b(X).
r(X) :- a(X).
`)
	assert.Equal(t, []string{
		`t.dl:2:5: expected "," or ")" in the arguments of p, found ":-"`,
		`t.dl:5:1: expected a relation name, _, (, [ or ~ to start an expression, found name "let"`,
		`t.dl:6:14: expected "." to end the rule for q, found name "b"`,
	}, diagLines(errs))
	var names []string
	for _, d := range prog.Decls {
		names = append(names, d.Name)
	}
	for _, d := range prog.Defs {
		names = append(names, d.Name)
	}
	for _, r := range prog.Rules {
		names = append(names, r.Head.Pred)
	}
	assert.Equal(t, []string{"a", "b", "z", "r"}, names)
}

func TestParseSyntaxErrors(t *testing.T) {
	// The messages of the statement kinds not covered by the golden files.
	tests := []struct {
		src  string
		want string
	}{
		{"p(X) :- .", `t.dl:1:9: expected a variable, _, a string or an integer, found "."`},
		{"p(X) :- X.", `t.dl:1:10: expected "=" or "!=" after X in a rule body (or an atom such as rel(X, Y)), found "."`},
		{"p(X) :- !X = 1.", `t.dl:1:12: expected "(" after X (an atom is written rel(X, Y)), found "="`},
		{"p(X) :- q(X)", `t.dl:1:13: expected "." to end the rule for p, found end of file`},
		{"p", `t.dl:1:2: expected "(" after p (an atom is written rel(X, Y)), found end of file`},
		{"p() :- q(X).", `t.dl:1:1: atom p() has no arguments: relations have at least one column`},
		{"p(99999999999999999999).", `t.dl:1:3: integer 99999999999999999999 does not fit in 64 bits`},
		{"?- p(X)", `t.dl:1:8: expected "." to end the query, found end of file`},
		{"?- .", `t.dl:1:4: expected a variable, _, a string or an integer, found "."`},
		{"= x", `t.dl:1:1: expected a rule, a fact, a definition (let), a query (?-) or a directive (.decl, .input, .check, ...), found "="`},
		{"let x po", `t.dl:1:7: expected "=" after let x, found name "po"`},
		{"let x = (po", `t.dl:1:12: expected ")" to close "(", found end of file`},
		{"let x = [po", `t.dl:1:12: expected "]" to close "[", found end of file`},
		{"let x = domain(po", `t.dl:1:18: expected ")" to close domain(, found end of file`},
		{"let x = po |", `t.dl:1:13: expected a relation name, _, (, [ or ~ to start an expression, found end of file`},
		{"let x = ~", `t.dl:1:10: expected a relation name, _, (, [ or ~ to start an expression, found end of file`},
		{"let x = po ^-1 ^", `t.dl:1:16: unexpected "^": the inverse operator is written ^-1`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, errs := LoadSource("t.dl", tt.src)
			require.NotEmpty(t, errs)
			assert.Equal(t, tt.want, errs[0].Error())
		})
	}
}
