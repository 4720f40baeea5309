package relop

import "github.com/ptxmm/ptxmm/source"

// Operators are the operators of an expression, loosest first, as herd7's
// cat ranks them; every binary operator associates to the left but ++,
// which associates to the right (a ++ b ++ s adds a to b ++ s):
//
//	|   union
//	++  a set with one more member (cat)
//	;   composition
//	\   difference
//	&   intersection
//	*   cartesian product, between two operands
//	~   complement (prefix)
//	+ * ? ^-1   closures and inverse (postfix)
var levels = []struct {
	sym Sym
	op  BinOp
}{{SymBar, Union}, {SymPlusPlus, Add}, {SymSemi, Seq}, {SymBackslash, Diff}, {SymAmp, Inter}}

// Sym is an operator as a front end's tokens spell it.
type Sym int

const (
	// SymNone is a token that is no operator.
	SymNone Sym = iota
	SymBar
	SymPlusPlus
	SymSemi
	SymBackslash
	SymAmp
	SymStar
	SymTilde
	SymPlus
	SymQuestion
	SymInverse
	// SymMisused is an operator the language does not have there (cat's
	// &&, which combines variants, or ^ without -1): Grammar.Misuse
	// reports it.
	SymMisused
)

// Grammar is what Parse needs of a front end: its tokens as operators,
// its operands, and the nodes it builds.
type Grammar[E any] interface {
	// Sym classifies the token n places ahead, and says how many tokens
	// the operator spans (cat writes ^-1 as two).
	Sym(n int) (sym Sym, width int)
	// StartsOperand reports whether the token n places ahead can begin an
	// operand, which makes a * before it a product rather than a closure.
	StartsOperand(n int) bool
	// Pos is the position of the next token; Advance consumes it.
	Pos() source.Pos
	Advance()
	// Operand parses what the operators apply to (a name, a parenthesised
	// expression, an application, ...); false when it failed.
	Operand() (E, bool)
	// Binary and Unary build a node; at is the operator's position.
	Binary(op BinOp, l, r E, at source.Pos) E
	Unary(op UnOp, x E, at source.Pos) E
	// CountOp counts one operator; false past the bound on operators.
	CountOp(at source.Pos) bool
	// Enter and Leave bracket the operand of a prefix operator, for a
	// front end that bounds the nesting there; false when it is too deep.
	Enter() bool
	Leave()
	// Misuse reports the misused operator (SymMisused) at the next token.
	Misuse()
}

// Parse parses the operators of an expression and their operands.
func Parse[E any](g Grammar[E]) (E, bool) { return binary(g, 0) }

func binary[E any](g Grammar[E], level int) (E, bool) {
	if level == len(levels) {
		return product(g)
	}
	l, ok := binary(g, level+1)
	if !ok {
		return l, false
	}
	lv := levels[level]
	if lv.op == Add {
		return addRight(g, level, l)
	}
	for sym(g, 0) == lv.sym {
		at := g.Pos()
		g.Advance()
		r, ok := binary(g, level+1)
		if !ok || !g.CountOp(at) {
			return r, false
		}
		l = g.Binary(lv.op, l, r, at)
	}
	if sym(g, 0) == SymMisused {
		g.Misuse()
		var zero E
		return zero, false
	}
	return l, true
}

// addRight parses the operands of ++ after the first and nests them to
// the right.
func addRight[E any](g Grammar[E], level int, first E) (E, bool) {
	operands := []E{first}
	var at []source.Pos
	for sym(g, 0) == SymPlusPlus {
		at = append(at, g.Pos())
		g.Advance()
		r, ok := binary(g, level+1)
		if !ok || !g.CountOp(at[len(at)-1]) {
			return r, false
		}
		operands = append(operands, r)
	}
	e := operands[len(operands)-1]
	for i := len(operands) - 2; i >= 0; i-- {
		e = g.Binary(Add, operands[i], e, at[i])
	}
	return e, true
}

// product parses "a * b": * between two operands.
func product[E any](g Grammar[E]) (E, bool) {
	l, ok := prefix(g)
	for ok && sym(g, 0) == SymStar && g.StartsOperand(1) {
		at := g.Pos()
		g.Advance()
		var r E
		if r, ok = prefix(g); !ok || !g.CountOp(at) {
			return r, false
		}
		l = g.Binary(Product, l, r, at)
	}
	return l, ok
}

// prefix parses "~e".
func prefix[E any](g Grammar[E]) (E, bool) {
	if sym(g, 0) != SymTilde {
		return postfix(g)
	}
	var zero E
	if !g.Enter() {
		return zero, false
	}
	defer g.Leave()
	at := g.Pos()
	g.Advance()
	x, ok := prefix(g)
	if !ok || !g.CountOp(at) {
		return zero, false
	}
	return g.Unary(Compl, x, at), true
}

// postfix parses the postfix operators + * ? ^-1, applied left to right.
func postfix[E any](g Grammar[E]) (E, bool) {
	x, ok := g.Operand()
	for ok {
		s, width := g.Sym(0)
		var op UnOp
		switch {
		case s == SymPlus:
			op = Plus
		case s == SymStar && !g.StartsOperand(1):
			op = Star
		case s == SymQuestion:
			op = Opt
		case s == SymInverse:
			op = Inv
		case s == SymMisused:
			g.Misuse()
			return x, false
		default:
			return x, true
		}
		at := g.Pos()
		for range width {
			g.Advance()
		}
		if !g.CountOp(at) {
			return x, false
		}
		x = g.Unary(op, x, at)
	}
	return x, ok
}

func sym[E any](g Grammar[E], n int) Sym {
	s, _ := g.Sym(n)
	return s
}
