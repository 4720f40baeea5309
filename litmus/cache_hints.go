package litmus

import "strings"

// This file reads the cache qualifiers of ld, st, atom and red: cache
// operators (.ca, .wb, ...), eviction priorities (.L1::evict_last, ...),
// .L2::cache_hint with its cache-policy operand, and prefetch sizes
// (.L2::128B). They steer the caches, which the memory consistency model
// (PTX ISA chapter 8) does not mention: they change no event and no
// relation, so the parser checks them and drops them. Instr.Text keeps
// them for display.

// hintKind is a kind of cache qualifier; an instruction takes at most one
// of each kind.
type hintKind int

const (
	hintNone     hintKind = iota
	hintCacheOp           // .ca .cg .cs .lu .cv .wb .wt
	hintEvictL1           // .L1::evict_* and .L1::no_allocate
	hintEvictL2           // .L2::evict_*
	hintCachePol          // .L2::cache_hint
	hintPrefetch          // .L2::64B .L2::128B .L2::256B
)

// hintKinds names each kind in the plural, for "has two ..." errors.
var hintKinds = [...]string{
	hintCacheOp:  "cache operators",
	hintEvictL1:  "L1 eviction priorities",
	hintEvictL2:  "L2 eviction priorities",
	hintCachePol: "cache hints",
	hintPrefetch: "prefetch sizes",
}

// hintKindOf returns the kind of a cache qualifier, or hintNone.
func hintKindOf(s string) hintKind {
	switch s {
	case "ca", "cg", "cs", "lu", "cv", "wb", "wt":
		return hintCacheOp
	case "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last", "L1::no_allocate":
		return hintEvictL1
	case "L2::evict_normal", "L2::evict_first", "L2::evict_last":
		return hintEvictL2
	case "L2::cache_hint":
		return hintCachePol
	case "L2::64B", "L2::128B", "L2::256B":
		return hintPrefetch
	}
	return hintNone
}

// cacheHints are the cache qualifiers of one instruction, one slot per
// kind (nil when absent).
type cacheHints [len(hintKinds)]*qual

// addHint records x of kind k, rejecting a second qualifier of the same kind.
func (p *parser) addHint(h *cacheHints, k hintKind, x *qual, op string) bool {
	return p.single(&h[k], x, op, hintKinds[k])
}

// checkHints applies the PTX ISA's syntax for cache qualifiers (the ld,
// st, atom and red instruction pages) to an instruction whose memory
// order is sem:
//   - ld and st take all kinds but a prefetch size, which only ld takes;
//     atom and red take only .L2::cache_hint (and atom.cas none);
//   - a cache operator goes with weak accesses only, and not with an
//     eviction priority (the two are different forms of ld and st);
//   - ld.volatile takes only a prefetch size, st.volatile none, and the
//     mmio forms none;
//   - the cache operators of ld are .ca .cg .cs .lu .cv, of ld.global.nc
//     .ca .cg .cs, of st .wb .cg .cs .wt.
func (p *parser) checkHints(h *cacheHints, op, atomOp string, sem Sem) bool {
	for k := hintCacheOp; k <= hintPrefetch; k++ {
		x := h[k]
		if x == nil {
			continue
		}
		var why string
		switch {
		case (op == "atom" || op == "red") && k != hintCachePol:
			why = op + " takes only .L2::cache_hint among the cache qualifiers"
		case op == "atom" && atomOp == "cas":
			why = "atom.cas takes no .L2::cache_hint (PTX has no cache-policy form of cas)"
		case op == "st" && k == hintPrefetch:
			why = "prefetch sizes are for loads: st takes none"
		case k == hintCacheOp && op == "ld" && !strings.Contains(".ca.cg.cs.lu.cv.", "."+x.name+"."):
			why = "the cache operators of ld are .ca, .cg, .cs, .lu and .cv"
		case k == hintCacheOp && op == ncLoad && !strings.Contains(".ca.cg.cs.", "."+x.name+"."):
			why = "the cache operators of ld.global.nc are .ca, .cg and .cs"
		case k == hintCacheOp && op == "st" && !strings.Contains(".wb.cg.cs.wt.", "."+x.name+"."):
			why = "the cache operators of st are .wb, .cg, .cs and .wt"
		case k == hintCacheOp && sem != SemWeak:
			why = "a cache operator goes only with a weak " + op + " (no memory order, or .weak)"
		case k == hintCacheOp && (h[hintEvictL1] != nil || h[hintEvictL2] != nil):
			why = "a cache operator and an eviction priority do not go together"
		case sem == SemMMIO:
			why = op + ".mmio takes no cache qualifiers"
		case sem == SemVolatile && op == "st":
			why = "st.volatile takes no cache qualifiers"
		case sem == SemVolatile && k != hintPrefetch:
			why = "ld.volatile takes only a prefetch size among the cache qualifiers"
		default:
			continue
		}
		p.errorf(x.off, "cache qualifier .%s is not allowed here: %s", x.name, why)
		return false
	}
	return true
}

// cachePolicy reads the trailing ", cache-policy" operand that
// .L2::cache_hint requires (a 64-bit register or an integer), and rejects
// one without the qualifier. The policy has no effect on the model and is
// dropped.
func (p *parser) cachePolicy(c *cursor, h *cacheHints, mn string) bool {
	if h[hintCachePol] == nil {
		if t := c.peek(); !c.done() && t.is(",") {
			p.errorf(t.off, "unexpected ',' after the operands of %s: a cache-policy operand needs .L2::cache_hint", mn)
			return false
		}
		return true
	}
	t := c.peek()
	if c.done() || !t.is(",") {
		p.errorf(t.off, "%s.L2::cache_hint needs a cache-policy operand: expected ', POLICY' (a 64-bit register or an integer), found %s", mn, t.describe())
		return false
	}
	c.next()
	if startsInt(c) {
		_, _, ok := p.intLit(c)
		return ok
	}
	t = c.peek()
	if t.kind != tokIdent || !isRegName(t.text) || c.done() {
		p.errorf(t.off, "expected a register or an integer as the cache-policy operand of %s, found %s", mn, t.describe())
		return false
	}
	c.next()
	return true
}

// takesHints reports the instructions whose cache qualifiers the parser
// reads: the others reject them as unknown qualifiers.
func takesHints(op string) bool {
	return op == "ld" || op == "st" || op == "atom" || op == "red" || op == ncLoad
}

// checkGlobalOnly applies the sentences of the ld, st, atom and red pages
// that tie a qualifier to global memory, to an instruction that names a
// shared state space with it:
//   - "The qualifier .mmio may be used only with .global space and with
//     generic addressing, where the address points to .global space";
//   - "The qualifier .level::prefetch_size may only be used with .global
//     state space and with generic addressing where the address points to
//     .global state space";
//   - "The qualifiers .unified and .level::cache_hint are only supported
//     for .global state space and for generic addressing where the address
//     points to the .global state space" (ld; st, atom and red say the same
//     of .level::cache_hint).
//
// Generic addressing stays accepted: none of these sentences makes an
// access through a generic address to shared memory undefined (the prefetch
// page says only that the prefetching is), so it keeps the meaning of the
// access without the qualifier (docs/model.md, "Audit of the
// memory-instruction pages").
func (p *parser) checkGlobalOnly(q memQuals, op string) bool {
	if q.spaceQ == nil || q.space == SpaceQGlobal {
		return true
	}
	var what string
	switch {
	case q.sem == SemMMIO:
		what = op + ".mmio"
	case q.hints[hintPrefetch] != nil:
		what = "the prefetch size ." + q.hints[hintPrefetch].name
	case q.hints[hintCachePol] != nil:
		what = ".L2::cache_hint"
	default:
		return true
	}
	p.errorf(q.spaceQ.off, "%s goes only with global memory: PTX allows it with .global or generic addressing, not with .%s", what, q.spaceQ.name)
	return false
}
