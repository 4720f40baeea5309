package litmus

// WalkCmps calls f on every comparison of e, left to right.
func WalkCmps(e Expr, f func(*Cmp)) {
	switch x := e.(type) {
	case *And:
		WalkCmps(x.L, f)
		WalkCmps(x.R, f)
	case *Or:
		WalkCmps(x.L, f)
		WalkCmps(x.R, f)
	case *Not:
		WalkCmps(x.X, f)
	case *Cmp:
		f(x)
	}
}

// EachTerm calls f on every term the test looks at: the terms compared in
// its condition, then in its assertions (in order, each left to right),
// then those of its locations clause. A term named twice is visited twice.
func (t *Test) EachTerm(f func(Term)) {
	cmp := func(c *Cmp) {
		f(c.L)
		f(c.R)
	}
	if t.Condition != nil {
		WalkCmps(t.Condition.Expr, cmp)
	}
	for _, a := range t.Assertions {
		WalkCmps(a.Expr, cmp)
	}
	for _, tm := range t.Locations {
		f(tm)
	}
}
