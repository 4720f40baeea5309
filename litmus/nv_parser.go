package litmus

import (
	"strconv"
	"strings"
)

// parseNV reads one NVIDIA .test file (or one expanded template instance):
// declarations, threads and commands, in any order.
func (p *parser) parseNV(name string, instance int) *Test {
	t := &Test{File: p.file, Name: name, Format: FormatNV, Instance: instance, Pos: p.pos(0)}
	lx := newLexer(p.src, FormatNV, p.pm, p.errs)
	lx.stop = p.stop
	toks, release := lx.lexAll()
	defer release()
	c := newCursor(toks[:len(toks)-1], toks[len(toks)-1])
	for !c.done() {
		if p.stop.stopped() {
			return t
		}
		tk := c.peek()
		switch {
		case tk.kind == tokIdent && strings.HasPrefix(tk.text, "."):
			p.parseDecl(c, t)
		case tk.kind == tokIdent && (tk.text == "assert" || tk.text == "permit" || tk.text == "check"):
			p.parseCommand(c, t)
		case tk.kind == tokIdent && c.peekAt(1).is("{") && c.i+1 < len(c.toks):
			p.parseNVThread(c, t)
		default:
			p.errorf(tk.off, "expected a declaration (.global x;), a thread (d0.b0.t0 { ... }) or a command (assert, permit or check), found %s", tk.describe())
			c.skipTo(";", "}")
			c.next()
		}
	}
	end := c.peek().off
	if len(t.Threads) == 0 {
		p.errorf(end, "the test has no threads: expected d0.b0.t0 { ... }")
	}
	if p.commands == 0 {
		p.errorf(end, "the test has no assert, permit or check command")
	}
	p.checkAliases()
	p.checkMultimem(t)
	p.resolve(t)
	p.checkTensorMaps(t)
	p.applyNVKernels(t)
	p.checkPlacement(t)
	p.checkHost(t)
	p.resolveNVTerms(t)
	p.checkMultimemTerms(t)
	p.lint(t)
	return t
}

// parseDecl parses ".global x;", ".global x = 5;", ".global .u16 x = 5;", ".shared x;",
// ".tmem t;", ".mbarrier b N;", ".global y physically aliases x;" and
// ".surfref s virtually aliases x;" (also .texref and .constref).
func (p *parser) parseDecl(c *cursor, t *Test) {
	d := c.next()
	a := &Address{Space: SpaceGlobal, Kind: ProxyGeneric}
	isRef := false
	switch d.text {
	case ".global":
	case ".shared":
		a.Space = SpaceShared
	case ".tmem":
		a.Space = SpaceTensor
	case ".mbarrier":
		p.parseNVMBarrier(c, t, d)
		return
	case ".kernel":
		p.parseNVKernel(c, d)
		return
	case ".attribute":
		p.parseNVAttribute(c, t, d)
		return
	case ".multimem":
		p.parseNVMultimem(c, t, d)
		return
	case ".tensormap":
		p.parseNVTensorMap(c, t, d)
		return
	case ".surfref":
		a.Kind, isRef = ProxySurface, true
	case ".texref":
		a.Kind, isRef = ProxyTexture, true
	case ".constref":
		a.Kind, isRef = ProxyConstant, true
	default:
		p.errorf(d.off, "unknown declaration %s: expected .global, .shared, .tmem, .mbarrier, .multimem, .tensormap, .surfref, .texref, .constref, .kernel or .attribute", d.text)
		p.skipStatement(c)
		return
	}
	if tq := c.peek(); !c.done() && tq.kind == tokIdent && strings.HasPrefix(tq.text, ".") {
		typ, ok := dataTypeOf(tq.text[1:])
		if !ok || isRef || typ.Packed > 0 {
			p.errorf(tq.off, "expected an address name or a data type (%s) after %s, found %s", typeNames(false), d.text, tq.describe())
			p.skipStatement(c)
			return
		}
		c.next()
		a.Type = typ
	}
	name := c.peek()
	if c.done() || name.kind != tokIdent || !isAddrName(name.text) {
		p.errorf(name.off, "expected an address name after %s, found %s", d.text, name.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	a.Name, a.Pos = name.text, p.pos(name.off)
	if c.peek().is("[") && !c.done() {
		if !p.arrayDecl(c, a, d) {
			p.skipStatement(c)
			return
		}
	}
	targetOff := 0
	switch n := c.peek(); {
	case c.done():
	case n.is("="):
		c.next()
		v, _, ok := p.intLit(c)
		if !ok {
			p.skipStatement(c)
			return
		}
		if isRef {
			p.errorf(n.off, "%s %s takes no initial value: it reaches the memory of the address it aliases", d.text, name.text)
			p.skipStatement(c)
			return
		}
		a.Init, a.HasInit = v, true
	case n.is("physically") || n.is("virtually"):
		c.next()
		want := "physically"
		if isRef {
			want = "virtually"
		}
		if n.text != want {
			p.errorf(n.off, "%s aliases are declared with %q: write %s %s %s aliases X", d.text, want, d.text, name.text, want)
			p.skipStatement(c)
			return
		}
		if kw := c.peek(); c.done() || !kw.is("aliases") {
			p.errorf(kw.off, "expected 'aliases' after %s, found %s", n.text, kw.describe())
			p.skipStatement(c)
			return
		}
		c.next()
		target := c.peek()
		if c.done() || target.kind != tokIdent || !isAddrName(target.text) {
			p.errorf(target.off, "expected the aliased address after 'aliases', found %s", target.describe())
			p.skipStatement(c)
			return
		}
		c.next()
		a.AliasOf, targetOff = target.text, target.off
	}
	if a.AliasOf != "" && a.Type.Name != "" {
		p.errorf(name.off, "alias %s takes no data type: it names the bytes of %s", name.text, a.AliasOf)
		p.skipStatement(c)
		return
	}
	if isRef && a.AliasOf == "" {
		p.errorf(name.off, "%s %s must name the address it reaches: write %s %s virtually aliases X", d.text, name.text, d.text, name.text)
		p.skipStatement(c)
		return
	}
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ';' after the declaration of %s, found %s", name.text, semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
		// The declaration itself is complete: keep it, so that its uses
		// do not report it as undeclared.
		p.declare(t, a, name.off, targetOff)
		return
	}
	c.next()
	p.declare(t, a, name.off, targetOff)
}

// arrayDecl reads the "[N]" of an array declaration ".global .u32 x[N];":
// a variable of N elements of its type.
func (p *parser) arrayDecl(c *cursor, a *Address, d token) bool {
	open := c.next()
	if a.Type.Name == "" {
		p.errorf(open.off, "an array needs an element type: write %s .u32 %s[N]", d.text, a.Name)
		return false
	}
	n, off, ok := p.intLit(c)
	if !ok {
		return false
	}
	if n < 1 || n > 1<<16 {
		p.errorf(off, "array length %d is out of range: expected 1 to %d", n, 1<<16)
		return false
	}
	if !c.accept("]") {
		t := c.peek()
		p.errorf(t.off, "expected ']' after the array length of %s, found %s", a.Name, t.describe())
		return false
	}
	a.Elems = int(n)
	return true
}

// parseNVMBarrier parses the rest of ".mbarrier b N;": an mbarrier object
// in shared memory expecting N arrivals per phase.
func (p *parser) parseNVMBarrier(c *cursor, t *Test, d token) {
	name := c.peek()
	if c.done() || name.kind != tokIdent || !isAddrName(name.text) {
		p.errorf(name.off, "expected an mbarrier name after .mbarrier, found %s", name.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	n, off, ok := p.intLit(c)
	if !ok || !p.mbarrierCount(n, off) {
		p.skipStatement(c)
		return
	}
	a := &Address{Name: name.text, Space: SpaceShared, MBarrier: n, Pos: p.pos(name.off)}
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ';' after the declaration of %s, found %s", name.text, semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
	} else {
		c.next()
	}
	p.declare(t, a, name.off, 0)
}

// startsTopLevel reports whether the next token begins a declaration, a
// thread or a command, where parsing can resume without skipping.
func startsTopLevel(c *cursor) bool {
	t := c.peek()
	if c.done() || t.kind != tokIdent {
		return false
	}
	return strings.HasPrefix(t.text, ".") || t.text == "assert" || t.text == "permit" || t.text == "check" ||
		c.peekAt(1).is("{") && c.i+1 < len(c.toks)
}

// skipStatement skips to just past the next ';' (or to a '}'), to resume
// after an error.
func (p *parser) skipStatement(c *cursor) {
	c.skipTo(";", "}")
	c.accept(";")
}

// parseThreadName reads "dD.bB.tT" or "dD.cC.bB.tT".
func parseThreadName(s string) (gpu, cluster, cta, tid int, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 && len(parts) != 4 {
		return 0, 0, 0, 0, false
	}
	prefixes := "dbt"
	if len(parts) == 4 {
		prefixes = "dcbt"
	}
	nums := make([]int, len(parts))
	for i, part := range parts {
		if len(part) < 2 || part[0] != prefixes[i] {
			return 0, 0, 0, 0, false
		}
		n, err := strconv.Atoi(part[1:])
		if err != nil || n < 0 || n > 1<<20 || strconv.Itoa(n) != part[1:] {
			return 0, 0, 0, 0, false
		}
		nums[i] = n
	}
	if len(parts) == 3 {
		// Without a cluster component the cluster is settled once every
		// thread is known (placeClusters); the CTA number stands in.
		return nums[0], nums[1], nums[1], nums[2], true
	}
	return nums[0], nums[1], nums[2], nums[3], true
}

// parseNVThread parses "dD.bB.tT { instr; ... }".
func (p *parser) parseNVThread(c *cursor, t *Test) {
	name := c.next()
	open := c.next()
	th := &Thread{Name: name.text, Index: len(t.Threads), Pos: p.pos(name.off)}
	gpu, cluster, cta, tid, ok := parseThreadName(name.text)
	if n, isHost := parseHostThreadName(name.text); isHost {
		// A host thread is in no GPU, cluster or CTA; its place is its number.
		th.Host = true
		gpu, cluster, cta, tid, ok = -1, -1, -1, n, true
	} else if !ok {
		p.errorf(name.off, "malformed thread name %q: expected dD.bB.tT or dD.cC.bB.tT, such as d0.b1.t0, or hN for a host thread", name.text)
	}
	th.GPU, th.Cluster, th.CTA = gpu, cluster, cta
	if ok && !th.Host {
		// The thread number within the CTA places the thread in a warp
		// of 32 lanes, as threadIdx.x does (bar.warp.sync).
		th.Warp, th.Lane, th.LaneNamed = tid/32, tid%32, true
	}
	if p.threadNames == nil {
		p.threadNames, p.threadPlaces = map[string]*Thread{}, map[[3]int]*Thread{}
	}
	// A CTA is in one cluster, so the GPU, CTA and thread numbers name the
	// thread; two names that put it in different clusters are reported by
	// checkPlacement instead.
	clusterNamed := ok && strings.Count(name.text, ".") == 3
	place := [3]int{gpu, cta, tid}
	if other := p.threadNames[name.text]; other != nil {
		p.errorf(name.off, "duplicate thread %s (first at line %d)", name.text, other.Pos.Line)
	} else if other := p.threadPlaces[place]; ok && other != nil && !(clusterNamed && p.threads[other.Index].clusterNamed && other.Cluster != cluster) {
		p.errorf(name.off, "thread %s is the same thread as %s (line %d)", name.text, other.Name, other.Pos.Line)
	}
	if p.threadNames[name.text] == nil {
		p.threadNames[name.text] = th
	}
	if ok && p.threadPlaces[place] == nil {
		p.threadPlaces[place] = th
	}
	tb := &threadBuild{th: th, clusterNamed: clusterNamed}
	t.Threads = append(t.Threads, th)
	p.threads = append(p.threads, tb)
	for {
		if p.stop.stopped() {
			return
		}
		if c.done() {
			p.errorf(c.peek().off, "expected '}' to close thread %s opened at line %d, found end of file", name.text, p.pos(open.off).Line)
			return
		}
		if c.accept("}") {
			return
		}
		start := c.i
		// A '{' inside a statement opens a vector operand ("{r0, r1}"),
		// whose '}' does not close the thread.
		for depth := 0; !c.done() && !c.peek().is(";") && (depth > 0 || !c.peek().is("}")); {
			switch {
			case c.peek().is("{"):
				depth++
			case c.peek().is("}"):
				depth--
			}
			c.next()
		}
		stmt := c.toks[start:c.i]
		stop := c.peek()
		if !c.done() && stop.is(";") {
			c.next()
		} else if !onlyLabels(stmt) {
			p.errorf(stop.off, "expected ';' after the instruction, found %s", stop.describe())
		}
		p.parseStatement(stmt, stop, tb)
	}
}

// onlyLabels reports whether a statement is made of labels "L:" only,
// which need no ';' after them.
func onlyLabels(toks []token) bool {
	if len(toks)%2 != 0 {
		return false
	}
	for i := 0; i < len(toks); i += 2 {
		if toks[i].kind != tokIdent || !toks[i+1].is(":") {
			return false
		}
	}
	return true
}

// parseCommand parses "assert (C) as NAME;", "permit (C) as NAME;" and
// "check (C) as NAME;".
func (p *parser) parseCommand(c *cursor, t *Test) {
	kw := c.next()
	p.commands++
	start := c.i
	for !c.done() && !c.peek().is(";") {
		c.next()
	}
	stop := c.peek()
	sc := newCursor(c.toks[start:c.i], stop)
	if c.done() {
		defer p.errorf(stop.off, "expected ';' after the %s command, found %s", kw.text, stop.describe())
	} else {
		c.next()
	}
	a := &Assertion{Pos: p.pos(kw.off)}
	switch kw.text {
	case "permit":
		a.Kind = AssertSometimes
	case "check":
		a.Kind = AssertCheck
	}
	e := newExprParser(p, sc, func() (Term, bool) { return p.nvTerm(sc) })
	if a.Expr = e.parseOr(); a.Expr == nil {
		return
	}
	if as := sc.peek(); sc.done() || !as.is("as") {
		p.errorf(as.off, "expected 'as NAME' after the condition of %s, found %s", kw.text, as.describe())
		return
	}
	sc.next()
	name := sc.peek()
	if sc.done() || name.kind != tokIdent || !isRegName(name.text) {
		p.errorf(name.off, "expected a name after 'as', found %s", name.describe())
		return
	}
	sc.next()
	a.Name = name.text
	if !sc.done() {
		n := sc.peek()
		p.errorf(n.off, "unexpected %s after the name of the %s command", n.describe(), kw.text)
		return
	}
	t.Assertions = append(t.Assertions, a)
}

// nvTerm reads a .test condition term: an integer, or a name that is
// resolved (register or location) once every thread is known. Until then it
// is held as a TermLoc.
func (p *parser) nvTerm(c *cursor) (Term, bool) {
	tk := c.peek()
	if startsInt(c) {
		v, _, ok := p.intLit(c)
		return Term{Kind: TermConst, Value: v, Pos: p.pos(tk.off)}, ok
	}
	if !c.done() && tk.kind == tokIdent && isRegName(tk.text) {
		c.next()
		return Term{Kind: TermLoc, Loc: tk.text, Pos: p.pos(tk.off)}, true
	}
	p.errorf(tk.off, "expected a register, an address or an integer, found %s", tk.describe())
	return Term{}, false
}

// resolveNVTerms settles the names of the conditions: a name is a location
// when it is a declared address, and otherwise the register of the one
// thread that uses it.
func (p *parser) resolveNVTerms(t *Test) {
	regs := make([]map[string]bool, len(t.Threads))
	for i, th := range t.Threads {
		regs[i] = threadRegs(th)
	}
	for _, a := range t.Assertions {
		WalkCmps(a.Expr, func(cmp *Cmp) {
			p.resolveNVTerm(t, &cmp.L, regs)
			p.resolveNVTerm(t, &cmp.R, regs)
		})
	}
}

// resolveNVTerm settles one term; see resolveNVTerms.
func (p *parser) resolveNVTerm(t *Test, term *Term, regs []map[string]bool) {
	if term.Kind != TermLoc {
		return
	}
	name := term.Loc
	var users []string
	idx := -1
	for i, th := range t.Threads {
		if regs[i][name] {
			users = append(users, th.Name)
			idx = i
		}
	}
	isAddr := p.declared[name] != nil
	switch {
	case isAddr && len(users) == 0:
	case isAddr:
		p.errs.Add(term.Pos, "%q is both a declared address and a register of %s", name, andList(users))
	case len(users) == 1:
		*term = Term{Kind: TermReg, Thread: idx, Reg: name, Pos: term.Pos}
	case len(users) > 1:
		p.errs.Add(term.Pos, "register %q is ambiguous: it is used by threads %s", name, andList(users))
	case !p.instrFailed:
		p.errs.Add(term.Pos, "unknown name %q: not a declared address nor a register of any thread", name)
	}
}
