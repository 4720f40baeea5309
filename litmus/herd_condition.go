package litmus

// This file parses the final condition of a herd test.

// atCondition reports whether the table has ended and the condition
// starts: "exists", "~exists", "forall" or "locations".
func atCondition(c *cursor) bool {
	t := c.peek()
	if c.done() {
		return false
	}
	if t.is("~") {
		return true
	}
	if t.kind == tokIdent && (t.text == "exists" || t.text == "forall" || t.text == "locations") {
		return !c.peekAt(1).is(":") || c.i+1 >= len(c.toks)
	}
	return false
}

// parseCondition parses the final condition and checks that nothing
// follows it.
func (p *parser) parseCondition(c *cursor, t *Test) {
	if c.done() {
		p.errorf(c.peek().off, "expected the final condition (exists, ~exists or forall), found end of file")
		return
	}
	kw := c.peek()
	if kw.is("locations") {
		if !p.parseLocations(c, t) {
			return
		}
		if c.done() {
			p.errorf(c.peek().off, "expected the final condition (exists, ~exists or forall) after the locations clause, found end of file")
			return
		}
		kw = c.peek()
	}
	cond := &Condition{Pos: p.pos(kw.off)}
	for _, th := range t.Threads {
		cond.threadNames = append(cond.threadNames, th.Name)
	}
	switch {
	case kw.is("exists"):
		cond.Kind = CondExists
	case kw.is("forall"):
		cond.Kind = CondForall
	case kw.is("~") && c.peekAt(1).is("exists") && c.i+1 < len(c.toks):
		c.next()
		cond.Kind = CondNotExists
	default:
		p.errorf(kw.off, "expected exists, ~exists or forall, found %s", kw.describe())
		return
	}
	c.next()
	e := newExprParser(p, c, func() (Term, bool) { return p.herdTerm(c, t) })
	x := e.parseOr()
	if x == nil {
		return
	}
	cond.Expr = x
	t.Condition = cond
	if !c.done() {
		n := c.peek()
		p.errorf(n.off, "unexpected %s after the condition", n.describe())
	}
}

// parseLocations parses herd's "locations [x; 1:r0; ...]" clause: a
// list of registers and locations, each followed by ';' (the last one's
// is optional), whose final values join the observed state. It reports
// whether the clause was well formed.
func (p *parser) parseLocations(c *cursor, t *Test) bool {
	c.next()
	if open := c.peek(); c.done() || !open.is("[") {
		p.errorf(open.off, "expected '[' after locations (locations [x; 1:r0;]), found %s", open.describe())
		return false
	}
	c.next()
	seen := map[string]bool{}
	for {
		n := c.peek()
		if c.done() {
			p.errorf(n.off, "expected ']' to close the locations clause, found end of file")
			return false
		}
		if c.accept("]") {
			return true
		}
		start := n.off
		tm, ok := p.herdTerm(c, t)
		if !ok {
			return false
		}
		if tm.Kind == TermConst {
			p.errorf(start, "expected a register (1:r0) or a location in the locations clause, found the integer %d", tm.Value)
			return false
		}
		if key := tm.String(); seen[key] {
			p.errs.Warn(p.pos(start), "%s is listed twice in the locations clause", key)
		} else {
			seen[key] = true
			t.Locations = append(t.Locations, tm)
		}
		if c.accept(";") {
			continue
		}
		if n := c.peek(); c.done() || !n.is("]") {
			p.errorf(n.off, "expected ';' or ']' after %s in the locations clause, found %s", tm.String(), n.describe())
			return false
		}
	}
}

// herdTerm reads a herd condition term: a register "P1:r0" or "1:r0", a
// location name (its final value) or an integer.
func (p *parser) herdTerm(c *cursor, t *Test) (Term, bool) {
	tk := c.peek()
	if !c.done() && (tk.kind == tokIdent || tk.kind == tokInt) && c.peekAt(1).is(":") && c.i+1 < len(c.toks) {
		c.next()
		c.next()
		reg := c.peek()
		if c.done() || reg.kind != tokIdent || !isRegName(reg.text) {
			p.errorf(reg.off, "expected a register after %s:, found %s", tk.text, reg.describe())
			return Term{}, false
		}
		c.next()
		name, ok := herdThreadName(tk)
		if !ok {
			p.errorf(tk.off, "expected a thread such as P0, 0 or H0 before ':', found %s", tk.describe())
			return Term{}, false
		}
		th := t.ThreadByName(name)
		if th == nil {
			p.errorf(tk.off, "unknown thread %s in the condition: the test has %s", tk.text, threadRange(t))
			return Term{}, false
		}
		return Term{Kind: TermReg, Thread: th.Index, Reg: reg.text, Pos: p.pos(tk.off)}, true
	}
	if startsInt(c) {
		v, _, ok := p.intLit(c)
		return Term{Kind: TermConst, Value: v, Pos: p.pos(tk.off)}, ok
	}
	if !c.done() && tk.kind == tokIdent && isAddrName(tk.text) {
		c.next()
		if t.AddressByName(tk.text) == nil {
			if !p.instrFailed {
				p.errorf(tk.off, "unknown location %q in the condition", tk.text)
			}
			return Term{}, false
		}
		return Term{Kind: TermLoc, Loc: tk.text, Pos: p.pos(tk.off)}, true
	}
	p.errorf(tk.off, "expected a register (P0:r0), a location or an integer, found %s", tk.describe())
	return Term{}, false
}
