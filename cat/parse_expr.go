package cat

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// exp parses a full expression: let ... in, fun, try, if, match, or
// operators, optionally followed by ", b, c" (a tuple).
func (p *parser) exp() Expr {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.Peek()
	switch {
	case t.isKeyword("let"):
		return p.letIn()
	case t.isKeyword("fun"):
		return p.fun()
	case t.isKeyword("try"):
		p.Next()
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
	if first == nil || p.Peek().kind != tComma {
		return first
	}
	elems := []Expr{first}
	for p.Peek().kind == tComma {
		p.Next()
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
	start := p.Next()
	l := &LetIn{Pos: start.pos}
	if p.Peek().isKeyword("rec") {
		l.Rec = true
		p.Next()
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
	start := p.Next()
	f := &Fun{Pos: start.pos}
	if p.Peek().kind == tLParen {
		open := p.Next()
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
	start := p.Next()
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
	switch t := p.Peek(); {
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
	p.Next()
	if c.R = p.exp(); c.R == nil {
		return Cond{}, false
	}
	return c, true
}

// startsVariantCond reports whether a condition on variants starts here:
// a string, variant, not, or parentheses around one.
func (p *parser) startsVariantCond() bool {
	for k := 0; ; k++ {
		t := p.At(k)
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
	start := p.Next()
	x := p.exp()
	if x == nil || !p.expectKeyword("with", "with after match ...") {
		return nil
	}
	if p.Peek().kind == tAlt {
		p.Next()
	}
	if t := p.Peek(); t.kind == tLBrace || p.startsElemClause() {
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
	return isPat(p.At(0)) && (p.At(1).kind == tPlusPlus || p.At(1).kind == tUnion && isPat(p.At(2)) && p.At(3).kind == tPlusPlus)
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
		case p.Peek().kind == tLBrace && !haveEmpty:
			p.Next()
			if !p.expect(tRBrace, `"}" (the clause of the empty set is {} ->)`) || !p.expect(tArrow, `"->" after {}`) {
				return nil
			}
			if m.Empty = p.exp(); m.Empty == nil {
				return nil
			}
			haveEmpty = true
		case p.startsElemClause() && !haveElem:
			a, _ := p.pat0("")
			if p.Peek().kind == tUnion {
				p.Next()
				m.Pre, m.Split = a, true
				a, _ = p.pat0("")
			}
			p.Next() // ++
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
			p.fail("expected the clause %s of a match over a set, found %s", want, p.Peek().describe())
			return nil
		}
	}
	if !p.expectKeyword("end", "end to close the match at "+lineCol(start.pos)) {
		return nil
	}
	return m
}

// base parses an expression of operators and applications (herd's base),
// with the operators' precedence of package relop.
func (p *parser) base() Expr {
	x, ok := relop.Parse[Expr](exprGrammar{p})
	if !ok {
		return nil
	}
	return x
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

// exprGrammar is cat's side of relop.Parse: herd's operators, among them
// ++ and r -1 (as herd's uniproc-normw-cat.cat writes r^-1).
type exprGrammar struct{ p *parser }

func (g exprGrammar) Sym(n int) (relop.Sym, int) {
	switch g.p.At(n).kind {
	case tUnion:
		return relop.SymBar, 1
	case tPlusPlus:
		return relop.SymPlusPlus, 1
	case tSemi:
		return relop.SymSemi, 1
	case tDiff:
		return relop.SymBackslash, 1
	case tInter:
		return relop.SymAmp, 1
	case tStar:
		return relop.SymStar, 1
	case tCompl:
		return relop.SymTilde, 1
	case tPlus:
		return relop.SymPlus, 1
	case tOpt:
		return relop.SymQuestion, 1
	case tInv:
		return relop.SymInverse, 1
	case tHat:
		if g.p.At(n+1).kind == tInv {
			return relop.SymInverse, 2
		}
		return relop.SymMisused, 1
	case tLAnd:
		return relop.SymMisused, 1
	}
	return relop.SymNone, 0
}

// Misuse explains && (an operator of variant conditions) and ^ without -1.
func (g exprGrammar) Misuse() {
	if g.p.Peek().kind == tHat {
		g.p.Next()
		g.p.fail(`expected "-1" after "^" (the inverse is written ^-1), found %s`, g.p.Peek().describe())
		return
	}
	g.p.fail(`the operator "&&" combines variants, in the condition of an if: for relations, use &`)
}

func (g exprGrammar) StartsOperand(n int) bool   { return startsOperand(g.p.At(n)) }
func (g exprGrammar) Pos() source.Pos            { return g.p.Peek().pos }
func (g exprGrammar) Advance()                   { g.p.Next() }
func (g exprGrammar) CountOp(at source.Pos) bool { return g.p.countOp(at) }
func (g exprGrammar) Enter() bool                { return g.p.enter() }
func (g exprGrammar) Leave()                     { g.p.leave() }

func (g exprGrammar) Operand() (Expr, bool) {
	x := g.p.app()
	return x, x != nil
}

// Binary nodes are placed at their left operand, as herd places them.
func (g exprGrammar) Binary(op relop.BinOp, l, r Expr, at source.Pos) Expr {
	return &Binary{Op: op, L: l, R: r, Pos: l.Position()}
}

// Unary nodes are placed at their operand, but ~ at itself.
func (g exprGrammar) Unary(op relop.UnOp, x Expr, at source.Pos) Expr {
	if op == relop.Compl {
		return &Unary{Op: op, X: x, Pos: at}
	}
	return &Unary{Op: op, X: x, Pos: x.Position()}
}

// app parses a name applied to arguments (f x y, f(a, b)), or a simple
// expression: herd applies names and applications only.
func (p *parser) app() Expr {
	t := p.Peek()
	if !t.isIdent() {
		return p.simple()
	}
	p.Next()
	var x Expr = &Var{Name: t.text, Pos: t.pos}
	for {
		a := p.Peek()
		var arg Expr
		switch {
		case a.isIdent():
			p.Next()
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
	t := p.Peek()
	switch {
	case t.kind == tZero:
		p.Next()
		return &Empty{Pos: t.pos}
	case t.kind == tTag:
		p.Next()
		return &TagLit{Name: t.text, Pos: t.pos}
	case t.kind == tUnderscore:
		p.Next()
		return &Universe{Pos: t.pos}
	case t.kind == tLBrace:
		p.Next()
		elems, ok := p.args(tRBrace, "}")
		if !ok {
			return nil
		}
		return &ExplicitSet{Elems: elems, Pos: t.pos}
	case t.kind == tLParen:
		p.Next()
		if p.Peek().kind == tRParen {
			p.Next()
			return &Tuple{Pos: t.pos}
		}
		e := p.exp()
		if e == nil || !p.expect(tRParen, `")" to close "(" at `+lineCol(t.pos)) {
			return nil
		}
		return e
	case t.isKeyword("begin"):
		p.Next()
		e := p.exp()
		if e == nil || !p.expectKeyword("end", "end to close begin at "+lineCol(t.pos)) {
			return nil
		}
		return e
	case t.kind == tLBrack:
		p.Next()
		e := p.exp()
		if e == nil || !p.expect(tRBrack, `"]" to close "[" at `+lineCol(t.pos)) {
			return nil
		}
		return &Unary{Op: OpIdent, X: e, Pos: t.pos}
	case t.isIdent():
		p.Next()
		return &Var{Name: t.text, Pos: t.pos}
	}
	p.fail("expected an expression (a name, _, 0, a tag, (, [, {, ~, let, fun, match, try or if), found %s", t.describe())
	return nil
}

// args parses "a, b, c" up to the closing token (explicit sets, a bell
// file's instructions).
func (p *parser) args(closing kind, text string) ([]Expr, bool) {
	var out []Expr
	if p.Peek().kind == closing {
		p.Next()
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
		switch p.Peek().kind {
		case tComma:
			p.Next()
		case closing:
			p.Next()
			return out, true
		default:
			p.fail(`expected "," or %q, found %s`, text, p.Peek().describe())
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
