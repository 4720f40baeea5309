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
	// forcings are the checks that force the direction of some pairs
	// (forced.go).
	forcings []forcing
}

// compileOrders checks that each order's pairs can be computed before the
// order is chosen, and sorts the orders so that every order comes after the
// orders its pairs depend on.
func (p *Program) compileOrders(errs *source.List) {
	var plans []*orderPlan
	for _, o := range p.model.Orders {
		op := &orderPlan{order: o, rel: p.byName[o.Name], over: p.byName[o.Over]}
		if p.baseDeps[op.over].has(op.rel) {
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
				if other != op && p.baseDeps[op.over].has(other.rel) {
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
			if p.negDeps[c.rel].has(op.rel) {
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
	// phases are orders whose directions the search tries first.
	phases map[string]*relations.Rel
	// restarts lets the search restart (restart.go).
	restarts bool
	// maxNodes, when positive, is the number of states the search may
	// test before it gives up (WithMaxNodes).
	maxNodes int
}

// WithoutWitnesses makes Solve report failed checks by name only: no
// witness, no copy of the orders. Building them is most of the cost of a
// failure, and a host that only wants the verdict does not need them.
// Without witnesses the search also orients first the pairs a check forces
// (forced.go), which skips choices that can only fail: the verdict and the
// consistent choice found are the same, but Failures names the checks that
// failed in the states this search tested (several forced pairs oriented at
// once, the end of a dive), which need not be states the depth-first
// search visits.
func WithoutWitnesses() SolveOption {
	return func(c *solveConfig) { c.noWitness = true }
}

// WithPhases makes the search try first, at each pair it orients, the
// direction the given order of the same name relates it in (where it does),
// instead of the direction of the pair's smaller event first: the orders of
// a similar candidate found consistent (a SAT solver's phase saving). The
// verdict is the same; the consistent choice found, and the failures met,
// can differ, so it is taken only with WithoutWitnesses. An order given
// over another domain size is ignored.
func WithPhases(orders map[string]*relations.Rel) SolveOption {
	return func(c *solveConfig) { c.phases = orders }
}

// WithRestarts lets the search go back to the start of an order's search
// when both directions of a pair fail deep in it, and test the pair there on
// its own: a pair failing both ways there ends the search at once, where
// depth-first search would try every choice of the pairs before it
// (restart.go). It pays where the host expects no consistent choice, and
// wastes work where there is one. Taken only with WithoutWitnesses.
func WithRestarts() SolveOption {
	return func(c *solveConfig) { c.restarts = true }
}

// WithMaxNodes makes the search give up once it has tested n choices of
// the orders without deciding: SolveResult.Undecided is then set, and
// Consistent is false although a consistent choice may exist. A host
// asking a question whose answer only saves it work (may this candidate
// be abandoned?) uses it to bound what the question costs.
func WithMaxNodes(n int) SolveOption {
	return func(c *solveConfig) { c.maxNodes = n }
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
	// Nodes is the number of choices of the orders the search tested
	// (partial or complete).
	Nodes int
	// Undecided is set when the search gave up at its WithMaxNodes
	// limit: Consistent is false, but a consistent choice may exist, and
	// Failures lists only what the search met before.
	Undecided bool
	// Err is set when the search stopped before it could decide: its
	// context was done (WithContext), or the instance reached its memory
	// limit (a *MemoryError). Consistent and Failures are then unset.
	Err error
}
