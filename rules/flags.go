package rules

import "github.com/ptxmm/ptxmm/datalog"

// Flags returns the program's .flag and .undefined tests in source order.
func (p *Program) Flags() []*datalog.Check {
	out := make([]*datalog.Check, len(p.flags))
	for i, c := range p.flags {
		out[i] = c.check
	}
	return out
}

// RaisedFlags evaluates the .flag and .undefined tests of a candidate that
// Solve found consistent (the instance must still hold that solution). A
// flag is raised when its test fails under some choice of the orders that
// makes every axiom hold, as herd7 raises a flag on any consistent
// execution; each result carries the witness of that choice. For a test that
// holds under the solution found, the orders are searched again for a
// consistent choice that fails it, so afterwards the instance holds some
// choice of the orders that need not be consistent. The opts (host
// constraints) apply to that search too; with WithoutWitnesses the results
// name the flags raised and carry no witness. A flag that holds on every
// value of the inputs SetVarying names is not evaluated (flagbound.go).
func (in *Instance) RaisedFlags(opts ...SolveOption) []CheckResult {
	if len(in.p.flags) == 0 {
		return nil
	}
	in.Run()
	if in.bounds.vary != nil && in.err == nil {
		in.decideBounds()
		in.Run()
	}
	// The options are applied to the instance's own config: one on the
	// stack escapes through the calls of opts, an allocation for every
	// consistent candidate of a model with flags.
	for _, o := range opts {
		o(&in.flagOpts)
	}
	noWitness := in.flagOpts.noWitness
	in.flagOpts = solveConfig{}
	raise := func(f *checkPlan) CheckResult {
		if noWitness {
			return CheckResult{Name: f.check.Name, Kind: f.check.Kind, Rel: in.p.rels[f.rel].name}
		}
		return in.evalCheck(f)
	}
	var out []CheckResult
	var pending []*checkPlan
	for i, f := range in.p.flags {
		if in.beyondReach(i) {
			continue
		}
		if in.violated(f) {
			out = append(out, raise(f))
		} else if in.p.dependsOnOrders(f.rel) {
			pending = append(pending, f)
		}
	}
	for _, f := range pending {
		if !in.mayRaise(f) {
			continue
		}
		search := append(append([]SolveOption(nil), opts...), withFinalTest(func(in *Instance) bool { return in.violated(f) }))
		if in.Solve(search...).Consistent {
			out = append(out, raise(f))
		}
	}
	return out
}

// mayRaise bounds a flag that depends on the orders without searching
// them, when the flag's relation grows (or shrinks) with every order: it is
// evaluated with each order at its largest (largestOrder: every pair of its
// "over" relation, both ways, and what they relate transitively) or
// smallest (empty), which contains every value it takes under an actual
// choice. If the test holds there, no choice raises it. The instance's
// orders are changed.
func (in *Instance) mayRaise(f *checkPlan) bool {
	grows, shrinks := in.p.withOrders(f.rel)
	if !grows && !shrinks {
		return true
	}
	if in.atBound(grows) {
		// The orders already hold the bound (often: orders with no pair
		// to relate): the flag is decided as they are. (They need not be
		// the solution the flag was tested under: an earlier flag's
		// search may have moved them.)
		return in.violated(f)
	}
	if in.inc.valid && in.inc.searchBase >= 0 {
		return in.mayRaiseFromTrail(f, grows)
	}
	in.setOrdersAtBound(grows)
	in.Run()
	return in.violated(f)
}

// atBound reports whether every order already holds its bound: its
// largest value (grows), or nothing.
func (in *Instance) atBound(grows bool) bool {
	for _, op := range in.p.orders {
		o := in.stores[op.rel].rel
		if !grows {
			if !o.IsEmpty() {
				return false
			}
			continue
		}
		in.freshen(op.over)
		if !o.Equal(in.largestOrder(op)) {
			return false
		}
	}
	return true
}

// mayRaiseFromTrail is mayRaise after a search on unchanged inputs: undoing
// its trail leaves the orders empty with the relations the search tests up
// to date, and the orders at their largest are added to that as one step,
// so only the flag's own strata are computed whole.
func (in *Instance) mayRaiseFromTrail(f *checkPlan, grows bool) bool {
	raised := true
	err := in.guarded(nil, func() {
		in.undo(in.inc.searchBase)
		if grows {
			for _, op := range in.p.orders {
				in.current()
				in.inc.beginStep()
				in.addToOrder(op, store{arity: 2, rel: in.largestOrder(op)})
				in.propagate()
			}
		}
		raised = in.violated(f)
	})
	if err != nil {
		in.err = err
	}
	return raised
}

// withOrders reports whether relation r can only grow (grows) or only
// shrink (shrinks) as the orders grow: it depends on none of them through
// an odd, or an even, number of negations. Both hold when it does not
// depend on the orders at all.
func (p *Program) withOrders(r relID) (grows, shrinks bool) {
	grows, shrinks = true, true
	for _, op := range p.orders {
		grows = grows && !p.oddDeps[r].has(op.rel)
		shrinks = shrinks && !p.evenDeps[r].has(op.rel)
	}
	return grows, shrinks
}

// dependsOnOrders reports whether a relation depends on a .order relation,
// so that its value can change with the choice of the orders.
func (p *Program) dependsOnOrders(r relID) bool {
	for _, op := range p.orders {
		if p.baseDeps[r].has(op.rel) {
			return true
		}
	}
	return false
}
