package cat

import (
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// outside names the constructs of cat that ptxmm does not read, by the
// keyword that starts them, for the error that reports them.
var outside = map[string]string{
	"match":        "match ... with",
	"with":         "with ... from",
	"procedure":    "procedures",
	"call":         "procedure calls",
	"forall":       "forall ... do",
	"if":           "if ... then ... else (and if variant)",
	"enum":         "enum",
	"debug":        "debug",
	"instructions": "instructions (bell files)",
	"default":      "default (bell files)",
	"catdep":       "catdep",
	"fun":          "fun (anonymous functions)",
	"try":          "try ... with",
	"assert":       "assert tests",
	"subset":       "subset",
	"variant":      "variant",
	"do":           "do",
	"then":         "then",
	"else":         "else",
	"from":         "from",
	"in":           "let ... in",
	"not":          "not",
	"when":         "let rec ... when",
}

// subsetNote ends every error about a construct outside the subset.
const subsetNote = "ptxmm reads let, let rec, functions, include, tests, flag, undefined_unless, show and unshow"

// includeFunc returns the statements of an included file; the parser
// splices them where the include stands.
type includeFunc func(path string, pos source.Pos) []Stmt

// parser reads the tokens of one file.
type parser struct {
	toks    []token
	i       int
	errs    *source.List
	include includeFunc
	// nesting is the depth of the expression being parsed (parentheses,
	// brackets, begin ... end, arguments, ~), ops the operators of the
	// outermost expression so far: both are bounded as in the .dl front
	// end (datalog/limits.go), since every pass over an expression
	// recurses as deep as it is nested.
	nesting, ops int
	// aborted is set when the nesting limit stops an expression: the
	// open calls return at once, without errors, and the statement loop
	// resumes at the next statement.
	aborted bool
}

// parseFile parses one cat file; includes are resolved through include.
// It returns the model's name (from the first line) and the statements.
func parseFile(file, src string, errs *source.List, include includeFunc) (string, []Stmt) {
	var local source.List
	lx := newLexer(file, src, &local)
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			break
		}
	}
	p := &parser{toks: toks, errs: &local, include: include}
	name := p.identity()
	var stmts []Stmt
	for p.tok().kind != tEOF {
		stmts = append(stmts, p.stmt()...)
		if p.aborted {
			p.aborted = false
			p.recover()
		}
	}
	local.AttachLines(file, src)
	*errs = append(*errs, local...)
	return name, stmts
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// identity reads the model's name: herd's first line is a name or a
// string, or an architecture followed by a name or a string.
func (p *parser) identity() string {
	t := p.tok()
	if t.kind != tString && !t.isIdent() {
		return ""
	}
	p.advance()
	if n := p.tok(); n.kind == tString || n.isIdent() {
		p.advance()
		return n.text
	}
	return t.text
}

// stmtStarts are the keywords a statement can start with, where the parser
// resumes after an error.
var stmtStarts = map[string]bool{
	"let": true, "include": true, "show": true, "unshow": true, "acyclic": true, "irreflexive": true,
	"empty": true, "flag": true, "undefined_unless": true,
	// Constructs outside the subset start statements too, so that each is
	// reported once.
	"match": true, "with": true, "procedure": true, "call": true, "forall": true, "if": true,
	"enum": true, "debug": true, "instructions": true, "default": true, "assert": true,
}

// blockOpeners are the keywords whose construct ends with "end".
var blockOpeners = map[string]bool{"procedure": true, "match": true, "forall": true, "if": true, "begin": true}

// recover skips to the start of the next statement, over the blocks that
// end with "end".
func (p *parser) recover() { p.skipFrom(0) }

// skipFrom is recover from inside depth open blocks.
func (p *parser) skipFrom(depth int) {
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return
		case depth == 0 && t.kind == tName && stmtStarts[t.text]:
			return
		case depth == 0 && t.kind == tCompl && isTestKeyword(p.peek()):
			return
		case t.kind == tName && blockOpeners[t.text]:
			depth++
		case t.isKeyword("end") && depth > 0:
			depth--
		}
		p.advance()
	}
}

func isTestKeyword(t token) bool {
	return t.isKeyword("acyclic") || t.isKeyword("irreflexive") || t.isKeyword("empty")
}

// fail reports a syntax error at the current token and skips to the next
// statement (which may start at the current token).
func (p *parser) fail(format string, args ...any) {
	if p.aborted {
		return
	}
	t := p.tok()
	p.errs.Add(t.pos, format, args...)
	if !(t.kind == tName && stmtStarts[t.text]) && !(t.kind == tCompl && isTestKeyword(p.peek())) {
		p.advance()
	}
	p.recover()
}

// outsideErr reports a construct outside the subset at t, the current
// token, and skips it: to the end of its block for those that end with
// "end", then to the next statement.
func (p *parser) outsideErr(t token) {
	p.errs.Add(t.pos, "%s is outside the cat subset ptxmm reads (%s)", outside[t.text], subsetNote)
	p.advance()
	depth := 0
	if blockOpeners[t.text] {
		depth = 1
	}
	p.skipFrom(depth)
}

// stmt parses one statement (an include gives the included statements).
func (p *parser) stmt() []Stmt {
	t := p.tok()
	switch {
	case t.isKeyword("let"):
		if s := p.let(); s != nil {
			return []Stmt{s}
		}
		return nil
	case t.isKeyword("include"):
		p.advance()
		f := p.tok()
		if f.kind != tString {
			p.fail("expected a string (the file to include, in double quotes) after include, found %s", f.describe())
			return nil
		}
		p.advance()
		if p.include == nil {
			return nil
		}
		return p.include(f.text, t.pos)
	case t.isKeyword("show"), t.isKeyword("unshow"):
		if s := p.show(); s != nil {
			return []Stmt{s}
		}
		return nil
	case t.isKeyword("flag"), t.isKeyword("undefined_unless"), isTestKeyword(t), t.kind == tCompl:
		if s := p.test(); s != nil {
			return []Stmt{s}
		}
		return nil
	case t.kind == tName && outside[t.text] != "":
		p.outsideErr(t)
		return nil
	}
	p.fail("expected a statement (let, let rec, include, a test such as acyclic e as name, flag, show), found %s", t.describe())
	return nil
}

// let parses "let [rec] b1 and b2 ...".
func (p *parser) let() Stmt {
	start := p.advance()
	rec := false
	if p.tok().isKeyword("rec") {
		rec = true
		p.advance()
	}
	var binds []*Binding
	for {
		b := p.binding()
		if b == nil {
			return nil
		}
		binds = append(binds, b)
		if !p.tok().isKeyword("and") {
			break
		}
		p.advance()
	}
	if t := p.tok(); t.isKeyword("when") {
		p.outsideErr(t)
		return nil
	}
	if t := p.tok(); t.isKeyword("in") {
		// herd accepts "let x = e in" at top level; the "in" changes nothing.
		p.advance()
	}
	if rec {
		return &LetRec{Bindings: binds, Pos: start.pos}
	}
	return &Let{Bindings: binds, Pos: start.pos}
}

// binding parses "name = e", "f(x, y) = e" or "f x = e".
func (p *parser) binding() *Binding {
	t := p.tok()
	if t.kind == tLParen {
		p.errs.Add(t.pos, "tuple bindings such as let (a, b) = e are outside the cat subset ptxmm reads (%s)", subsetNote)
		p.advance()
		p.recover()
		return nil
	}
	if !t.isIdent() {
		p.fail("expected a name to bind after let, found %s", t.describe())
		return nil
	}
	p.advance()
	b := &Binding{Name: t.text, Pos: t.pos}
	switch n := p.tok(); {
	case n.kind == tLParen:
		p.advance()
		b.IsFunc = true
		for p.tok().kind != tRParen {
			param := p.tok()
			if !param.isIdent() && param.kind != tUnderscore {
				p.fail("expected a parameter name in the parameters of %s, found %s", b.Name, param.describe())
				return nil
			}
			p.advance()
			b.Params = append(b.Params, paramName(param))
			if p.tok().kind == tComma {
				p.advance()
				continue
			}
			if p.tok().kind != tRParen {
				p.fail(`expected "," or ")" in the parameters of %s, found %s`, b.Name, p.tok().describe())
				return nil
			}
		}
		p.advance()
	case n.isIdent() || n.kind == tUnderscore:
		p.advance()
		b.IsFunc = true
		b.Params = []string{paramName(n)}
	}
	if p.tok().kind != tEqual {
		p.fail(`expected "=" after let %s, found %s`, b.Name, p.tok().describe())
		return nil
	}
	p.advance()
	b.Expr = p.expr()
	if b.Expr == nil {
		return nil
	}
	return b
}

func paramName(t token) string {
	if t.kind == tUnderscore {
		return "_"
	}
	return t.text
}

// test parses "[flag|undefined_unless] [~]acyclic|irreflexive|empty e [as name]".
func (p *parser) test() Stmt {
	start := p.tok()
	s := &Test{Pos: start.pos}
	switch {
	case start.isKeyword("flag"):
		s.Mode = ModeFlag
		p.advance()
	case start.isKeyword("undefined_unless"):
		s.Mode = ModeUndefinedUnless
		p.advance()
	}
	if p.tok().kind == tCompl {
		s.Negated = true
		p.advance()
	}
	switch k := p.tok(); {
	case k.isKeyword("acyclic"):
		s.Kind = TestAcyclic
	case k.isKeyword("irreflexive"):
		s.Kind = TestIrreflexive
	case k.isKeyword("empty"):
		s.Kind = TestEmpty
	default:
		p.fail("expected acyclic, irreflexive or empty, found %s", k.describe())
		return nil
	}
	p.advance()
	s.Expr = p.expr()
	if s.Expr == nil {
		return nil
	}
	if p.tok().isKeyword("as") {
		p.advance()
		n := p.tok()
		if !n.isIdent() {
			p.fail("expected a name after as, found %s", n.describe())
			return nil
		}
		p.advance()
		s.Name = n.text
	}
	return s
}

// show parses "show e as name", "show a, b" or "unshow a, b".
func (p *parser) show() Stmt {
	start := p.advance()
	s := &Show{Unshow: start.text == "unshow", Pos: start.pos}
	if !s.Unshow && !p.nameList() {
		e := p.expr()
		if e == nil {
			return nil
		}
		if !p.tok().isKeyword("as") {
			p.errs.Add(e.Position(), "show takes names, or an expression followed by as name")
			p.recover()
			return nil
		}
		p.advance()
		n := p.tok()
		if !n.isIdent() {
			p.fail("expected a name after show ... as, found %s", n.describe())
			return nil
		}
		p.advance()
		s.Expr, s.Names = e, []string{n.text}
		return s
	}
	for {
		n := p.tok()
		if !n.isIdent() {
			p.fail("expected a name to %s, found %s", start.text, n.describe())
			return nil
		}
		p.advance()
		s.Names = append(s.Names, n.text)
		if p.tok().kind != tComma {
			return s
		}
		p.advance()
	}
}

// nameList reports whether a list of names "a, b, c" starts here and is
// not the start of an expression followed by "as".
func (p *parser) nameList() bool {
	j := p.i
	for {
		if !p.toks[j].isIdent() {
			return false
		}
		j++
		if p.toks[j].kind != tComma {
			break
		}
		j++
	}
	switch next := p.toks[j]; next.kind {
	case tUnion, tSemi, tDiff, tInter, tStar, tPlus, tOpt, tHat, tLParen, tLBrack, tUnderscore, tZero:
		return false
	case tName:
		return !next.isKeyword("as")
	}
	return true
}

// expr parses an expression; it reports an error and returns nil when
// there is none.
func (p *parser) expr() Expr {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	if t := p.tok(); t.kind == tName && outside[t.text] != "" && t.text != "in" {
		p.outsideErr(t)
		return nil
	}
	if t := p.tok(); t.isKeyword("let") {
		p.errs.Add(t.pos, "let ... in expressions are outside the cat subset ptxmm reads (%s)", subsetNote)
		p.advance()
		p.recover()
		return nil
	}
	return p.binary(0)
}

// enter counts one more level of nesting, refusing to go past
// datalog.MaxExprNesting (with an error, and skipping to the next
// statement); the operator count starts afresh with each outermost
// expression.
func (p *parser) enter() bool {
	if p.nesting == 0 {
		p.ops = 0
	}
	p.nesting++
	if p.nesting > datalog.MaxExprNesting {
		p.errs.Add(p.tok().pos, "expression nested more than %d deep in parentheses, brackets, begin ... end, arguments or ~: write it as several definitions", datalog.MaxExprNesting)
		p.nesting--
		p.aborted = true
		return false
	}
	return true
}

func (p *parser) leave() { p.nesting-- }

// countOp counts one more operator of the current expression and reports
// false, with an error the first time, past datalog.MaxExprOperators.
func (p *parser) countOp(pos source.Pos) bool {
	p.ops++
	if p.ops == datalog.MaxExprOperators+1 {
		p.errs.Add(pos, "expression with more than %d operators: write it as several definitions", datalog.MaxExprOperators)
		p.aborted = true
	}
	return p.ops <= datalog.MaxExprOperators
}

// levels lists the binary operators from the loosest to the tightest, as
// herd's grammar ranks them (| < ; < \ < &); * between operands binds
// tighter still and is handled by product.
var levels = []map[kind]BinOp{
	{tUnion: OpUnion},
	{tSemi: OpSeq},
	{tDiff: OpDiff},
	{tInter: OpInter},
}

func (p *parser) binary(level int) Expr {
	if level == len(levels) {
		return p.product()
	}
	l := p.binary(level + 1)
	if l == nil {
		return nil
	}
	for {
		t := p.tok()
		if t.kind == tPlusPlus || t.kind == tAlt || t.kind == tLAnd {
			p.errs.Add(t.pos, "the operator %s is outside the cat subset ptxmm reads (it works on sets of relations and variants; use | & \\ ; instead)", t.describe())
			p.advance()
			p.recover()
			return nil
		}
		op, ok := levels[level][t.kind]
		if !ok {
			return l
		}
		p.advance()
		r := p.binary(level + 1)
		if r == nil || !p.countOp(t.pos) {
			return nil
		}
		l = &Binary{Op: op, L: l, R: r, Pos: l.Position()}
	}
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
	for l != nil && p.tok().kind == tStar && startsOperand(p.peek()) {
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
		if x == nil {
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
		case t.kind == tStar && !startsOperand(p.peek()):
			op = OpStar
		case t.kind == tOpt:
			op = OpOpt
		case t.kind == tHat:
			if p.peek().kind != tInv {
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

// startsArg reports whether t can start the argument of an application
// written without parentheses (f x).
func startsArg(t token) bool {
	switch t.kind {
	case tLParen, tLBrack, tUnderscore, tZero, tLBrace, tTag:
		return true
	case tName:
		return !keywords[t.text] || t.text == "begin"
	}
	return false
}

// app parses a primary and the applications that follow it: f(a, b), f x.
func (p *parser) app() Expr {
	x := p.primary()
	for x != nil && isCallee(x) && startsArg(p.tok()) {
		if p.tok().kind == tLParen {
			open := p.advance()
			var args []Expr
			for p.tok().kind != tRParen {
				a := p.expr()
				if a == nil {
					return nil
				}
				args = append(args, a)
				if p.tok().kind == tComma {
					p.advance()
					continue
				}
				if p.tok().kind != tRParen {
					p.fail(`expected "," or ")" to close the arguments opened at %d:%d, found %s`, open.pos.Line, open.pos.Col, p.tok().describe())
					return nil
				}
			}
			p.advance()
			x = &App{Fun: x, Args: args, Pos: x.Position()}
			continue
		}
		a := p.primary()
		if a == nil {
			return nil
		}
		x = &App{Fun: x, Args: []Expr{a}, Pos: x.Position()}
	}
	return x
}

func isCallee(e Expr) bool {
	switch e.(type) {
	case *Var, *App:
		return true
	}
	return false
}

// primary parses a name, _, 0, (e), [e] or begin e end.
func (p *parser) primary() Expr {
	t := p.tok()
	switch {
	case t.isIdent():
		p.advance()
		return &Var{Name: t.text, Pos: t.pos}
	case t.kind == tUnderscore:
		p.advance()
		return &Universe{Pos: t.pos}
	case t.kind == tZero:
		p.advance()
		return &Empty{Pos: t.pos}
	case t.kind == tLParen:
		p.advance()
		if p.tok().kind == tRParen {
			p.fail("() (the empty tuple) is outside the cat subset ptxmm reads")
			return nil
		}
		e := p.expr()
		if e == nil {
			return nil
		}
		if p.tok().kind == tComma {
			p.fail("tuples are outside the cat subset ptxmm reads, except as the arguments of a function")
			return nil
		}
		if p.tok().kind != tRParen {
			p.fail(`expected ")" to close "(" at %d:%d, found %s`, t.pos.Line, t.pos.Col, p.tok().describe())
			return nil
		}
		p.advance()
		return e
	case t.isKeyword("begin"):
		p.advance()
		e := p.expr()
		if e == nil {
			return nil
		}
		if !p.tok().isKeyword("end") {
			p.fail(`expected end to close begin at %d:%d, found %s`, t.pos.Line, t.pos.Col, p.tok().describe())
			return nil
		}
		p.advance()
		return e
	case t.kind == tLBrack:
		p.advance()
		e := p.expr()
		if e == nil {
			return nil
		}
		if p.tok().kind != tRBrack {
			p.fail(`expected "]" to close "[" at %d:%d, found %s`, t.pos.Line, t.pos.Col, p.tok().describe())
			return nil
		}
		p.advance()
		return &Unary{Op: OpIdent, X: e, Pos: t.pos}
	case t.kind == tLBrace:
		p.fail("explicit sets {...} are outside the cat subset ptxmm reads (%s)", subsetNote)
		return nil
	case t.kind == tTag:
		p.fail("tags ('%s) are outside the cat subset ptxmm reads (%s)", t.text, subsetNote)
		return nil
	case t.kind == tName && outside[t.text] != "":
		p.outsideErr(t)
		return nil
	}
	p.fail("expected a relation name, _, 0, (, [ or ~ to start an expression, found %s", t.describe())
	return nil
}

// joinNames prints names for messages.
func joinNames(names []string) string { return strings.Join(names, ", ") }
