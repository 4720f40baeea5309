package litmus

import "strings"

// This file holds what both formats do with address declarations: keep
// names unique and check aliases.

// declare adds an explicitly declared address, rejecting a second
// declaration of the same name. targetOff is the offset of the alias target
// name (ignored for plain declarations), kept for the alias checks.
func (p *parser) declare(t *Test, a *Address, nameOff, targetOff int) {
	if p.declared == nil {
		p.declared = map[string]*Address{}
	}
	if first, dup := p.declared[a.Name]; dup {
		p.errorf(nameOff, "address %q is already declared at line %d", a.Name, first.Pos.Line)
		return
	}
	p.declared[a.Name] = a
	t.Addresses = append(t.Addresses, a)
	if a.AliasOf != "" {
		p.aliasTargets = append(p.aliasTargets, aliasTarget{a: a, off: targetOff})
	}
}

// aliasTarget is an alias declaration with the offset of its target name.
type aliasTarget struct {
	a   *Address
	off int
}

// checkAliases reports aliases of undeclared addresses and alias cycles.
// AliasOf keeps the name as written: an alias of an alias is resolved to
// its location downstream, which the absence of cycles makes possible.
func (p *parser) checkAliases() {
	for _, at := range p.aliasTargets {
		if p.declared[at.a.AliasOf] == nil {
			p.errorf(at.off, "alias target %q is not declared", at.a.AliasOf)
		}
	}
	// Report each cycle once, at its first member in declaration order.
	order := map[*Address]int{}
	for i, at := range p.aliasTargets {
		order[at.a] = i
	}
	for i, at := range p.aliasTargets {
		path := []string{at.a.Name}
		cur := p.declared[at.a.AliasOf]
		for steps := 0; cur != nil && cur.AliasOf != "" && cur != at.a && steps <= len(p.aliasTargets); steps++ {
			path = append(path, cur.Name)
			cur = p.declared[cur.AliasOf]
		}
		if cur != at.a {
			continue
		}
		first := true
		for _, n := range path {
			if j, ok := order[p.declared[n]]; ok && j < i {
				first = false
			}
		}
		if first {
			p.errs.Add(at.a.Pos, "alias cycle: %s -> %s", strings.Join(path, " -> "), at.a.Name)
		}
	}
}
