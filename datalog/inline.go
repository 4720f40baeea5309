package datalog

import (
	"fmt"

	"github.com/ptxmm/ptxmm/source"
)

// Inlining. A definition such as fr = ((rf^-1 ; co) & loc) \ id could
// become one rule per operator, each defining a relation of its own that
// the next reads; evaluation then runs and stores four relations, one
// after the other, for every candidate execution. Instead, the operators
// that are conjunctions (intersection, difference, inverse, product, and
// a composition while the rule has a variable to spare) are written into
// the body of the rule that uses them:
//
//	fr(X, Y) :- rf(Z, X), co(Z, Y), loc(X, Y), !id(X, Y).
//
// and a union whose operands are unions becomes one relation with a rule
// per operand. What cannot be a conjunction of atoms (a union inside an
// intersection, a closure, a complement, domain and range) still gets a
// relation of its own, named owner$N.

// maxRuleVars bounds the variables of a rule that inlining writes: the
// forcing of order pairs (rules/ways.go) follows rules of at most three
// variables, so a composition nested deeper keeps a relation of its own.
const maxRuleVars = 3

// ruleBody collects the literals of one generated rule.
type ruleBody struct {
	a     *analyzer
	owner string
	lits  []Literal
	// vars counts the distinct variables so far; fresh names them.
	vars int
}

func (b *ruleBody) fresh(pos source.Pos) Term {
	b.vars++
	name := "Z"
	if b.vars > 3 {
		name = fmt.Sprintf("Z%d", b.vars-3)
	}
	return v(name, pos)
}

// unionOperands returns the operands of a union and of the unions among
// them, left to right, when every one of them has arity ar: each becomes a
// rule of the same relation.
func (a *analyzer) unionOperands(e Expr, ar int) []Expr {
	bin, ok := e.(*Binary)
	if !ok || bin.Op != OpUnion || a.exprArity(bin.L, ar) != ar || a.exprArity(bin.R, ar) != ar {
		return []Expr{e}
	}
	return append(a.unionOperands(bin.L, ar), a.unionOperands(bin.R, ar)...)
}

// inlinable reports whether conj writes e itself into the body (rather
// than through a relation of its own): an operator that is a conjunction
// whose operands have the arities it needs. Operands with the wrong
// arities are left to desugarInto, which reports them.
func (a *analyzer) inlinable(e Expr, ar int) bool {
	switch e := e.(type) {
	case *RelRef, *Universe:
		return true
	case *Unary:
		return e.Op == OpInv && ar == 2 && a.exprArity(e.X, 2) == 2
	case *Binary:
		switch e.Op {
		case OpInter, OpDiff:
			return a.exprArity(e.L, ar) == ar && a.exprArity(e.R, ar) == ar
		case OpSeq:
			return ar == 2 && a.exprArity(e.L, 2) == 2 && a.exprArity(e.R, 2) == 2
		case OpProduct:
			return ar == 2 && a.exprArity(e.L, 1) == 1 && a.exprArity(e.R, 1) == 1
		}
	}
	return false
}

// identSet returns S when e is the identity [S] on a set.
func (a *analyzer) identSet(e Expr) (Expr, bool) {
	u, ok := e.(*Unary)
	if !ok || u.Op != OpIdent || a.exprArity(u.X, 1) != 1 {
		return nil, false
	}
	return u.X, true
}

// conj adds literals that hold exactly when e(args...) holds, and reports
// false after an error.
func (b *ruleBody) conj(e Expr, args []Term) bool {
	a := b.a
	pos := e.Position()
	if !a.inlinable(e, len(args)) {
		return b.through(e, args, false)
	}
	switch e := e.(type) {
	case *RelRef:
		return b.through(e, args, false)
	case *Universe:
		for _, t := range args {
			b.lits = append(b.lits, atom(UniverseName, pos, t))
		}
		return true
	case *Unary: // the inverse
		return b.conj(e.X, []Term{args[1], args[0]})
	case *Binary:
		switch e.Op {
		case OpInter:
			return b.conj(e.L, args) && b.conj(e.R, args)
		case OpDiff:
			return b.conj(e.L, args) && b.negated(e.R, args)
		case OpProduct:
			return b.conj(e.L, args[:1]) && b.conj(e.R, args[1:])
		}
		// A composition: [S] on either side filters the shared variable;
		// otherwise the middle is a new variable, if one is left.
		if s, ok := a.identSet(e.L); ok {
			return b.conj(s, args[:1]) && b.conj(e.R, args)
		}
		if s, ok := a.identSet(e.R); ok {
			return b.conj(e.L, args) && b.conj(s, args[1:])
		}
		if b.vars >= maxRuleVars {
			return b.through(e, args, false)
		}
		z := b.fresh(pos)
		return b.conj(e.L, []Term{args[0], z}) && b.conj(e.R, []Term{z, args[1]})
	}
	return b.through(e, args, false)
}

// negated adds the literal that holds when e(args...) does not: the
// negated atom of e's relation, of its operand's swapped when e is the
// inverse of a relation.
func (b *ruleBody) negated(e Expr, args []Term) bool {
	if u, ok := e.(*Unary); ok && u.Op == OpInv && len(args) == 2 {
		if _, isRef := u.X.(*RelRef); isRef && b.a.exprArity(u.X, 2) == 2 {
			return b.through(u.X, []Term{args[1], args[0]}, true)
		}
	}
	return b.through(e, args, true)
}

// through adds the atom of the relation holding e (e's own relation, or
// one generated for it), negated if asked.
func (b *ruleBody) through(e Expr, args []Term, negated bool) bool {
	name, ar, ok := b.a.operand(e, len(args), b.owner)
	if !ok {
		return false
	}
	if ar != len(args) {
		b.a.errs.Add(e.Position(), "%s has %d column(s) but %s needs %d", b.a.text(e), ar, b.owner, len(args))
		return false
	}
	at := atom(name, e.Position(), args...)
	at.Negated = negated
	b.lits = append(b.lits, at)
	return true
}
