package litmus

import "fmt"

// This file parses the asynchronous copies (cp.async, cp.async.bulk,
// cp.reduce.async.bulk), their commit and wait instructions,
// cp.async.mbarrier.arrive, and wgmma (PTX ISA 8.9.1.1 and the instruction
// pages; docs/litmus.md lists the accepted forms).

// cpForms lists the supported cp instructions for diagnostics.
const cpForms = "cp.async.ca.shared.global, cp.async.cg.shared.global, cp.async.commit_group, cp.async.wait_group, " +
	"cp.async.wait_all, cp.async.mbarrier.arrive, cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, " +
	"cp.async.bulk.global.shared::cta.bulk_group, cp.async.bulk.commit_group, cp.async.bulk.wait_group or " +
	"cp.reduce.async.bulk.global.shared::cta.bulk_group.add"

// parseCp parses every instruction whose mnemonic starts with cp.
func (p *parser) parseCp(c *cursor, in *Instr, m mnemonic, thread int) bool {
	names := make([]string, len(m.qs))
	for i, q := range m.qs {
		names[i] = q.name
	}
	at := func(i int, s string) bool { return i < len(names) && names[i] == s }
	switch {
	case at(0, "reduce") && at(1, "async") && at(2, "bulk") && at(3, "tensor"):
		return p.parseTensorCopy(c, in, m, thread, 4, true)
	case at(0, "reduce") && at(1, "async") && at(2, "bulk"):
		return p.parseBulkCopy(c, in, m, thread, 3, true)
	case !at(0, "async"):
		off := m.off
		if len(m.qs) > 0 {
			off = m.qs[0].off
		}
		p.errorf(off, "%s is not supported: expected %s", m.text, cpForms)
		return false
	case at(1, "bulk"):
		switch {
		case at(2, "commit_group"), at(2, "wait_group"):
			return p.parseGroup(c, in, m, GroupBulk, 2)
		case at(2, "tensor"):
			return p.parseTensorCopy(c, in, m, thread, 3, false)
		case at(2, "prefetch"):
			// cp.async.bulk.prefetch and cp.async.bulk.prefetch.tensor: their
			// pages make them "a weak memory operation in the Memory
			// Consistency Model", so they are no cache hints to drop, and
			// with no completion mechanism nothing says when they are done
			// (docs/litmus.md 4.9.4).
			what := "cp.async.bulk.prefetch"
			if at(3, "tensor") {
				what += ".tensor"
			}
			p.errorf(m.qs[2].off, "%s is not supported: its page makes it \"a weak memory operation in the Memory Consistency Model\", so it is no cache hint ptxmm could drop, and it has no completion mechanism that would say when that operation is performed", what)
			return false
		}
		return p.parseBulkCopy(c, in, m, thread, 2, false)
	case at(1, "commit_group"), at(1, "wait_group"), at(1, "wait_all"):
		return p.parseGroup(c, in, m, GroupCpAsync, 1)
	case at(1, "mbarrier"):
		return p.parseCopyArrive(c, in, m, thread)
	}
	return p.parseCpAsync(c, in, m, thread)
}

// parseCpAsync parses "cp.async.ca.shared{::cta}.global y, x {, SIZE {, SRCSIZE}}"
// (and .cg): an asynchronous copy of global x into shared y, in the
// generic proxy.
func (p *parser) parseCpAsync(c *cursor, in *Instr, m mnemonic, thread int) bool {
	rest := m.qs[1:]
	if len(rest) == 0 || (rest[0].name != "ca" && rest[0].name != "cg") {
		off := m.off
		if len(rest) > 0 {
			off = rest[0].off
		}
		p.errorf(off, "cp.async needs a cache operator: expected cp.async.ca.shared.global or cp.async.cg.shared.global (or one of %s)", cpForms)
		return false
	}
	mn := "cp.async." + rest[0].name
	dst, src, ok := p.copySpaces(rest[1:], mn, []SpaceQual{SpaceQShared}, []SpaceQual{SpaceQGlobal}, "shared.global")
	if !ok {
		return false
	}
	in.Op, in.Copy, in.SpaceQ = OpCopy, CopyAsync, dst
	_ = src
	if !p.copyOperands(c, in, thread, mn, false, false) || !p.copyPolicy(c, m, mn) {
		return false
	}
	return p.endOperands(c, mn)
}

// copySpaces reads the destination and source state spaces of a copy
// (in that order, as PTX writes them) and the qualifiers it ignores
// (cache hints, prefetch sizes, types), reporting anything else.
func (p *parser) copySpaces(qs []qual, mn string, dsts, srcs []SpaceQual, form string) (SpaceQual, SpaceQual, bool) {
	var spaces []qual
	for i := range qs {
		if _, ok := spaceQualOf(qs[i].name); ok {
			spaces = append(spaces, qs[i])
			continue
		}
		if k := hintKindOf(qs[i].name); k == hintCachePol || k == hintPrefetch {
			continue
		}
		if isTypeQual(qs[i].name) {
			continue
		}
		p.errorf(qs[i].off, "unknown qualifier .%s on %s: expected the state spaces .%s", qs[i].name, mn, form)
		return 0, 0, false
	}
	if len(spaces) != 2 {
		off := 0
		if len(qs) > 0 {
			off = qs[len(qs)-1].off
		}
		p.errorf(off, "%s needs a destination and a source state space: write %s.%s", mn, mn, form)
		return 0, 0, false
	}
	dst, _ := spaceQualOf(spaces[0].name)
	src, _ := spaceQualOf(spaces[1].name)
	if !containsSpace(dsts, dst) || !containsSpace(srcs, src) {
		p.errorf(spaces[0].off, "%s.%s.%s is not a PTX copy direction: write %s.%s", mn, spaces[0].name, spaces[1].name, mn, form)
		return 0, 0, false
	}
	return dst, src, true
}

func containsSpace(list []SpaceQual, s SpaceQual) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyOperands reads "y, x {, SIZE}" of a copy (SIZE required when
// needSize) and, for bulk loads, ", b" the mbarrier.
func (p *parser) copyOperands(c *cursor, in *Instr, thread int, mn string, needSize, needMBar bool) bool {
	if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "destination") {
		return false
	}
	if _, ok := p.memOperandTo(c, in, &in.Mem2, thread, mn, false, -1); !ok {
		return false
	}
	if c.done() && !needSize {
		return true
	}
	if !p.expectComma(c, mn, "source") {
		return false
	}
	var ok bool
	if in.Size, ok = p.immOrReg(c, mn, "size in bytes"); !ok {
		return false
	}
	if in.Size.Kind == OperandImm && in.Size.Imm <= 0 {
		p.errorf(c.toks[c.i-1].off, "the size of %s must be positive, found %d", mn, in.Size.Imm)
		return false
	}
	if needMBar {
		if !p.expectComma(c, mn, "size") {
			return false
		}
		_, ok = p.memOperandTo(c, in, &in.MBar, thread, mn, false, -1)
		return ok
	}
	if in.Copy == CopyAsync && !c.done() {
		// cp.async's optional src-size, "the size of the data in bytes to
		// be copied from src to dst"; "remaining bytes in destination dst
		// are filled with zeros" (cp.async page). An immediate is kept in
		// Src and the copy writes the low src-size bytes of the value it
		// reads (execution); a register is accepted with no effect, since
		// in this untyped dialect it may also be the ignore-src predicate
		// or, with .L2::cache_hint, the cache policy.
		if !p.expectComma(c, mn, "size") {
			return false
		}
		first := c.i
		var src Operand
		if src, ok = p.immOrReg(c, mn, "source size"); !ok {
			return false
		}
		if src.Kind == OperandImm {
			at := c.toks[first].off
			switch {
			case src.Imm < 0:
				p.errorf(at, "the source size of %s must not be negative, found %d", mn, src.Imm)
				return false
			case in.Size.Kind == OperandImm && src.Imm > in.Size.Imm:
				p.errorf(at, "the source size %d of %s is larger than its size %d: \"specifying src-size larger than cp-size results in undefined behavior\" (PTX ISA, cp.async)", src.Imm, mn, in.Size.Imm)
				return false
			}
			in.Src = src
		}
	}
	return ok
}

// parseBulkCopy parses the bulk copies (from qualifier index first on):
//
//	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, SIZE, b
//	cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes y, x, SIZE, b
//	cp.async.bulk.global.shared::cta.bulk_group y, x, SIZE
//	cp.reduce.async.bulk.global.shared::cta.bulk_group.add{.TYPE} y, x, SIZE
func (p *parser) parseBulkCopy(c *cursor, in *Instr, m mnemonic, thread, first int, reduce bool) bool {
	mn := "cp.async.bulk"
	if reduce {
		mn = "cp.reduce.async.bulk"
	}
	var b bulkQuals
	for i := first; i < len(m.qs); i++ {
		x := &m.qs[i]
		taken, ok := p.bulkQual(&b, x, mn, reduce)
		switch {
		case !ok:
			return false
		case taken, isTypeQual(x.name) || hintKindOf(x.name) == hintCachePol || x.name == "noftz":
		default:
			p.errorf(x.off, "unknown qualifier .%s on %s: expected %s", x.name, mn, cpForms)
			return false
		}
	}
	if !p.bulkQualsComplete(&b, m, mn, mn) {
		return false
	}
	if !p.bulkDirection(in, mn, cpForms, &b, reduce) {
		return false
	}
	if !reduce && b.redOp != nil {
		p.errorf(b.redOp.off, "cp.async.bulk takes no operation .%s: reductions are cp.reduce.async.bulk", b.redOp.name)
		return false
	}
	if !p.multicastForm(in, &b, mn) || !p.copyOperands(c, in, thread, mn, true, in.Copy == CopyBulkLoad) ||
		!p.ctaMask(c, in, mn) || !p.copyPolicy(c, m, mn) {
		return false
	}
	return p.endOperands(c, mn)
}

// multicastForm checks a .multicast::cluster qualifier against the copy's
// direction: PTX has it only on the loads from global memory into
// .shared::cluster (cp.async.bulk and cp.async.bulk.tensor pages), whose
// ctaMask operand then follows the mbarrier. It sets CtaMaskBits, which
// tells ctaMask to read the operand.
func (p *parser) multicastForm(in *Instr, b *bulkQuals, mn string) bool {
	if b.multicast == nil {
		return true
	}
	if in.Copy != CopyBulkLoad || in.SpaceQ != SpaceQCluster {
		p.errorf(b.multicast.off, "%s.%s copies into the shared memory of several CTAs: it needs the direction .shared::cluster.global", mn, b.multicast.name)
		return false
	}
	in.CtaMaskBits = 16
	if b.multicast.name == "multicast::cluster::32b" {
		in.CtaMaskBits = 32
	}
	return true
}

// ctaMask reads ", ctaMask" after the mbarrier of a multicast load: an
// integer with at least one of its CtaMaskBits low bits set and none
// above, or a register (its value is checked when the test runs).
func (p *parser) ctaMask(c *cursor, in *Instr, mn string) bool {
	if in.CtaMaskBits == 0 {
		return true
	}
	if !p.expectComma(c, mn, "mbarrier") {
		return false
	}
	mask, ok := p.immOrReg(c, mn, "ctaMask")
	if !ok {
		return false
	}
	if mask.Kind == OperandImm && (mask.Imm <= 0 || mask.Imm>>in.CtaMaskBits != 0) {
		p.errorf(c.toks[c.i-1].off, "the ctaMask of %s must name at least one CTA with its %d bits, found %d", mn, in.CtaMaskBits, mask.Imm)
		return false
	}
	in.CtaMask = mask
	return true
}

// bulkQuals are the qualifiers the bulk and tensor copies share: the state
// spaces (destination first), the completion mechanism and the reduction.
type bulkQuals struct {
	spaces      []qual
	mech, redOp *qual
	multicast   *qual // .multicast::cluster{::16b, ::32b}
}

// bulkQual records x in b when it is one of those qualifiers (taken); ok
// is false after an error (a second mechanism or operation).
func (p *parser) bulkQual(b *bulkQuals, x *qual, mn string, reduce bool) (taken, ok bool) {
	switch {
	case x.name == "mbarrier::complete_tx::bytes" || x.name == "bulk_group":
		if b.mech != nil {
			p.errorf(x.off, "%s has two completion mechanisms, .%s and .%s", mn, b.mech.name, x.name)
			return true, false
		}
		b.mech = x
	case isSpaceQual(x.name):
		b.spaces = append(b.spaces, *x)
	case x.name == "multicast::cluster" || x.name == "multicast::cluster::16b" || x.name == "multicast::cluster::32b":
		if b.multicast != nil {
			p.errorf(x.off, "%s has two multicast qualifiers, .%s and .%s", mn, b.multicast.name, x.name)
			return true, false
		}
		b.multicast = x
	case reduce && isReduceOp(x.name):
		if b.redOp != nil {
			p.errorf(x.off, "%s has two operations, .%s and .%s", mn, b.redOp.name, x.name)
			return true, false
		}
		b.redOp = x
	default:
		return false, true
	}
	return true, true
}

// bulkQualsComplete requires the completion mechanism and two state
// spaces; example is the copy's name as the message's example writes it.
func (p *parser) bulkQualsComplete(b *bulkQuals, m mnemonic, mn, example string) bool {
	if b.mech == nil {
		p.errorf(m.off, "%s needs a completion mechanism: .mbarrier::complete_tx::bytes (loads into shared memory) or .bulk_group (stores to global memory)", mn)
		return false
	}
	if len(b.spaces) != 2 {
		p.errorf(b.mech.off, "%s needs a destination and a source state space, e.g. %s.shared::cluster.global.mbarrier::complete_tx::bytes", mn, example)
		return false
	}
	return true
}

// bulkDirection sets the kind of a bulk or tensor copy from its state
// spaces (destination first), completion mechanism and reduction: a load
// into shared memory completes on an mbarrier, a store or reduction to
// global memory in a bulk group, and .add is the only reduction.
func (p *parser) bulkDirection(in *Instr, mn, forms string, b *bulkQuals, reduce bool) bool {
	spaces, mech, redOp := b.spaces, b.mech, b.redOp
	dst, _ := spaceQualOf(spaces[0].name)
	src, _ := spaceQualOf(spaces[1].name)
	in.Op, in.SpaceQ = OpCopy, dst
	switch {
	case mech.name == "bulk_group" && dst == SpaceQGlobal && src == SpaceQShared:
		in.Copy = CopyBulkStore
		if reduce {
			in.Copy = CopyBulkReduce
			if redOp == nil || redOp.name != "add" {
				off := mech.off
				if redOp != nil {
					off = redOp.off
				}
				p.errorf(off, "%s needs the operation .add (the only reduction ptxmm models)", mn)
				return false
			}
			in.AtomOp = "add"
		}
	case !reduce && mech.name == "mbarrier::complete_tx::bytes" && (dst == SpaceQCluster || dst == SpaceQShared) && src == SpaceQGlobal:
		in.Copy = CopyBulkLoad
	default:
		p.errorf(spaces[0].off, "%s.%s.%s.%s is not supported: expected %s", mn, spaces[0].name, spaces[1].name, mech.name, forms)
		return false
	}
	return true
}

func isReduceOp(s string) bool {
	switch s {
	case "add", "and", "or", "xor", "inc", "dec", "min", "max":
		return true
	}
	return false
}

// parseGroup parses the commit and wait instructions of a family from
// qualifier index at on: commit_group, wait_group N (bulk: wait_group.read
// N) and cp.async.wait_all.
func (p *parser) parseGroup(c *cursor, in *Instr, m mnemonic, f GroupFamily, at int) bool {
	opQ := m.qs[at]
	mn := f.String() + "." + opQ.name
	in.Op, in.Family = OpAsyncGroup, f
	spec := qualSpec{mn: mn}
	switch opQ.name {
	case "commit_group":
		in.GroupOp = GroupCommit
	case "wait_group":
		in.GroupOp = GroupWait
		if f == GroupBulk {
			spec.flags = []string{"read"}
		}
	case "wait_all":
		in.GroupOp = GroupWaitAll
	}
	if f == GroupWgmma {
		spec.flags = append(spec.flags, "sync", "aligned")
	}
	q, ok := p.sortQuals(m.qs[at+1:], spec)
	if !ok {
		return false
	}
	in.ReadOnly = q.flags["read"] != nil
	if in.GroupOp != GroupWait {
		return p.endOperands(c, mn)
	}
	off := c.peek().off
	n, _, ok := p.intLit(c)
	if !ok {
		return false
	}
	if n < 0 {
		p.errorf(off, "%s needs a group count of 0 or more, found %d", mn, n)
		return false
	}
	in.Count = Operand{Kind: OperandImm, Imm: n, At: p.at(off)}
	return p.endOperands(c, mn)
}

// parseCopyArrive parses "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}{.b64} b".
func (p *parser) parseCopyArrive(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) < 3 || m.qs[2].name != "arrive" {
		p.errorf(m.qs[1].off, "%s is not supported: expected cp.async.mbarrier.arrive{.noinc} b", m.text)
		return false
	}
	mn := "cp.async.mbarrier.arrive"
	q, ok := p.sortQuals(m.qs[3:], qualSpec{mn: mn, flags: []string{"noinc"}, spaces: []SpaceQual{SpaceQShared}, types: true})
	if !ok {
		return false
	}
	in.Op, in.NoInc, in.SpaceQ = OpCopyArrive, q.flags["noinc"] != nil, q.space
	if !p.mbarOperand(c, in, thread, mn) {
		return false
	}
	return p.endOperands(c, mn)
}

// parseWgmma parses wgmma.fence, wgmma.commit_group, wgmma.wait_group N and
// "wgmma.mma_async D, A, B", each with .sync.aligned accepted; the shape
// and type qualifiers of mma_async are accepted and ignored.
func (p *parser) parseWgmma(c *cursor, in *Instr, m mnemonic, thread int) bool {
	if len(m.qs) == 0 {
		p.errorf(m.off, "wgmma needs an operation: expected wgmma.fence, wgmma.mma_async, wgmma.commit_group or wgmma.wait_group")
		return false
	}
	opQ := m.qs[0]
	switch opQ.name {
	case "commit_group", "wait_group":
		return p.parseGroup(c, in, m, GroupWgmma, 0)
	case "fence":
		if _, ok := p.sortQuals(m.qs[1:], qualSpec{mn: "wgmma.fence", flags: []string{"sync", "aligned"}}); !ok {
			return false
		}
		in.Op = OpWgmmaFence
		return p.endOperands(c, "wgmma.fence")
	case "mma_async":
	default:
		p.errorf(opQ.off, "wgmma.%s is not supported: expected wgmma.fence, wgmma.mma_async, wgmma.commit_group or wgmma.wait_group", opQ.name)
		return false
	}
	mn := "wgmma.mma_async"
	spec := qualSpec{mn: mn, types: true, flags: []string{"sync", "aligned", "satfinite", "popc"},
		ignored: []string{"m64n", "f16", "bf16", "f32", "tf32", "e4m3", "e5m2", "s32", "s8", "u8", "b1", "and"}}
	if _, ok := p.sortQuals(m.qs[1:], spec); !ok {
		return false
	}
	in.Op = OpWgmma
	if !p.destination(c, in, mn) {
		return false
	}
	if _, ok := p.memOperandTo(c, in, &in.Addr, thread, mn, false, -1); !ok {
		return false
	}
	if !p.expectComma(c, mn, "A operand") {
		return false
	}
	if _, ok := p.memOperandTo(c, in, &in.Mem2, thread, mn, false, -1); !ok {
		return false
	}
	return p.endOperands(c, mn)
}

// parseProxyAsyncFence parses the rest of fence.proxy.async{.shared::cta|
// .shared::cluster|.global}: a bidirectional proxy fence between the
// generic and the async proxy, limited to the state space named.
func (p *parser) parseProxyAsyncFence(c *cursor, in *Instr, m mnemonic) bool {
	in.Op, in.Proxy = OpProxyFence, ProxyAsync
	spec := qualSpec{mn: m.op + ".proxy.async", spaces: []SpaceQual{SpaceQGlobal, SpaceQShared, SpaceQCluster}}
	q, ok := p.sortQuals(m.qs[2:], spec)
	if !ok {
		return false
	}
	in.SpaceQ = q.space
	return p.endOperands(c, m.text)
}

// parseMBarInitFence parses fence.mbarrier_init.release.cluster, whose
// .release and .cluster PTX requires.
func (p *parser) parseMBarInitFence(c *cursor, in *Instr, m mnemonic) bool {
	mn := "fence.mbarrier_init"
	q, ok := p.sortQuals(m.qs[1:], qualSpec{mn: mn, sems: []Sem{SemRelease}, scopes: []Scope{ScopeCluster}})
	if !ok {
		return false
	}
	if q.semQ == nil || q.scopeQ == nil {
		p.errorf(m.off, "%s needs .release and .cluster: write fence.mbarrier_init.release.cluster", m.text)
		return false
	}
	in.Op, in.Sem, in.Scope = OpMBarInitFence, SemRelease, ScopeCluster
	return p.endOperands(c, m.text)
}

// groupDescription names a group instruction for messages.
func groupDescription(in *Instr) string {
	switch in.GroupOp {
	case GroupCommit:
		return in.Family.String() + ".commit_group"
	case GroupWaitAll:
		return in.Family.String() + ".wait_all"
	}
	return fmt.Sprintf("%s.wait_group %d", in.Family, in.Count.Imm)
}

// copyPolicy reads the cache-policy operand that may end a copy with
// .L2::cache_hint. PTX makes it optional in the syntax of the copies, and
// in cp.async's "SIZE, SRCSIZE, POLICY" the last operand copyOperands
// reads may be the policy; neither has an effect on the model, so a copy
// with .L2::cache_hint accepts one more operand and does not require it.
func (p *parser) copyPolicy(c *cursor, m mnemonic, mn string) bool {
	var h cacheHints
	for i := range m.qs {
		if hintKindOf(m.qs[i].name) == hintCachePol {
			h[hintCachePol] = &m.qs[i]
		}
	}
	if h[hintCachePol] == nil || c.done() {
		return true
	}
	return p.cachePolicy(c, &h, mn)
}
