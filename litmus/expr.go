package litmus

import "fmt"

// This file parses conditions: herd "P1:r0 == 1 /\ ~(x = 2)" and .test
// "r0 == 1 && !(x != 2)". The grammar is the same, only the spellings and
// the terms differ:
//
//	or      = and { OR and }
//	and     = unary { AND unary }
//	unary   = NOT unary | primary
//	primary = "(" or ")" | "true" | "false" | term CMP term

// maxExprDepth bounds nesting so that hostile input cannot exhaust the
// stack; real conditions nest a few levels at most.
const maxExprDepth = 1000

// exprParser parses one condition from a cursor.
type exprParser struct {
	p          *parser
	c          *cursor
	and, or    string
	not        string
	cmpOps     []string // accepted comparison operators; "=" means "=="
	depth      int
	term       func() (Term, bool)
	failed     bool
	cmpExample string
}

// newExprParser returns a parser for the syntax of the parser's format.
// term reads one term in that format.
func newExprParser(p *parser, c *cursor, term func() (Term, bool)) *exprParser {
	e := &exprParser{p: p, c: c, term: term}
	if p.format == FormatHerd {
		e.and, e.or, e.not, e.cmpOps, e.cmpExample = `/\`, `\/`, "~", []string{"==", "=", "!="}, "==, = or !="
	} else {
		e.and, e.or, e.not, e.cmpOps, e.cmpExample = "&&", "||", "!", []string{"==", "!="}, "== or !="
	}
	return e
}

// at reports whether the next token (within the cursor) is s.
func (e *exprParser) at(s string) bool {
	return !e.c.done() && e.c.peek().is(s)
}

// fail reports the first error of a condition only: what follows a
// mistake rarely makes sense on its own.
func (e *exprParser) fail(off int, format string, args ...any) Expr {
	if !e.failed {
		e.p.errorf(off, format, args...)
	}
	e.failed = true
	return nil
}

// parseOr parses a disjunction, the loosest-binding level.
func (e *exprParser) parseOr() Expr {
	l := e.parseAnd()
	for l != nil && e.at(e.or) {
		e.c.next()
		r := e.parseAnd()
		if r == nil {
			return nil
		}
		l = &Or{L: l, R: r, Pos: l.Position()}
	}
	if l != nil {
		if off, hint := e.foreignConnective(); hint != "" {
			return e.fail(off, "%s", hint)
		}
	}
	return l
}

// foreignConnective reports whether a complete condition is followed by
// the other format's "and" or "or" (C's && and || in a herd test, herd's
// /\ and \/ in a .test file), and if so where and which spelling to use.
func (e *exprParser) foreignConnective() (int, string) {
	if e.c.done() {
		return 0, ""
	}
	t := e.c.peek()
	var used, meaning string
	switch {
	case e.p.format == FormatHerd && t.is("&&"):
		used, meaning = "&&", "and"
	case e.p.format == FormatHerd && t.is("|") && e.c.i+1 < len(e.c.toks) && e.c.peekAt(1).is("|") && e.c.peekAt(1).off == t.end:
		used, meaning = "||", "or"
	case e.p.format != FormatHerd && t.is(`/\`):
		used, meaning = `/\`, "and"
	case e.p.format != FormatHerd && t.is(`\/`):
		used, meaning = `\/`, "or"
	default:
		return 0, ""
	}
	want := e.and
	if meaning == "or" {
		want = e.or
	}
	format := "a herd condition"
	if e.p.format != FormatHerd {
		format = "a .test condition"
	}
	return t.off, fmt.Sprintf("%s is not how %s writes %q: write %s", used, format, meaning, want)
}

// parseAnd parses a conjunction.
func (e *exprParser) parseAnd() Expr {
	l := e.parseUnary()
	for l != nil && e.at(e.and) {
		e.c.next()
		r := e.parseUnary()
		if r == nil {
			return nil
		}
		l = &And{L: l, R: r, Pos: l.Position()}
	}
	return l
}

// parseUnary parses negations.
func (e *exprParser) parseUnary() Expr {
	if !e.at(e.not) {
		return e.parsePrimary()
	}
	t := e.c.next()
	if e.depth++; e.depth > maxExprDepth {
		return e.fail(t.off, "condition nested too deeply")
	}
	x := e.parseUnary()
	e.depth--
	if x == nil {
		return nil
	}
	return &Not{X: x, Pos: e.p.pos(t.off)}
}

// isCmp reports whether t is a comparison operator of the format.
func (e *exprParser) isCmp(t token) bool {
	for _, op := range e.cmpOps {
		if t.is(op) {
			return true
		}
	}
	return false
}

// parsePrimary parses a parenthesised condition, a truth value or a
// comparison.
func (e *exprParser) parsePrimary() Expr {
	t := e.c.peek()
	if e.at("(") {
		e.c.next()
		if e.depth++; e.depth > maxExprDepth {
			return e.fail(t.off, "condition nested too deeply")
		}
		x := e.parseOr()
		e.depth--
		if x == nil {
			return nil
		}
		if !e.at(")") {
			n := e.c.peek()
			return e.fail(n.off, "expected ')' to close the '(' at column %d, found %s", e.p.pos(t.off).Col, n.describe())
		}
		e.c.next()
		return x
	}
	if !e.c.done() && t.kind == tokIdent && (t.text == "true" || t.text == "false") && (e.c.i+1 >= len(e.c.toks) || !e.isCmp(e.c.peekAt(1))) {
		e.c.next()
		return &BoolLit{Value: t.text == "true", Pos: e.p.pos(t.off)}
	}
	l, ok := e.term()
	if !ok {
		e.failed = true
		return nil
	}
	op := e.c.peek()
	if e.c.done() || !e.isCmp(op) {
		if !e.c.done() && (op.is("=") || op.is("==") || op.is("!=")) {
			return e.fail(op.off, "expected a comparison (%s), found %s", e.cmpExample, op.describe())
		}
		return e.fail(op.off, "expected a comparison (%s) after %s, found %s", e.cmpExample, l.String(), op.describe())
	}
	e.c.next()
	r, ok := e.term()
	if !ok {
		e.failed = true
		return nil
	}
	cmp := "=="
	if op.is("!=") {
		cmp = "!="
	}
	return &Cmp{Op: cmp, L: l, R: r, Pos: l.Pos}
}
