package report

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// herdCondition prints a proposition as herd7 prints conditions, so that
// its log tools re-read it and logs diff cleanly against herd's: "loc=v"
// atoms with the state lines' names, /\ and \/ flattened, with parentheses
// only where herd puts them, "not (...)" for negations (so x != 1 is
// not (x=1)), true and false.
// Registers are named by the test's threads (herdThread).
func herdCondition(t *litmus.Test, e litmus.Expr) string {
	return condPrinter{thread: herdThread(t)}.prop(e, opTop)
}

// condPrinter prints propositions, naming thread i thread(i).
type condPrinter struct{ thread func(i int) string }

type propLevel int

const (
	opTop propLevel = iota
	opAnd
	opOr
)

func (p condPrinter) prop(e litmus.Expr, above propLevel) string {
	switch e := e.(type) {
	case *litmus.And:
		return paren(above, opAnd, strings.Join(p.flatten(e, opAnd), ` /\ `))
	case *litmus.Or:
		return paren(above, opOr, strings.Join(p.flatten(e, opOr), ` \/ `))
	case *litmus.Not:
		return "not (" + p.prop(e.X, opTop) + ")"
	case *litmus.BoolLit:
		if e.Value {
			return "true"
		}
		return "false"
	case *litmus.Cmp:
		atom := p.atom(e)
		if e.Op == "!=" {
			return "not (" + atom + ")"
		}
		return atom
	}
	return fmt.Sprintf("<%T>", e)
}

// flatten lists the operands of nested conjunctions (or disjunctions).
func (p condPrinter) flatten(e litmus.Expr, level propLevel) []string {
	switch x := e.(type) {
	case *litmus.And:
		if level == opAnd {
			return append(p.flatten(x.L, level), p.flatten(x.R, level)...)
		}
	case *litmus.Or:
		if level == opOr {
			return append(p.flatten(x.L, level), p.flatten(x.R, level)...)
		}
	}
	return []string{p.prop(e, level)}
}

// paren follows herd: a conjunction inside a disjunction, or the other way
// round, is parenthesised; at the top nothing is.
func paren(above, here propLevel, s string) string {
	if above == opTop || above == here {
		return s
	}
	return "(" + s + ")"
}

// herdAtom prints "loc=v", putting the location first.
func (p condPrinter) atom(c *litmus.Cmp) string {
	l, r := c.L, c.R
	if l.Kind == litmus.TermConst && r.Kind != litmus.TermConst {
		l, r = r, l
	}
	return p.term(l) + "=" + p.term(r)
}

func (p condPrinter) term(t litmus.Term) string {
	switch t.Kind {
	case litmus.TermReg:
		return p.thread(t.Thread) + ":" + regName(t.Reg)
	case litmus.TermLoc:
		return t.Loc
	}
	return fmt.Sprint(t.Value)
}
