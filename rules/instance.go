package rules

import (
	"context"
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// Instance is one evaluation of a Program over a fixed domain: the input
// relations the host supplies and every derived relation. Setting an input
// marks the strata that depend on it; Run recomputes only those. An Instance
// is not safe for concurrent use; create one per goroutine.
type Instance struct {
	p      *Program
	dom    *Domain
	n      int
	stores []store
	// block holds the sets and binary relations of stores.
	block *relations.Block
	delta []store // per relation of a recursive stratum, allocated on demand
	next  []store
	// sched says which strata to recompute and how (schedule.go).
	sched stratumSchedule
	pool  tempPool
	// rowMark is scratch for merging row lists, allocated on first use.
	rowMark []bool
	// views caches the row views of the relations evaluation touches.
	views map[*relations.Rel][][]uint64
	// relViews[r] caches views[stores[r].rel] (relRows).
	relViews [][][]uint64
	// empty[r] says whether relation r was empty at some version
	// (emptyRel).
	empty []emptyCache
	// verdicts caches what violated answers for each check and flag.
	verdicts []checkVerdict
	// versions[r] changes whenever relation r may have changed, and spans
	// caches the word spans of the rows of stored relations (rows.go).
	versions []uint64
	spans    []*spanCache
	// cur is the index of the stratum being evaluated.
	cur int
	// ruleConsts[rp] maps rule rp's constants to atoms (rules without
	// constants have no entry).
	ruleConsts map[*rulePlan][]int
	universe   relID
	// prov records every derived tuple with its rule while
	// RecordProvenance runs, and keeps the first derivations for Why
	// (provenance.go).
	prov provenance

	// intr stops an evaluation whose context is done (interrupt.go).
	intr interrupter
	// err is what stopped the last Run.
	err error
	// mem accounts for the memory against the instance's limit, and
	// tupleRels are the relations of three or more columns, which grow
	// (limits.go).
	mem       memory
	tupleRels []relID
	// inc is the state of incremental evaluation (incr.go).
	inc incremental
	// search is the state of the search of the orders (search.go).
	search orderSearch
	// bounds is what the instance knows of its flags' bounds
	// (flagbound.go).
	bounds flagBounds
	// flagOpts is where RaisedFlags reads its options, empty between
	// calls.
	flagOpts solveConfig
	// trace, when set, records the rules evaluated (trace.go).
	trace *RuleTrace
	// quiet holds the strata the evaluation passes over (quiet.go).
	quiet quietStrata
	// flat holds the rules compiled flat for small domains (flat.go), and
	// flatStrata the strata runDirtyFlat computes.
	flat       flatRules
	flatStrata strataBits
}

// NewInstance prepares an evaluation over dom. It adds the program's
// constants to dom, whose size is then fixed: add every host atom first.
func (p *Program) NewInstance(dom *Domain) *Instance {
	in, _ := p.newInstance(context.Background(), dom)
	return in
}

// newInstance is NewInstance under a context, looked at while the
// relations are allocated (those of a candidate of thousands of events
// take gigabytes, and their first touch seconds): once ctx is done it
// returns ctx's error.
func (p *Program) newInstance(ctx context.Context, dom *Domain) (*Instance, error) {
	for _, c := range p.consts {
		dom.Intern(c)
	}
	n := dom.Len()
	in := &Instance{p: p, dom: dom, n: n, pool: tempPool{n: n}, ruleConsts: map[*rulePlan][]int{}, cur: -1}
	in.pool.grow = in.growScratch
	in.tupleRels = p.tupleRelations()
	in.stores = make([]store, len(p.rels))
	in.delta = make([]store, len(p.rels))
	in.next = make([]store, len(p.rels))
	if err := in.newStores(ctx); err != nil {
		return nil, err
	}
	for _, s := range p.strata {
		for _, rp := range s.rules {
			if len(rp.consts) == 0 {
				// Most rules name no constant: nothing reads their entry.
				continue
			}
			atoms := make([]int, len(rp.consts))
			for i, c := range rp.consts {
				atoms[i] = dom.Intern(c)
			}
			in.ruleConsts[rp] = atoms
		}
		if s.recursive {
			if n >= pollComposeAtoms {
				// Each store of a big domain takes megabytes.
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			for _, r := range s.rels {
				in.delta[r] = newTrackedStore(p.rels[r].arity, n, p.options.trackMinAtoms)
				in.next[r] = newTrackedStore(p.rels[r].arity, n, p.options.trackMinAtoms)
			}
		}
	}
	in.sched = newStratumSchedule(p)
	in.flatStrata = flatStrataOf(p, n)
	in.inc = newIncremental(p, n)
	in.versions = make([]uint64, len(p.rels))
	in.empty = make([]emptyCache, len(p.rels))
	in.spans = make([]*spanCache, len(p.rels))
	return in, nil
}

// newStores makes the stores of every relation, those of one or two
// columns in one block (which Reset empties at once), the universe full;
// once ctx is done it returns ctx's error.
func (in *Instance) newStores(ctx context.Context) error {
	sets, rels := 0, 0
	for _, r := range in.p.rels {
		switch r.arity {
		case 1:
			sets++
		case 2:
			rels++
		}
	}
	block, rs, ss, err := relations.NewBlockContext(ctx, in.n, rels, sets)
	if err != nil {
		return err
	}
	in.block = block
	for i, r := range in.p.rels {
		switch r.arity {
		case 1:
			in.stores[i] = store{arity: 1, set: ss[0]}
			ss = ss[1:]
		case 2:
			in.stores[i] = store{arity: 2, rel: rs[0]}
			rs = rs[1:]
		default:
			in.stores[i] = newStore(r.arity, in.n)
		}
		if r.kind == datalog.RelUniverse {
			in.stores[i].set.Complement()
			in.universe = relID(i)
		}
	}
	return nil
}

// Domain returns the instance's domain.
func (in *Instance) Domain() *Domain { return in.dom }

// Program returns the compiled program the instance evaluates.
func (in *Instance) Program() *Program { return in.p }

func (in *Instance) lookup(name string, arity int, settable bool) (relID, error) {
	id, ok := in.p.byName[name]
	if !ok {
		return 0, fmt.Errorf("unknown relation %s", name)
	}
	r := in.p.rels[id]
	if arity > 0 && r.arity != arity {
		return 0, fmt.Errorf("relation %s has %d column(s), not %d", name, r.arity, arity)
	}
	if settable && r.kind != datalog.RelInput && r.kind != datalog.RelOrder {
		return 0, fmt.Errorf("relation %s is not an .input relation of the model", name)
	}
	return id, nil
}

// invalidate marks the strata reading r for recomputation; run marks the
// strata reading those once they are recomputed. Every change to a
// relation the host sets goes through it.
func (in *Instance) invalidate(r relID) {
	in.forgetTrail()
	in.inputChanged(r)
}

// inputChanged marks the readers of relation r for recomputation.
func (in *Instance) inputChanged(r relID) {
	in.versions[r]++
	in.quiet.moved(r)
	if in.bounds.vary != nil && in.bounds.vary.fixed[r] {
		in.bounds.fixedEpoch++
	}
	for _, s := range in.p.readers[r] {
		in.sched.dirty.set(s)
	}
}

// SetSet replaces the tuples of a unary input relation.
func (in *Instance) SetSet(name string, s *relations.Set) error {
	id, err := in.lookup(name, 1, true)
	if err != nil {
		return err
	}
	return in.setSet(id, s)
}

// setSet replaces the atoms of the unary input relation id.
func (in *Instance) setSet(id relID, s *relations.Set) error {
	if s.N() != in.n {
		return fmt.Errorf("relation %s: set over %d atoms, but the domain has %d", in.p.rels[id].name, s.N(), in.n)
	}
	in.inc.dropStaged(id)
	if !in.stores[id].set.Equal(s) {
		in.stores[id].set.CopyFrom(s)
		in.invalidate(id)
	}
	return nil
}

// SetRel replaces the tuples of a binary input relation.
func (in *Instance) SetRel(name string, r *relations.Rel) error {
	id, err := in.lookup(name, 2, true)
	if err != nil {
		return err
	}
	return in.setRel(id, r)
}

// setRel replaces the pairs of the binary input relation id.
func (in *Instance) setRel(id relID, r *relations.Rel) error {
	if r.N() != in.n {
		return fmt.Errorf("relation %s: relation over %d atoms, but the domain has %d", in.p.rels[id].name, r.N(), in.n)
	}
	in.inc.dropStaged(id)
	if !in.stores[id].rel.Equal(r) {
		in.stores[id].rel.CopyFrom(r)
		in.invalidate(id)
	}
	return nil
}

// SetTuples replaces the tuples of an input relation of any arity.
func (in *Instance) SetTuples(name string, t *relations.Tuples) error {
	id, err := in.lookup(name, 0, true)
	if err != nil {
		return err
	}
	if ar := in.p.rels[id].arity; t.Arity() != ar {
		return fmt.Errorf("relation %s has %d column(s), not %d", name, ar, t.Arity())
	}
	// Validate every atom before touching the store, so that an error
	// leaves the relation (and what depends on it) as it was.
	for tu := range t.All() {
		for _, a := range tu {
			if a < 0 || a >= in.n {
				return fmt.Errorf("relation %s: atom %d is outside the domain of %d atoms", name, a, in.n)
			}
		}
	}
	in.inc.dropStaged(id)
	st := in.stores[id]
	st.clear()
	for tu := range t.All() {
		st.add(tu)
	}
	in.invalidate(id)
	return nil
}

// Set returns the tuples of a unary relation (derived relations are current
// as of the last Run, or, for one that the order search left out, computed
// now). The result must not be modified.
func (in *Instance) Set(name string) (*relations.Set, error) {
	id, err := in.lookup(name, 1, false)
	if err != nil {
		return nil, err
	}
	in.freshen(id)
	return in.stores[id].set, nil
}

// Rel returns the tuples of a binary relation. The result must not be modified.
func (in *Instance) Rel(name string) (*relations.Rel, error) {
	id, err := in.lookup(name, 2, false)
	if err != nil {
		return nil, err
	}
	in.freshen(id)
	return in.stores[id].rel, nil
}

// Tuples returns the tuples of any relation as a fresh Tuples value.
func (in *Instance) Tuples(name string) (*relations.Tuples, error) {
	id, err := in.lookup(name, 0, false)
	if err != nil {
		return nil, err
	}
	in.freshen(id)
	st := in.stores[id]
	out := relations.NewTuples(st.arity)
	st.each(func(t []int) bool { out.Add(t); return true })
	return out, nil
}

// Size returns the number of tuples of a relation.
func (in *Instance) Size(name string) (int, error) {
	id, err := in.lookup(name, 0, false)
	if err != nil {
		return 0, err
	}
	in.freshen(id)
	return in.stores[id].size(), nil
}

// Run brings every derived relation up to date. It can only stop early on
// an instance with limits (NewLimitedInstance); Err then says why.
func (in *Instance) Run() { in.err = in.RunContext(context.Background()) }

// run is Run inside an evaluation that has its context set.
func (in *Instance) run() {
	in.settle()
	visit := in.quietSkip(false)
	for i := in.sched.dirty.nextIn(visit, 0); i >= 0; i = in.sched.dirty.nextIn(visit, i+1) {
		in.runDirty(i)
	}
	in.passQuiet(nil)
}

// Invalidate marks every stratum for recomputation, so that the next Run
// evaluates the whole program (benchmarks use it to time one evaluation).
func (in *Instance) Invalidate() {
	in.forgetTrail()
	in.sched.dirty.setAll(len(in.p.strata))
}
