package synth

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/program"
)

// Options say what to search: the two models, the vocabulary and bounds
// of the tests, and the limits of each check.
type Options struct {
	A, B       *checker.Model
	Vocabulary Vocabulary
	Bounds     Bounds
	// Check bounds each program's check (-timeout, -max-memory, ...).
	Check checker.Options
	// Workers search that many skeletons at once (at least 1).
	Workers int
	// Progress, when set, is called now and then with how far the search
	// is (from the workers' goroutines, one call at a time).
	Progress func(Progress)
	// Found, when set, is called with tests as soon as they are
	// confirmed and every shape listed before theirs is searched,
	// smallest first (one call at a time).
	Found func(size int, tests []*Found)
	// First names parts of the vocabulary (as -vocab does: async, ...)
	// whose shapes are searched, and their tests reported, before the
	// other shapes of each size: DeriveVocabulary's additions, which
	// reach where the models differ. The tests found are the same; only
	// their order within a size changes.
	First []string
	// noViolationScreen turns the violation screen off (violation.go),
	// for the tests that compare the search with and without it.
	noViolationScreen bool
	// noOwnPrune searches the skeletons ownprune.go leaves out, for the
	// tests that compare the search with and without the pruning.
	noOwnPrune bool
	// prefixFrom is the least size whose location assignments are
	// judged (ownprefix.go; 0: prefixSize), for the tests.
	prefixFrom int
	// screen is what Derive sampled of the models' inputs, which the
	// search reuses when its models and vocabulary are the same.
	screen *screen
}

// Progress says how far a search is.
type Progress struct {
	Size        int // the number of instructions being searched
	Done, Total int // skeletons of this size searched and listed so far
	// Listing says the skeletons of this size are still being listed
	// (Total grows).
	Listing           bool
	Programs          int // programs checked with both models so far
	Found             int // tests found so far
	Elapsed           time.Duration
	SkeletonsAllSizes int
}

// Checked counts the programs a search checked by why it checked each
// first: where the checks of a search go (docs/benchmarks.md).
type Checked struct {
	// Corners are the weakest and strongest points of the boxes the
	// lattice of each skeleton is split into (lattice.go).
	Corners int
	// Probes are points next to a corner, checked to choose the
	// dimension a box is split on.
	Probes int
	// Removals are separating programs with one instruction removed,
	// checked to tell whether they are minimal.
	Removals int
	// Violations are the boxes the violation screen (violation.go) was
	// asked about: for each, the candidates of the box's strongest
	// program were listed and tested for the parts of each model's own
	// axioms. They are not counted in Programs.
	Violations int
}

// Found is one separating test.
type Found struct {
	Test *program.Test
	// Size is its number of instructions.
	Size int
	// Diff is the checker's comparison of the two models on the test,
	// with the execution one allows and the other's failed checks.
	Diff *checker.DiffResult
}

// Report is the outcome of a search.
type Report struct {
	Tests []*Found
	// Complete is the largest size searched completely (every skeleton
	// of it and below); Stopped says the search stopped early (its
	// context: a time budget or an interrupt), and why.
	Complete int
	Stopped  error
	// Skeletons counts the shapes enumerated, Critical those with an
	// execution through every access that sequential consistency forbids,
	// Programs the programs checked with both models.
	Skeletons, Critical, Programs int
	// Checked breaks Programs down by why each program was first checked.
	Checked Checked
	// Screened counts the shapes left out because the models' rules
	// agree on every program with their features (screen.go).
	Screened int
	// ViolationScreened counts the boxes of the skeletons' lattices the
	// violation screen closed (violation.go): their corners did not, and
	// no execution the allowing model allows at their weakest point
	// breaks, at their strongest, an axiom of the other model's own
	// where the allowing model's holds.
	ViolationScreened int
	// OwnPruned counts the shapes left out because no execution of theirs
	// can break a part of either model's own axioms (ownprune.go).
	OwnPruned int
	// prefixLeft counts those of OwnPruned left out with their location
	// assignment (ownprefix.go), for the tests.
	prefixLeft int
	// ThinAir counts the programs on which the models disagree about an
	// execution that has no final state (values out of thin air), which
	// no test can exhibit.
	ThinAir int
	// Undefined counts the tests the search built for an outcome the
	// models disagree on that both models find undefined (some
	// consistent execution raises an .undefined check, such as a bulk
	// copy's race), so that their verdicts, Undef both, do not separate
	// them: no test exhibits that difference under check.
	Undefined int
	// Unconfirmed are tests the search found but the checker, run on the
	// test itself, does not confirm: none, unless something is wrong.
	Unconfirmed []*program.Test
	// NotMonotone names the models that allowed an outcome under a
	// stronger choice of orders and scopes than one under which they
	// forbade it, which the search assumes never happens.
	NotMonotone []string
	// Err is the first error a check stopped with (a resource limit); the
	// skeleton it came from was left unsearched.
	Err     error
	Elapsed time.Duration
}

// Search looks for the minimal tests on which the models disagree, size
// by size, until the bounds or the context's end. The tests of a size are
// passed to Options.Found as soon as they are confirmed and every shape
// listed before theirs has been searched, so the first separating test is
// out long before its size is searched in full, and the order does not
// depend on the number of workers.
func Search(ctx context.Context, o Options) *Report {
	start := time.Now()
	s := newSearcher(ctx, o)
	rep := s.rep
	seen := map[string]bool{}
	for n := 1; n <= o.Bounds.Events; n++ {
		count := 0
		// emit runs in the order of the shapes, one call at a time.
		emit := func(found []*Found) {
			var fresh []*Found
			for _, f := range found {
				key := canonical(f.Test)
				if seen[key] {
					continue
				}
				seen[key] = true
				count++
				f.Test.Name = fmt.Sprintf("Synth%d.%d", n, count)
				f.Diff.Test.Name = f.Test.Name
				fresh = append(fresh, f)
			}
			rep.Tests = append(rep.Tests, fresh...)
			if o.Found != nil && len(fresh) > 0 {
				o.Found(n, fresh)
			}
		}
		s.size(n, emit)
		s.violation.judge()
		s.own.judge()
		if err := ctx.Err(); err != nil {
			rep.Stopped = err
			break
		}
		rep.Complete = n
	}
	for m := range s.notMonotone {
		rep.NotMonotone = append(rep.NotMonotone, m)
	}
	sort.Strings(rep.NotMonotone)
	rep.Programs = int(s.evals.Load())
	rep.Checked = Checked{Corners: int(s.why[forCorner].Load()), Probes: int(s.why[forProbe].Load()), Removals: int(s.why[forRemoval].Load())}
	rep.ThinAir = int(s.thin.Load())
	if s.own != nil {
		rep.prefixLeft = int(s.own.prefixLeft.Load())
	}
	if v := s.violation; v != nil {
		rep.Checked.Violations = int(v.checks.Load())
		rep.ViolationScreened = int(v.left.Load())
	}
	rep.Elapsed = time.Since(start)
	return rep
}

// newSearcher prepares a search: its screen and the monotonicity of the
// models' chains.
func newSearcher(ctx context.Context, o Options) *searcher {
	s := &searcher{ctx: ctx, o: o, rep: &Report{}, evals: &atomic.Int64{}, thin: &atomic.Int64{}, start: time.Now(), notMonotone: map[string]bool{}}
	if o.Workers < 1 {
		s.o.Workers = 1
	}
	s.screen = o.screen.reuse(s.o)
	s.mono = newMonotonicity(s.o)
	s.prefer = partFeatures(o.First)
	s.oneThreadLast = !s.screen.separable(0)
	s.pair = sync.OnceValue(func() *checker.Pair { return checker.NewPair(s.o.A, s.o.B) })
	return s
}

// searcher carries one search.
type searcher struct {
	ctx   context.Context
	o     Options
	rep   *Report
	evals *atomic.Int64
	// why counts the programs checked by purpose (Report.Checked).
	why   [numPurposes]atomic.Int64
	thin  *atomic.Int64
	start time.Time
	// mu guards the report's counters, notMonotone and the tests found
	// but not yet emitted.
	mu sync.Mutex
	// notMonotone collects the names of the models seen to break
	// monotonicity.
	notMonotone map[string]bool
	screen      *screen
	mono        *monotonicity
	// prefer are the features of Options.First: shapes with one of them
	// are searched first within each size.
	prefer feature
	// oneThreadLast lists the shapes of one thread after the others of
	// their size: where loads and stores alone cannot tell the models
	// apart, a difference needs operations (fences, atomics, barriers,
	// ...) whose orders a single thread mostly has from program order
	// already, and one-thread shapes with fences are the most numerous.
	oneThreadLast bool
	// pair merges the two models for checking programs with both
	// (checker.Pair), once, when the first program needs both.
	pair func() *checker.Pair
	// violationState holds the violation screen (violation.go), made
	// once, when the first box needs it.
	violationState
}

// size lists the shapes of n instructions and searches those with a
// cycle through every access on the workers while the listing goes on;
// the tests of each shape go to emit in the order of the shapes, as soon
// as the shapes before it are searched. When the context ends, the
// shapes searched by then are emitted, in order, and the rest are not.
func (s *searcher) size(n int, emit func([]*Found)) {
	type job struct {
		i  int
		sk *skeleton
	}
	jobs := make(chan job, 4*s.o.Workers)
	var (
		listed, done int
		listing      = true
		results      = map[int][]*Found{}
		next         int
		pending      int
	)
	// flush emits the results that follow the last emitted, under s.mu.
	flush := func() {
		for {
			fs, ok := results[next]
			if !ok {
				return
			}
			delete(results, next)
			next++
			pending -= len(fs)
			emit(fs)
		}
	}
	report := func() {
		if s.o.Progress == nil {
			return
		}
		s.o.Progress(Progress{Size: n, Done: done, Total: listed, Listing: listing, Programs: int(s.evals.Load()),
			Found: len(s.rep.Tests) + pending, Elapsed: time.Since(s.start)})
	}
	var wg sync.WaitGroup
	for w := 0; w < s.o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if s.ctx.Err() != nil {
					continue
				}
				fs := s.skeleton(j.sk)
				s.mu.Lock()
				if s.ctx.Err() == nil || len(fs) > 0 {
					results[j.i] = fs
				}
				pending += len(fs)
				done++
				flush()
				report()
				s.mu.Unlock()
			}
		}()
	}
	// With parts to try first, the shapes that use them are listed in a
	// first pass and the others in a second: every shape is listed once.
	passes := []func(*skeleton) bool{nil}
	if s.prefer != 0 {
		uses := func(sk *skeleton) bool { return sk.features(sk.dims(s.o.Vocabulary), nil, nil)&s.prefer != 0 }
		passes = []func(*skeleton) bool{uses, func(sk *skeleton) bool { return !uses(sk) }}
	}
	judge := s.prefixJudge(n)
	for _, keep := range passes {
		if s.ctx.Err() != nil {
			break
		}
		skeletonsJudged(n, s.o.Bounds, s.o.Vocabulary, s.oneThreadLast, judge, func(sk *skeleton) bool {
			if keep != nil && !keep(sk) {
				return s.ctx.Err() == nil
			}
			s.mu.Lock()
			s.rep.Skeletons++
			s.mu.Unlock()
			if !sk.critical() {
				return s.ctx.Err() == nil
			}
			s.mu.Lock()
			s.rep.Critical++
			i := listed
			listed++
			s.mu.Unlock()
			jobs <- job{i, sk}
			return s.ctx.Err() == nil
		})
	}
	s.mu.Lock()
	listing = false
	s.mu.Unlock()
	close(jobs)
	wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	// After an interrupt, some shapes were never searched: emit the rest
	// of what was found, in order.
	keys := make([]int, 0, len(results))
	for i := range results {
		keys = append(keys, i)
	}
	sort.Ints(keys)
	for _, i := range keys {
		emit(results[i])
	}
}

// skeleton searches one skeleton's lattice and returns its minimal
// separating tests, confirmed by the checker.
func (s *searcher) skeleton(sk *skeleton) []*Found {
	v := s.o.Vocabulary
	ds := sk.dims(v)
	fs := sk.features(ds, nil, nil)
	if !s.screen.separable(fs) {
		s.mu.Lock()
		s.rep.Screened++
		s.mu.Unlock()
		return nil
	}
	if !s.o.noOwnPrune && (s.ownPrune().leftOut(sk) || s.ownPrune().pruned(sk, fs)) {
		s.mu.Lock()
		s.rep.OwnPruned++
		s.mu.Unlock()
		return nil
	}
	ev := &evaluator{ctx: s.ctx, models: []*checker.Model{s.o.A, s.o.B}, opts: s.o.Check, cache: map[string]*outcomes{}, evals: s.evals, why: &s.why, thin: s.thin,
		agree: s.screen.agree, pair: s.pair}
	var out []*Found
	seen := map[string]bool{}
	for _, ds := range depChains(ds) {
		for _, ds := range s.mono.split(sk, ds) {
			for _, t := range s.lattice(sk, ev, ds) {
				if text := t.Litmus(); !seen[text] {
					seen[text] = true
					out = append(out, s.tests(t, sk.size())...)
				}
			}
			if s.ctx.Err() != nil {
				return out
			}
		}
	}
	return out
}

// lattice searches one skeleton's choices along the dimensions ds and
// returns the event-minimal separating programs at its minimal points.
func (s *searcher) lattice(sk *skeleton, ev *evaluator, ds []dim) []*program.Test {
	v := s.o.Vocabulary
	eval := func(p point) *outcomes { return ev.outcomes(sk.test(v, ds, p)) }
	probe := func(p point) (o *outcomes) {
		ev.withPurpose(forProbe, func() { o = eval(p) })
		return o
	}
	screened := func(lo, hi point) bool { return !s.screen.separable(sk.features(ds, lo, hi)) }
	ls := &latticeSearch{ds: ds, eval: eval, probe: probe, stop: func() bool { return s.ctx.Err() != nil }, screened: screened,
		closed:   s.violationClosed(sk, ev, ds),
		monotone: func(_, _ point, w, st *outcomes) { s.monotone(w, st) }}
	points := ls.run()
	if ls.err != nil {
		s.fail(ls.err)
		return nil
	}
	var out []*program.Test
	for _, p := range points {
		if t := sk.test(v, ds, p); s.eventMinimal(ev, t) {
			out = append(out, t)
		}
	}
	return out
}

// depChains splits the dependency dimensions that offer both a data and
// a control dependency: a model may order either more strongly than the
// other (spec.dl counts both in No-Thin-Air, where a branch reaches every
// later instruction; a variant may count data dependencies only), so the
// two are no chain. Each returned list of dimensions takes, for each such
// access, none and one of the two; together they cover every choice.
func depChains(ds []dim) [][]dim {
	out := [][]dim{nil}
	for _, d := range ds {
		if d.kind != dimDep || len(d.deps) <= 2 {
			for i := range out {
				out[i] = append(out[i], d)
			}
			continue
		}
		var next [][]dim
		for _, prefix := range out {
			for _, dep := range d.deps[1:] {
				c := d
				c.deps = []program.Dep{d.deps[0], dep}
				next = append(next, append(append([]dim(nil), prefix...), c))
			}
		}
		out = next
	}
	return out
}

// fail records the first error a check stopped with.
func (s *searcher) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rep.Err == nil {
		s.rep.Err = err
	}
}

// monotone records a model seen allowing at a stronger point an outcome
// it forbids at a weaker one.
func (s *searcher) monotone(weak, strong *outcomes) bool {
	bad := false
	check := func(w, st map[string]bool, thin int, name string) {
		// Executions out of thin air have no final state, so the weak
		// point's outcomes are not all there is to compare.
		if thin > 0 {
			return
		}
		for k := range st {
			if !w[k] {
				s.mu.Lock()
				s.notMonotone[name] = true
				s.mu.Unlock()
				bad = true
				return
			}
		}
	}
	check(weak.a, strong.a, weak.thinA, s.o.A.Name)
	check(weak.b, strong.b, weak.thinB, s.o.B.Name)
	return bad
}

// eventMinimal reports whether no test made by removing one instruction
// still separates the models.
func (s *searcher) eventMinimal(ev *evaluator, t *program.Test) (minimal bool) {
	minimal = true
	ev.withPurpose(forRemoval, func() {
		for th, thr := range t.Threads {
			for k := range thr.Ops {
				if o := ev.outcomes(without(t, th, k)); o.err == nil && o.separates() {
					minimal = false
					return
				}
			}
		}
	})
	return minimal
}

// tests turns a separating program into one test per outcome the models
// disagree on, each confirmed by checking it with both models.
func (s *searcher) tests(t *program.Test, size int) []*Found {
	lt, err := parse(t)
	if err != nil {
		return nil
	}
	rs := checker.CheckAllContext(s.ctx, []*checker.Model{s.o.A, s.o.B}, lt, s.o.Check)
	if rs[0].Err != nil || rs[1].Err != nil {
		return nil
	}
	inA, inB := stateSet(rs[0]), stateSet(rs[1])
	var out []*Found
	for i, r := range rs {
		other := inB
		if i == 1 {
			other = inA
		}
		for _, st := range r.States {
			if other[checker.FormatState(r.Test, r.Layout, r.Observables, st)] {
				continue
			}
			pinned := *t
			pinned.Observe = nil
			pinned.Pins = pinsOf(t, r.Observables, st)
			out = append(out, s.confirm(&pinned, size))
		}
	}
	var kept []*Found
	for _, f := range out {
		if f != nil {
			kept = append(kept, f)
		}
	}
	return kept
}

// pinsOf spells a final state as the pins of a condition.
func pinsOf(t *program.Test, obs []checker.Observable, st checker.State) []program.Pin {
	var pins []program.Pin
	for i, o := range obs {
		v := st[i].V.N
		if o.IsLoc {
			for a, addr := range t.Addrs {
				if addr.Name == o.Name {
					pins = append(pins, program.Pin{Thread: -1, Addr: a, Value: v})
				}
			}
			continue
		}
		for k := range t.Threads[o.Thread].Ops {
			if t.Threads[o.Thread].Ops[k].Kind.Reads() && t.Reg(o.Thread, k) == o.Reg {
				pins = append(pins, program.Pin{Thread: o.Thread, Op: k, Value: v})
			}
		}
	}
	return pins
}

// confirm checks a test with both models: it separates them when their
// verdicts differ. A test the checker does not confirm goes to the
// report's Unconfirmed.
func (s *searcher) confirm(t *program.Test, size int) *Found {
	lt, err := parse(t)
	if err != nil {
		return nil
	}
	d := checker.Diff(s.o.A, s.o.B, lt, s.o.Check)
	if d.Err != nil {
		return nil
	}
	if !d.VerdictsDiffer() {
		s.mu.Lock()
		if d.A.Verdict == "Undef" && d.B.Verdict == "Undef" {
			s.rep.Undefined++
		} else {
			s.rep.Unconfirmed = append(s.rep.Unconfirmed, t)
		}
		s.mu.Unlock()
		return nil
	}
	return &Found{Test: t, Size: size, Diff: d}
}
