package datalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// lexAll returns every token of src up to and including the end of file,
// and the lexer's diagnostics.
func lexAll(src string) ([]token, source.List) {
	var errs source.List
	lx := newLexer("t.dl", src, &errs)
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tokEOF || len(toks) > 10000 {
			return toks, errs
		}
	}
}

// showTok renders a token as kind, or kind(text) when the text matters.
func showTok(t token) string {
	switch t.kind {
	case tokIdent, tokString, tokInt, tokDirective, tokDoc, tokWildcard:
		return fmt.Sprintf("%s(%s)", t.kind, t.text)
	}
	return t.kind.String()
}

func tokStrings(toks []token) string {
	var out []string
	for _, t := range toks {
		out = append(out, showTok(t))
	}
	return strings.Join(out, " ")
}

func TestLexerTokenKinds(t *testing.T) {
	tests := []struct {
		src  string
		kind tokenKind
		text string
	}{
		{"", tokEOF, ""},
		{"edge", tokIdent, "edge"},
		{"_x9", tokIdent, "_x9"},
		{"X_1", tokIdent, "X_1"},
		{"_", tokWildcard, "_"},
		{`"a b"`, tokString, "a b"},
		{"42", tokInt, "42"},
		{"-3", tokInt, "-3"},
		{".decl", tokDirective, "decl"},
		{".printsize", tokDirective, "printsize"},
		{"/// doc text  ", tokDoc, "doc text"},
		{"(", tokLParen, "("},
		{")", tokRParen, ")"},
		{"[", tokLBrack, "["},
		{"]", tokRBrack, "]"},
		{",", tokComma, ","},
		{".", tokDot, "."},
		{":", tokColon, ":"},
		{":-", tokIf, ":-"},
		{"!", tokBang, "!"},
		{"=", tokEq, "="},
		{"!=", tokNeq, "!="},
		{"|", tokBar, "|"},
		{"&", tokAmp, "&"},
		{`\`, tokBackslash, `\`},
		{";", tokSemi, ";"},
		{"*", tokStar, "*"},
		{"+", tokPlus, "+"},
		{"?", tokQuestion, "?"},
		{"^-1", tokInverse, "^-1"},
		{"~", tokTilde, "~"},
		{"?-", tokQuery, "?-"},
	}
	seen := map[tokenKind]bool{}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			toks, errs := lexAll(tt.src)
			require.Empty(t, errs)
			require.NotEmpty(t, toks)
			assert.Equal(t, tt.kind, toks[0].kind)
			assert.Equal(t, tt.text, toks[0].text)
			assert.Equal(t, source.Pos{File: "t.dl", Line: 1, Col: 1}, toks[0].pos)
			if tt.kind != tokEOF {
				require.Len(t, toks, 2, tokStrings(toks))
				assert.Equal(t, tokEOF, toks[1].kind)
			}
		})
		seen[tt.kind] = true
	}
	for k := range tokenNames {
		assert.True(t, seen[k], "token kind %s is not tested", k)
	}
}

func TestLexerSequences(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"rule", `p(X, "a") :- q(X, _), !r(X), X != 3.`,
			`name(p) ( name(X) , string(a) ) :- name(q) ( name(X) , _(_) ) , ! name(r) ( name(X) ) , name(X) != integer(3) . end of file`},
		{"definition", `let x = ~(po | rf)+ ; [W] \ co^-1 & _ * R?`,
			`name(let) name(x) = ~ ( name(po) | name(rf) ) + ; [ name(W) ] \ name(co) ^-1 & _(_) * name(R) ? end of file`},
		{"check", `.check c: acyclic(domain(r))`,
			`directive(check) name(c) : name(acyclic) ( name(domain) ( name(r) ) ) end of file`},
		{"query", `?- p(X).`, `?- name(p) ( name(X) ) . end of file`},
		{"negative integer", `p(-12, 3-4)`, `name(p) ( integer(-12) , integer(3) integer(-4) ) end of file`},
		{"minus alone", `- x`, `name(x) end of file`},
		{"inverse without space", `po^-1;rf`, `name(po) ^-1 ; name(rf) end of file`},
		{"star postfix and product", `po*;W*R`, `name(po) * ; name(W) * name(R) end of file`},
		{"period after fact", `p(1).q(2).`, `name(p) ( integer(1) ) . name(q) ( integer(2) ) . end of file`},
		{"period after name", `let x = r.let y = s`, `name(let) name(x) = name(r) . name(let) name(y) = name(s) end of file`},
		{"period after string", `X = "a".p(1).`, `name(X) = string(a) . name(p) ( integer(1) ) . end of file`},
		{"period after integer", `X = 1.p(1).`, `name(X) = integer(1) . name(p) ( integer(1) ) . end of file`},
		{"directive after space", `p(1). .output p`, `name(p) ( integer(1) ) . directive(output) name(p) end of file`},
		{"directive after newline", "r\n.decl", `name(r) directive(decl) end of file`},
		{"dot then digit", `.5`, `. integer(5) end of file`},
		{"directive with digits", `.x_1`, `directive(x_1) end of file`},
		{"colon then if", `: :- :`, `: :- : end of file`},
		{"bang eq", `!=!`, `!= ! end of file`},
		{"question query", `? ?-`, `? ?- end of file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, errs := lexAll(tt.src)
			if tt.name == "minus alone" {
				require.Len(t, errs, 1)
				assert.Equal(t, `t.dl:1:1: unexpected character '-'`, errs[0].Error())
			} else {
				require.Empty(t, errs)
			}
			assert.Equal(t, tt.want, tokStrings(toks))
		})
	}
}

func TestLexerComments(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		errs []string
	}{
		{"line comment", "a // b c\nd", "name(a) name(d) end of file", nil},
		{"line comment at end", "a // b", "name(a) end of file", nil},
		{"block comment", "a /* b\n c */ d", "name(a) name(d) end of file", nil},
		{"herd comment", "a (* b\n c *) d", "name(a) name(d) end of file", nil},
		{"comments do not nest", "a /* /* */ d */", "name(a) name(d) * end of file",
			[]string{"t.dl:1:15: unexpected character '/'"}},
		{"herd comment is not a product", "(a)*(b)", "( name(a) ) * ( name(b) ) end of file", nil},
		{"block comment in star position", "po*(*c*)", "name(po) * end of file", nil},
		{"unterminated block comment", "a /* b\nc", "name(a) end of file",
			[]string{`t.dl:1:3: unterminated comment: expected "*/" before the end of the file`}},
		{"unterminated herd comment", "a\n  (* b", "name(a) end of file",
			[]string{`t.dl:2:3: unterminated comment: expected "*)" before the end of the file`}},
		{"doc comment", "/// one\n///two\n.decl", "doc comment(one) doc comment(two) directive(decl) end of file", nil},
		{"four slashes are a plain comment", "//// not doc\na", "name(a) end of file", nil},
		{"empty doc comment", "///\na", "doc comment() name(a) end of file", nil},
		{"doc comment after code", "a /// d", "name(a) doc comment(d) end of file", nil},
		{"doc inside block comment", "/* /// x */ a", "name(a) end of file", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, errs := lexAll(tt.src)
			assert.Equal(t, tt.want, tokStrings(toks))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			assert.Equal(t, tt.errs, got)
		})
	}
}

func TestLexerStrings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		text string
		errs []string
	}{
		{"plain", `"abc"`, "abc", nil},
		{"empty", `""`, "", nil},
		{"escaped quote", `"a\"b"`, `a"b`, nil},
		{"escaped backslash", `"a\\b"`, `a\b`, nil},
		{"other escapes are kept", `"a\nb\t"`, `a\nb\t`, nil},
		{"comment markers inside", `"// (* /*"`, `// (* /*`, nil},
		{"utf-8", `"é→"`, "é→", nil},
		{"unterminated at end of file", `"abc`, "abc",
			[]string{`t.dl:1:1: unterminated string: expected a closing " on the same line`}},
		{"unterminated at end of line", "\"abc\nx", "abc",
			[]string{`t.dl:1:1: unterminated string: expected a closing " on the same line`}},
		{"backslash at end", `"abc\`, `abc\`,
			[]string{`t.dl:1:1: unterminated string: expected a closing " on the same line`}},
		{"escaped quote at end", `"abc\"`, `abc"`,
			[]string{`t.dl:1:1: unterminated string: expected a closing " on the same line`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, errs := lexAll(tt.src)
			require.NotEmpty(t, toks)
			assert.Equal(t, tokString, toks[0].kind)
			assert.Equal(t, tt.text, toks[0].text)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			assert.Equal(t, tt.errs, got)
		})
	}
	// After an unterminated string the lexer resumes on the next line.
	toks, _ := lexAll("\"abc\nx")
	assert.Equal(t, "string(abc) name(x) end of file", tokStrings(toks))
	assert.Equal(t, source.Pos{File: "t.dl", Line: 2, Col: 1}, toks[1].pos)
}

func TestLexerStrayCharacters(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		errs []string
	}{
		{"stray caret", "po^rf", "name(po) name(rf) end of file",
			[]string{`t.dl:1:3: unexpected "^": the inverse operator is written ^-1`}},
		{"caret minus two", "po^-2", "name(po) integer(-2) end of file",
			[]string{`t.dl:1:3: unexpected "^": the inverse operator is written ^-1`}},
		{"caret at end", "po^", "name(po) end of file",
			[]string{`t.dl:1:3: unexpected "^": the inverse operator is written ^-1`}},
		{"unknown characters", "a # b @", "name(a) name(b) end of file",
			[]string{`t.dl:1:3: unexpected character '#'`, `t.dl:1:7: unexpected character '@'`}},
		{"non-ASCII", "a é b", "name(a) name(b) end of file",
			[]string{`t.dl:1:3: unexpected character 'é'`}},
		{"invalid UTF-8", "a \xff b", "name(a) name(b) end of file",
			[]string{`t.dl:1:3: unexpected character '�'`}},
		{"dollar", "a$1", "name(a) integer(1) end of file",
			[]string{`t.dl:1:2: unexpected character '$'`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, errs := lexAll(tt.src)
			assert.Equal(t, tt.want, tokStrings(toks))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			assert.Equal(t, tt.errs, got)
		})
	}
}

func TestLexerPositions(t *testing.T) {
	src := "/// d\n.decl r(a)\n\tr(X) :- s(X, \"s\").\n(* c\n *) let x = po^-1\n?- r(-1)."
	toks, errs := lexAll(src)
	require.Empty(t, errs)
	var got []string
	for _, tk := range toks {
		got = append(got, fmt.Sprintf("%d:%d %s", tk.pos.Line, tk.pos.Col, showTok(tk)))
	}
	assert.Equal(t, []string{
		"1:1 doc comment(d)",
		"2:1 directive(decl)",
		"2:7 name(r)",
		"2:8 (",
		"2:9 name(a)",
		"2:10 )",
		"3:2 name(r)", // a tab counts as one column
		"3:3 (",
		"3:4 name(X)",
		"3:5 )",
		"3:7 :-",
		"3:10 name(s)",
		"3:11 (",
		"3:12 name(X)",
		"3:13 ,",
		"3:15 string(s)",
		"3:18 )",
		"3:19 .",
		"5:5 name(let)",
		"5:9 name(x)",
		"5:11 =",
		"5:13 name(po)",
		"5:15 ^-1",
		"6:1 ?-",
		"6:4 name(r)",
		"6:5 (",
		"6:6 integer(-1)",
		"6:8 )",
		"6:9 .",
		"6:10 end of file",
	}, got)
}

func TestTokenDescribe(t *testing.T) {
	tests := []struct {
		tok  token
		want string
	}{
		{token{kind: tokIdent, text: "po"}, `name "po"`},
		{token{kind: tokString, text: "s"}, `string "s"`},
		{token{kind: tokInt, text: "-4"}, `integer -4`},
		{token{kind: tokDirective, text: "decl"}, `directive .decl`},
		{token{kind: tokEOF}, `end of file`},
		{token{kind: tokIf, text: ":-"}, `":-"`},
		{token{kind: tokDoc, text: "x"}, `"doc comment"`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.tok.describe())
	}
}
