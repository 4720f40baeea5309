package datalog

// Relational expressions use herd7's cat operators with cat's precedence,
// from loosest to tightest:
//
//	|   union
//	;   composition
//	\   difference
//	&   intersection
//	*   cartesian product of two sets
//	~   complement (prefix)
//	+ * ? ^-1   closures and inverse (postfix)
//
// Binary operators associate to the left.

import (
	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// parseExpr parses an expression. Every pass over an expression later
// (analysis, desugaring, printing) recurses as deep as the expression, so
// its operators and its nesting are bounded (limits.go); the count starts
// afresh with each expression that is not inside another.
func (p *parser) parseExpr() Expr {
	if p.nesting == 0 {
		p.ops = 0
	}
	p.nesting++
	defer func() { p.nesting-- }()
	if p.nesting > MaxExprNesting {
		p.errs.Add(p.Peek().pos, "expression nested more than %d deep in parentheses, brackets or domain()/range(): write it as several definitions", MaxExprNesting)
		return nil
	}
	return p.parseUnion()
}

// countOp counts one more operator of the current expression and reports
// false, with an error the first time, past MaxExprOperators.
func (p *parser) countOp(pos source.Pos) bool {
	p.ops++
	if p.ops == MaxExprOperators+1 {
		p.errs.Add(pos, "expression with more than %d operators: write it as several definitions", MaxExprOperators)
	}
	return p.ops <= MaxExprOperators
}

// parseUnion parses the operators of an expression (relop.Parse, with
// cat's precedence) and their operands.
func (p *parser) parseUnion() Expr {
	x, ok := relop.Parse[Expr](exprGrammar{p})
	if !ok {
		return nil
	}
	return x
}

// exprGrammar is the modelling language's side of relop.Parse.
type exprGrammar struct{ p *parser }

func (g exprGrammar) Sym(n int) (relop.Sym, int) {
	switch g.p.At(n).kind {
	case tokBar:
		return relop.SymBar, 1
	case tokSemi:
		return relop.SymSemi, 1
	case tokBackslash:
		return relop.SymBackslash, 1
	case tokAmp:
		return relop.SymAmp, 1
	case tokStar:
		return relop.SymStar, 1
	case tokTilde:
		return relop.SymTilde, 1
	case tokPlus:
		return relop.SymPlus, 1
	case tokQuestion:
		return relop.SymQuestion, 1
	case tokInverse:
		return relop.SymInverse, 1
	}
	return relop.SymNone, 0
}

func (g exprGrammar) StartsOperand(n int) bool { return g.p.startsOperand(n) }
func (g exprGrammar) Pos() source.Pos          { return g.p.Peek().pos }
func (g exprGrammar) Advance()                 { g.p.Next() }
func (g exprGrammar) CountOp(at source.Pos) bool {
	return g.p.countOp(at)
}

// Enter and Leave: the nesting is counted by parentheses, brackets and
// domain()/range() (parseExpr), not by ~.
func (g exprGrammar) Enter() bool { return true }
func (g exprGrammar) Leave()      {}

// Misuse is never called: every operator the lexer makes is the
// language's.
func (g exprGrammar) Misuse() {}

func (g exprGrammar) Operand() (Expr, bool) {
	x := g.p.parsePrimary()
	return x, x != nil
}

func (g exprGrammar) Binary(op relop.BinOp, l, r Expr, at source.Pos) Expr {
	return &Binary{Op: op, L: l, R: r, Pos: at}
}

func (g exprGrammar) Unary(op relop.UnOp, x Expr, at source.Pos) Expr {
	return &Unary{Op: op, X: x, Pos: at}
}

// startsOperand reports whether the token n ahead can begin an operand. A
// name followed by "(" begins a rule, not an operand, which lets a
// definition without a final period be followed by a rule.
func (p *parser) startsOperand(n int) bool {
	t := p.At(n)
	switch t.kind {
	case tokWildcard, tokLParen, tokLBrack, tokTilde:
		return true
	case tokIdent:
		if p.At(n+1).kind == tokLParen && t.text != "domain" && t.text != "range" {
			return false
		}
		if t.text == "let" && p.At(n+1).kind == tokIdent {
			return false
		}
		return true
	}
	return false
}

func (p *parser) parsePrimary() Expr {
	t := p.Peek()
	switch t.kind {
	case tokIdent:
		if t.text == "let" && p.At(1).kind == tokIdent {
			break // the next definition, not an operand (see startsOperand)
		}
		p.Next()
		if (t.text == "domain" || t.text == "range") && p.at(tokLParen) {
			p.Next()
			x := p.parseExpr()
			if x == nil {
				return nil
			}
			if _, ok := p.expect(tokRParen, "to close "+t.text+"("); !ok {
				return nil
			}
			op := OpDomain
			if t.text == "range" {
				op = OpRange
			}
			if !p.countOp(t.pos) {
				return nil
			}
			return &Unary{Op: op, X: x, Pos: t.pos}
		}
		return &RelRef{Name: t.text, Pos: t.pos}
	case tokWildcard:
		p.Next()
		return &Universe{Pos: t.pos}
	case tokLParen:
		p.Next()
		x := p.parseExpr()
		if x == nil {
			return nil
		}
		if _, ok := p.expect(tokRParen, "to close \"(\""); !ok {
			return nil
		}
		return x
	case tokLBrack:
		p.Next()
		x := p.parseExpr()
		if x == nil {
			return nil
		}
		if _, ok := p.expect(tokRBrack, "to close \"[\""); !ok {
			return nil
		}
		if !p.countOp(t.pos) {
			return nil
		}
		return &Unary{Op: OpIdent, X: x, Pos: t.pos}
	}
	p.errs.Add(t.pos, "expected a relation name, _, (, [ or ~ to start an expression, found %s", t.describe())
	return nil
}

// ParseExpr parses text as one relational expression, as go/parser's
// ParseExpr does for Go: "po ; [F] ; po", "(rf | fr) ; cause". Positions
// are line:col in text (no file name). The expression is parsed, not
// checked: its names need not be declared anywhere. Its errors are a
// source.List.
func ParseExpr(text string) (Expr, error) {
	var errs source.List
	p := &parser{Tokens: relop.Tokens[token]{Toks: tokenize("", text, &errs)}, errs: &errs, prog: &Program{}}
	x := p.parseExpr()
	if x != nil && !p.at(tokEOF) {
		t := p.Peek()
		errs.Add(t.pos, "expected the end of the expression, found %s", t.describe())
	}
	if errs.HasErrors() {
		errs.Sort()
		errs.AttachLines("", text)
		return nil, errs
	}
	return x, nil
}
