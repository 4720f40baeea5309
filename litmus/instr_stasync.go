package litmus

import (
	"slices"
	"strings"
)

// This file parses st.async and red.async (PTX ISA 9.7.9.12 and 9.7.13.7)
// in their forms that complete on an mbarrier: an asynchronous store or
// reduction into the shared memory of a CTA of the cluster, followed by a
// complete-tx of the bytes it stored on an mbarrier of the same CTA; and in
// their .release forms into global memory (PTX ISA 8.7), an asynchronous
// release store or reduction with no completion mechanism (.mmio is not
// supported).

// stAsyncMech is the completion mechanism of st.async and red.async.
const stAsyncMech = "mbarrier::complete_tx::bytes"

// redAsyncTypes lists the types each red.async operation allows.
var redAsyncTypes = map[string][]string{
	"inc": {"u32"}, "dec": {"u32"},
	"min": {"u32", "s32"}, "max": {"u32", "s32"},
	"and": {"b32"}, "or": {"b32"}, "xor": {"b32"},
	"add": {"u32", "s32", "u64"},
}

// stAsyncTypes lists the types st.async allows (.b128 is not supported:
// ptxmm's values have 64 bits).
var stAsyncTypes = []string{"b32", "b64", "u32", "u64", "s32", "s64", "f32", "f64"}

// parseStAsync parses
//
//	st.async{.weak}{.cluster}{.shared::cluster}.mbarrier::complete_tx::bytes.TYPE a, b, mbar
//	red.async{.relaxed}{.cluster}{.shared::cluster}{.mbarrier::complete_tx::bytes}.OP.TYPE a, b, mbar
//
// st.async is a weak store; red.async is .relaxed.cluster (PTX writes the
// order and scope; either may be left out here, as on mbarrier
// instructions).
func (p *parser) parseStAsync(c *cursor, in *Instr, m mnemonic, thread int) bool {
	mn := m.op + ".async"
	red := m.op == "red"
	for _, x := range m.qs[1:] {
		if x.name == "release" {
			return p.parseAsyncRelease(c, in, m, thread)
		}
	}
	in.Op, in.Proxy, in.Sem, in.Scope = OpStAsync, ProxyGeneric, SemWeak, ScopeCluster
	if red {
		in.Sem = SemRelaxed
	}
	var mech, typQ, opQ *qual
	for i := 1; i < len(m.qs); i++ {
		x := &m.qs[i]
		if !p.stAsyncQual(in, x, mn, red) {
			return false
		}
		switch {
		case x.name == stAsyncMech:
			if mech != nil {
				p.errorf(x.off, "%s has .%s twice", mn, x.name)
				return false
			}
			mech = x
		case red && redAsyncTypes[x.name] != nil:
			if opQ != nil {
				p.errorf(x.off, "%s has two operations, .%s and .%s", mn, opQ.name, x.name)
				return false
			}
			opQ = x
		case isTypeQual(x.name) || x.name == "f32" || x.name == "f64":
			if typQ != nil {
				p.errorf(x.off, "%s has two types, .%s and .%s", mn, typQ.name, x.name)
				return false
			}
			typQ = x
		}
	}
	if mech == nil && !red {
		p.errorf(m.off, "st.async needs its completion mechanism: write st.async.shared::cluster.mbarrier::complete_tx::bytes.TYPE a, b, mbar (the .release form into global memory is not supported)")
		return false
	}
	if red && opQ == nil {
		p.errorf(m.off, "red.async needs an operation: .add, .inc, .dec, .min, .max, .and, .or or .xor")
		return false
	}
	if !p.stAsyncType(in, m, mn, typQ, opQ) {
		return false
	}
	if opQ != nil {
		in.AtomOp = opQ.name
	}
	if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "destination") || !p.valueOperand(c, in, &in.Src, thread, mn, "value") {
		return false
	}
	if !p.expectComma(c, mn, "value") {
		return false
	}
	if _, ok := p.memOperandTo(c, in, &in.MBar, thread, mn, false, -1); !ok {
		return false
	}
	return p.endOperands(c, mn)
}

// stAsyncQual checks one qualifier of st.async or red.async other than the
// operation, the type and the completion mechanism, and records the state
// space; it reports the forms ptxmm does not model.
func (p *parser) stAsyncQual(in *Instr, x *qual, mn string, red bool) bool {
	order := "weak"
	if red {
		order = "relaxed"
	}
	switch {
	case x.name == stAsyncMech, red && redAsyncTypes[x.name] != nil, isTypeQual(x.name), x.name == "f32", x.name == "f64":
		return true
	case x.name == order:
		return true
	case x.name == "mmio" || x.name == "global":
		p.errorf(x.off, "%s.%s belongs to the .release form into global memory: write %s.release.gpu.global (or .sys) (docs/litmus.md, section 4.9.1)", mn, x.name, mn)
		return false
	case x.name == "cluster":
		return true
	case x.name == "shared::cluster":
		in.SpaceQ = SpaceQCluster
		return true
	case x.name == "v2" || x.name == "v4" || x.name == "b128":
		p.errorf(x.off, "%s.%s is not supported: ptxmm models %s of one 32- or 64-bit value", mn, x.name, mn)
		return false
	}
	if _, ok := semOf(x.name); ok {
		p.errorf(x.off, "%s cannot be .%s: expected .%s", mn, x.name, order)
		return false
	}
	if _, ok := scopeOf(x.name); ok {
		p.errorf(x.off, "%s cannot be .%s: expected .cluster", mn, x.name)
		return false
	}
	if _, ok := spaceQualOf(x.name); ok {
		p.errorf(x.off, "%s cannot use .%s: expected .shared::cluster (the destination and the mbarrier are in a CTA of the cluster)", mn, x.name)
		return false
	}
	what := "." + order + ", .cluster, .shared::cluster, ." + stAsyncMech + " and a type"
	if red {
		what = "." + order + ", .cluster, .shared::cluster, ." + stAsyncMech + ", an operation (.add, .inc, .dec, .min, .max, .and, .or, .xor) and a type"
	}
	p.errorf(x.off, "unknown qualifier .%s on %s: expected %s", x.name, mn, what)
	return false
}

// stAsyncType checks and records the data type: required, and one the
// instruction (for red.async, its operation) allows.
func (p *parser) stAsyncType(in *Instr, m mnemonic, mn string, typQ, opQ *qual) bool {
	allowed := stAsyncTypes
	form := mn
	if opQ != nil {
		allowed = redAsyncTypes[opQ.name]
		form = mn + "." + opQ.name
	}
	if typQ == nil {
		p.errorf(m.off, "%s needs a data type: .%s", form, strings.Join(allowed, ", ."))
		return false
	}
	if !slices.Contains(allowed, typQ.name) {
		p.errorf(typQ.off, "%s has no .%s form: expected .%s", form, typQ.name, strings.Join(allowed, ", ."))
		return false
	}
	in.Type, _ = dataTypeOf(typQ.name)
	return true
}

// asyncReleaseTypes lists the types of the .release forms: st.async's
// page gives the 8- and 16-bit types too (.b8, .b16, .u8, .u16, .s8,
// .s16), and the store writes the bytes of its type at its address, as
// st does (execution.sizedAccess); red.async's .add types.
var asyncReleaseTypes = map[string][]string{
	"st":  {"b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32", "f64"},
	"red": {"u32", "s32", "u64", "s64"},
}

// parseAsyncRelease parses the .release forms into global memory:
//
//	st.async.release.SCOPE{.global}.TYPE a, b
//	red.async.release.SCOPE{.global}.add.TYPE a, b
//
// SCOPE is .gpu or .sys. The store (or reduction) is asynchronous and "a
// strong memory operation with .release semantics at the scope specified
// by .scope"; there is no completion mechanism.
func (p *parser) parseAsyncRelease(c *cursor, in *Instr, m mnemonic, thread int) bool {
	mn := m.op + ".async.release"
	red := m.op == "red"
	in.Op, in.Proxy, in.Sem, in.Scope = OpStAsync, ProxyGeneric, SemRelease, ScopeNone
	var typQ, opQ, scopeQ *qual
	for i := 1; i < len(m.qs); i++ {
		x := &m.qs[i]
		sc, isScope := scopeOf(x.name)
		switch {
		case x.name == "release":
		case x.name == "global":
			in.SpaceQ = SpaceQGlobal
		case isScope && (sc == ScopeGPU || sc == ScopeSys):
			if scopeQ != nil {
				p.errorf(x.off, "%s has two scopes, .%s and .%s", mn, scopeQ.name, x.name)
				return false
			}
			scopeQ, in.Scope = x, sc
		case isScope:
			p.errorf(x.off, "%s cannot be .%s: expected .gpu or .sys", mn, x.name)
			return false
		case red && x.name == "add":
			opQ = x
		case red && redAsyncTypes[x.name] != nil:
			p.errorf(x.off, "%s.%s is not a PTX form: the .release form has only .add", mn, x.name)
			return false
		case slices.Contains(asyncReleaseTypes[m.op], x.name):
			if typQ != nil {
				p.errorf(x.off, "%s has two types, .%s and .%s", mn, typQ.name, x.name)
				return false
			}
			typQ = x
		case x.name == "mmio":
			p.errorf(x.off, "%s.mmio is not supported: ptxmm gives an instruction one memory order, and an .mmio operation's (8.4.1) would hide the .release", m.op+".async")
			return false
		case x.name == stAsyncMech:
			p.errorf(x.off, "%s takes no completion mechanism: the .release form's completion \"synchronizes with the end of the CTA\" (PTX ISA, red.async)", mn)
			return false
		case isSpaceQual(x.name):
			p.errorf(x.off, "%s cannot use .%s: the .release form stores into global memory (.global)", mn, x.name)
			return false
		case isTypeQual(x.name) || x.name == "f32" || x.name == "f64" || x.name == "v2" || x.name == "v4" || x.name == "b128":
			p.errorf(x.off, "%s.%s is not supported: expected .%s", mn, x.name, strings.Join(asyncReleaseTypes[m.op], ", ."))
			return false
		default:
			if _, ok := semOf(x.name); ok {
				p.errorf(x.off, "%s cannot also be .%s", mn, x.name)
				return false
			}
			p.errorf(x.off, "unknown qualifier .%s on %s: expected a scope (.gpu or .sys), .global%s and a type", x.name, mn, map[bool]string{true: ", .add", false: ""}[red])
			return false
		}
	}
	switch {
	case scopeQ == nil:
		p.errorf(m.off, "%s needs a scope: .gpu or .sys", mn)
		return false
	case red && opQ == nil:
		p.errorf(m.off, "%s needs the operation .add", mn)
		return false
	case typQ == nil:
		p.errorf(m.off, "%s needs a data type: .%s", mn, strings.Join(asyncReleaseTypes[m.op], ", ."))
		return false
	}
	in.Type, _ = dataTypeOf(typQ.name)
	if red {
		in.AtomOp = "add"
	}
	if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "destination") || !p.valueOperand(c, in, &in.Src, thread, mn, "value") {
		return false
	}
	return p.endOperands(c, mn)
}
