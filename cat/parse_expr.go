package cat

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/source"
)

// exp parses a full expression: let ... in, fun, try, if, match, or
// operators, optionally followed by ", b, c" (a tuple).
func (p *parser) exp() Expr {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.tok()
	switch {
	case t.isKeyword("let"):
		return p.letIn()
	case t.isKeyword("fun"):
		return p.fun()
	case t.isKeyword("try"):
		p.advance()
		x := p.exp()
		if x == nil || !p.expectKeyword("with", "with after try ... (try e with alternative)") {
			return nil
		}
		alt := p.exp()
		if alt == nil {
			return nil
		}
		return &Try{X: x, Alt: alt, Pos: t.pos}
	case t.isKeyword("if"):
		return p.ifExpr()
	case t.isKeyword("match"):
		return p.match()
	}
	first := p.base()
	if first == nil || p.tok().kind != tComma {
		return first
	}
	elems := []Expr{first}
	for p.tok().kind == tComma {
		p.advance()
		e := p.base()
		if e == nil {
			return nil
		}
		elems = append(elems, e)
	}
	return &Tuple{Elems: elems, Pos: first.Position()}
}

// letIn parses "let [rec] bindings in e".
func (p *parser) letIn() Expr {
	start := p.advance()
	l := &LetIn{Pos: start.pos}
	if p.tok().isKeyword("rec") {
		l.Rec = true
		p.advance()
	}
	if l.Bindings = p.bindings(); l.Bindings == nil {
		return nil
	}
	if !p.expectKeyword("in", "in after the bindings of let ... in (inside an expression, let needs in)") {
		return nil
	}
	if l.Body = p.exp(); l.Body == nil {
		return nil
	}
	return l
}

// fun parses "fun x -> e" or "fun (x, y) -> e".
func (p *parser) fun() Expr {
	start := p.advance()
	f := &Fun{Pos: start.pos}
	if p.tok().kind == tLParen {
		open := p.advance()
		names, ok := p.formals("fun", open)
		if !ok {
			return nil
		}
		f.Param = tuplePattern(names)
	} else {
		n, ok := p.pat0("a parameter, or (parameters), after fun")
		if !ok {
			return nil
		}
		f.Param = Pattern{Names: []string{n}}
	}
	if !p.expect(tArrow, `"->" after the parameters of fun`) {
		return nil
	}
	if f.Body = p.exp(); f.Body == nil {
		return nil
	}
	return f
}

// ifExpr parses "if cond then e else e".
func (p *parser) ifExpr() Expr {
	start := p.advance()
	c, ok := p.cond()
	if !ok || !p.expectKeyword("then", "then after the condition of if") {
		return nil
	}
	in := &If{Cond: c, Pos: start.pos}
	if in.Then = p.exp(); in.Then == nil || !p.expectKeyword("else", "else: an if expression has both branches") {
		return nil
	}
	if in.Else = p.exp(); in.Else == nil {
		return nil
	}
	return in
}

// cond parses the condition of an if expression: a condition on variants,
// or "a = b", "a subset b", "a in b".
func (p *parser) cond() (Cond, bool) {
	if p.startsVariantCond() {
		v := p.variantCond()
		return Cond{Kind: CondVariant, Variant: v}, v != nil
	}
	l := p.exp()
	if l == nil {
		return Cond{}, false
	}
	c := Cond{L: l}
	switch t := p.tok(); {
	case t.kind == tEqual:
		c.Kind = CondEq
	case t.isKeyword("subset"):
		c.Kind = CondSubset
	case t.isKeyword("in"):
		c.Kind = CondIn
	default:
		p.fail(`expected "=", subset or in in the condition of if, found %s`, t.describe())
		return Cond{}, false
	}
	p.advance()
	if c.R = p.exp(); c.R == nil {
		return Cond{}, false
	}
	return c, true
}

// startsVariantCond reports whether a condition on variants starts here:
// a string, variant, not, or parentheses around one.
func (p *parser) startsVariantCond() bool {
	for k := 0; ; k++ {
		t := p.at(k)
		switch {
		case t.kind == tLParen:
			continue
		case t.kind == tString, t.isKeyword("variant"), t.isKeyword("not"):
			return true
		}
		return false
	}
}

// match parses "match e with clauses end": over tags ('a -> e || ... ||
// _ -> e) or over sets ({} -> e || x ++ rest -> e, in either order, or
// pre | x ++ post -> e).
func (p *parser) match() Expr {
	start := p.advance()
	x := p.exp()
	if x == nil || !p.expectKeyword("with", "with after match ...") {
		return nil
	}
	if p.tok().kind == tAlt {
		p.advance()
	}
	if t := p.tok(); t.kind == tLBrace || p.startsElemClause() {
		return p.matchSet(start, x)
	}
	m := &Match{X: x, Pos: start.pos}
	ok := p.tagClauses(start, true, func(tag token) bool {
		body := p.exp()
		if body == nil {
			return false
		}
		if tag.kind == tUnderscore {
			m.Default = body
		} else {
			m.Clauses = append(m.Clauses, ExprClause{Tag: tag.text, Body: body, Pos: tag.pos})
		}
		return true
	})
	if !ok {
		return nil
	}
	return m
}

// startsElemClause reports whether "x ++ rest ->" or "pre | x ++ post ->"
// starts here.
func (p *parser) startsElemClause() bool {
	isPat := func(t token) bool { return t.isIdent() || t.kind == tUnderscore }
	return isPat(p.at(0)) && (p.at(1).kind == tPlusPlus || p.at(1).kind == tUnion && isPat(p.at(2)) && p.at(3).kind == tPlusPlus)
}

// matchSet parses the two clauses of a match over a set.
func (p *parser) matchSet(start token, x Expr) Expr {
	m := &MatchSet{X: x, Pos: start.pos}
	haveEmpty, haveElem := false, false
	for i := 0; i < 2; i++ {
		if i == 1 {
			if !p.expect(tAlt, `"||" before the second clause of a match over a set`) {
				return nil
			}
		}
		switch {
		case p.tok().kind == tLBrace && !haveEmpty:
			p.advance()
			if !p.expect(tRBrace, `"}" (the clause of the empty set is {} ->)`) || !p.expect(tArrow, `"->" after {}`) {
				return nil
			}
			if m.Empty = p.exp(); m.Empty == nil {
				return nil
			}
			haveEmpty = true
		case p.startsElemClause() && !haveElem:
			a, _ := p.pat0("")
			if p.tok().kind == tUnion {
				p.advance()
				m.Pre, m.Split = a, true
				a, _ = p.pat0("")
			}
			p.advance() // ++
			rest, ok := p.pat0("a name or _ for the rest of the set after ++")
			if !ok || !p.expect(tArrow, `"->" after `+"x ++ rest") {
				return nil
			}
			m.Elem, m.Rest = a, rest
			if m.Body = p.exp(); m.Body == nil {
				return nil
			}
			haveElem = true
		default:
			want := "{} -> e"
			if haveEmpty {
				want = "x ++ rest -> e"
			}
			p.fail("expected the clause %s of a match over a set, found %s", want, p.tok().describe())
			return nil
		}
	}
	if !p.expectKeyword("end", "end to close the match at "+lineCol(start.pos)) {
		return nil
	}
	return m
}

// binaryLevels lists the binary operators from the loosest to the
// tightest, as herd's grammar ranks them (| ++ ; \ &); * between operands
// binds tighter still and is handled by product.
var binaryLevels = []struct {
	tok kind
	op  BinOp
}{{tUnion, OpUnion}, {tPlusPlus, OpAdd}, {tSemi, OpSeq}, {tDiff, OpDiff}, {tInter, OpInter}}

// base parses an expression of operators and applications (herd's base).
func (p *parser) base() Expr { return p.binary(0) }

func (p *parser) binary(level int) Expr {
	if level == len(binaryLevels) {
		return p.product()
	}
	l := p.binary(level + 1)
	if l == nil {
		return nil
	}
	lv := binaryLevels[level]
	if lv.op == OpAdd {
		// ++ associates to the right: a ++ b ++ s adds a to b ++ s.
		operands := []Expr{l}
		var ops []token
		for p.tok().kind == tPlusPlus {
			ops = append(ops, p.advance())
			r := p.binary(level + 1)
			if r == nil || !p.countOp(ops[len(ops)-1].pos) {
				return nil
			}
			operands = append(operands, r)
		}
		e := operands[len(operands)-1]
		for i := len(operands) - 2; i >= 0; i-- {
			e = &Binary{Op: OpAdd, L: operands[i], R: e, Pos: operands[i].Position()}
		}
		return e
	}
	for p.tok().kind == lv.tok {
		t := p.advance()
		r := p.binary(level + 1)
		if r == nil || !p.countOp(t.pos) {
			return nil
		}
		l = &Binary{Op: lv.op, L: l, R: r, Pos: l.Position()}
	}
	if t := p.tok(); t.kind == tLAnd {
		p.fail(`the operator "&&" combines variants, in the condition of an if: for relations, use &`)
		return nil
	}
	return l
}

// startsOperand reports whether t can start an operand, which makes a *
// before it a product rather than a closure.
func startsOperand(t token) bool {
	switch t.kind {
	case tLParen, tLBrack, tCompl, tUnderscore, tZero, tLBrace, tTag:
		return true
	case tName:
		return !keywords[t.text] || t.text == "begin"
	}
	return false
}

// product parses "a * b * c": * between two operands.
func (p *parser) product() Expr {
	l := p.prefix()
	for l != nil && p.tok().kind == tStar && startsOperand(p.at(1)) {
		star := p.advance()
		r := p.prefix()
		if r == nil || !p.countOp(star.pos) {
			return nil
		}
		l = &Binary{Op: OpProduct, L: l, R: r, Pos: l.Position()}
	}
	return l
}

// prefix parses "~e".
func (p *parser) prefix() Expr {
	if t := p.tok(); t.kind == tCompl {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.advance()
		x := p.prefix()
		if x == nil || !p.countOp(t.pos) {
			return nil
		}
		return &Unary{Op: OpCompl, X: x, Pos: t.pos}
	}
	return p.postfix()
}

// postfix parses the postfix operators + * ? ^-1, applied left to right.
func (p *parser) postfix() Expr {
	x := p.app()
	for x != nil {
		t := p.tok()
		var op UnOp
		switch {
		case t.kind == tPlus:
			op = OpPlus
		case t.kind == tStar && !startsOperand(p.at(1)):
			op = OpStar
		case t.kind == tOpt:
			op = OpOpt
		case t.kind == tInv:
			// r -1, as herd's uniproc-normw-cat.cat writes r^-1.
			op = OpInv
		case t.kind == tHat:
			if p.at(1).kind != tInv {
				p.advance()
				p.fail(`expected "-1" after "^" (the inverse is written ^-1), found %s`, p.tok().describe())
				return nil
			}
			p.advance()
			op = OpInv
		default:
			return x
		}
		p.advance()
		if !p.countOp(t.pos) {
			return nil
		}
		x = &Unary{Op: op, X: x, Pos: x.Position()}
	}
	return x
}

// app parses a name applied to arguments (f x y, f(a, b)), or a simple
// expression: herd applies names and applications only.
func (p *parser) app() Expr {
	t := p.tok()
	if !t.isIdent() {
		return p.simple()
	}
	p.advance()
	var x Expr = &Var{Name: t.text, Pos: t.pos}
	for {
		a := p.tok()
		var arg Expr
		switch {
		case a.isIdent():
			p.advance()
			arg = &Var{Name: a.text, Pos: a.pos}
		case startsSimple(a):
			if !p.enter() {
				return nil
			}
			arg = p.simple()
			p.leave()
			if arg == nil {
				return nil
			}
		default:
			return x
		}
		x = &App{Fun: x, Arg: arg, Pos: t.pos}
	}
}

// startsSimple reports whether t starts herd's simple expressions: 0, a
// tag, {...}, _, (...), begin ... end, [...].
func startsSimple(t token) bool {
	switch t.kind {
	case tZero, tTag, tLBrace, tUnderscore, tLParen, tLBrack:
		return true
	}
	return t.isKeyword("begin")
}

// simple parses 0, 'tag, {a, b}, _, (), (e), begin e end or [e].
func (p *parser) simple() Expr {
	t := p.tok()
	switch {
	case t.kind == tZero:
		p.advance()
		return &Empty{Pos: t.pos}
	case t.kind == tTag:
		p.advance()
		return &TagLit{Name: t.text, Pos: t.pos}
	case t.kind == tUnderscore:
		p.advance()
		return &Universe{Pos: t.pos}
	case t.kind == tLBrace:
		p.advance()
		elems, ok := p.args(tRBrace, "}")
		if !ok {
			return nil
		}
		return &ExplicitSet{Elems: elems, Pos: t.pos}
	case t.kind == tLParen:
		p.advance()
		if p.tok().kind == tRParen {
			p.advance()
			return &Tuple{Pos: t.pos}
		}
		e := p.exp()
		if e == nil || !p.expect(tRParen, `")" to close "(" at `+lineCol(t.pos)) {
			return nil
		}
		return e
	case t.isKeyword("begin"):
		p.advance()
		e := p.exp()
		if e == nil || !p.expectKeyword("end", "end to close begin at "+lineCol(t.pos)) {
			return nil
		}
		return e
	case t.kind == tLBrack:
		p.advance()
		e := p.exp()
		if e == nil || !p.expect(tRBrack, `"]" to close "[" at `+lineCol(t.pos)) {
			return nil
		}
		return &Unary{Op: OpIdent, X: e, Pos: t.pos}
	case t.isIdent():
		p.advance()
		return &Var{Name: t.text, Pos: t.pos}
	}
	p.fail("expected an expression (a name, _, 0, a tag, (, [, {, ~, let, fun, match, try or if), found %s", t.describe())
	return nil
}

// args parses "a, b, c" up to the closing token (explicit sets, a bell
// file's instructions).
func (p *parser) args(closing kind, text string) ([]Expr, bool) {
	var out []Expr
	if p.tok().kind == closing {
		p.advance()
		return out, true
	}
	if !p.enter() {
		return nil, false
	}
	defer p.leave()
	for {
		e := p.base()
		if e == nil {
			return nil, false
		}
		out = append(out, e)
		switch p.tok().kind {
		case tComma:
			p.advance()
		case closing:
			p.advance()
			return out, true
		default:
			p.fail(`expected "," or %q, found %s`, text, p.tok().describe())
			return nil, false
		}
	}
}

// lineCol prints a position as line:col, for messages about an opening
// token.
func lineCol(pos source.Pos) string { return fmt.Sprintf("%d:%d", pos.Line, pos.Col) }

// joinNames prints names for messages.
func joinNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		if n == "" {
			n = "_"
		}
		out[i] = n
	}
	return strings.Join(out, ", ")
}
