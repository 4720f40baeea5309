package litmus

import (
	"fmt"
	"strings"
)

// PTX spellings and the herd dialect. The parsers accept what the PTX
// instruction pages allow and reject the rest with what they do allow. A
// few spellings PTX lacks are written by Dartagnan's herd-format tests
// (red.acq_rel, atom.sub, red.sub; see docs/litmus.md, "Spellings PTX does
// not have"); in herd files those are accepted with the meaning Dartagnan
// gives them and one warning per spelling and file, so that a test written
// for Dartagnan still runs and its author learns it is not PTX. In .test
// files, which follow NVIDIA's tools, they are errors.

// rmwOps lists the operations PTX atom and red take (9.7.13.5, 9.7.13.6).
func rmwOps(op string) []string {
	if op == "red" {
		return []string{"add", "inc", "dec", "and", "or", "xor", "min", "max"}
	}
	return []string{"add", "inc", "dec", "exch", "cas", "and", "or", "xor", "min", "max"}
}

// rmwSems lists the memory orders PTX atom and red take: red has no acquire
// side (9.7.13.6: .sem = {.relaxed, .release}).
func rmwSems(op string) []Sem {
	if op == "red" {
		return []Sem{SemRelaxed, SemRelease}
	}
	return []Sem{SemRelaxed, SemAcquire, SemRelease, SemAcqRel}
}

// dialectUse is one spelling PTX lacks that a herd file uses: where it is
// first written and how often.
type dialectUse struct {
	spelling string
	off      int
	count    int
	msg      string
}

// noteDialect records a use of a non-PTX spelling the herd dialect accepts.
func (p *parser) noteDialect(off int, spelling, msg string) {
	for _, u := range p.dialect {
		if u.spelling == spelling {
			u.count++
			return
		}
	}
	p.dialect = append(p.dialect, &dialectUse{spelling: spelling, off: off, count: 1, msg: msg})
}

// warnDialect reports each recorded spelling once, at its first use.
func (p *parser) warnDialect() {
	for _, u := range p.dialect {
		more := ""
		if u.count > 1 {
			more = fmt.Sprintf(" (%d uses in this file)", u.count)
		}
		p.errs.Warn(p.pos(u.off), "%s%s", u.msg, more)
	}
}

// dialectSem handles a memory order that m's instruction does not take in
// PTX: it reports an error saying what PTX allows and returns false, or,
// for red.acq_rel in a herd file, records the dialect use and returns true.
func (p *parser) dialectSem(m mnemonic, x *qual, s Sem, allowed []Sem) bool {
	if m.op != "red" || (s != SemAcquire && s != SemAcqRel) {
		p.errorf(x.off, "%s cannot be .%s: expected %s", m.op, x.name, semList(allowed))
		return false
	}
	if s == SemAcqRel && p.format == FormatHerd {
		p.noteDialect(x.off, "red.acq_rel", "red.acq_rel is not PTX: PTX red takes .relaxed or .release (default .relaxed). "+
			"Read as Dartagnan does, an update whose read is an acquire operation and whose write is a release; "+
			"in PTX write atom.acq_rel (with a destination) for that, or red.release")
		return true
	}
	p.errorf(x.off, "red cannot be .%s: PTX red takes .relaxed or .release (default .relaxed); use atom.%s for an %s read-modify-write",
		x.name, x.name, map[Sem]string{SemAcquire: "acquire", SemAcqRel: "acquire-release"}[s])
	return false
}

// dialectSub handles atom.sub and red.sub, which PTX does not have: in a
// herd file it records the dialect use and returns true (the operation
// subtracts, as in Dartagnan); otherwise it reports an error and returns
// false.
func (p *parser) dialectSub(m mnemonic, x *qual) bool {
	if p.format == FormatHerd {
		p.noteDialect(x.off, m.op+".sub", fmt.Sprintf("%s.sub is not PTX: PTX %s has no .sub. Read as Dartagnan does, "+
			"storing the old value minus the operand; in PTX write %s.add with the negated operand", m.op, m.op, m.op))
		return true
	}
	p.errorf(x.off, "%s.sub does not exist in PTX: %s takes .%s; subtract with %s.add and the negated operand",
		m.op, m.op, strings.Join(rmwOps(m.op), ", ."), m.op)
	return false
}
