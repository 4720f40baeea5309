package litmus

import (
	"fmt"
	"strconv"
	"strings"
)

// This file prints conditions back in herd syntax, for messages and for
// reports: "(P1:r1 == 1 /\ P1:r2 != 1)".

// threadNamer names thread i in printed registers.
type threadNamer func(i int) string

// herdNames names threads P0, P1, ..., which is all an expression knows
// without its test.
func herdNames(i int) string { return "P" + strconv.Itoa(i) }

// testNames names threads as the test does ("d0.b1.t0" in .test files).
func testNames(t *Test) threadNamer {
	return func(i int) string {
		if t != nil && i >= 0 && i < len(t.Threads) {
			return t.Threads[i].Name
		}
		return herdNames(i)
	}
}

// ExprString prints e in herd syntax, naming registers by the threads of t
// (P1:r1, or d0.b1.t0:r1 for .test files) and locations by name.
func ExprString(t *Test, e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, testNames(t))
	return b.String()
}

// String prints the term in herd syntax: P1:r0, x or 3.
func (t Term) String() string { return termString(t, herdNames) }

// termString prints a term, naming threads with names.
func termString(t Term, names threadNamer) string {
	switch t.Kind {
	case TermReg:
		return names(t.Thread) + ":" + t.Reg
	case TermLoc:
		return t.Loc
	default:
		return strconv.FormatInt(t.Value, 10)
	}
}

// String prints the expression in herd syntax.
func (e *And) String() string { return exprText(e) }

// String prints the expression in herd syntax.
func (e *Or) String() string { return exprText(e) }

// String prints the expression in herd syntax.
func (e *Not) String() string { return exprText(e) }

// String prints the expression in herd syntax.
func (e *BoolLit) String() string { return exprText(e) }

// String prints the expression in herd syntax.
func (e *Cmp) String() string { return exprText(e) }

// exprText prints an expression with herd thread names.
func exprText(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, herdNames)
	return b.String()
}

// String prints the condition in herd syntax: exists (P0:r0 == 1).
func (c *Condition) String() string {
	var b strings.Builder
	b.WriteString(c.Kind.String())
	b.WriteByte(' ')
	names := herdNames
	if c.threadNames != nil {
		names = func(i int) string {
			if i >= 0 && i < len(c.threadNames) {
				return c.threadNames[i]
			}
			return herdNames(i)
		}
	}
	switch c.Expr.(type) {
	case *And, *Or:
		writeExpr(&b, c.Expr, names)
	default:
		b.WriteByte('(')
		writeExpr(&b, c.Expr, names)
		b.WriteByte(')')
	}
	return b.String()
}

// writeExpr prints e. Conjunctions and disjunctions are parenthesised,
// with chains of the same connective flattened, so that the output parses
// back to an equivalent expression whatever the precedence.
func writeExpr(b *strings.Builder, e Expr, names threadNamer) {
	switch x := e.(type) {
	case *And:
		writeChain(b, flatten(x, true), ` /\ `, names)
	case *Or:
		writeChain(b, flatten(x, false), ` \/ `, names)
	case *Not:
		b.WriteByte('~')
		if _, ok := x.X.(*Cmp); ok {
			b.WriteByte('(')
			writeExpr(b, x.X, names)
			b.WriteByte(')')
		} else {
			writeExpr(b, x.X, names)
		}
	case *BoolLit:
		if x.Value {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *Cmp:
		fmt.Fprintf(b, "%s %s %s", termString(x.L, names), x.Op, termString(x.R, names))
	}
}

// writeChain prints the operands of a flattened chain in parentheses.
func writeChain(b *strings.Builder, parts []Expr, sep string, names threadNamer) {
	b.WriteByte('(')
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		writeExpr(b, p, names)
	}
	b.WriteByte(')')
}

// flatten lists the operands of a chain of conjunctions (and true) or of
// disjunctions (and false), left to right.
func flatten(e Expr, and bool) []Expr {
	var out []Expr
	var walk func(Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *And:
			if and {
				walk(x.L)
				walk(x.R)
				return
			}
		case *Or:
			if !and {
				walk(x.L)
				walk(x.R)
				return
			}
		}
		out = append(out, e)
	}
	walk(e)
	return out
}
