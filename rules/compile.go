package rules

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// relID is a relation's index in a compiled Program.
type relID int

// relInfo is what evaluation needs to know about a relation.
type relInfo struct {
	id      relID
	name    string
	arity   int
	kind    datalog.RelKind
	def     *datalog.Relation
	stratum int // -1 for inputs, orders and the universe
}

// stratum is one strongly connected component of the dependency graph: the
// relations it defines and the rules that define them.
type stratum struct {
	index     int
	rels      []relID
	rules     []*rulePlan
	recursive bool
	// reads lists the relations outside the stratum that its rules read.
	reads []relID
	// closure is set when the stratum is a transitive closure the closure
	// operator computes directly.
	closure *closurePlan
	// readers lists the strata that read one of its relations directly,
	// once each: they must be recomputed after it is.
	readers []int
	// starters are the rules that read no relation of the stratum, which
	// start its evaluation, and witnessAt the index of the first one's
	// entry in an instance's starvation witnesses (derivesNothing).
	starters  []*rulePlan
	witnessAt int
}

// Program is a compiled model: plans for every rule, grouped in strata in
// evaluation order, ready to run on any number of Instances. A Program is
// immutable and safe for concurrent use.
type Program struct {
	model  *datalog.Model
	rels   []*relInfo
	byName map[string]relID
	strata []*stratum
	// numWays counts the ways of all forcings (ways.go), and ways lists
	// them by index.
	numWays int
	ways    []*way
	// numForcings counts the forcings of all orders.
	numForcings int
	checks      []*checkPlan
	// eventMonotone caches EventMonotoneWhy; persists[r] says relation r
	// keeps its tuples over the events left when events are removed
	// (FlagPersists).
	eventMonotone string
	persists      []bool
	// flags are the .flag and .undefined tests, evaluated on consistent
	// choices only (they never make a candidate inconsistent).
	flags   []*checkPlan
	orders  []*orderPlan
	consts  []Value // constants the rules mention, interned into every domain
	options compileOptions
	// search is what the order search needs to know (needed.go).
	search searchPlan
	// readers[r] lists the strata that read r directly: when r changes
	// they must be recomputed, and after one of them is, the readers of
	// its relations in turn (Instance.run), so the strata depending on r
	// transitively are found without listing them all for every r, which
	// takes quadratic space on a chain of definitions.
	readers [][]int
	// negDeps[r] is the set of base relations (inputs and orders) that r
	// depends on through a negation; a check is monotone in a base relation
	// it does not depend on negatively.
	negDeps []relSet
	// baseDeps[r] is the set of base relations r depends on at all.
	baseDeps []relSet
	// evenDeps[r] and oddDeps[r] are the base relations r depends on
	// through an even and an odd number of negations: r grows with the
	// first and shrinks as the second grow.
	evenDeps, oddDeps []relSet
	// sizes counts what an instance stores, for EstimateBytes.
	sizes storeCounts
	// stratumOf[r] is rels[r].stratum, in one array for the evaluation's
	// hottest test (emptyRel).
	stratumOf []int32
	// numStarters counts the starting rules of all strata.
	numStarters int
	// quietInputs lists the inputs some starting rule reads positively,
	// and quietBit[r] is r's position there or -1 (QuietPlans' keys).
	quietInputs []relID
	quietBit    []int32
}

type compileOptions struct {
	closureOperator bool
	naive           bool
	// trackMinAtoms is the smallest domain on which semi-naive evaluation
	// tracks the non-empty rows of binary deltas (rows.go); the benchmarks
	// put the break-even near 256 atoms. Tests lower it to cover the
	// tracked code on small domains.
	trackMinAtoms int
	// incrementalMinAtoms is the smallest domain on which a search step
	// updates the derived relations from its changes (incr.go); on
	// smaller ones they are recomputed, which costs less than the
	// bookkeeping (see docs/benchmarks.md). Tests set it both ways.
	incrementalMinAtoms int
}

// CompileOption configures Compile.
type CompileOption func(*compileOptions)

// WithClosureOperator turns the recognition of transitive-closure strata on
// or off (on by default). Off, such strata run through semi-naive
// evaluation like any other recursion, which the benchmarks compare.
func WithClosureOperator(on bool) CompileOption {
	return func(o *compileOptions) { o.closureOperator = on }
}

// WithNaive makes every recursive stratum use naive evaluation (recompute
// every rule from the full relations until nothing changes). It exists to
// test semi-naive evaluation against, and implies no closure operator.
func WithNaive(on bool) CompileOption {
	return func(o *compileOptions) { o.naive = on }
}

// Model returns the checked model the program was compiled from.
func (p *Program) Model() *datalog.Model { return p.model }

// Compile turns a checked model into an executable Program. Its errors are
// the ones only whole-program analysis finds: negation inside a recursive
// cycle (reported with the cycle of relations), and .order relations whose
// pairs depend on the order itself.
func Compile(m *datalog.Model, opts ...CompileOption) (*Program, source.List) {
	o := compileOptions{closureOperator: true, trackMinAtoms: 256, incrementalMinAtoms: 32}
	for _, f := range opts {
		f(&o)
	}
	if o.naive {
		o.closureOperator = false
	}
	p := &Program{model: m, byName: map[string]relID{}, options: o}
	for _, name := range m.Names {
		r := m.Relations[name]
		info := &relInfo{id: relID(len(p.rels)), name: name, arity: r.Arity, kind: r.Kind, def: r, stratum: -1}
		p.rels = append(p.rels, info)
		p.byName[name] = info.id
	}
	var errs source.List
	p.stratify(&errs)
	if errs.HasErrors() {
		return nil, errs
	}
	consts := map[Value]bool{}
	for _, s := range p.strata {
		for _, rp := range s.rules {
			for _, c := range rp.consts {
				if !consts[c] {
					consts[c] = true
					p.consts = append(p.consts, c)
				}
			}
		}
	}
	p.computeDeps()
	p.compileChecks()
	p.eventMonotone = p.computeEventMonotone()
	p.computePersistence()
	p.compileOrders(&errs)
	if errs.HasErrors() {
		return nil, errs
	}
	p.planSearch()
	p.planForcing()
	p.indexWays()
	p.countStores()
	p.stratumOf = make([]int32, len(p.rels))
	for i, r := range p.rels {
		p.stratumOf[i] = int32(r.stratum)
	}
	for _, s := range p.strata {
		s.witnessAt = p.numStarters
		for _, rp := range s.rules {
			if len(rp.recOccs) == 0 {
				s.starters = append(s.starters, rp)
			}
		}
		p.numStarters += len(s.starters)
	}
	p.findQuietInputs()
	return p, errs
}

// stratify groups the rules into strata and compiles each rule's plan.
func (p *Program) stratify(errs *source.List) {
	m := p.model
	edges := ruleDeps(m.Rules, p.byName)
	succ := make([][]relID, len(p.rels))
	for _, e := range edges {
		succ[e.from] = append(succ[e.from], e.to)
	}
	comps := components(succ)
	// A negation cycle needs a negated edge inside one component; finding
	// the components that have one first keeps the search for the cycle
	// (which reads every edge) off the others.
	compOf := make([]int, len(p.rels))
	for i, comp := range comps {
		for _, r := range comp {
			compOf[r] = i
		}
	}
	negInside := make([]bool, len(comps))
	for _, e := range edges {
		if e.negated && compOf[e.from] == compOf[e.to] {
			negInside[compOf[e.to]] = true
		}
	}
	name := func(r relID) string { return p.rels[r].name }
	rulesOf := map[relID][]*datalog.Rule{}
	for _, r := range m.Rules {
		h := p.byName[r.Head.Pred]
		rulesOf[h] = append(rulesOf[h], r)
	}
	for ci, comp := range comps {
		derived := false
		for _, r := range comp {
			if p.rels[r].kind == datalog.RelDerived {
				derived = true
			}
		}
		if !derived {
			continue
		}
		if !negInside[ci] {
		} else if cycle, pos, ok := negationCycle(comp, edges, name); ok {
			errs.Add(pos, "negation inside a recursive cycle: %s (a relation cannot depend on the negation of itself)", cycle)
			continue
		}
		s := &stratum{index: len(p.strata), rels: comp}
		inComp := map[relID]bool{}
		for _, r := range comp {
			inComp[r] = true
			p.rels[r].stratum = s.index
		}
		readSet := map[relID]bool{}
		for _, r := range comp {
			for _, rule := range rulesOf[r] {
				rp, err := p.compileRule(rule, inComp)
				if err != nil {
					errs.Add(rule.Pos, "%v", err)
					continue
				}
				if len(rp.recOccs) > 0 {
					s.recursive = true
				}
				s.rules = append(s.rules, rp)
				for _, b := range rp.bodyRels {
					if !inComp[b] && !readSet[b] {
						readSet[b] = true
						s.reads = append(s.reads, b)
					}
				}
			}
		}
		if s.recursive && p.options.closureOperator {
			s.closure = recognizeClosure(s, p)
		}
		p.strata = append(p.strata, s)
	}
}

// computeDeps fills readers, baseDeps and negDeps.
func (p *Program) computeDeps() {
	n := len(p.rels)
	p.readers = make([][]int, n)
	p.baseDeps = make([]relSet, n)
	p.negDeps = make([]relSet, n)
	p.evenDeps = make([]relSet, n)
	p.oddDeps = make([]relSet, n)
	for i, r := range p.rels {
		if r.kind != datalog.RelDerived {
			own := newRelSet(n)
			own.add(relID(i))
			p.baseDeps[i], p.evenDeps[i] = own, own
			p.negDeps[i], p.oddDeps[i] = nil, nil
		}
	}
	// Strata are in dependency order, so one pass propagates everything.
	for _, s := range p.strata {
		base, neg := newRelSet(n), newRelSet(n)
		even, odd := newRelSet(n), newRelSet(n)
		for _, rp := range s.rules {
			for i, b := range rp.bodyRels {
				base.unionWith(p.baseDeps[b])
				if rp.bodyNeg[i] {
					neg.unionWith(p.baseDeps[b])
				}
				neg.unionWith(p.negDeps[b])
				same, flipped := p.evenDeps[b], p.oddDeps[b]
				if rp.bodyNeg[i] {
					same, flipped = flipped, same
				}
				even.unionWith(same)
				odd.unionWith(flipped)
			}
		}
		for _, r := range s.rels {
			p.baseDeps[r] = base
			p.negDeps[r] = neg
			p.evenDeps[r], p.oddDeps[r] = even, odd
		}
	}
	// Strata are visited in order, so each reader list comes out sorted.
	for _, s := range p.strata {
		for _, r := range s.reads {
			p.readers[r] = append(p.readers[r], s.index)
		}
	}
	for _, s := range p.strata {
		seen := map[int]bool{}
		for _, r := range s.rels {
			for _, d := range p.readers[r] {
				if !seen[d] {
					seen[d] = true
					s.readers = append(s.readers, d)
				}
			}
		}
	}
}

// RelationNames lists every relation the program knows, in declaration
// order, generated relations included.
func (p *Program) RelationNames() []string {
	out := make([]string, len(p.rels))
	for i, r := range p.rels {
		out[i] = r.name
	}
	return out
}

// Arity returns the arity of the named relation, or an error naming it.
func (p *Program) Arity(name string) (int, error) {
	id, ok := p.byName[name]
	if !ok {
		return 0, fmt.Errorf("unknown relation %s", name)
	}
	return p.rels[id].arity, nil
}
