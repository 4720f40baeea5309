package datalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExprPrecedence(t *testing.T) {
	tests := []struct {
		src  string
		want string // fully parenthesised
	}{
		// Each level against the next tighter one, both ways round.
		{"a | b ; c", "(a | (b ; c))"},
		{"a ; b | c", "((a ; b) | c)"},
		{`a ; b \ c`, `(a ; (b \ c))`},
		{`a \ b ; c`, `((a \ b) ; c)`},
		{`a \ b & c`, `(a \ (b & c))`},
		{`a & b \ c`, `((a & b) \ c)`},
		{"a & b * c", "(a & (b * c))"},
		{"a * b & c", "((a * b) & c)"},
		{"~a * b", "((~a) * b)"},
		{"a * ~b", "(a * (~b))"},
		{"~a+", "(~(a+))"},
		{"~a^-1", "(~(a^-1))"},
		{"~~a", "(~(~a))"},
		// Left associativity of every binary operator.
		{"a | b | c", "((a | b) | c)"},
		{"a ; b ; c", "((a ; b) ; c)"},
		{`a \ b \ c`, `((a \ b) \ c)`},
		{"a & b & c", "((a & b) & c)"},
		{"a * b * c", "((a * b) * c)"},
		// Postfix operators stack left to right.
		{"a+?", "((a+)?)"},
		{"a^-1+", "((a^-1)+)"},
		{"a*^-1", "((a*)^-1)"},
		{"a**", "((a*)*)"},
		// Parentheses, brackets and functions.
		{"(a | b) ; c", "((a | b) ; c)"},
		{"a ; (b ; c)", "(a ; (b ; c))"},
		{"[a | b] ; c", "([(a | b)] ; c)"},
		{"domain(a ; b) * range(c)", "(domain((a ; b)) * range(c))"},
		{"(a)+", "(a+)"},
		{"_ \\ a", "(_ \\ a)"},
		{"~_", "(~_)"},
		// All levels at once.
		{`a | b ; c \ d & e * f | ~g+`, `((a | (b ; (c \ (d & (e * f))))) | (~(g+)))`},
		{`[W] ; (po | rf)+ ; [R] & loc \ ext`, `(([W] ; ((po | rf)+)) ; (([R] & loc) \ ext))`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e := parseExprOK(t, tt.src)
			assert.Equal(t, tt.want, parenExpr(e))
			// The fully parenthesised text is valid too, and means the same.
			full := parseExprOK(t, tt.want)
			assert.Equal(t, ExprString(full), ExprString(e))
			assert.Equal(t, tt.want, parenExpr(full))
		})
	}
}

func TestExprStarDisambiguation(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"po*", "(po*)"},
		{"W * R", "(W * R)"},
		{"W*R", "(W * R)"},
		{"po* ; x", "((po*) ; x)"},
		{"po* | x", "((po*) | x)"},
		{"po* & x", "((po*) & x)"},
		{"(po*)", "(po*)"},
		{"[po*]", "[(po*)]"},
		{"po* * W", "((po*) * W)"},
		{"W * (R)", "(W * R)"},
		{"W * [R]", "(W * [R])"},
		{"W * _", "(W * _)"},
		{"_ * _", "(_ * _)"},
		{"W * ~R", "(W * (~R))"},
		{"W * domain(r)", "(W * domain(r))"},
		{"po*+", "((po*)+)"},
		{"po*^-1", "((po*)^-1)"},
		{"W * R*", "(W * (R*))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			assert.Equal(t, tt.want, parenExpr(parseExprOK(t, tt.src)))
		})
	}

	// A definition ending in "r*" followed by a rule on the next line: the
	// rule's head is not an operand of a product.
	prog := parseOK(t, "let x = r*\np(X) :- q(X).\nlet y = W * R\nq(1).")
	require.Len(t, prog.Defs, 2)
	assert.Equal(t, "(r*)", parenExpr(prog.Defs[0].Expr))
	assert.Equal(t, "(W * R)", parenExpr(prog.Defs[1].Expr))
	require.Len(t, prog.Rules, 2)
	assert.Equal(t, "p(X) :- q(X).", ruleText(prog.Rules[0]))
	assert.Equal(t, "q(1).", ruleText(prog.Rules[1]))
}

func TestExprString(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"a", "a"},
		{"_", "_"},
		{"((a))", "a"},
		{"(a | b) | c", "a | b | c"},
		{"a | (b | c)", "a | (b | c)"},
		{"(a ; b) | c", "a ; b | c"},
		{"a ; (b | c)", "a ; (b | c)"},
		{`a \ (b \ c)`, `a \ (b \ c)`},
		{"(a & b) * c", "(a & b) * c"},
		{"(~a)+", "(~a)+"},
		{"~(a+)", "~a+"},
		{"~(a ; b)", "~(a ; b)"},
		{"~(a * b)", "~(a * b)"},
		{"(a;b)^-1", "(a ; b)^-1"},
		{"(a*) * b", "a* * b"},
		{"a * (b*)", "a * b*"},
		{"[ (a | b) ]", "[a | b]"},
		{"domain((a ; b))", "domain(a ; b)"},
		{"range(a)", "range(a)"},
		{"a**", "a**"},
		{"po^-1+?", "po^-1+?"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			assert.Equal(t, tt.want, ExprString(parseExprOK(t, tt.src)))
		})
	}
}

// TestExprStringRoundTrip checks that printing an expression and parsing
// the text gives back the same tree.
func TestExprStringRoundTrip(t *testing.T) {
	srcs := []string{
		"a | b ; c",
		"(a | b) ; c",
		`a \ (b \ c)`,
		`(a \ b) \ c`,
		"a & (b & c)",
		"(a * b) * (c * d)",
		"a * (b * c)",
		"(a*) * b",
		"a * (b*)",
		"(a*)*",
		"~(a | b)+",
		"(~a)+",
		"~~a",
		"~(a * b)",
		"(~a) * b",
		"[a ; b] ; (c | d)^-1",
		"domain(a | b) * range((c))",
		"_ * _ | ~(_)",
		"((a ; b) ; c) ; d",
		"a ; (b ; (c ; d))",
		`[W] ; (po | rf)+ ; [R] & loc \ ext`,
		"let",
		"domain",
		"a * let",
	}
	for _, src := range srcs {
		t.Run(src, func(t *testing.T) {
			e := parseExprOK(t, src)
			text := ExprString(e)
			again := parseExprOK(t, text)
			assert.Equal(t, parenExpr(e), parenExpr(again), "printed as %s", text)
			assert.Equal(t, text, ExprString(again), "printing is stable")
		})
	}
}

// TestParseExpr: an expression alone, printed back, and its errors with
// line:col in the text.
func TestParseExpr(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"po ; [F] ; po", "((po ; [F]) ; po)", ""},
		{"(rf | fr) ; cause", "((rf | fr) ; cause)", ""},
		{"~(W * R) & loc^-1+", "((~(W * R)) & ((loc^-1)+))", ""},
		{"domain(rf) \\ _", "(domain(rf) \\ _)", ""},
		{"po ;", "", "1:5: expected a relation name, _, (, [ or ~ to start an expression, found end of file"},
		{"po po", "", `1:4: expected the end of the expression, found name "po"`},
		{"", "", "1:1: expected a relation name"},
		{"a |\n| b", "", `2:1: expected a relation name, _, (, [ or ~ to start an expression, found "|"`},
	}
	for _, c := range cases {
		x, err := ParseExpr(c.in)
		if c.err != "" {
			require.Error(t, err, c.in)
			assert.Contains(t, err.Error(), c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, parenExpr(x), c.in)
	}
}
