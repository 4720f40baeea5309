package report

import (
	"fmt"
	"strconv"

	"github.com/ptxmm/ptxmm/litmus"
)

// herdCondition prints a proposition as herd7 prints conditions, so that
// its log tools re-read it and logs diff cleanly against herd's: "loc=v"
// atoms with the state lines' names, /\ and \/ flattened, with parentheses
// only where herd puts them, "not (...)" for negations (so x != 1 is
// not (x=1)), true and false.
// Registers are named by the test's threads (herdThread).
func herdCondition(t *litmus.Test, e litmus.Expr) string {
	return string(appendHerdCondition(nil, t, e))
}

// appendHerdCondition appends herdCondition's text to b.
func appendHerdCondition(b []byte, t *litmus.Test, e litmus.Expr) []byte {
	return condPrinter{thread: herdThread(t)}.prop(b, e, opTop)
}

// condPrinter prints propositions, naming thread i thread(i). It appends
// to a buffer: the herd log prints a condition per test.
type condPrinter struct{ thread func(i int) string }

type propLevel int

const (
	opTop propLevel = iota
	opAnd
	opOr
)

func (p condPrinter) prop(b []byte, e litmus.Expr, above propLevel) []byte {
	switch e := e.(type) {
	case *litmus.And:
		return p.junction(b, e, above, opAnd, ` /\ `)
	case *litmus.Or:
		return p.junction(b, e, above, opOr, ` \/ `)
	case *litmus.Not:
		b = append(b, "not ("...)
		b = p.prop(b, e.X, opTop)
		return append(b, ')')
	case *litmus.BoolLit:
		if e.Value {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case *litmus.Cmp:
		if e.Op == "!=" {
			b = append(b, "not ("...)
			b = p.atom(b, e)
			return append(b, ')')
		}
		return p.atom(b, e)
	}
	return fmt.Appendf(b, "<%T>", e)
}

// junction prints a conjunction (or disjunction) with its nested
// conjunctions (disjunctions) flattened, parenthesised as herd does: a
// conjunction inside a disjunction, or the other way round, is; at the
// top nothing is.
func (p condPrinter) junction(b []byte, e litmus.Expr, above, here propLevel, sep string) []byte {
	open := above != opTop && above != here
	if open {
		b = append(b, '(')
	}
	b = p.flatten(b, e, here, sep)
	if open {
		b = append(b, ')')
	}
	return b
}

// flatten prints the operands of nested conjunctions (or disjunctions),
// separated by sep.
func (p condPrinter) flatten(b []byte, e litmus.Expr, level propLevel, sep string) []byte {
	var l, r litmus.Expr
	switch x := e.(type) {
	case *litmus.And:
		if level == opAnd {
			l, r = x.L, x.R
		}
	case *litmus.Or:
		if level == opOr {
			l, r = x.L, x.R
		}
	}
	if l == nil {
		return p.prop(b, e, level)
	}
	b = p.flatten(b, l, level, sep)
	b = append(b, sep...)
	return p.flatten(b, r, level, sep)
}

// atom prints "loc=v", putting the location first.
func (p condPrinter) atom(b []byte, c *litmus.Cmp) []byte {
	l, r := c.L, c.R
	if l.Kind == litmus.TermConst && r.Kind != litmus.TermConst {
		l, r = r, l
	}
	b = p.term(b, l)
	b = append(b, '=')
	return p.term(b, r)
}

func (p condPrinter) term(b []byte, t litmus.Term) []byte {
	switch t.Kind {
	case litmus.TermReg:
		b = append(b, p.thread(t.Thread)...)
		b = append(b, ':')
		return append(b, regName(t.Reg)...)
	case litmus.TermLoc:
		return append(b, t.Loc...)
	}
	return strconv.AppendInt(b, t.Value, 10)
}
