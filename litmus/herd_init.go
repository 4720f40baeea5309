package litmus

// This file parses the init block of a herd test: locations, aliases and
// register initialisations.

// pendingRegInit is a register initialisation whose thread is checked once
// the thread header has been read.
type pendingRegInit struct {
	ri      *RegInit
	off     int
	written string // the thread as written: "P1", "1" or "H0"
	name    string // the thread's name: "P1" or "H0"
}

// parseInit parses the init block. It returns nil when there is no block,
// since nothing after it could then be read reliably.
func (p *parser) parseInit(c *cursor, t *Test) *[]pendingRegInit {
	open := c.peek()
	if c.done() || !open.is("{") {
		p.errorf(open.off, "expected '{' to start the init block, found %s", open.describe())
		return nil
	}
	c.next()
	regInits := []pendingRegInit{}
	for {
		if c.done() {
			p.errorf(c.peek().off, "expected '}' to close the init block opened at line %d, found end of file", p.pos(open.off).Line)
			return nil
		}
		if c.accept("}") {
			break
		}
		if c.accept(";") {
			continue
		}
		if ri := p.parseInitEntry(c, t); ri != nil {
			regInits = append(regInits, *ri)
		}
		if n := c.peek(); !c.done() && (n.is(";") || n.is("}")) {
			c.accept(";")
			continue
		}
		if c.done() {
			continue // reported as an unclosed block
		}
		n := c.peek()
		p.errorf(n.off, "expected ';' or '}' after the init entry, found %s", n.describe())
		c.skipTo(";", "}")
	}
	p.checkAliases()
	p.checkMultimem(t)
	// A register may hold the address of a location; such a location is a
	// use, declared implicitly like the ones instructions use.
	for _, pr := range regInits {
		if a := pr.ri.Addr; a != "" && p.declared[a] == nil && t.AddressByName(a) == nil {
			t.Addresses = append(t.Addresses, &Address{Name: a, Space: SpaceGlobal, Pos: pr.ri.Pos})
		}
	}
	return &regInits
}

// parseInitEntry parses one entry of the init block: "x=0", "P1:r0=0",
// "1:r0=x" or "y @ generic aliases x". On error it skips to the next ';'.
func (p *parser) parseInitEntry(c *cursor, t *Test) *pendingRegInit {
	first := c.peek()
	second := c.peekAt(1)
	inSlice := c.i+1 < len(c.toks)
	switch {
	case inSlice && (first.kind == tokIdent || first.kind == tokInt) && second.is(":"):
		return p.parseRegInit(c, t)
	case inSlice && first.kind == tokIdent && second.is("@"):
		p.parseHerdAt(c, t)
	case inSlice && first.kind == tokIdent && second.is("=") && first.text == NativeAtomicsAttr:
		c.next()
		c.next()
		p.parseNativeAtomics(c, t, first)
	case inSlice && first.kind == tokIdent && second.is("="):
		c.next()
		c.next()
		v, _, ok := p.intLit(c)
		if !ok {
			c.skipTo(";", "}")
			return nil
		}
		if !isAddrName(first.text) {
			p.errorf(first.off, "malformed location name %q: locations are plain names without dots (%%names are registers)", first.text)
			return nil
		}
		p.declare(t, &Address{Name: first.text, Space: SpaceGlobal, Init: v, HasInit: true, Pos: p.pos(first.off)}, first.off, 0)
	default:
		p.errorf(first.off, "expected an init entry (x=0, P0:r0=0, a @ shared = 0, b @ mbarrier 1, m @ multimem x, y or y @ generic aliases x), found %s", first.describe())
		c.skipTo(";", "}")
	}
	return nil
}

// parseRegInit parses "P1:r0=V" or "1:r0=V", V an integer or an address.
func (p *parser) parseRegInit(c *cursor, t *Test) *pendingRegInit {
	th := c.next()
	c.next()
	thName, ok := herdThreadName(th)
	if !ok {
		p.errorf(th.off, "expected a thread such as P0, 0 or H0 before ':', found %s", th.describe())
		c.skipTo(";", "}")
		return nil
	}
	reg, ok := p.regOperand(c, "the init block", "register")
	if !ok {
		c.skipTo(";", "}")
		return nil
	}
	if eq := c.peek(); c.done() || !eq.is("=") {
		p.errorf(eq.off, "expected '=' after %s:%s, found %s", th.text, reg.Reg, eq.describe())
		c.skipTo(";", "}")
		return nil
	}
	c.next()
	// The thread is known by name until the header has been read
	// (checkRegInits); -1 marks it unresolved.
	ri := &RegInit{Thread: -1, Reg: reg.Reg, Pos: p.pos(th.off)}
	if startsInt(c) {
		if ri.Value, _, ok = p.intLit(c); !ok {
			c.skipTo(";", "}")
			return nil
		}
	} else if v := c.peek(); !c.done() && v.kind == tokIdent && isAddrName(v.text) {
		c.next()
		ri.Addr = v.text
	} else {
		p.errorf(v.off, "expected an integer or an address as the initial value of %s:%s, found %s", th.text, reg.Reg, v.describe())
		c.skipTo(";", "}")
		return nil
	}
	if first, dup := p.regInitNames[thName+":"+ri.Reg]; dup {
		p.errorf(th.off, "register %s:%s is already initialised at line %d", th.text, reg.Reg, first.Pos.Line)
		return nil
	}
	if p.regInitNames == nil {
		p.regInitNames = map[string]*RegInit{}
	}
	p.regInitNames[thName+":"+ri.Reg] = ri
	t.RegInits = append(t.RegInits, ri)
	return &pendingRegInit{ri: ri, off: th.off, written: th.text, name: thName}
}

// parseHerdAt parses the init entries with an '@': a location in a state
// space ("a @ shared = 1", "t @ tmem = 0", "x @ global = 0"; the value is
// optional and 0 by default), an mbarrier object ("b @ mbarrier N", N
// arrivals expected per phase) and an alias ("y @ KIND aliases x").
func (p *parser) parseHerdAt(c *cursor, t *Test) {
	name := c.next()
	c.next()
	kindTok := c.peek()
	spaces := map[string]Space{"global": SpaceGlobal, "shared": SpaceShared, "tmem": SpaceTensor}
	if sp, ok := spaces[kindTok.text]; ok && !c.done() && !c.peekAt(1).is("aliases") {
		c.next()
		p.parseHerdSpaceDecl(c, t, name, sp)
		return
	}
	if kindTok.is("mbarrier") && !c.done() {
		c.next()
		p.parseHerdMBarrier(c, t, name)
		return
	}
	if kindTok.is("multimem") && !c.done() {
		c.next()
		if !p.parseMultimemDecl(c, t, name) {
			c.skipTo(";", "}")
		}
		return
	}
	if kindTok.is("tensormap") && !c.done() {
		c.next()
		if !p.parseTensorMapDecl(c, t, name) {
			c.skipTo(";", "}")
		}
		return
	}
	kinds := map[string]Proxy{"generic": ProxyGeneric, "surface": ProxySurface, "texture": ProxyTexture, "constant": ProxyConstant}
	kind, ok := kinds[kindTok.text]
	if _, isSpace := spaces[kindTok.text]; isSpace && !c.done() {
		p.errorf(kindTok.off, "%s is a state space, not a kind of alias: expected generic, surface, texture or constant before 'aliases'", kindTok.text)
		c.skipTo(";", "}")
		return
	}
	if c.done() || kindTok.kind != tokIdent || !ok {
		p.errorf(kindTok.off, "expected a state space (global, shared or tmem), mbarrier, multimem, tensormap, or the kind of alias (generic, surface, texture or constant) after '@', found %s", kindTok.describe())
		c.skipTo(";", "}")
		return
	}
	c.next()
	if kw := c.peek(); c.done() || !kw.is("aliases") {
		p.errorf(kw.off, "expected 'aliases' after %s @ %s, found %s", name.text, kindTok.text, kw.describe())
		c.skipTo(";", "}")
		return
	}
	c.next()
	target := c.peek()
	if c.done() || target.kind != tokIdent || !isAddrName(target.text) {
		p.errorf(target.off, "expected the aliased address after 'aliases', found %s", target.describe())
		c.skipTo(";", "}")
		return
	}
	c.next()
	if !isAddrName(name.text) {
		p.errorf(name.off, "malformed address name %q: addresses are plain names without dots (%%names are registers)", name.text)
		return
	}
	p.declare(t, &Address{Name: name.text, Space: SpaceGlobal, Kind: kind, AliasOf: target.text, Pos: p.pos(name.off)}, name.off, target.off)
}

// parseHerdSpaceDecl parses the rest of "NAME @ SPACE [= V]".
func (p *parser) parseHerdSpaceDecl(c *cursor, t *Test, name token, sp Space) {
	a := &Address{Name: name.text, Space: sp, Pos: p.pos(name.off)}
	if c.accept("=") {
		v, _, ok := p.intLit(c)
		if !ok {
			c.skipTo(";", "}")
			return
		}
		a.Init, a.HasInit = v, true
	}
	if !isAddrName(name.text) {
		p.errorf(name.off, "malformed location name %q: locations are plain names without dots (%%names are registers)", name.text)
		return
	}
	p.declare(t, a, name.off, 0)
}

// parseHerdMBarrier parses the rest of "NAME @ mbarrier N".
func (p *parser) parseHerdMBarrier(c *cursor, t *Test, name token) {
	n, off, ok := p.intLit(c)
	if !ok {
		c.skipTo(";", "}")
		return
	}
	if !p.mbarrierCount(n, off) {
		return
	}
	if !isAddrName(name.text) {
		p.errorf(name.off, "malformed mbarrier name %q: names are plain names without dots (%%names are registers)", name.text)
		return
	}
	p.declare(t, &Address{Name: name.text, Space: SpaceShared, MBarrier: n, Pos: p.pos(name.off)}, name.off, 0)
}

// mbarrierCount checks an mbarrier's expected arrival count: PTX allows 1
// to 2^20-1 (mbarrier.init).
func (p *parser) mbarrierCount(n int64, off int) bool {
	if n < 1 || n > maxMBarCount {
		p.errorf(off, "an mbarrier expects 1 to %d arrivals per phase, found %d", maxMBarCount, n)
		return false
	}
	return true
}

// maxMBarCount is the largest expected arrival count of an mbarrier (PTX
// ISA, mbarrier: 2^20-1).
const maxMBarCount = 1<<20 - 1

// checkRegInits resolves the thread of every register initialisation and
// reports threads the test does not have.
func (p *parser) checkRegInits(t *Test, regInits []pendingRegInit) {
	for _, pr := range regInits {
		if th := t.ThreadByName(pr.name); th != nil {
			pr.ri.Thread = th.Index
			continue
		}
		p.errorf(pr.off, "register init for thread %s, but the test has %s", pr.written, threadRange(t))
	}
}
