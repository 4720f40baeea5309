package cat

// This file parses a model's instructions (parser.go): let, test
// (acyclic, irreflexive, empty), show, match, procedures and calls,
// forall, include, events, enum, and the variant conditions of if.

func isTestKeyword(t token) bool {
	return t.isKeyword("acyclic") || t.isKeyword("irreflexive") || t.isKeyword("empty")
}

// instr parses one instruction; nil after an error.
func (p *parser) instr(top bool) Instr {
	t := p.Peek()
	switch {
	case t.isKeyword("let"):
		return p.letInstr()
	case t.isKeyword("flag"), t.isKeyword("undefined_unless"), t.isKeyword("assert"), isTestKeyword(t), t.kind == tCompl:
		return p.testInstr()
	case t.isKeyword("show"), t.isKeyword("unshow"):
		return p.show()
	case t.isKeyword("include"):
		p.Next()
		f := p.Peek()
		if f.kind != tString {
			p.fail("expected a string (the file to include, in double quotes) after include, found %s", f.describe())
			return nil
		}
		p.Next()
		return &IncludeInstr{File: f.text, Pos: t.pos}
	case t.isKeyword("match"):
		return p.matchInstr()
	case t.isKeyword("procedure"):
		return p.procedure()
	case t.isKeyword("call"):
		return p.call()
	case t.isKeyword("debug"):
		p.Next()
		e := p.exp()
		if e == nil {
			return nil
		}
		return &DebugInstr{Expr: e, Pos: t.pos}
	case t.isKeyword("forall"):
		return p.forall()
	case t.isKeyword("with"):
		p.Next()
		v, ok := p.name("a name to bind after with")
		if !ok || !p.expectKeyword("from", "from after with "+v.text) {
			return nil
		}
		e := p.exp()
		if e == nil {
			return nil
		}
		return &WithInstr{Var: v.text, Set: e, Pos: t.pos}
	case t.isKeyword("if"):
		return p.ifVariant()
	case t.isKeyword("instructions"), t.isKeyword("default"):
		return p.events()
	case t.isKeyword("enum"):
		if !top {
			p.fail("enum defines tags for the whole model: write it at the top level, not inside a block")
			return nil
		}
		return p.enum()
	}
	p.fail("expected an instruction (let, include, a test such as acyclic e as name, flag, show, procedure, call, with, forall, if, match, enum), found %s", t.describe())
	return nil
}

// letInstr parses "let [rec] bindings [when test] [in]".
func (p *parser) letInstr() Instr {
	start := p.Next()
	in := &LetInstr{Pos: start.pos}
	if p.Peek().isKeyword("rec") {
		in.Rec = true
		p.Next()
	}
	if in.Bindings = p.bindings(); in.Bindings == nil {
		return nil
	}
	if w := p.Peek(); w.isKeyword("when") {
		if !in.Rec {
			p.fail("when follows let rec only (let rec x = e when acyclic x)")
			return nil
		}
		p.Next()
		if in.When = p.test(); in.When == nil {
			return nil
		}
	}
	if p.Peek().isKeyword("in") {
		// herd accepts "let x = e in" at the top level; the in changes
		// nothing there.
		p.Next()
	}
	return in
}

// testInstr parses "[flag|undefined_unless|assert] test".
func (p *parser) testInstr() Instr {
	start := p.Peek()
	in := &TestInstr{Pos: start.pos}
	switch {
	case start.isKeyword("flag"):
		in.Mode = ModeFlag
		p.Next()
	case start.isKeyword("undefined_unless"):
		in.Mode = ModeUndefinedUnless
		p.Next()
	case start.isKeyword("assert"):
		in.Mode = ModeAssert
		p.Next()
	}
	if in.Test = p.test(); in.Test == nil {
		return nil
	}
	return in
}

// test parses "[~]acyclic|irreflexive|empty e [as name]".
func (p *parser) test() *Test {
	s := &Test{Pos: p.Peek().pos}
	if p.Peek().kind == tCompl {
		s.Negated = true
		p.Next()
	}
	switch k := p.Peek(); {
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
	p.Next()
	if s.Expr = p.exp(); s.Expr == nil {
		return nil
	}
	var ok bool
	if s.Name, ok = p.optionalName(); !ok {
		return nil
	}
	return s
}

// optionalName parses an optional "as name".
func (p *parser) optionalName() (string, bool) {
	if !p.Peek().isKeyword("as") {
		return "", true
	}
	p.Next()
	n, ok := p.name("a name after as")
	return n.text, ok
}

// show parses "show e as name", "show a, b" or "unshow a, b".
func (p *parser) show() Instr {
	start := p.Next()
	s := &ShowInstr{Unshow: start.text == "unshow", Pos: start.pos}
	if !s.Unshow && !p.nameList() {
		e := p.base()
		if e == nil {
			return nil
		}
		if !p.Peek().isKeyword("as") {
			p.errs.Add(e.Position(), "show takes names, or an expression followed by as name")
			p.aborted = true
			return nil
		}
		p.Next()
		n, ok := p.name("a name after show ... as")
		if !ok {
			return nil
		}
		s.Expr, s.Names = e, []string{n.text}
		return s
	}
	for {
		n, ok := p.name("a name to " + start.text)
		if !ok {
			return nil
		}
		s.Names = append(s.Names, n.text)
		if p.Peek().kind != tComma {
			return s
		}
		p.Next()
	}
}

// nameList reports whether a list of names "a, b, c" starts here and is
// not the start of an expression followed by as.
func (p *parser) nameList() bool {
	j := p.I
	for {
		if !p.Toks[j].isIdent() {
			return false
		}
		j++
		if p.Toks[j].kind != tComma {
			break
		}
		j++
	}
	switch next := p.Toks[j]; next.kind {
	case tUnion, tSemi, tDiff, tInter, tStar, tPlus, tOpt, tHat, tLParen, tLBrack, tUnderscore, tZero,
		tLBrace, tTag, tPlusPlus:
		return false
	case tName:
		return !next.isKeyword("as") && !next.isKeyword("begin") && keywords[next.text]
	}
	return true
}

// matchInstr parses "match e with [||] 'a -> instrs || ... [|| _ -> instrs] end".
func (p *parser) matchInstr() Instr {
	start := p.Next()
	m := &MatchInstr{Pos: start.pos}
	if m.X = p.exp(); m.X == nil || !p.expectKeyword("with", "with after match ...") {
		return nil
	}
	if p.Peek().kind == tAlt {
		p.Next()
	}
	ok := p.tagClauses(start, false, func(tag token) bool {
		body := p.instrs(false)
		if p.aborted {
			return false
		}
		if tag.kind == tUnderscore {
			m.Default, m.HasDefault = body, true
		} else {
			m.Clauses = append(m.Clauses, InstrClause{Tag: tag.text, Body: body, Pos: tag.pos})
		}
		return true
	})
	if !ok {
		return nil
	}
	return m
}

// tagClauses parses the clauses of a match over tags, "'a -> X || ... [||
// _ -> X] end", up to and with the end; clause parses each X.
func (p *parser) tagClauses(start token, exprs bool, clause func(tag token) bool) bool {
	for {
		t := p.Peek()
		switch {
		case t.kind == tTag:
			p.Next()
			if !p.expect(tArrow, `"->" after the tag '`+t.text) || !clause(t) {
				return false
			}
		case t.kind == tUnderscore:
			p.Next()
			if !p.expect(tArrow, `"->" after _`) || !clause(t) {
				return false
			}
			return p.expectKeyword("end", "end: the _ clause is a match's last")
		default:
			what := "a tag ('name) or _"
			if exprs {
				what = "a tag ('name), _, {} or x ++ rest"
			}
			p.fail("expected %s to start a clause of match, found %s", what, t.describe())
			return false
		}
		switch {
		case p.Peek().kind == tAlt:
			p.Next()
		case p.Peek().isKeyword("end"):
			p.Next()
			return true
		default:
			p.fail(`expected "||" (the next clause) or end to close the match at %d:%d, found %s`, start.pos.Line, start.pos.Col, p.Peek().describe())
			return false
		}
	}
}

// procedure parses "procedure [rec] name(params) = instrs end" or
// "procedure [rec] name param = instrs end".
func (p *parser) procedure() Instr {
	start := p.Next()
	pr := &ProcInstr{Pos: start.pos}
	if p.Peek().isKeyword("rec") {
		pr.Rec = true
		p.Next()
	}
	n, ok := p.name("the procedure's name after procedure")
	if !ok {
		return nil
	}
	pr.Name = n.text
	if p.Peek().kind == tLParen {
		open := p.Next()
		names, ok := p.formals(pr.Name, open)
		if !ok {
			return nil
		}
		pr.Params = tuplePattern(names)
	} else {
		param, ok := p.pat0("a parameter, or (parameters), after procedure " + pr.Name)
		if !ok {
			return nil
		}
		pr.Params = Pattern{Names: []string{param}}
	}
	if !p.expect(tEqual, `"=" after the parameters of procedure `+pr.Name) {
		return nil
	}
	pr.Body = p.instrs(false)
	if p.aborted || !p.expectKeyword("end", "end to close procedure "+pr.Name+" at "+lineCol(start.pos)) {
		return nil
	}
	return pr
}

// call parses "call name arg [as label]".
func (p *parser) call() Instr {
	start := p.Next()
	n, ok := p.name("the procedure to call after call")
	if !ok {
		return nil
	}
	c := &CallInstr{Name: n.text, Pos: start.pos}
	if !startsSimple(p.Peek()) {
		p.fail("expected the procedure's argument after call %s, as in call %s(a, b), found %s", n.text, n.text, p.Peek().describe())
		return nil
	}
	if c.Arg = p.simple(); c.Arg == nil {
		return nil
	}
	if c.Label, ok = p.optionalName(); !ok {
		return nil
	}
	return c
}

// forall parses "forall x in e do instrs end".
func (p *parser) forall() Instr {
	start := p.Next()
	v, ok := p.name("a name after forall")
	if !ok || !p.expectKeyword("in", "in after forall "+v.text) {
		return nil
	}
	f := &ForallInstr{Var: v.text, Pos: start.pos}
	if f.Set = p.exp(); f.Set == nil || !p.expectKeyword("do", "do after forall "+v.text+" in ...") {
		return nil
	}
	f.Body = p.instrs(false)
	if p.aborted || !p.expectKeyword("end", "end to close forall at "+lineCol(start.pos)) {
		return nil
	}
	return f
}

// ifVariant parses "if cond instrs [else instrs] end".
func (p *parser) ifVariant() Instr {
	start := p.Next()
	in := &IfVariantInstr{Pos: start.pos}
	if in.Cond = p.variantCond(); in.Cond == nil {
		return nil
	}
	in.Then = p.instrs(false)
	if p.aborted {
		return nil
	}
	if p.Peek().isKeyword("else") {
		p.Next()
		in.Else = p.instrs(false)
		if p.aborted {
			return nil
		}
	}
	if !p.expectKeyword("end", "else or end to close the if at "+lineCol(start.pos)) {
		return nil
	}
	return in
}

// events parses a bell file's "instructions R[args]" or "default R[args]".
func (p *parser) events() Instr {
	start := p.Next()
	n, ok := p.name("an event set (R, W, F, RMW, ...) after " + start.text)
	if !ok || !p.expect(tLBrack, `"[" after `+start.text+" "+n.text) {
		return nil
	}
	ev := &EventsInstr{Set: n.text, Default: start.text == "default", Pos: start.pos}
	args, ok := p.args(tRBrack, "]")
	if !ok {
		return nil
	}
	ev.Args = args
	return ev
}

// enum parses "enum name = [||] 'a || 'b ...".
func (p *parser) enum() Instr {
	start := p.Next()
	n, ok := p.name("the enumeration's name after enum")
	if !ok || !p.expect(tEqual, `"=" after enum `+n.text) {
		return nil
	}
	en := &EnumInstr{Name: n.text, Pos: start.pos}
	if p.Peek().kind == tAlt {
		p.Next()
	}
	for {
		t := p.Peek()
		if t.kind != tTag {
			p.fail("expected a tag ('name) in enum %s, found %s", n.text, t.describe())
			return nil
		}
		p.Next()
		en.Tags = append(en.Tags, t.text)
		if p.Peek().kind != tAlt {
			return en
		}
		p.Next()
	}
}

// variantCond parses a condition on variants: "name", variant "name",
// not c, c && c, c || c, (c). || binds looser than &&, not tightest.
func (p *parser) variantCond() VariantCond {
	l := p.variantAnd()
	for l != nil && p.Peek().kind == tAlt {
		p.Next()
		r := p.variantAnd()
		if r == nil {
			return nil
		}
		l = &VariantOr{L: l, R: r}
	}
	return l
}

func (p *parser) variantAnd() VariantCond {
	l := p.variantAtom()
	for l != nil && p.Peek().kind == tLAnd {
		p.Next()
		r := p.variantAtom()
		if r == nil {
			return nil
		}
		l = &VariantAnd{L: l, R: r}
	}
	return l
}

func (p *parser) variantAtom() VariantCond {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.Peek()
	switch {
	case t.kind == tString:
		p.Next()
		return &VariantName{Name: t.text, Pos: t.pos}
	case t.isKeyword("variant"):
		p.Next()
		s := p.Peek()
		if s.kind != tString {
			p.fail("expected the variant's name in double quotes after variant, found %s", s.describe())
			return nil
		}
		p.Next()
		return &VariantName{Name: s.text, Pos: s.pos}
	case t.isKeyword("not"):
		p.Next()
		x := p.variantAtom()
		if x == nil {
			return nil
		}
		return &VariantNot{X: x}
	case t.kind == tLParen:
		p.Next()
		c := p.variantCond()
		if c == nil || !p.expect(tRParen, `")" to close "(" at `+lineCol(t.pos)) {
			return nil
		}
		return c
	}
	p.fail(`expected a variant ("name", variant "name", not, or a parenthesised condition), found %s`, t.describe())
	return nil
}
