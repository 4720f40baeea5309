package synth

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/program"
	"github.com/ptxmm/ptxmm/rules"
)

// The violation screen closes a box of a skeleton's lattice (a range of
// choices along one list of dimensions) whose corners do not close it,
// when no execution the allowing model allows at the box's weakest point
// breaks, at its strongest point, what only the other model checks. It is
// sound where the models are paired (checker.NewPair: the same orders,
// final writes read from the same relation, both event-monotone):
//
//  1. A program p of the box separates the models when some outcome is
//     allowed by one model (A, say) and not by the other (B). A's
//     execution E with that outcome makes every axiom of A hold under
//     some choice of the orders; B reads the final state from the same
//     relation and has the same orders, so B rejects E under that choice
//     too, by an axiom A has not (the axioms both have are A's and hold).
//  2. That axiom's relation is a union of parts (its expression with
//     unions, and the reflexive closure `?`, spread over compositions:
//     (rf | co | fr)? ; cause is cause, rf ; cause, co ; cause and
//     fr ; cause). Where A has an axiom of the same name and kind, the
//     parts of B's that A's has too (the same expression over relations
//     with the same definitions, datalog.Merge) hold no tuple A's does
//     not: since A's holds, the tuple or cycle that breaks B's goes
//     through a part of B's own (for an acyclic axiom, a cycle of B's
//     relation through an edge of its own parts: irreflexive(D ; R*)).
//     Where A has no such axiom, the part is the whole relation; a part
//     A's coherence axiom rules out is left out (implied.go). Each
//     model's parts of its own make a flag, in a model with no axiom.
//  3. Along the box's chains the flags' relations only gain tuples as
//     orders and scopes strengthen (judged from the rules as monotone.go
//     judges the axioms; a list of dimensions with a step where one may
//     lose tuples is searched as before), so E, under the same orders
//     extended to the pairs the strongest point orders besides (a strict
//     partial order extends to one over more pairs), raises the flag at
//     the box's strongest point; a dimension none of whose steps changes
//     a flag's relation (a dependency, where the flags read none) is
//     taken at its weakest there, which raises the same flags.
//  4. E is allowed by A at the box's weakest point too (A forbids more as
//     choices strengthen, which the lattice assumes already), with the
//     same final state: the same reads-from and final writes give the
//     same values whatever the orders and dependencies.
//
// So the screen lists the candidates of the strongest program, and a box
// is closed when none whose final state A allows at the weakest point
// (the lattice's own check of that corner) raises a flag of B's parts
// under some choice of the orders, nor, the other way round, of A's
// parts where B allows. A strongest program with a candidate that has no
// final state (values out of thin air: the weakest point cannot tell
// whether it is allowed), or a check that errs, keeps the box. The
// screen pays where the parts of the models' own are rarely broken by an
// execution the other model allows at the weakest point
// (causality-alloy: cause reflexive along a cycle of reads-from and
// program order that stronger orders turn into synchronization); where
// they are broken in most boxes it is given up, after a size, once it
// has closed fewer than half of the boxes it was asked about
// (violationTrial).

// violationTrial is how many boxes the screen must have been asked about
// before it judges whether it pays, at the end of each size (so that
// which boxes it is asked about does not depend on the workers): it is
// kept while it has closed at least half of them, and turned off for the
// rest of the search otherwise. A screen lists the candidates of a strongest program and tests those the
// weakest point allows, which costs about two checks of a program; a box
// it closes saves the probes and the smaller boxes the split would check,
// a few programs at 4 instructions (causality-alloy closes three boxes in
// four; no-sc-per-location one in three, and there the screen cost more
// than it saved).
const violationTrial = 96

// violationScreen checks the boxes of skeletons for executions that may
// break a model's own parts.
type violationScreen struct {
	// sides are the directions the models may disagree in, each with
	// flags to raise; why says why the screen does not apply, when it
	// does not.
	sides []side
	why   string
	// tried and left count the boxes checked and left out; off is set
	// once the screen is seen not to pay.
	tried, left atomic.Int64
	off         atomic.Bool
	// checks counts the programs the screen checked.
	checks atomic.Int64
}

// side is one direction of a disagreement: allow allows an execution
// whose outcome the other model forbids by a part of its own axioms,
// which flags raises (the other model's program with those flags and no
// axiom; plain is the same program with no test at all, which lists the
// candidates without solving anything).
type side struct {
	allow, flags, plain *checker.Model
	// orders are the orders the flags read, each with the relation it
	// orders the pairs of: a candidate where all those are empty has one
	// choice of them, and its flags are tested once, without a search.
	orders [][2]string
	// pool keeps instances of the flags' program with their fillers, by
	// number of events, for reuse.
	pool *instancePool
	// b says the flags are the second model's parts (the first model
	// allows); owner names the model whose parts they are.
	b     bool
	owner string
}

// flagPrefix starts the names of the screen's flags ($: no user can
// write it).
const flagPrefix = "synth$own$"

// newViolationScreen prepares the screen for a pair of models.
func newViolationScreen(pair *checker.Pair) *violationScreen {
	v := &violationScreen{}
	if pair.Why != "" {
		v.why = "the models are not paired: " + pair.Why
		return v
	}
	a, b := pair.A.Syntax, pair.B.Syntax
	m := datalog.Merge(a, b)
	if m.OrdersDiffer != "" {
		v.why = m.OrdersDiffer
		return v
	}
	same := func(n string) string { return n }
	renamed := func(n string) string {
		if r, ok := m.Rename[n]; ok {
			return r
		}
		return n
	}
	fa := ownFlags(a, b, same, renamed)
	fb := ownFlags(b, a, renamed, same)
	for k, flags := range [][]*datalog.Check{fa, fb} {
		if len(flags) == 0 {
			continue
		}
		base, other := pair.A, pair.B
		if k == 1 {
			base, other = pair.B, pair.A
		}
		fm, err := flagModel(base, flags)
		if err == nil {
			var plain *checker.Model
			plain, err = flagModel(base, nil)
			v.sides = append(v.sides, side{allow: other, flags: fm, plain: plain, orders: ordersRead(fm.Syntax),
				pool: &instancePool{free: map[int][]*pooled{}}, b: k == 1, owner: base.Name})
		}
		if err != nil {
			v.why, v.sides = err.Error(), nil
			return v
		}
	}
	if len(v.sides) == 0 {
		v.why = "no axiom of either model has parts the other's has not"
	}
	return v
}

// ownFlags returns, for each axiom of model m that the other model o has
// not (the same name, kind and relation), a flag that fails wherever m's
// axiom fails and o's of the same name and kind holds: the parts of m's
// that o's has not. Relation names print through mine and theirs, so
// that a part of each reads alike where their relations are the same
// (datalog.Merge's renaming).
func ownFlags(m, o *datalog.Model, mine, theirs func(string) string) []*datalog.Check {
	others := map[string]*datalog.Check{}
	for _, c := range o.Checks {
		if c.Mode == datalog.ModeAxiom {
			others[c.Name] = c
		}
	}
	var out []*datalog.Check
	for _, c := range m.Checks {
		if c.Mode != datalog.ModeAxiom {
			continue
		}
		oc := others[c.Name]
		if oc != nil && oc.Kind == c.Kind && partsKey(oc.Expr, theirs) == partsKey(c.Expr, mine) {
			continue
		}
		counterpart := oc != nil && oc.Kind == c.Kind
		have := map[string]bool{}
		if counterpart {
			for _, p := range parts(oc.Expr) {
				have[exprKey(p, theirs)] = true
			}
		}
		var own []datalog.Expr
		for _, p := range parts(c.Expr) {
			if have[exprKey(p, mine)] {
				continue
			}
			if c.Kind == datalog.CheckIrreflexive && neverReflexive(p, m, o, mine, theirs) {
				continue
			}
			own = append(own, p)
		}
		if c.Kind == datalog.CheckAcyclic && !counterpart {
			own = []datalog.Expr{c.Expr}
		}
		if len(own) == 0 {
			// Every part of m's axiom is one of o's: it cannot fail where
			// o's holds.
			continue
		}
		d := joinParts(own)
		flag := &datalog.Check{Name: flagPrefix + c.Name, Kind: c.Kind, Mode: datalog.ModeFlag, Expr: d, Pos: c.Pos}
		if c.Kind == datalog.CheckAcyclic && counterpart {
			// A cycle of m's relation through an edge of its own parts.
			flag.Kind = datalog.CheckIrreflexive
			flag.Expr = &datalog.Binary{Op: datalog.OpSeq, L: d, R: &datalog.Unary{Op: datalog.OpStar, X: c.Expr}}
		}
		out = append(out, flag)
	}
	return out
}

// parts spreads an expression's unions, and its reflexive closures, over
// the compositions: the expression's relation is the union of the parts'
// (a part nil is the identity).
func parts(e datalog.Expr) []datalog.Expr {
	switch x := e.(type) {
	case *datalog.Binary:
		switch x.Op {
		case datalog.OpUnion:
			return append(parts(x.L), parts(x.R)...)
		case datalog.OpSeq:
			var out []datalog.Expr
			for _, l := range parts(x.L) {
				for _, r := range parts(x.R) {
					switch {
					case l == nil:
						out = append(out, r)
					case r == nil:
						out = append(out, l)
					default:
						out = append(out, &datalog.Binary{Op: datalog.OpSeq, L: l, R: r})
					}
				}
			}
			return out
		}
	case *datalog.Unary:
		if x.Op == datalog.OpOpt {
			return append([]datalog.Expr{nil}, parts(x.X)...)
		}
	}
	return []datalog.Expr{e}
}

// joinParts is the union of parts, the identity ([_]) standing for nil.
func joinParts(ps []datalog.Expr) datalog.Expr {
	var out datalog.Expr
	for _, p := range ps {
		if p == nil {
			p = &datalog.Unary{Op: datalog.OpIdent, X: &datalog.Universe{}}
		}
		if out == nil {
			out = p
			continue
		}
		out = &datalog.Binary{Op: datalog.OpUnion, L: out, R: p}
	}
	return out
}

// partsKey is the sorted keys of an expression's parts.
func partsKey(e datalog.Expr, name func(string) string) string {
	var ks []string
	for _, p := range parts(e) {
		ks = append(ks, exprKey(p, name))
	}
	sort.Strings(ks)
	return strings.Join(ks, "\n")
}

// exprKey prints an expression fully parenthesized, its relations named
// through name.
func exprKey(e datalog.Expr, name func(string) string) string {
	switch x := e.(type) {
	case nil:
		return "id"
	case *datalog.RelRef:
		return name(x.Name)
	case *datalog.Universe:
		return "_"
	case *datalog.Binary:
		return fmt.Sprintf("(%s %d %s)", exprKey(x.L, name), x.Op, exprKey(x.R, name))
	case *datalog.Unary:
		return fmt.Sprintf("(%d %s)", x.Op, exprKey(x.X, name))
	}
	return fmt.Sprintf("?%T", e)
}

// flagModel is a model's program with no axiom and the flags given (its
// own .flag and .undefined tests left out).
func flagModel(base *checker.Model, flags []*datalog.Check) (*checker.Model, error) {
	prog := *base.Syntax.Program
	prog.Checks = append(append([]*datalog.Check(nil), prog.Checks...), flags...)
	syntax, errs := datalog.Analyze(&prog)
	if errs.HasErrors() {
		return nil, fmt.Errorf("internal error: the flags of %s's own axioms do not analyze: %v", base.Name, errs)
	}
	var keep []*datalog.Check
	for _, c := range syntax.Checks {
		if strings.HasPrefix(c.Name, flagPrefix) {
			keep = append(keep, c)
		}
	}
	syntax.Checks = keep
	p, errs := rules.Compile(syntax)
	if errs.HasErrors() {
		return nil, fmt.Errorf("internal error: the flags of %s's own axioms do not compile: %v", base.Name, errs)
	}
	return (&checker.Compiled{Syntax: syntax, Program: p}).Model(base.Name + " (own parts)"), nil
}

// mayBreak reports whether the box from lo to hi (the weakest and the
// strongest programs of a skeleton's lattice along one list of
// dimensions) may hold a separating program: false only when, in each
// direction, no execution the allowing model allows at lo raises a flag
// of the other's own parts at hi (under some orders). An execution
// allowed at some point of the box is allowed at lo, and one that breaks a
// part there breaks it at hi (the chains are monotone), so the separating
// execution of a program of the box would be one. Executions are matched
// between lo and hi by their final states (the same reads-from and final
// writes give the same values, whatever the orders); a strongest program
// with an execution that has no final state, or a check that errs, keeps
// the box. lo's outcomes are the evaluator's (the lattice checks lo first
// anyway).
func (v *violationScreen) mayBreak(ctx context.Context, ev *evaluator, lo, hi *program.Test, opts checker.Options) bool {
	if v == nil || len(v.sides) == 0 || v.off.Load() {
		return true
	}
	ol := ev.outcomes(lo)
	if ol.err != nil || ol.separates() {
		return true
	}
	lhi, err := hi.Parse()
	if err != nil {
		return true
	}
	v.checks.Add(1)
	may := false
	for _, sd := range v.sides {
		allowed := ol.b
		if sd.b {
			allowed = ol.a
		}
		if sd.mayBreak(ctx, allowed, lhi, opts) {
			may = true
			break
		}
	}
	v.tried.Add(1)
	if !may {
		v.left.Add(1)
	}
	return may
}

// mayBreak is the screen in one direction: allowed are the final states
// the allowing model allows at lo.
func (sd side) mayBreak(ctx context.Context, allowed map[string]bool, hi *litmus.Test, opts checker.Options) bool {
	if len(allowed) == 0 {
		return false
	}
	ch, rh := sd.plain.CandidatesContext(ctx, hi, opts, 0)
	if rh.Err != nil {
		return true
	}
	var p *pooled
	defer func() {
		if p != nil {
			sd.pool.put(p)
		}
	}()
	for _, c := range ch {
		if c.NoFinalState() != "" {
			return true
		}
		if !allowed[checker.FormatState(rh.Test, rh.Layout, rh.Observables, c.State)] {
			continue
		}
		if p != nil && p.events != len(c.Execution.Events) {
			sd.pool.put(p)
			p = nil
		}
		if p == nil {
			var err error
			if p, err = sd.pool.get(sd.flags, len(c.Execution.Events), opts.MaxMemory); err != nil {
				return true
			}
		}
		if sd.raises(ctx, p, c) {
			return true
		}
	}
	return false
}

// raises reports whether a candidate raises a flag under some choice of
// the orders (or its check errs), on an instance of the flags' program
// that p holds (filled for the program's candidates one after another,
// as the checker fills its instances).
func (sd side) raises(ctx context.Context, p *pooled, c checker.Candidate) bool {
	if p.searched {
		// A search left some choice of the orders in the instance.
		p.reset()
	}
	if err := p.fill.FillContext(ctx, p.inst, c.Execution); err != nil {
		return true
	}
	single := true
	for _, o := range sd.orders {
		if n, err := p.inst.Size(o[1]); err != nil || n > 0 {
			single = false
			break
		}
	}
	if single {
		// The orders the flags read have nothing to order: their one
		// choice is the empty relation the instance holds.
		for _, f := range sd.flags.Syntax.Checks {
			if ok, err := p.inst.CheckHolds(f.Kind, f.Rel); err != nil || !ok {
				return true
			}
		}
		return p.inst.Err() != nil
	}
	p.searched = true
	if sol := p.inst.Solve(rules.WithContext(ctx)); sol.Err != nil || !sol.Consistent {
		return true
	}
	return len(p.inst.RaisedFlags(rules.WithContext(ctx), rules.WithoutWitnesses())) > 0
}

// pooled is an instance of the flags' program over some number of events,
// with the filler that fills it.
type pooled struct {
	inst     *rules.Instance
	fill     *fill.Filler
	events   int
	limits   rules.Limits
	searched bool
}

// reset empties the instance and its filler for another candidate.
func (p *pooled) reset() {
	p.inst.Reset(p.limits)
	p.fill.Reset()
	p.searched = false
}

// instancePool keeps the instances of a side's flags' program, by number
// of events, for the workers to reuse.
type instancePool struct {
	mu   sync.Mutex
	free map[int][]*pooled
}

// get returns an empty instance over n events.
func (ip *instancePool) get(m *checker.Model, n int, maxBytes int64) (*pooled, error) {
	ip.mu.Lock()
	if l := ip.free[n]; len(l) > 0 {
		p := l[len(l)-1]
		ip.free[n] = l[:len(l)-1]
		ip.mu.Unlock()
		p.limits = rules.Limits{MaxBytes: maxBytes}
		p.reset()
		return p, nil
	}
	ip.mu.Unlock()
	dom := rules.NewDomain()
	for i := 0; i < n; i++ {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	limits := rules.Limits{MaxBytes: maxBytes}
	inst, err := m.Program.NewLimitedInstance(dom, limits)
	if err != nil {
		return nil, err
	}
	return &pooled{inst: inst, fill: fill.New(m.Syntax), events: n, limits: limits}, nil
}

// put gives an instance back.
func (ip *instancePool) put(p *pooled) {
	ip.mu.Lock()
	defer ip.mu.Unlock()
	ip.free[p.events] = append(ip.free[p.events], p)
}

// ordersRead lists the orders a model's checks read (through any chain
// of rules), each with the relation whose pairs it orders.
func ordersRead(m *datalog.Model) [][2]string {
	body := map[string][]string{}
	for _, r := range m.Rules {
		for _, l := range r.Body {
			if a, ok := l.(*datalog.Atom); ok {
				body[r.Head.Pred] = append(body[r.Head.Pred], a.Pred)
			}
		}
	}
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, b := range body[n] {
			walk(b)
		}
	}
	for _, c := range m.Checks {
		walk(c.Rel)
	}
	var out [][2]string
	for _, o := range m.Orders {
		if seen[o.Name] {
			out = append(out, [2]string{o.Name, o.Over})
		}
	}
	return out
}

// judge turns the screen off when it has been asked about enough boxes
// and closed fewer than half of them; the search calls it between sizes.
func (v *violationScreen) judge() {
	if v == nil {
		return
	}
	if tried := v.tried.Load(); tried >= violationTrial && 2*v.left.Load() < tried {
		v.off.Store(true)
	}
}

// violationState is what a searcher keeps of the screen, made once,
// when the first box needs it.
type violationState struct {
	violationOnce sync.Once
	violation     *violationScreen
}

// violations is the searcher's violation screen.
func (s *searcher) violations() *violationScreen {
	s.violationOnce.Do(func() { s.violation = newViolationScreen(s.pair()) })
	return s.violation
}

// violationClosed returns the violation screen for the boxes of
// skeleton sk's lattice along ds (nil where it does not apply: the models
// are not paired, it was seen not to pay, or along some chain
// of ds a flag's relation may lose tuples). It reports that a box holds
// no separating program.
func (s *searcher) violationClosed(sk *skeleton, ev *evaluator, ds []dim) func(lo, hi point) bool {
	if s.o.noViolationScreen {
		return nil
	}
	v := s.violations()
	if len(v.sides) == 0 || v.off.Load() {
		return nil
	}
	var flags []*checker.Model
	for _, sd := range v.sides {
		flags = append(flags, sd.flags)
	}
	ok, inert := s.mono.flagsMonotone(sk, ds, flags)
	if !ok {
		return nil
	}
	return func(lo, hi point) bool {
		// A dimension that changes no flag's relation is taken at its
		// weakest: the flags are the same, and fewer dependencies make
		// fewer executions whose values come out of thin air.
		top := append(point(nil), hi...)
		for i := range top {
			if inert[i] {
				top[i] = lo[i]
			}
		}
		return !v.mayBreak(s.ctx, ev, sk.test(s.o.Vocabulary, ds, lo), sk.test(s.o.Vocabulary, ds, top), s.o.Check)
	}
}
