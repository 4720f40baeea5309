package synth

import "github.com/ptxmm/ptxmm/datalog"

// A part of an irreflexive axiom can be left out of the violation
// screen's flags (violation.go) when it is never reflexive where the
// allowing model's axioms hold. One such pattern is coherence order and
// causality in the Alloy form of the causality axiom: co ; cause cannot
// be reflexive where acyclic(co_base) holds, since co is co_base+ and
// co_base holds every pair of writes of one location that cause orders.
// The pattern, in general terms: a part R ; S where
//
//   - R is defined as T+, and the allowing model checks acyclic(T) (the
//     same relation: the same definition, datalog.Merge);
//   - one part of T's definition is an intersection of S, X * X (a set)
//     and the input loc (same location), and every part of T's
//     definition lies within X * X and loc.
//
// Then R;S reflexive at x gives R(x,y) and S(y,x); y and x are in X and
// at one location (R lies within X * X and loc, loc being an equivalence:
// the catalog's same location), so T(y,x), and T+ holds a cycle through x
// and y: acyclic(T) fails. The pattern reads definitions only (let,
// .order over a relation, rules whose bodies name X and loc of the head's
// two events); anything else leaves the part in.

// impliedDepth bounds how far the containment follows definitions.
const impliedDepth = 6

// neverReflexive reports whether part p of an irreflexive axiom of model
// f is never reflexive where the axioms of model l hold (fname and lname
// print each model's relation names alike where they are the same
// relation).
func neverReflexive(p datalog.Expr, f, l *datalog.Model, fname, lname func(string) string) bool {
	seq, ok := p.(*datalog.Binary)
	if !ok || seq.Op != datalog.OpSeq {
		return false
	}
	r, ok := seq.L.(*datalog.RelRef)
	if !ok {
		return false
	}
	rel := f.Relations[r.Name]
	if rel == nil || rel.Def == nil {
		return false
	}
	plus, ok := rel.Def.Expr.(*datalog.Unary)
	if !ok || plus.Op != datalog.OpPlus {
		return false
	}
	t, ok := plus.X.(*datalog.RelRef)
	if !ok {
		return false
	}
	if !checksAcyclic(l, exprKey(t, fname), lname) {
		return false
	}
	trel := f.Relations[t.Name]
	if trel == nil || trel.Def == nil {
		return false
	}
	sKey := exprKey(seq.R, fname)
	for _, q := range parts(trel.Def.Expr) {
		ops := conjuncts(q)
		var hasS bool
		set := ""
		for _, o := range ops {
			if exprKey(o, fname) == sKey {
				hasS = true
			}
			if x := squareOf(o); x != "" {
				set = x
			}
		}
		if hasS && set != "" && hasLoc(f, ops) && within(f, trel.Def.Expr, set, impliedDepth) {
			return true
		}
	}
	return false
}

// checksAcyclic reports whether model l has the axiom acyclic(E) for an
// expression E that prints as key.
func checksAcyclic(l *datalog.Model, key string, lname func(string) string) bool {
	for _, c := range l.Checks {
		if c.Mode == datalog.ModeAxiom && c.Kind == datalog.CheckAcyclic && exprKey(c.Expr, lname) == key {
			return true
		}
	}
	return false
}

// conjuncts lists the operands of an intersection (the expression itself
// when it is none).
func conjuncts(e datalog.Expr) []datalog.Expr {
	if b, ok := e.(*datalog.Binary); ok && b.Op == datalog.OpInter {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []datalog.Expr{e}
}

// squareOf returns X when e is X * X for a named set X, else "".
func squareOf(e datalog.Expr) string {
	b, ok := e.(*datalog.Binary)
	if !ok || b.Op != datalog.OpProduct {
		return ""
	}
	l, ok1 := b.L.(*datalog.RelRef)
	r, ok2 := b.R.(*datalog.RelRef)
	if !ok1 || !ok2 || l.Name != r.Name {
		return ""
	}
	return l.Name
}

// isLoc reports whether e names the input loc.
func isLoc(f *datalog.Model, e datalog.Expr) bool {
	r, ok := e.(*datalog.RelRef)
	if !ok || r.Name != "loc" {
		return false
	}
	rel := f.Relations[r.Name]
	return rel != nil && rel.Kind == datalog.RelInput
}

// hasLoc reports whether one of the operands is the input loc.
func hasLoc(f *datalog.Model, ops []datalog.Expr) bool {
	for _, o := range ops {
		if isLoc(f, o) {
			return true
		}
	}
	return false
}

// within reports whether e's relation surely lies within set * set and
// loc.
func within(f *datalog.Model, e datalog.Expr, set string, depth int) bool {
	if depth == 0 {
		return false
	}
	for _, q := range parts(e) {
		if q == nil {
			return false
		}
		ops := conjuncts(q)
		square, loc := false, hasLoc(f, ops)
		for _, o := range ops {
			if squareOf(o) == set {
				square = true
			}
		}
		if square && loc {
			continue
		}
		// An intersection lies within what any of its operands does.
		ok := false
		for _, o := range ops {
			if ref, isRef := o.(*datalog.RelRef); isRef && namedWithin(f, ref.Name, set, depth-1) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// namedWithin is within for a named relation: a definition, an order
// over a relation, or rules whose bodies name set and loc of the head's
// two events.
func namedWithin(f *datalog.Model, name, set string, depth int) bool {
	rel := f.Relations[name]
	if rel == nil || depth == 0 {
		return false
	}
	switch {
	case rel.Kind == datalog.RelOrder:
		for _, o := range f.Orders {
			if o.Name == name {
				return namedWithin(f, o.Over, set, depth-1)
			}
		}
		return false
	case rel.Kind != datalog.RelDerived:
		return false
	case rel.Def != nil:
		return within(f, rel.Def.Expr, set, depth)
	}
	n := 0
	for _, r := range f.Rules {
		if r.Head.Pred != name {
			continue
		}
		n++
		if !ruleWithin(f, r, set) {
			return false
		}
	}
	return n > 0
}

// ruleWithin reports whether a rule's body holds set(X), set(Y) and
// loc(X, Y) or loc(Y, X) for its head's events X and Y.
func ruleWithin(f *datalog.Model, r *datalog.Rule, set string) bool {
	if len(r.Head.Args) != 2 {
		return false
	}
	x, y := r.Head.Args[0], r.Head.Args[1]
	if x.Kind != datalog.TermVar || y.Kind != datalog.TermVar {
		return false
	}
	var inX, inY, loc bool
	for _, lit := range r.Body {
		a, ok := lit.(*datalog.Atom)
		if !ok || a.Negated {
			continue
		}
		switch {
		case a.Pred == set && len(a.Args) == 1 && a.Args[0].Kind == datalog.TermVar:
			inX = inX || a.Args[0].Name == x.Name
			inY = inY || a.Args[0].Name == y.Name
		case isLoc(f, &datalog.RelRef{Name: a.Pred}) && len(a.Args) == 2 && a.Args[0].Kind == datalog.TermVar && a.Args[1].Kind == datalog.TermVar:
			n0, n1 := a.Args[0].Name, a.Args[1].Name
			loc = loc || (n0 == x.Name && n1 == y.Name) || (n0 == y.Name && n1 == x.Name)
		}
	}
	return inX && inY && loc
}
