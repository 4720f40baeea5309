package cat

// This file parses the bindings of let and let rec (parser.go): names,
// tuple patterns and function formals.

// bindings parses "b1 and b2 ...".
func (p *parser) bindings() []*Binding {
	var out []*Binding
	for {
		b := p.binding()
		if b == nil {
			return nil
		}
		out = append(out, b)
		if !p.Peek().isKeyword("and") {
			return out
		}
		p.Next()
	}
}

// binding parses one binding: "x = e", "x, y = e", "(x, y) = e",
// "f x = e" or "f(x, y) = e".
func (p *parser) binding() *Binding {
	t := p.Peek()
	switch {
	case t.kind == tLParen:
		open := p.Next()
		names, ok := p.formals("the tuple", open)
		if !ok || !p.expect(tEqual, `"=" after the tuple pattern`) {
			return nil
		}
		e := p.exp()
		if e == nil {
			return nil
		}
		return &Binding{Pat: tuplePattern(names), Expr: e, Pos: t.pos}
	case t.isIdent() || t.kind == tUnderscore:
	default:
		p.fail("expected a name to bind after let, found %s", t.describe())
		return nil
	}
	next := p.At(1)
	switch {
	case t.isIdent() && next.kind == tLParen:
		p.Next()
		open := p.Next()
		names, ok := p.formals(t.text, open)
		if !ok {
			return nil
		}
		return p.funBinding(t, tuplePattern(names))
	case t.isIdent() && (next.isIdent() || next.kind == tUnderscore):
		p.Next()
		param, _ := p.pat0("")
		return p.funBinding(t, Pattern{Names: []string{param}})
	}
	var names []string
	for {
		n, ok := p.pat0("a name to bind")
		if !ok {
			return nil
		}
		names = append(names, n)
		if p.Peek().kind != tComma {
			break
		}
		p.Next()
	}
	if !p.expect(tEqual, `"=" after let `+joinNames(names)) {
		return nil
	}
	e := p.exp()
	if e == nil {
		return nil
	}
	pat := Pattern{Names: names}
	if len(names) > 1 {
		pat.Tuple = true
	}
	return &Binding{Pat: pat, Expr: e, Pos: t.pos}
}

// funBinding finishes "f PARAMS = e" once the parameters are read.
func (p *parser) funBinding(name token, params Pattern) *Binding {
	if !p.expect(tEqual, `"=" after let `+name.text) {
		return nil
	}
	body := p.exp()
	if body == nil {
		return nil
	}
	return &Binding{Pat: Pattern{Names: []string{name.text}}, Pos: name.pos,
		Expr: &Fun{Param: params, Body: body, Name: name.text, Pos: name.pos}}
}

// pat0 consumes a name or _ ("" for _).
func (p *parser) pat0(what string) (string, bool) {
	t := p.Peek()
	switch {
	case t.kind == tUnderscore:
		p.Next()
		return "", true
	case t.isIdent():
		p.Next()
		return t.text, true
	}
	p.fail("expected %s, found %s", what, t.describe())
	return "", false
}

// formals parses "x, _, y)" after "(": the names of a tuple pattern.
func (p *parser) formals(of string, open token) ([]string, bool) {
	names := []string{}
	for p.Peek().kind != tRParen {
		n, ok := p.pat0("a parameter name in the parameters of " + of)
		if !ok {
			return nil, false
		}
		names = append(names, n)
		switch p.Peek().kind {
		case tComma:
			p.Next()
		case tRParen:
		default:
			p.fail(`expected "," or ")" in the parameters of %s, found %s`, of, p.Peek().describe())
			return nil, false
		}
	}
	p.Next()
	_ = open
	return names, true
}

// tuplePattern is herd's tuple_pat: one name in parentheses is that name.
func tuplePattern(names []string) Pattern {
	if len(names) == 1 {
		return Pattern{Names: names}
	}
	return Pattern{Names: names, Tuple: true}
}
