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

import "github.com/ptxmm/ptxmm/source"

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
		p.errs.Add(p.peek().pos, "expression nested more than %d deep in parentheses, brackets or domain()/range(): write it as several definitions", MaxExprNesting)
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

func (p *parser) parseUnion() Expr {
	l := p.parseSeq()
	for l != nil && p.at(tokBar) {
		op := p.next()
		r := p.parseSeq()
		if r == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		l = &Binary{Op: OpUnion, L: l, R: r, Pos: op.pos}
	}
	return l
}

func (p *parser) parseSeq() Expr {
	l := p.parseDiff()
	for l != nil && p.at(tokSemi) {
		op := p.next()
		r := p.parseDiff()
		if r == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		l = &Binary{Op: OpSeq, L: l, R: r, Pos: op.pos}
	}
	return l
}

func (p *parser) parseDiff() Expr {
	l := p.parseInter()
	for l != nil && p.at(tokBackslash) {
		op := p.next()
		r := p.parseInter()
		if r == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		l = &Binary{Op: OpDiff, L: l, R: r, Pos: op.pos}
	}
	return l
}

func (p *parser) parseInter() Expr {
	l := p.parseProduct()
	for l != nil && p.at(tokAmp) {
		op := p.next()
		r := p.parseProduct()
		if r == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		l = &Binary{Op: OpInter, L: l, R: r, Pos: op.pos}
	}
	return l
}

// parseProduct handles "*", which is a binary product when an operand
// follows it and a postfix closure otherwise ("po*" vs "W * R").
func (p *parser) parseProduct() Expr {
	l := p.parsePrefix()
	for l != nil && p.at(tokStar) && p.startsOperand(1) {
		op := p.next()
		r := p.parsePrefix()
		if r == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		l = &Binary{Op: OpProduct, L: l, R: r, Pos: op.pos}
	}
	return l
}

// startsOperand reports whether the token n ahead can begin an operand. A
// name followed by "(" begins a rule, not an operand, which lets a
// definition without a final period be followed by a rule.
func (p *parser) startsOperand(n int) bool {
	t := p.peekAt(n)
	switch t.kind {
	case tokWildcard, tokLParen, tokLBrack, tokTilde:
		return true
	case tokIdent:
		if p.peekAt(n+1).kind == tokLParen && t.text != "domain" && t.text != "range" {
			return false
		}
		if t.text == "let" && p.peekAt(n+1).kind == tokIdent {
			return false
		}
		return true
	}
	return false
}

func (p *parser) parsePrefix() Expr {
	if p.at(tokTilde) {
		op := p.next()
		x := p.parsePrefix()
		if x == nil {
			return nil
		}
		if !p.countOp(op.pos) {
			return nil
		}
		return &Unary{Op: OpCompl, X: x, Pos: op.pos}
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() Expr {
	x := p.parsePrimary()
	for x != nil {
		t := p.peek()
		switch {
		case t.kind == tokPlus:
			p.next()
			if !p.countOp(t.pos) {
				return nil
			}
			x = &Unary{Op: OpPlus, X: x, Pos: t.pos}
		case t.kind == tokQuestion:
			p.next()
			if !p.countOp(t.pos) {
				return nil
			}
			x = &Unary{Op: OpOpt, X: x, Pos: t.pos}
		case t.kind == tokInverse:
			p.next()
			if !p.countOp(t.pos) {
				return nil
			}
			x = &Unary{Op: OpInv, X: x, Pos: t.pos}
		case t.kind == tokStar && !p.startsOperand(1):
			p.next()
			if !p.countOp(t.pos) {
				return nil
			}
			x = &Unary{Op: OpStar, X: x, Pos: t.pos}
		default:
			return x
		}
	}
	return x
}

func (p *parser) parsePrimary() Expr {
	t := p.peek()
	switch t.kind {
	case tokIdent:
		if t.text == "let" && p.peekAt(1).kind == tokIdent {
			break // the next definition, not an operand (see startsOperand)
		}
		p.next()
		if (t.text == "domain" || t.text == "range") && p.at(tokLParen) {
			p.next()
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
		p.next()
		return &Universe{Pos: t.pos}
	case tokLParen:
		p.next()
		x := p.parseExpr()
		if x == nil {
			return nil
		}
		if _, ok := p.expect(tokRParen, "to close \"(\""); !ok {
			return nil
		}
		return x
	case tokLBrack:
		p.next()
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
