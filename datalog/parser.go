package datalog

import (
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// parser builds the syntax tree of one file. Includes are resolved by the
// loader (load.go), which calls the parser once per file.
type parser struct {
	relop.Tokens[token]
	errs *source.List
	prog *Program
	// include loads an included file into prog when the parser meets its
	// .include, so that the included items come where the directive is.
	include func(includeDirective)
	// doc holds the lines of the doc comment read so far, joined when an
	// item takes it (joining line by line as they come is quadratic).
	doc []string
	// nesting is the depth of expressions being parsed and ops the
	// operators of the outermost one so far (countOp).
	nesting, ops int
}

type includeDirective struct {
	path string
	pos  source.Pos
}

// parseFile parses one file's text into prog, calling include for each
// .include directive as it is met.
func parseFile(file, src string, prog *Program, errs *source.List, include func(includeDirective)) {
	p := &parser{Tokens: relop.Tokens[token]{Toks: tokenize(file, src, errs)}, errs: errs, prog: prog, include: include}
	p.parseItems()
}

// tokenize lexes a whole text, ending with the end-of-file token.
func tokenize(file, src string, errs *source.List) []token {
	lx := newLexer(file, src, errs)
	// Models run about one token to nine bytes, comments included: room
	// for one in eight spares the copies of growing the slice.
	toks := make([]token, 0, len(src)/8+16)
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tokEOF {
			return toks
		}
	}
}

func (p *parser) at(k tokenKind) bool { return p.Peek().kind == k }

// expect consumes a token of kind k, or reports what was found instead.
func (p *parser) expect(k tokenKind, context string) (token, bool) {
	t := p.Peek()
	if t.kind != k {
		p.errs.Add(t.pos, "expected %s %s, found %s", k.expected(), context, t.describe())
		return t, false
	}
	return p.Next(), true
}

// recover skips to the end of the current statement, so that one syntax
// error does not cascade: past the next period, or up to the next
// directive, doc comment or definition.
func (p *parser) recover() {
	for !p.at(tokEOF) {
		t := p.Peek()
		switch t.kind {
		case tokDot:
			// A period cannot occur inside parentheses, so it ends the
			// statement even when a parenthesis was left open.
			p.Next()
			return
		case tokDirective, tokDoc, tokQuery:
			return
		case tokIdent:
			if t.text == "let" && p.At(1).kind == tokIdent && p.At(2).kind == tokEq {
				return
			}
		}
		p.Next()
	}
}

func (p *parser) takeDoc() string {
	d := strings.Join(p.doc, "\n")
	p.doc = p.doc[:0]
	return d
}

func (p *parser) parseItems() {
	for !p.at(tokEOF) {
		if p.errs.Full() {
			// Too many errors: the list takes no more, so the loop
			// below could no longer tell that an item failed.
			return
		}
		start := p.I
		errsBefore := len(*p.errs)
		p.parseItem()
		if len(*p.errs) > errsBefore && p.I == start {
			p.Next()
		}
		if len(*p.errs) > errsBefore {
			p.recover()
		}
	}
}

func (p *parser) parseItem() {
	t := p.Peek()
	switch t.kind {
	case tokDoc:
		p.Next()
		// Empty lines before the first line of text are not kept.
		if len(p.doc) > 0 || t.text != "" {
			p.doc = append(p.doc, t.text)
		}
		return
	case tokDirective:
		p.parseDirective()
	case tokQuery:
		p.doc = p.doc[:0]
		p.parseQuery()
	case tokIdent:
		if t.text == "let" && p.At(1).kind == tokIdent {
			p.parseDef()
			return
		}
		p.doc = p.doc[:0]
		if r := p.parseRule(); r != nil {
			p.prog.Rules = append(p.prog.Rules, r)
		}
	default:
		p.doc = p.doc[:0]
		p.errs.Add(t.pos, "expected a rule, a fact, a definition (let), a query (?-) or a directive (.decl, .input, .check, ...), found %s", t.describe())
	}
}

func (p *parser) parseDirective() {
	t := p.Next()
	switch t.text {
	case "decl":
		p.parseDecl(t)
	case "input", "output", "printsize", "edges", "show":
		p.doc = p.doc[:0]
		kind := map[string]IOKind{"input": IOInput, "output": IOOutput, "printsize": IOPrintSize, "edges": IOEdges, "show": IOShow}[t.text]
		for {
			name, ok := p.expect(tokIdent, "(a relation name) after ."+t.text)
			if !ok {
				return
			}
			p.prog.IO = append(p.prog.IO, &IODirective{Kind: kind, Name: name.text, Pos: name.pos})
			if !p.at(tokComma) {
				return
			}
			p.Next()
		}
	case "include":
		p.doc = p.doc[:0]
		s, ok := p.expect(tokString, "(the file to include, in double quotes) after .include")
		if ok && p.include != nil {
			p.include(includeDirective{path: s.text, pos: s.pos})
		}
	case "check", "flag", "undefined":
		if c := p.parseCheckBody(t.pos, t.text); c != nil {
			c.Mode = map[string]CheckMode{"check": ModeAxiom, "flag": ModeFlag, "undefined": ModeUndefined}[t.text]
			p.prog.Checks = append(p.prog.Checks, c)
		}
	case "order":
		p.parseOrder(t)
	case "redefine":
		p.parseRedefine(t)
	case "recheck":
		if c := p.parseCheckBody(t.pos, "recheck"); c != nil {
			p.prog.Edits = append(p.prog.Edits, &Edit{Kind: EditRecheck, Name: c.Name, Check: c, Pos: t.pos})
		}
	case "uncheck":
		p.doc = p.doc[:0]
		name, ok := p.expect(tokIdent, "(the name of the check to remove) after .uncheck")
		if ok {
			p.prog.Edits = append(p.prog.Edits, &Edit{Kind: EditUncheck, Name: name.text, Pos: t.pos})
		}
	default:
		p.doc = p.doc[:0]
		p.errs.Add(t.pos, "unknown directive .%s: expected .decl, .input, .output, .printsize, .edges, .show, .include, .check, .flag, .undefined, .order, .redefine, .recheck or .uncheck", t.text)
	}
}

func (p *parser) parseDecl(dir token) {
	doc := p.takeDoc()
	name, ok := p.expect(tokIdent, "(the relation name) after .decl")
	if !ok {
		return
	}
	d := &Decl{Name: name.text, Doc: doc, Pos: name.pos}
	if _, ok := p.expect(tokLParen, "after the relation name in .decl "+name.text); !ok {
		return
	}
	for !p.at(tokRParen) {
		pn, ok := p.expect(tokIdent, "(a column name) in .decl "+name.text)
		if !ok {
			return
		}
		param := Param{Name: pn.text, Pos: pn.pos}
		if p.at(tokColon) {
			p.Next()
			ty, ok := p.expect(tokIdent, "(a type: symbol, number or event) after ':'")
			if !ok {
				return
			}
			switch ty.text {
			case "symbol", "number", "event":
			default:
				p.errs.Add(ty.pos, "unknown type %q: expected symbol, number or event", ty.text)
			}
			param.Type = ty.text
		}
		d.Params = append(d.Params, param)
		if p.at(tokComma) {
			p.Next()
			if p.at(tokRParen) {
				p.expect(tokIdent, "(a column name) after \",\" in .decl "+name.text)
				return
			}
			continue
		}
		if !p.at(tokRParen) {
			t := p.Peek()
			p.errs.Add(t.pos, "expected \",\" or \")\" in .decl %s, found %s", name.text, t.describe())
			return
		}
	}
	p.Next()
	if len(d.Params) == 0 {
		p.errs.Add(name.pos, "relation %s has no columns: a relation needs at least one", name.text)
		return
	}
	p.prog.Decls = append(p.prog.Decls, d)
}

// parseCheckBody parses "name: kind(expr)" after .check, .flag, .undefined
// or .recheck.
func (p *parser) parseCheckBody(pos source.Pos, directive string) *Check {
	doc := p.takeDoc()
	name, ok := p.expect(tokIdent, "(the check's name) after ."+directive)
	if !ok {
		return nil
	}
	if _, ok := p.expect(tokColon, "after the check name "+name.text); !ok {
		return nil
	}
	kt, ok := p.expect(tokIdent, "(acyclic, irreflexive or empty) in check "+name.text)
	if !ok {
		return nil
	}
	var kind CheckKind
	switch kt.text {
	case "acyclic":
		kind = CheckAcyclic
	case "irreflexive":
		kind = CheckIrreflexive
	case "empty":
		kind = CheckEmpty
	default:
		p.errs.Add(kt.pos, "unknown check kind %q: expected acyclic, irreflexive or empty", kt.text)
		return nil
	}
	if _, ok := p.expect(tokLParen, "after "+kt.text); !ok {
		return nil
	}
	e := p.parseExpr()
	if e == nil {
		return nil
	}
	if _, ok := p.expect(tokRParen, "to close "+kt.text+"("); !ok {
		return nil
	}
	return &Check{Name: name.text, Kind: kind, Expr: e, Doc: doc, Pos: name.pos}
}

func (p *parser) parseOrder(dir token) {
	doc := p.takeDoc()
	name, ok := p.expect(tokIdent, "(the order's relation name) after .order")
	if !ok {
		return
	}
	over, ok := p.expect(tokIdent, "(the word over) after .order "+name.text)
	if !ok {
		return
	}
	if over.text != "over" {
		p.errs.Add(over.pos, "expected \"over\" after .order %s, found %s", name.text, over.describe())
		return
	}
	pairs, ok := p.expect(tokIdent, "(the relation whose pairs the order relates) after over")
	if !ok {
		return
	}
	o := &Order{Name: name.text, Over: pairs.text, Doc: doc, Pos: name.pos}
	// "partial" after the pairs, unless it starts a rule for a relation
	// called partial.
	if t := p.Peek(); t.kind == tokIdent && t.text == "partial" && p.At(1).kind != tokLParen {
		p.Next()
		o.Partial = true
	}
	p.prog.Orders = append(p.prog.Orders, o)
}

func (p *parser) parseRedefine(dir token) {
	doc := p.takeDoc()
	if p.at(tokIdent) && p.At(1).kind == tokEq {
		name := p.Next()
		p.Next()
		e := p.parseExpr()
		if e == nil {
			return
		}
		if p.at(tokDot) {
			p.Next()
		}
		def := &Def{Name: name.text, Expr: e, Doc: doc, Pos: name.pos}
		p.prog.Edits = append(p.prog.Edits, &Edit{Kind: EditRedefine, Name: name.text, Def: def, Pos: dir.pos})
		return
	}
	if !p.at(tokIdent) {
		t := p.Peek()
		p.errs.Add(t.pos, "expected \"name = expression\" or a rule after .redefine, found %s", t.describe())
		return
	}
	r := p.parseRule()
	if r == nil {
		return
	}
	p.prog.Edits = append(p.prog.Edits, &Edit{Kind: EditRedefine, Name: r.Head.Pred, Rules: []*Rule{r}, Pos: dir.pos})
}

func (p *parser) parseDef() {
	doc := p.takeDoc()
	p.Next() // let
	name := p.Next()
	if _, ok := p.expect(tokEq, "after let "+name.text); !ok {
		return
	}
	e := p.parseExpr()
	if e == nil {
		return
	}
	if p.at(tokDot) {
		p.Next()
	}
	p.prog.Defs = append(p.prog.Defs, &Def{Name: name.text, Expr: e, Doc: doc, Pos: name.pos})
}

func (p *parser) parseQuery() {
	q := p.Next()
	body, ok := p.parseBody()
	if !ok {
		return
	}
	if _, ok := p.expect(tokDot, "to end the query"); !ok {
		return
	}
	p.prog.Queries = append(p.prog.Queries, &Query{Body: body, Pos: q.pos})
}

// parseRule parses "head." or "head :- body.".
func (p *parser) parseRule() *Rule {
	head := p.parseAtom()
	if head == nil {
		return nil
	}
	r := &Rule{Head: head, Pos: head.Pos}
	if p.at(tokIf) {
		p.Next()
		body, ok := p.parseBody()
		if !ok {
			return nil
		}
		r.Body = body
	}
	if _, ok := p.expect(tokDot, "to end the rule for "+head.Pred); !ok {
		return nil
	}
	return r
}

func (p *parser) parseBody() ([]Literal, bool) {
	var body []Literal
	for {
		lit := p.parseLiteral()
		if lit == nil {
			return nil, false
		}
		body = append(body, lit)
		if !p.at(tokComma) {
			return body, true
		}
		p.Next()
	}
}

func (p *parser) parseLiteral() Literal {
	if p.at(tokBang) {
		bang := p.Next()
		a := p.parseAtom()
		if a == nil {
			return nil
		}
		a.Negated = true
		a.Pos = bang.pos
		return a
	}
	if p.at(tokIdent) && p.At(1).kind == tokLParen {
		if a := p.parseAtom(); a != nil {
			return a
		}
		return nil
	}
	l, ok := p.parseTerm()
	if !ok {
		return nil
	}
	op := p.Peek()
	if op.kind != tokEq && op.kind != tokNeq {
		p.errs.Add(op.pos, "expected \"=\" or \"!=\" after %s in a rule body (or an atom such as rel(X, Y)), found %s", termText(l), op.describe())
		return nil
	}
	p.Next()
	r, ok := p.parseTerm()
	if !ok {
		return nil
	}
	return &Compare{Op: op.text, L: l, R: r, Pos: l.Pos}
}

func (p *parser) parseAtom() *Atom {
	name, ok := p.expect(tokIdent, "(a relation name)")
	if !ok {
		return nil
	}
	if _, ok := p.expect(tokLParen, "after "+name.text+" (an atom is written rel(X, Y))"); !ok {
		return nil
	}
	a := &Atom{Pred: name.text, Pos: name.pos}
	for !p.at(tokRParen) {
		t, ok := p.parseTerm()
		if !ok {
			return nil
		}
		a.Args = append(a.Args, t)
		if p.at(tokComma) {
			p.Next()
			if p.at(tokRParen) {
				t := p.Peek()
				p.errs.Add(t.pos, "expected a variable, _, a string or an integer after \",\" in the arguments of %s, found %s", name.text, t.describe())
				return nil
			}
			continue
		}
		if !p.at(tokRParen) {
			t := p.Peek()
			p.errs.Add(t.pos, "expected \",\" or \")\" in the arguments of %s, found %s", name.text, t.describe())
			return nil
		}
	}
	p.Next()
	if len(a.Args) == 0 {
		p.errs.Add(name.pos, "atom %s() has no arguments: relations have at least one column", name.text)
		return nil
	}
	return a
}

func (p *parser) parseTerm() (Term, bool) {
	t := p.Peek()
	switch t.kind {
	case tokIdent, tokWildcard, tokString, tokInt:
		// A term; anything else is left for error recovery, which stops
		// at a period.
		p.Next()
	}
	switch t.kind {
	case tokIdent:
		return Term{Kind: TermVar, Name: t.text, Pos: t.pos}, true
	case tokWildcard:
		return Term{Kind: TermWildcard, Name: "_", Pos: t.pos}, true
	case tokString:
		return Term{Kind: TermString, Name: t.text, Pos: t.pos}, true
	case tokInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			p.errs.Add(t.pos, "integer %s does not fit in 64 bits", t.text)
			return Term{}, false
		}
		return Term{Kind: TermInt, Int: v, Pos: t.pos}, true
	}
	p.errs.Add(t.pos, "expected a variable, _, a string or an integer, found %s", t.describe())
	return Term{}, false
}

func termText(t Term) string {
	switch t.Kind {
	case TermString:
		return strconv.Quote(t.Name)
	case TermInt:
		return strconv.FormatInt(t.Int, 10)
	default:
		return t.Name
	}
}
