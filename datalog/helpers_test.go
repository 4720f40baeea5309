package datalog

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// parseOK parses src as t.dl and fails the test on any diagnostic.
func parseOK(t *testing.T, src string) *Program {
	t.Helper()
	prog, errs := LoadSource("t.dl", src)
	require.Empty(t, errs, "%s", errs.Quoted())
	return prog
}

// analyzeOK parses and analyzes src, failing the test on any error.
func analyzeOK(t *testing.T, src string) *Model {
	t.Helper()
	m, errs := analyze(src)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	require.NotNil(t, m)
	return m
}

// analyze parses src as t.dl and, when it parses, analyzes it; it returns
// the load errors otherwise.
func analyze(src string) (*Model, source.List) {
	prog, errs := LoadSource("t.dl", src)
	if errs.HasErrors() {
		return nil, errs
	}
	return Analyze(prog)
}

// diagLines prints diagnostics one per line, the way the .err files hold them.
func diagLines(l source.List) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

// atomText prints an atom as the language writes it.
func atomText(a *Atom) string {
	var args []string
	for _, t := range a.Args {
		args = append(args, termText(t))
	}
	s := a.Pred + "(" + strings.Join(args, ", ") + ")"
	if a.Negated {
		s = "!" + s
	}
	return s
}

// literalText prints a body literal.
func literalText(l Literal) string {
	switch l := l.(type) {
	case *Atom:
		return atomText(l)
	case *Compare:
		return termText(l.L) + " " + l.Op + " " + termText(l.R)
	}
	return "?"
}

// ruleText prints a rule as the language writes it.
func ruleText(r *Rule) string {
	s := atomText(r.Head)
	if len(r.Body) > 0 {
		var body []string
		for _, l := range r.Body {
			body = append(body, literalText(l))
		}
		s += " :- " + strings.Join(body, ", ")
	}
	return s + "."
}

// parenExpr prints an expression with every operator application in
// parentheses, so that the tree's shape is visible.
func parenExpr(e Expr) string {
	switch e := e.(type) {
	case *RelRef:
		return e.Name
	case *Universe:
		return "_"
	case *Binary:
		return "(" + parenExpr(e.L) + " " + e.Op.String() + " " + parenExpr(e.R) + ")"
	case *Unary:
		switch e.Op {
		case OpCompl:
			return "(~" + parenExpr(e.X) + ")"
		case OpIdent:
			return "[" + parenExpr(e.X) + "]"
		case OpDomain:
			return "domain(" + parenExpr(e.X) + ")"
		case OpRange:
			return "range(" + parenExpr(e.X) + ")"
		}
		return "(" + parenExpr(e.X) + map[UnOp]string{OpPlus: "+", OpStar: "*", OpOpt: "?", OpInv: "^-1"}[e.Op] + ")"
	case nil:
		return "<nil>"
	}
	return "?"
}

// parseExprOK parses "let x = src" and returns the expression.
func parseExprOK(t *testing.T, src string) Expr {
	t.Helper()
	prog := parseOK(t, "let x = "+src)
	require.Len(t, prog.Defs, 1)
	return prog.Defs[0].Expr
}

func pos(line, col int) source.Pos { return source.Pos{File: "t.dl", Line: line, Col: col} }
