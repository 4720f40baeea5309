package datalog

import "github.com/ptxmm/ptxmm/source"

// Negated returns an expression that is empty exactly when kind(e) does
// NOT hold, so that the check empty(Negated(kind, e, arity, pos)) is the
// negation of kind(e): herd7's ~acyclic, ~irreflexive and ~empty tests, and
// the checks -strictskip wants failed. arity is e's number of columns (1 or
// 2; 0 when unknown, which reads e as a set). It relies on the domain
// holding at least one atom, as every execution's does (its initial
// writes):
//
//	~empty S       (S a set):  _ \ range(S * _) is empty iff S is not
//	~empty r       (r binary): the same with S = domain(r)
//	~irreflexive r:            ~empty (r & [_])
//	~acyclic r:                ~irreflexive r+
func Negated(kind CheckKind, e Expr, arity int, pos source.Pos) Expr {
	un := func(op UnOp, x Expr) Expr { return &Unary{Op: op, X: x, Pos: pos} }
	bin := func(op BinOp, a, b Expr) Expr { return &Binary{Op: op, L: a, R: b, Pos: pos} }
	var set Expr
	switch kind {
	case CheckEmpty:
		set = e
		if arity == 2 {
			set = un(OpDomain, e)
		}
	case CheckIrreflexive:
		set = un(OpDomain, bin(OpInter, e, un(OpIdent, &Universe{Pos: pos})))
	case CheckAcyclic:
		set = un(OpDomain, bin(OpInter, un(OpPlus, e), un(OpIdent, &Universe{Pos: pos})))
	}
	return bin(OpDiff, &Universe{Pos: pos}, un(OpRange, bin(OpProduct, set, &Universe{Pos: pos})))
}
