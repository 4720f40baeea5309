package litmus

import (
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/source"
)

// Both formats let a test use a name ptxmm must guess the meaning of: a
// location a herd test never declares (herd7 declares it with initial
// value 0), a register the condition reads that no instruction writes
// (herd7 reads 0). The guess is usually right and herd7 makes it silently;
// a typo makes it wrong, and the test then checks something else than its
// author meant. lint says so, as a warning at the name, and as an error
// where the test contradicts itself.

// registerLike matches the names herd tests give registers.
var registerLike = lazyregexp.New(`^%?[rR][0-9]+$`)

// lint reports the guessed names of t. It runs on a test that parsed
// without errors only: after an error, names may look unwritten or
// undeclared because of it.
func (p *parser) lint(t *Test) {
	if p.errs.HasErrors() {
		return
	}
	written := make([]map[string]bool, len(t.Threads))
	for i, th := range t.Threads {
		written[i] = map[string]bool{}
		for _, in := range th.Instrs {
			if in.Dst != "" {
				written[i][in.Dst] = true
			}
			for _, r := range in.VecDst {
				written[i][r] = true
			}
		}
	}
	for _, ri := range t.RegInits {
		if ri.Thread >= 0 && ri.Thread < len(written) {
			written[ri.Thread][ri.Reg] = true
		}
	}
	// A predicate (a guard, bar.red's c) that its thread never sets is
	// always 0, false: most likely a misspelt name.
	for i, th := range t.Threads {
		warned := map[string]bool{}
		for _, in := range th.Instrs {
			for _, o := range []Operand{in.Guard, in.Pred} {
				if o.Kind == OperandReg && !written[i][o.Reg] && !warned[o.Reg] {
					warned[o.Reg] = true
					p.errs.Warn(p.opPos(o.At), "predicate %s is never set by thread %s nor initialised, so it is always 0 (false)", o.Reg, th.Name)
				}
			}
		}
	}
	// asLocation[i][name] is the first memory operand of thread i naming
	// an undeclared location.
	implicit := map[string]bool{}
	for _, a := range t.Addresses {
		if a.Implicit {
			implicit[a.Name] = true
		}
	}
	asLocation := make([]map[string]source.Pos, len(t.Threads))
	for i, th := range t.Threads {
		asLocation[i] = map[string]source.Pos{}
		for _, in := range th.Instrs {
			if in.Addr.Kind == OperandAddr && implicit[in.Addr.Addr] {
				if _, ok := asLocation[i][in.Addr.Addr]; !ok {
					asLocation[i][in.Addr.Addr] = p.opPos(in.Addr.At)
				}
			}
		}
	}
	for _, a := range t.Addresses {
		if !a.Implicit {
			continue
		}
		user := ""
		for i, th := range t.Threads {
			if _, ok := asLocation[i][a.Name]; ok {
				user = th.Name
				break
			}
		}
		if registerLike().MatchString(a.Name) && user != "" {
			p.errs.Warn(a.Pos, "%s is not declared, so it is taken as a memory location with initial value 0; if it is meant as a register, thread %s never writes it", a.Name, user)
			continue
		}
		p.errs.Warn(a.Pos, "location %s is not declared in the init block; it is taken as one with initial value 0", a.Name)
	}
	check := func(tm Term) {
		if tm.Kind != TermReg || tm.Thread < 0 || tm.Thread >= len(t.Threads) || written[tm.Thread][tm.Reg] {
			return
		}
		th := t.Threads[tm.Thread]
		if at, ok := asLocation[tm.Thread][tm.Reg]; ok {
			p.errs.Add(tm.Pos, "%s:%s names a register, but thread %s uses %s as a memory location (at %d:%d) and has no register %s",
				th.Name, tm.Reg, th.Name, tm.Reg, at.Line, at.Col, tm.Reg)
			return
		}
		if pct := "%" + tm.Reg; written[tm.Thread][pct] {
			// herd logs print a register without PTX's % (herd's lexer
			// takes no %), so a name copied from a log misses it.
			p.errs.Warn(tm.Pos, "thread %s never writes %s and does not initialise it, so it is 0 in every final state; did you mean %s? (herd logs print %s as %s)", th.Name, tm.Reg, pct, pct, tm.Reg)
			return
		}
		p.errs.Warn(tm.Pos, "thread %s never writes %s and does not initialise it, so it is 0 in every final state", th.Name, tm.Reg)
	}
	t.EachTerm(check)
}

// fileWarnings returns the warnings of a parse, sorted, with their lines.
func fileWarnings(l source.List, file string, src []byte) source.List {
	w := l.Warnings()
	if len(w) == 0 {
		return nil
	}
	w.Sort()
	w.AttachLines(file, string(src))
	return w
}
