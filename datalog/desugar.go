package datalog

import (
	"fmt"

	"github.com/ptxmm/ptxmm/source"
)

// Definitions and check expressions become ordinary rules. Every operator
// node gets a relation of its own, named after the definition it belongs to
// ("cause$3"), unless it is the whole definition, which gets the
// definition's name. The generated rules carry the definition's name and the
// subexpression's cat text, so explanations can show where a tuple came from.

func (a *analyzer) desugarDef(d *Def) {
	if a.defs[d.Name] != d {
		return
	}
	r := a.m.Relations[d.Name]
	if r.Arity == 0 || a.badDef[d.Name] {
		return // the arity error is already reported
	}
	a.desugarInto(d.Name, d.Expr, r.Arity, d.Name)
}

// desugarTop makes a generated relation called name for e and returns its
// arity, or 0 after reporting an error.
func (a *analyzer) desugarTop(name string, e Expr, want int, owner string, pos source.Pos, doc string) int {
	ar := a.exprArity(e, want)
	if ar == 0 {
		if !a.reportUnknown(e, owner) {
			a.errs.Add(e.Position(), "cannot tell whether this expression is a set or a relation")
		}
		return 0
	}
	a.addRelation(&Relation{Name: name, Arity: ar, Kind: RelDerived, Doc: doc, Pos: pos, Generated: true, Text: a.text(e), Owner: owner})
	if !a.desugarInto(name, e, ar, owner) {
		return 0
	}
	return ar
}

// operand returns the name of a relation holding e, generating one unless e
// is already a relation name.
func (a *analyzer) operand(e Expr, want int, owner string) (string, int, bool) {
	if ref, ok := e.(*RelRef); ok {
		r := a.m.Relations[ref.Name]
		if r == nil {
			a.errs.Add(ref.Pos, "unknown relation %s in the definition of %s", ref.Name, owner)
			return "", 0, false
		}
		ar := r.Arity
		if ar == 0 {
			if d := a.defs[ref.Name]; d != nil {
				ar = a.defArityOf(d)
			}
		}
		return ref.Name, ar, ar != 0
	}
	ar := a.exprArity(e, want)
	if ar == 0 {
		if !a.reportUnknown(e, owner) {
			a.errs.Add(e.Position(), "cannot tell whether this expression is a set or a relation")
		}
		return "", 0, false
	}
	name := a.genName(owner)
	a.addRelation(&Relation{Name: name, Arity: ar, Kind: RelDerived, Pos: e.Position(), Generated: true, Text: a.text(e), Owner: owner})
	if !a.desugarInto(name, e, ar, owner) {
		return "", 0, false
	}
	return name, ar, true
}

// headVars returns the head variables for an arity: X, Y for sets and
// binary relations, X1, X2, ... for relations of more columns (which union,
// intersection, difference and complement accept).
func headVars(ar int, pos source.Pos) []Term {
	out := make([]Term, ar)
	for i := range out {
		name := fmt.Sprintf("X%d", i+1)
		if ar <= 2 {
			name = []string{"X", "Y"}[i]
		}
		out[i] = Term{Kind: TermVar, Name: name, Pos: pos}
	}
	return out
}

func v(name string, pos source.Pos) Term { return Term{Kind: TermVar, Name: name, Pos: pos} }

func atom(pred string, pos source.Pos, args ...Term) *Atom {
	return &Atom{Pred: pred, Args: args, Pos: pos}
}

// desugarInto adds rules defining name (of arity ar) as e.
func (a *analyzer) desugarInto(name string, e Expr, ar int, owner string) bool {
	pos := e.Position()
	text := a.text(e)
	add := func(head *Atom, body ...Literal) {
		a.m.Rules = append(a.m.Rules, &Rule{Head: head, Body: body, Pos: pos, Origin: owner, OriginText: text})
	}
	X, Y, Z := v("X", pos), v("Y", pos), v("Z", pos)
	switch e := e.(type) {
	case *RelRef:
		src, sar, ok := a.operand(e, ar, owner)
		if !ok {
			return false
		}
		if sar != ar {
			a.errs.Add(e.Pos, "%s has %d column(s) but %s needs %d", e.Name, sar, owner, ar)
			return false
		}
		add(atom(name, pos, headVars(ar, pos)...), atom(src, pos, headVars(ar, pos)...))
		return true
	case *Universe:
		hv := headVars(ar, pos)
		var body []Literal
		for _, t := range hv {
			body = append(body, atom(UniverseName, pos, t))
		}
		add(atom(name, pos, hv...), body...)
		return true
	case *Binary:
		if ops := a.unionOperands(e, ar); len(ops) > 1 {
			return a.desugarUnion(name, ops, ar, owner, add)
		}
		if a.inlinable(e, ar) {
			return a.desugarConj(name, e, ar, owner, add)
		}
		return a.desugarBinary(name, e, ar, owner, add, X, Y, Z)
	case *Unary:
		if a.inlinable(e, ar) {
			return a.desugarConj(name, e, ar, owner, add)
		}
		return a.desugarUnary(name, e, ar, owner, add, X, Y, Z)
	}
	return false
}

// desugarUnion adds a rule per operand of a union (unionOperands), each
// written as a conjunction where it can be (inline.go).
func (a *analyzer) desugarUnion(name string, ops []Expr, ar int, owner string, add func(*Atom, ...Literal)) bool {
	ok := true
	for _, d := range ops {
		if !a.desugarConj(name, d, ar, owner, add) {
			ok = false
		}
	}
	return ok
}

// desugarConj adds one rule defining name as e, written as a conjunction
// of literals (inline.go).
func (a *analyzer) desugarConj(name string, e Expr, ar int, owner string, add func(*Atom, ...Literal)) bool {
	hv := headVars(ar, e.Position())
	b := &ruleBody{a: a, owner: owner, vars: ar}
	if !b.conj(e, hv) {
		return false
	}
	add(atom(name, e.Position(), hv...), b.lits...)
	return true
}

func (a *analyzer) desugarBinary(name string, e *Binary, ar int, owner string, add func(*Atom, ...Literal), X, Y, Z Term) bool {
	pos := e.Pos
	switch e.Op {
	case OpSeq:
		l, lar, ok1 := a.operand(e.L, 2, owner)
		r, rar, ok2 := a.operand(e.R, 2, owner)
		if !ok1 || !ok2 {
			return false
		}
		if lar != 2 || rar != 2 {
			if lar == 1 || rar == 1 {
				a.errs.Add(pos, "\";\" composes binary relations, but an operand is a set; write [S] for the identity on a set S")
			} else {
				a.errs.Add(pos, "\";\" composes binary relations, but an operand has %d columns", max(lar, rar))
			}
			return false
		}
		add(atom(name, pos, X, Y), atom(l, pos, X, Z), atom(r, pos, Z, Y))
		return true
	case OpProduct:
		l, lar, ok1 := a.operand(e.L, 1, owner)
		r, rar, ok2 := a.operand(e.R, 1, owner)
		if !ok1 || !ok2 {
			return false
		}
		if lar != 1 || rar != 1 {
			a.errs.Add(pos, "\"*\" between two operands is the cartesian product of two sets, but an operand is a relation (for a closure write (r*))")
			return false
		}
		add(atom(name, pos, X, Y), atom(l, pos, X), atom(r, pos, Y))
		return true
	}
	l, lar, ok1 := a.operand(e.L, ar, owner)
	r, rar, ok2 := a.operand(e.R, ar, owner)
	if !ok1 || !ok2 {
		return false
	}
	if lar != ar || rar != ar {
		a.errs.Add(pos, "the operands of %s must both be sets or both be relations (found %d and %d columns)", quoteText(e.Op.String()), lar, rar)
		return false
	}
	hv := headVars(ar, pos)
	switch e.Op {
	case OpUnion:
		add(atom(name, pos, hv...), atom(l, pos, hv...))
		add(atom(name, pos, hv...), atom(r, pos, hv...))
	case OpInter:
		add(atom(name, pos, hv...), atom(l, pos, hv...), atom(r, pos, hv...))
	case OpDiff:
		neg := atom(r, pos, hv...)
		neg.Negated = true
		add(atom(name, pos, hv...), atom(l, pos, hv...), neg)
	}
	return true
}

func (a *analyzer) desugarUnary(name string, e *Unary, ar int, owner string, add func(*Atom, ...Literal), X, Y, Z Term) bool {
	pos := e.Pos
	want := 2
	switch e.Op {
	case OpIdent:
		want = 1
	case OpCompl:
		want = ar
	}
	x, xar, ok := a.operand(e.X, want, owner)
	if !ok {
		return false
	}
	switch e.Op {
	case OpIdent:
		if xar != 1 {
			a.errs.Add(pos, "[S] is the identity on a set, but its operand is a relation of %d columns", xar)
			return false
		}
		add(atom(name, pos, X, X), atom(x, pos, X))
		return true
	case OpCompl:
		hv := headVars(xar, pos)
		neg := atom(x, pos, hv...)
		neg.Negated = true
		body := []Literal{}
		for _, t := range hv {
			body = append(body, atom(UniverseName, pos, t))
		}
		add(atom(name, pos, hv...), append(body, neg)...)
		return true
	}
	if xar != 2 {
		what := "a set"
		if xar > 2 {
			what = fmt.Sprintf("a relation of %d columns", xar)
		}
		a.errs.Add(pos, "%s applies to binary relations, but its operand is %s", unaryName(e.Op), what)
		return false
	}
	switch e.Op {
	case OpInv:
		add(atom(name, pos, X, Y), atom(x, pos, Y, X))
	case OpDomain:
		add(atom(name, pos, X), atom(x, pos, X, Term{Kind: TermWildcard, Name: "_", Pos: pos}))
	case OpRange:
		add(atom(name, pos, X), atom(x, pos, Term{Kind: TermWildcard, Name: "_", Pos: pos}, X))
	case OpPlus:
		add(atom(name, pos, X, Y), atom(x, pos, X, Y))
		add(atom(name, pos, X, Y), atom(name, pos, X, Z), atom(x, pos, Z, Y))
	case OpOpt:
		add(atom(name, pos, X, Y), atom(x, pos, X, Y))
		add(atom(name, pos, X, X), atom(UniverseName, pos, X))
	case OpStar:
		add(atom(name, pos, X, Y), atom(x, pos, X, Y))
		add(atom(name, pos, X, Y), atom(name, pos, X, Z), atom(x, pos, Z, Y))
		add(atom(name, pos, X, X), atom(UniverseName, pos, X))
	}
	return true
}

// unaryName names a unary operator in error messages.
func unaryName(op UnOp) string {
	switch op {
	case OpPlus:
		return "the closure +"
	case OpStar:
		return "the closure *"
	case OpOpt:
		return "the closure ?"
	case OpInv:
		return "the inverse ^-1"
	case OpDomain:
		return "domain()"
	case OpRange:
		return "range()"
	}
	return "this operator"
}
