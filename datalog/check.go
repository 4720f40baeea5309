package datalog

import "github.com/ptxmm/ptxmm/source"

// checkRule checks one rule: the relations it names exist and are used with
// their arity, its head may be derived, and every variable is range
// restricted (bound by a positive body atom).
func (a *analyzer) checkRule(r *Rule) {
	h := r.Head
	rel := a.m.Relations[h.Pred]
	switch {
	case rel == nil:
		a.errs.Add(h.Pos, "relation %s is not declared: add .decl %s(...) (or define it with let)", h.Pred, h.Pred)
	case rel.Kind == RelInput:
		a.errs.Add(h.Pos, "rule for %s, which is an .input relation: its tuples come from outside the program", h.Pred)
	case rel.Kind == RelOrder:
		a.errs.Add(h.Pos, "rule for %s, which is an .order relation chosen by the host", h.Pred)
	case rel.Kind == RelUniverse:
		a.errs.Add(h.Pos, "rule for the built-in relation %s", h.Pred)
	case rel.Arity != len(h.Args):
		a.errs.Add(h.Pos, "%s has %d column(s) but this rule's head gives %d", h.Pred, rel.Arity, len(h.Args))
	}
	for _, t := range h.Args {
		if t.Kind == TermWildcard {
			a.errs.Add(t.Pos, "_ in the head of a rule for %s: every head argument must be a variable bound in the body, or a constant", h.Pred)
		}
	}
	if len(r.Body) == 0 {
		for _, t := range h.Args {
			if t.Kind == TermVar {
				a.errs.Add(t.Pos, "fact %s has the variable %s: a fact holds constants only (write a rule with a body to derive tuples)", h.Pred, t.Name)
			}
		}
		return
	}
	a.checkBody(r.Body, r.Pos, h)
}

// checkBody checks the literals of a rule or query body; head is nil for
// queries.
func (a *analyzer) checkBody(body []Literal, pos source.Pos, head *Atom) {
	bound := map[string]bool{}
	for _, l := range body {
		at, ok := l.(*Atom)
		if !ok {
			continue
		}
		rel := a.m.Relations[at.Pred]
		switch {
		case rel == nil:
			a.errs.Add(at.Pos, "unknown relation %s", at.Pred)
		case rel.Arity != 0 && rel.Arity != len(at.Args):
			a.errs.Add(at.Pos, "%s has %d column(s) but is used here with %d", at.Pred, rel.Arity, len(at.Args))
		}
		if !at.Negated {
			for _, t := range at.Args {
				if t.Kind == TermVar {
					bound[t.Name] = true
				}
			}
		}
	}
	// A comparison X = Y binds X when Y is bound (and the other way round),
	// so "p(X), Y = X" is range restricted; iterate to a fixpoint.
	for changed := true; changed; {
		changed = false
		for _, l := range body {
			c, ok := l.(*Compare)
			if !ok || c.Op != "=" {
				continue
			}
			if isBoundTerm(c.L, bound) && c.R.Kind == TermVar && !bound[c.R.Name] {
				bound[c.R.Name], changed = true, true
			}
			if isBoundTerm(c.R, bound) && c.L.Kind == TermVar && !bound[c.L.Name] {
				bound[c.L.Name], changed = true, true
			}
		}
	}
	for _, l := range body {
		switch l := l.(type) {
		case *Atom:
			if l.Negated {
				for _, t := range l.Args {
					if t.Kind == TermVar && !bound[t.Name] {
						a.errs.Add(t.Pos, "variable %s of the negated atom !%s is not bound by a positive atom of the body", t.Name, l.Pred)
					}
				}
			}
		case *Compare:
			for _, t := range []Term{l.L, l.R} {
				switch {
				case t.Kind == TermWildcard:
					a.errs.Add(t.Pos, "_ cannot be compared: name the variable")
				case t.Kind == TermVar && !bound[t.Name]:
					a.errs.Add(t.Pos, "variable %s of the comparison is not bound by a positive atom of the body", t.Name)
				}
			}
		}
	}
	if head == nil {
		return
	}
	for _, t := range head.Args {
		if t.Kind == TermVar && !bound[t.Name] {
			a.errs.Add(t.Pos, "head variable %s of %s is not bound by a positive atom of the body", t.Name, head.Pred)
		}
	}
}

func isBoundTerm(t Term, bound map[string]bool) bool {
	return t.IsConst() || (t.Kind == TermVar && bound[t.Name])
}
