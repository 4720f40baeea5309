package litmus

import "strings"

// This file reads multimem address declarations (8.2.3): herd
// "m @ multimem x, y" and .test ".multimem m x, y;". A multimem address
// points to several distinct memory locations in global memory; it has no
// location of its own.

// multimemDecl is a multimem declaration with the offsets of its targets,
// checked once every declaration is known.
type multimemDecl struct {
	a    *Address
	offs []int
}

// parseMultimemDecl parses the target list of a multimem declaration,
// after "NAME @ multimem" (herd) or ".multimem NAME" (.test), up to the
// ';' (or the '}' of a herd init block), which it leaves in place.
func (p *parser) parseMultimemDecl(c *cursor, t *Test, name token) bool {
	d := multimemDecl{a: &Address{Name: name.text, Space: SpaceGlobal, Kind: ProxyGeneric, Pos: p.pos(name.off)}}
	for {
		target := c.peek()
		if c.done() || target.kind != tokIdent || !isAddrName(target.text) {
			p.errorf(target.off, "expected a location of the multimem address %s, found %s", name.text, target.describe())
			return false
		}
		c.next()
		d.a.Multimem = append(d.a.Multimem, target.text)
		d.offs = append(d.offs, target.off)
		if !c.accept(",") {
			break
		}
	}
	if !isAddrName(name.text) {
		p.errorf(name.off, "malformed multimem address name %q: names are plain names without dots (%%names are registers)", name.text)
		return false
	}
	if p.declared[name.text] == nil {
		p.multimemDecls = append(p.multimemDecls, d)
	}
	p.declare(t, d.a, name.off, 0)
	return true
}

// parseNVMultimem parses the rest of ".multimem m x, y;".
func (p *parser) parseNVMultimem(c *cursor, t *Test, d token) {
	name := c.peek()
	if c.done() || name.kind != tokIdent || !isAddrName(name.text) {
		p.errorf(name.off, "expected a multimem address name after %s, found %s", d.text, name.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	if !p.parseMultimemDecl(c, t, name) {
		p.skipStatement(c)
		return
	}
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ',' or ';' after the locations of %s, found %s", name.text, semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
		return
	}
	c.next()
}

// checkMultimem checks the targets of the multimem declarations: each is a
// distinct location in global memory. In herd files a target declared
// nowhere else is a global location with initial value 0; .test files
// declare every address.
func (p *parser) checkMultimem(t *Test) {
	for _, d := range p.multimemDecls {
		roots := map[*Address]string{}
		for i, name := range d.a.Multimem {
			off := d.offs[i]
			target := p.declared[name]
			if target == nil && name != d.a.Name {
				if p.format == FormatNV {
					p.errorf(off, "location %q of the multimem address %s is not declared: declare it first, e.g. .global %s;", name, d.a.Name, name)
					continue
				}
				target = &Address{Name: name, Space: SpaceGlobal, Kind: ProxyGeneric, Pos: p.pos(off)}
				p.declare(t, target, off, 0)
			}
			root := p.aliasRoot(target)
			switch {
			case name == d.a.Name:
				p.errorf(off, "the multimem address %s cannot point to itself", d.a.Name)
			case len(target.Multimem) > 0:
				p.errorf(off, "%s is a multimem address: a multimem address points to memory locations", name)
			case target.Kind != ProxyGeneric:
				p.errorf(off, "%s is a %s reference: a multimem address points to memory locations", name, target.Kind)
			case root == nil:
				// an alias of an undeclared name or a cycle: reported by checkAliases
			case root.Space != SpaceGlobal || root.MBarrier > 0:
				p.errorf(off, "%s is in %s memory: a multimem address points to locations in global memory", name, root.Space)
			case roots[root] != "":
				p.errorf(off, "the multimem address %s points to the location of %s twice (%s)", d.a.Name, root.Name, strings.Join([]string{roots[root], name}, " and "))
			default:
				roots[root] = name
			}
		}
	}
	for _, at := range p.aliasTargets {
		if target := p.declared[at.a.AliasOf]; target != nil && len(target.Multimem) > 0 {
			p.errorf(at.off, "%s is a multimem address, which cannot be aliased", target.Name)
		}
	}
}

// aliasRoot follows aliases to the plain declaration; nil for an alias of
// an undeclared name or an alias cycle.
func (p *parser) aliasRoot(a *Address) *Address {
	for i := 0; a != nil && a.AliasOf != ""; i++ {
		if i > len(p.declared) {
			return nil
		}
		a = p.declared[a.AliasOf]
	}
	return a
}

// checkMultimemTerms rejects conditions naming a multimem address: it has
// no value of its own.
func (p *parser) checkMultimemTerms(t *Test) {
	if t.Condition != nil {
		p.checkMultimemExpr(t, t.Condition.Expr)
	}
	for _, a := range t.Assertions {
		p.checkMultimemExpr(t, a.Expr)
	}
	for _, term := range t.Locations {
		p.checkMultimemTerm(t, term)
	}
}

// checkMultimemExpr rejects the location terms of e that name a multimem
// address.
func (p *parser) checkMultimemExpr(t *Test, e Expr) {
	WalkCmps(e, func(cmp *Cmp) {
		p.checkMultimemTerm(t, cmp.L)
		p.checkMultimemTerm(t, cmp.R)
	})
}

// checkMultimemTerm rejects a location term that names a multimem address.
func (p *parser) checkMultimemTerm(t *Test, term Term) {
	if term.Kind != TermLoc {
		return
	}
	if a := t.AddressByName(term.Loc); a != nil && len(a.Multimem) > 0 {
		p.errs.Add(term.Pos, "%s is a multimem address, which has no value of its own: name one of its locations (%s)", a.Name, strings.Join(a.Multimem, ", "))
	}
}
