package relop

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ptxmm/ptxmm/source"
)

// toy is a grammar of one-character tokens: a lower-case letter is an
// operand, "P" is ++, "I" is ^-1, "!" is misused, "." ends the text.
type toy struct {
	Tokens[byte]
	errs   []string
	ops    int
	maxOps int
}

func newToy(text string) *toy {
	return &toy{Tokens: Tokens[byte]{Toks: append([]byte(text), '.')}, maxOps: 100}
}

func (g *toy) Sym(n int) (Sym, int) {
	switch g.At(n) {
	case '|':
		return SymBar, 1
	case 'P':
		return SymPlusPlus, 1
	case ';':
		return SymSemi, 1
	case '\\':
		return SymBackslash, 1
	case '&':
		return SymAmp, 1
	case '*':
		return SymStar, 1
	case '~':
		return SymTilde, 1
	case '+':
		return SymPlus, 1
	case '?':
		return SymQuestion, 1
	case 'I':
		return SymInverse, 1
	case '!':
		return SymMisused, 1
	}
	return SymNone, 0
}

func (g *toy) StartsOperand(n int) bool {
	c := g.At(n)
	return c >= 'a' && c <= 'z' || c == '~'
}
func (g *toy) Pos() source.Pos { return source.Pos{Line: 1, Col: g.I + 1} }
func (g *toy) Advance()        { g.Next() }
func (g *toy) Operand() (string, bool) {
	if c := g.Peek(); c >= 'a' && c <= 'z' {
		g.Next()
		return string(c), true
	}
	g.errs = append(g.errs, fmt.Sprintf("%d: operand expected", g.I+1))
	return "", false
}
func (g *toy) Binary(op BinOp, l, r string, at source.Pos) string {
	return "(" + l + " " + op.String() + " " + r + ")"
}
func (g *toy) Unary(op UnOp, x string, at source.Pos) string {
	if op == Compl {
		return "~" + x
	}
	return "(" + x + op.String() + ")"
}
func (g *toy) CountOp(at source.Pos) bool {
	g.ops++
	return g.ops <= g.maxOps
}
func (g *toy) Enter() bool { return true }
func (g *toy) Leave()      {}
func (g *toy) Misuse()     { g.errs = append(g.errs, fmt.Sprintf("%d: misused", g.I+1)) }

// TestParse: precedence, associativity and the product/closure reading of
// *, as herd7's cat has them.
func TestParse(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"a|b;c", "(a | (b ; c))", ""},
		{"a;b|c", "((a ; b) | c)", ""},
		{"a;b;c", "((a ; b) ; c)", ""},
		{"a\\b&c", "(a \\ (b & c))", ""},
		{"a&b*c", "(a & (b * c))", ""},
		{"a*", "(a*)", ""},
		{"a*|b", "((a*) | b)", ""},
		{"a**b", "((a*) * b)", ""},
		{"~a+", "~(a+)", ""},
		{"~~a", "~~a", ""},
		{"aI?", "((a^-1)?)", ""},
		{"aPbPc", "(a ++ (b ++ c))", ""},
		{"aPb;c", "(a ++ (b ; c))", ""},
		{"a|", "", "3: operand expected"},
		{"a!b", "", "2: misused"},
		{"a+!", "", "3: misused"},
	}
	for _, c := range cases {
		g := newToy(c.in)
		got, ok := Parse[string](g)
		if c.err != "" {
			assert.False(t, ok, c.in)
			assert.Equal(t, []string{c.err}, g.errs, c.in)
			continue
		}
		assert.True(t, ok, c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, byte('.'), g.Peek(), "%s: all read", c.in)
	}
}

// TestParseCountsOperators: Parse stops at the front end's bound.
func TestParseCountsOperators(t *testing.T) {
	g := newToy("a|b|c|d")
	g.maxOps = 2
	_, ok := Parse[string](g)
	assert.False(t, ok)
	assert.Equal(t, 3, g.ops)
}

// TestTokens: the cursor stops at the last token.
func TestTokens(t *testing.T) {
	c := Tokens[byte]{Toks: []byte("ab.")}
	assert.Equal(t, byte('b'), c.At(1))
	assert.Equal(t, byte('.'), c.At(5))
	assert.Equal(t, byte('a'), c.Next())
	c.Next()
	assert.Equal(t, byte('.'), c.Next())
	assert.Equal(t, byte('.'), c.Next())
	assert.Equal(t, 2, c.I)
}
