package litmus

import (
	"slices"
	"strings"
)

// This file reads the dot-separated qualifiers of a mnemonic, such as the
// memory order and scope of "ld.acquire.gpu", and applies the PTX defaults.

// qual is one dot-separated qualifier of a mnemonic, with the offset of its
// dot so that diagnostics point at it.
type qual struct {
	name string
	off  int
}

// splitMnemonic splits "ld.acquire.gpu" into "ld" and its qualifiers.
// The qualifiers are cut from the text one by one into a slice of their
// number: a split into parts first was a second allocation for every
// instruction of every test.
func (p *parser) splitMnemonic(t token) (string, []qual, bool) {
	op, rest, dotted := strings.Cut(t.text, ".")
	if !dotted {
		return op, nil, true
	}
	off := t.off + len(op)
	qs := make([]qual, 0, strings.Count(rest, ".")+1)
	ok := true
	for {
		s, more, found := strings.Cut(rest, ".")
		if s == "" {
			p.errorf(off, "empty qualifier in %q", t.text)
			ok = false
		}
		qs = append(qs, qual{name: s, off: off})
		off += 1 + len(s)
		if !found {
			return op, qs, ok
		}
		rest = more
	}
}

// mnemonic is an instruction's first token split into opcode and qualifiers.
type mnemonic struct {
	text string
	op   string
	qs   []qual
	off  int
}

// isSpaceQual reports state-space qualifiers.
func isSpaceQual(s string) bool { _, ok := spaceQualOf(s); return ok }

// isTypeQual reports the integer data-type qualifiers. The memory
// instructions ld, st, atom and red give them a meaning (types.go); the
// others accept and ignore them.
func isTypeQual(s string) bool {
	switch s {
	case "u8", "s8", "b8", "u16", "s16", "b16", "u32", "s32", "b32", "u64", "s64", "b64":
		return true
	}
	return false
}

// semOf returns the memory order a qualifier names.
func semOf(s string) (Sem, bool) {
	for i, n := range semNames {
		if n == s {
			return Sem(i), true
		}
	}
	return 0, false
}

// scopeOf returns the scope a qualifier names.
func scopeOf(s string) (Scope, bool) {
	for i, n := range scopeNames {
		if n == s && n != "" {
			return Scope(i), true
		}
	}
	return 0, false
}

// memQuals are the qualifiers of a memory operation.
type memQuals struct {
	sem      Sem
	semQ     *qual // the memory-order qualifier, nil when absent
	scope    Scope
	scopeQ   *qual // the scope qualifier, nil when absent
	atomOp   string
	atomOpQ  *qual
	space    SpaceQual // the state space named, SpaceQNone for generic addressing
	spaceQ   *qual
	firstOff int  // offset of the first memory-order or scope qualifier, or -1
	mmio     bool // .mmio and .relaxed have been combined
	typ      DataType
	typQ     *qual // the data-type qualifier, nil when absent
	vec      int
	vecQ     *qual // .v2 or .v4, nil when absent
	hints    cacheHints
}

// readMemQuals sorts the qualifiers of a memory operation, rejecting
// memory orders outside allowed and anything unknown; ops lists the
// atom/red operations it accepts.
func (p *parser) readMemQuals(m mnemonic, allowed []Sem, ops []string) (memQuals, bool) {
	q := memQuals{firstOff: -1}
	ok := true
	for i := range m.qs {
		x := &m.qs[i]
		if sq, isSpace := spaceQualOf(x.name); isSpace {
			if p.single(&q.spaceQ, x, m.op, "state spaces") {
				q.space = sq
			} else {
				ok = false
			}
			continue
		}
		if t, isType := dataTypeOf(x.name); isType {
			if p.single(&q.typQ, x, m.op, "data types") {
				q.typ = t
			} else {
				ok = false
			}
			continue
		}
		if v, isVec := vectorOf(x.name); isVec {
			if p.single(&q.vecQ, x, m.op, "vector qualifiers") {
				q.vec = v
			} else {
				ok = false
			}
			continue
		}
		if s, isSem := semOf(x.name); isSem {
			if q.firstOff < 0 {
				q.firstOff = x.off
			}
			if !slices.Contains(allowed, s) && !p.dialectSem(m, x, s, allowed) {
				ok = false
				continue
			}
			if q.semQ != nil {
				// PTX spells mmio loads and stores ".mmio.relaxed.sys".
				if !q.mmio && mmioPair(q.sem, s) {
					q.sem, q.mmio = SemMMIO, true
					continue
				}
				p.errorf(x.off, "%s has two memory-order qualifiers, .%s and .%s", m.op, q.semQ.name, x.name)
				ok = false
				continue
			}
			q.sem, q.semQ = s, x
			continue
		}
		if s, isScope := scopeOf(x.name); isScope {
			if q.firstOff < 0 {
				q.firstOff = x.off
			}
			if p.single(&q.scopeQ, x, m.op, "scopes") {
				q.scope = s
			} else {
				ok = false
			}
			continue
		}
		if slices.Contains(ops, x.name) || len(ops) > 0 && x.name == "sub" && p.dialectSub(m, x) {
			if p.single(&q.atomOpQ, x, m.op, "operations") {
				q.atomOp = x.name
			} else {
				ok = false
			}
			continue
		}
		if len(ops) > 0 && x.name == "sub" {
			ok = false // dialectSub has said why
			continue
		}
		if k := hintKindOf(x.name); k != hintNone && takesHints(m.op) {
			if !p.addHint(&q.hints, k, x, m.op) {
				ok = false
			}
			continue
		}
		if m.op == "red" && (x.name == "exch" || x.name == "cas") {
			p.errorf(x.off, "red.%s is not supported: red has no result, use atom.%s", x.name, x.name)
			ok = false
			continue
		}
		expect := "a memory order (" + semList(allowed) + "), a scope (.cta, .cluster, .gpu or .sys)"
		if len(ops) > 0 {
			expect += ", an operation (." + strings.Join(ops, ", .") + ")"
		}
		p.errorf(x.off, "unknown qualifier .%s on %s: expected %s, a state space or a type", x.name, m.op, expect)
		ok = false
	}
	return q, ok
}

// single records x in slot, the one qualifier of its kind an instruction
// may have; a second one is an error naming both (kinds is the kind in the
// plural) and leaves slot as it was.
func (p *parser) single(slot **qual, x *qual, op, kinds string) bool {
	if *slot != nil {
		p.errorf(x.off, "%s has two %s, .%s and .%s", op, kinds, (*slot).name, x.name)
		return false
	}
	*slot = x
	return true
}

// mmioPair reports whether two memory orders are .mmio and .relaxed, which
// together spell an mmio operation.
func mmioPair(a, b Sem) bool {
	return a == SemMMIO && b == SemRelaxed || a == SemRelaxed && b == SemMMIO
}

// ldstScope applies the PTX rules for the scope of a load or store (the ld
// and st instruction pages):
//   - weak operations (the default without a memory order) have no scope;
//   - relaxed, acquire and release need a scope: PTX writes
//     ld.relaxed.scope and has no default (a strong operation without one
//     is an error, not .sys);
//   - volatile has no scope: it is relaxed at system scope (8.4.2), which is
//     left to the model to apply;
//   - mmio is spelled .mmio.relaxed.sys, all three together (8.4.1).
func (p *parser) ldstScope(m mnemonic, q memQuals) (Scope, bool) {
	switch q.sem {
	case SemWeak:
		if q.scopeQ == nil {
			return ScopeNone, true
		}
		if q.semQ == nil {
			p.errorf(q.scopeQ.off, "scope .%s needs a memory order: write %s.relaxed.%s (without one, %s is weak)", q.scopeQ.name, m.op, q.scopeQ.name, m.op)
		} else {
			p.errorf(q.scopeQ.off, "weak operations take no scope, found .%s", q.scopeQ.name)
		}
		return ScopeNone, false
	case SemVolatile:
		if q.scopeQ != nil {
			p.errorf(q.scopeQ.off, "volatile operations take no scope (they are relaxed at system scope), found .%s", q.scopeQ.name)
			return ScopeNone, false
		}
		return ScopeNone, true
	case SemMMIO:
		if !q.mmio || q.scopeQ == nil || q.scope != ScopeSys {
			at := q.semQ.off
			if q.scopeQ != nil && q.scope != ScopeSys {
				at = q.scopeQ.off
			}
			p.errorf(at, "%s.mmio must be written %s.mmio.relaxed.sys: PTX requires .mmio and .relaxed together, at .sys scope only", m.op, m.op)
			return ScopeNone, false
		}
		return ScopeSys, true
	}
	if q.scopeQ == nil {
		p.errorf(q.semQ.off, "%s.%s needs a scope: PTX requires one on a strong %s (.cta, .cluster, .gpu or .sys) and has no default", m.op, q.sem, m.op)
		return ScopeNone, false
	}
	return q.scope, true
}

// proxyOf returns the proxy of a load or store mnemonic.
func proxyOf(op string) Proxy {
	switch op {
	case "suld", "sust":
		return ProxySurface
	case "tld", ncLoad:
		return ProxyTexture
	case "cold":
		return ProxyConstant
	}
	return ProxyGeneric
}

// memSems returns the memory orders a load or store accepts. Surface,
// texture and constant accesses are outside the memory consistency model's
// strong operations (8.1, 8.6): only weak ones are accepted, so that a
// qualifier the model could not honour is rejected instead of ignored.
func memSems(op string) []Sem {
	switch op {
	case "ld":
		return []Sem{SemWeak, SemRelaxed, SemAcquire, SemVolatile, SemMMIO}
	case "st":
		return []Sem{SemWeak, SemRelaxed, SemRelease, SemVolatile, SemMMIO}
	}
	return []Sem{SemWeak}
}

// semList prints ".a, .b or .c" for diagnostics.
func semList(sems []Sem) string {
	names := make([]string, len(sems))
	for i, s := range sems {
		names[i] = "." + s.String()
	}
	return orList(names)
}

// orList joins words as "a, b or c".
func orList(words []string) string { return joinWords(words, "or") }

// andList joins words as "a, b and c".
func andList(words []string) string { return joinWords(words, "and") }

// joinWords joins words with commas and conj before the last one.
func joinWords(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
