package rules

import (
	"context"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/source"
)

// orderPlan is a compiled .order: the relation chosen and the relation
// whose pairs it must relate.
type orderPlan struct {
	order *datalog.Order
	rel   relID
	over  relID
}

// compileOrders checks that each order's pairs can be computed before the
// order is chosen, and sorts the orders so that every order comes after the
// orders its pairs depend on.
func (p *Program) compileOrders(errs *source.List) {
	var plans []*orderPlan
	for _, o := range p.model.Orders {
		op := &orderPlan{order: o, rel: p.byName[o.Name], over: p.byName[o.Over]}
		if p.baseDeps[op.over][op.rel] {
			errs.Add(o.Pos, ".order %s over %s: the pairs depend on the order itself", o.Name, o.Over)
			continue
		}
		plans = append(plans, op)
	}
	placed := map[relID]bool{}
	for len(plans) > 0 {
		progress := false
		for i := 0; i < len(plans); i++ {
			op := plans[i]
			ready := true
			for _, other := range plans {
				if other != op && p.baseDeps[op.over][other.rel] {
					ready = false
				}
			}
			if ready {
				p.orders = append(p.orders, op)
				placed[op.rel] = true
				plans = append(plans[:i], plans[i+1:]...)
				i--
				progress = true
			}
		}
		if !progress {
			errs.Add(plans[0].order.Pos, "the pairs of the orders %s depend on each other in a cycle", orderNames(plans))
			return
		}
	}
	for _, c := range p.checks {
		c.monotone = true
		for _, op := range p.orders {
			if p.negDeps[c.rel][op.rel] {
				c.monotone = false
			}
		}
	}
}

func orderNames(plans []*orderPlan) string {
	s := ""
	for i, op := range plans {
		if i > 0 {
			s += ", "
		}
		s += op.order.Name
	}
	return s
}

// SolveOption configures Solve.
type SolveOption func(*solveConfig)

type solveConfig struct {
	prune  func(*Instance) bool
	accept func(*Instance) bool
	ctx    context.Context
	// finalTests are further tests of complete choices, added by the
	// package itself (RaisedFlags) on top of the host's accept.
	finalTests []func(*Instance) bool
	// noWitness skips building the witnesses of failed checks.
	noWitness bool
}

// WithoutWitnesses makes Solve report failed checks by name only: no
// witness, no copy of the orders. Building them is most of the cost of a
// failure, and a host that only wants the verdict does not need them.
func WithoutWitnesses() SolveOption {
	return func(c *solveConfig) { c.noWitness = true }
}

// withFinalTest adds a test of complete choices that must also pass.
func withFinalTest(f func(*Instance) bool) SolveOption {
	return func(c *solveConfig) { c.finalTests = append(c.finalTests, f) }
}

// WithContext makes the search stop when ctx is done; Solve then returns
// ctx's error in SolveResult.Err.
func WithContext(ctx context.Context) SolveOption {
	return func(c *solveConfig) { c.ctx = ctx }
}

// WithPrune adds a host constraint tested at every step of the search: when
// it returns true the partial choice can only get worse and is abandoned. It
// must be monotone: true stays true as the orders grow.
func WithPrune(f func(*Instance) bool) SolveOption {
	return func(c *solveConfig) { c.prune = f }
}

// WithAccept adds a host constraint tested on complete choices only.
func WithAccept(f func(*Instance) bool) SolveOption {
	return func(c *solveConfig) { c.accept = f }
}

// SolveResult is the outcome of Solve.
type SolveResult struct {
	// Consistent is true when some choice of the orders makes every check
	// (and the host's constraints) hold; the instance is then left in that
	// choice, so the host can read any relation of the consistent candidate.
	Consistent bool
	// Failures lists, when no choice works, each check that failed in the
	// search with the first witness found (the host's constraints are not
	// listed; with WithoutWitnesses, names only). With no orders in the
	// model these are all the violated checks.
	Failures []CheckResult
	// Nodes is the number of search steps taken.
	Nodes int
	// Err is set when the search stopped before it could decide: its
	// context was done (WithContext), or the instance reached its memory
	// limit (a *MemoryError). Consistent and Failures are then unset.
	Err error
}

// solver is the state of one order search.
type solver struct {
	in     *Instance
	cfg    solveConfig
	pairs  [][][2]int // per order: the unordered pairs to relate
	result SolveResult
	seen   map[string]bool
}

// Solve searches for a choice of every .order relation under which all
// checks hold: each order must relate every pair of its "over" relation one
// way or the other (or leave it unrelated, for a partial order) and be a
// strict partial order. The search orients one pair
// at a time, keeps each order transitively closed, and abandons a partial
// choice as soon as a check that can only get worse as the orders grow (one
// not depending on an order through a negation) fails. The inputs must be
// set before calling Solve.
func (in *Instance) Solve(opts ...SolveOption) SolveResult {
	s := &solver{in: in, seen: map[string]bool{}}
	for _, o := range opts {
		o(&s.cfg)
	}
	for _, op := range in.p.orders {
		in.stores[op.rel].rel.Clear()
		in.invalidate(op.rel)
	}
	s.pairs = make([][][2]int, len(in.p.orders))
	err := in.guarded(s.cfg.ctx, func() {
		defer func() { in.searching = nil }()
		if s.search(0, 0) {
			s.result.Consistent = true
			s.result.Failures = nil
		}
	})
	if err != nil {
		return SolveResult{Nodes: s.result.Nodes, Err: err}
	}
	return s.result
}

// fail records the violated checks of the current state.
func (s *solver) fail(monotoneOnly bool) {
	for _, c := range s.in.p.checks {
		if monotoneOnly && !c.monotone {
			continue
		}
		if s.seen[c.check.Name] || !s.in.violated(c) {
			continue
		}
		s.seen[c.check.Name] = true
		if s.cfg.noWitness {
			s.result.Failures = append(s.result.Failures, CheckResult{Name: c.check.Name, Kind: c.check.Kind, Rel: s.in.p.rels[c.rel].name})
			continue
		}
		f := s.in.evalCheck(c)
		if len(s.in.p.orders) > 0 {
			f.Orders = map[string]*relations.Rel{}
			for _, op := range s.in.p.orders {
				f.Orders[s.in.p.rels[op.rel].name] = s.in.stores[op.rel].rel.Clone()
			}
		}
		s.result.Failures = append(s.result.Failures, f)
	}
}

// pruned reports whether the current partial choice already fails.
func (s *solver) pruned() bool {
	s.in.run()
	for _, c := range s.in.p.checks {
		if c.monotone && s.in.violated(c) {
			s.fail(true)
			return true
		}
	}
	return s.cfg.prune != nil && s.cfg.prune(s.in)
}

// search orients the pairs of order k from pair index i on.
func (s *solver) search(k, i int) bool {
	s.result.Nodes++
	s.in.poll()
	if s.pruned() {
		return false
	}
	in := s.in
	if k == len(in.p.orders) {
		ok := true
		for _, c := range in.p.checks {
			if in.violated(c) {
				ok = false
			}
		}
		if !ok {
			s.fail(false)
			return false
		}
		for _, t := range s.cfg.finalTests {
			if !t(in) {
				return false
			}
		}
		return s.cfg.accept == nil || s.cfg.accept(in)
	}
	op := in.p.orders[k]
	if i == 0 {
		s.pairs[k] = s.pairsOf(op)
	}
	o := in.stores[op.rel].rel
	for ; i < len(s.pairs[k]); i++ {
		a, b := s.pairs[k][i][0], s.pairs[k][i][1]
		if !o.Has(a, b) && !o.Has(b, a) {
			break
		}
	}
	if i == len(s.pairs[k]) {
		return s.search(k+1, 0)
	}
	a, b := s.pairs[k][i][0], s.pairs[k][i][1]
	in.searching = op
	if op.order.Partial && s.search(k, i+1) {
		// A partial order may leave the pair unrelated; that is tried
		// first, since smaller orders fail fewer checks.
		return true
	}
	saved := in.pool.rel()
	saved.CopyFrom(o)
	defer in.pool.putRel(saved)
	for _, dir := range [][2]int{{a, b}, {b, a}} {
		addClosed(o, dir[0], dir[1])
		in.invalidate(op.rel)
		if s.search(k, i+1) {
			return true
		}
		o.CopyFrom(saved)
		in.invalidate(op.rel)
	}
	return false
}

// pairsOf lists the unordered pairs of an order's "over" relation.
func (s *solver) pairsOf(op *orderPlan) [][2]int {
	s.in.run()
	over := s.in.stores[op.over].rel
	var out [][2]int
	for a, b := range over.All() {
		if a < b || (a > b && !over.Has(b, a)) {
			x, y := a, b
			if x > y {
				x, y = y, x
			}
			out = append(out, [2]int{x, y})
		}
	}
	return out
}

// addClosed adds a -> b to a transitively closed acyclic relation and closes
// it again: everything reaching a now reaches everything b reaches. The
// caller checks that b does not already reach a.
func addClosed(o *relations.Rel, a, b int) {
	n := o.N()
	for x := 0; x < n; x++ {
		if x == a || o.Has(x, a) {
			o.Add(x, b)
			o.Row(x).InPlaceUnion(o.Row(b))
		}
	}
}
