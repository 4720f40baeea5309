package synth

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/program"
)

// Without -vocab, the search uses the default vocabulary, extended by the
// opt-in parts that reach where the two models differ in a way the
// default's own operations do not. The models' rules are compared with
// the inputs the default fills (and loads and stores) non-empty: a
// relation or axiom whose definition differs between the two models is a
// root of their difference. An opt-in part joins the vocabulary when the
// inputs it alone fills change such a root's live definition in either
// model: a rule of the root that was dead (it reads a relation empty
// without the part) comes to life, so programs with the part meet the
// difference through that rule. variants/obs-one-step.dl redefines obs
// without spec.dl's mbar_rf, a relation only mbarrier operations fill:
// async joins, and its first test has three instructions instead of four.
// A part whose inputs reach the differing definitions only through
// relations that are already live (a wait's branch is a control
// dependency, which nta-data-only's axiom reads) adds nothing the default
// cannot show, and stays out. Two arrivals, remote arrives and
// fence.proxy.async fill no input their base part (async, or a bulk store)
// does not fill: where the base reaches a root, each joins when the models
// tell apart one of its samples and none of the base's own
// (testdata/synth/mbarrier-sync-in-cta.dl, whose models agree within a
// CTA, gains mbarrier.remote; obs-one-step, which async's samples separate
// already, gains nothing more).

// neverFilled lists the inputs no program of the search fills, whatever
// its vocabulary: it writes no address dependency, no reduction, volatile
// or MMIO access, no cp.async, wgmma, tcgen05, multimem or host operation,
// no mbarrier.init (mbarriers are declared initialised) and no access
// outside its state space. TestNeverFilled samples every feature of every
// part and checks this list against what they fill.
var neverFilled = setOf("BAR_RED", "RED", "VOL", "MMIO", "CP_ASYNC", "BULK_REDUCE", "BULK_BAD_SIZE",
	"WGMMA", "CP_MBAR_ARRIVE", "ST_ASYNC", "WAIT_READ", "WAIT_ALL", "WGMMA_FENCE", "MBAR_INIT", "MBAR_UNINIT",
	"MBAR_INIT_FENCE", "SYNC_RESTRICT", "NOCOMPLETE_COMPLETES", "MBAR_PENDING_OVER", "TC", "TC_MMA", "TC_CP", "TC_CP_4X256B", "TC_SHIFT", "TC_LD", "TC_ST",
	"TC_COMMIT", "TC_WAIT_LD", "TC_WAIT_ST", "TC_BEFORE", "TC_AFTER", "TMEM", "OUTSIDE_SPACE",
	"MULTIMEM", "MULTIMEM_ADDR", "addr", "wait_pending", "same_group", "same_cta_group", "same_shape", "HOST",
	"HOST_NATIVE_ATOMIC", "API", "SYNC_CALL", "QUERY_OK", "TASK_START", "TASK_END", "GRAPH_SOURCE",
	"GRAPH_SINK", "THREAD_START", "THREAD_END", "stream_next", "event_wait", "barrier_wait",
	"kernel_thread", "graph_node", "graph_dep", "api_wait", "device_task")

func setOf(names ...string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// optPart is an opt-in part of the vocabulary: its name in -vocab, how it
// extends a vocabulary, and the features its operations have.
type optPart struct {
	name  string
	add   func(*Vocabulary)
	feats []feature
	proxy program.Proxy
	// base names the part this one refines (mbarrier.two and
	// mbarrier.remote refine async, fence.proxy.async goes with a bulk
	// store), whose inputs it shares: it joins, where its base does, when
	// the models tell apart some sample of the features shows and none of
	// the base's own samples.
	base  string
	shows []feature
}

// optParts are the parts the default vocabulary leaves out, in -vocab's
// order.
var optParts = []optPart{
	{name: "fence.acquire", add: func(v *Vocabulary) { v.Fences = addSem(v.Fences, program.Acquire) }, feats: []feature{featAcqFence}},
	{name: "fence.release", add: func(v *Vocabulary) { v.Fences = addSem(v.Fences, program.Release) }, feats: []feature{featRelFence}},
	{name: "bar.sync", add: func(v *Vocabulary) { v.Barrier = true }, feats: []feature{featBarrier}},
	{name: "barrier.cluster", add: func(v *Vocabulary) { v.ClusterBarrier = true }, feats: []feature{featClusterBarrier}},
	{name: "surface", add: func(v *Vocabulary) { v.Proxies = addProxy(v.Proxies, program.Surface) }, feats: []feature{featProxy, featProxyFence}, proxy: program.Surface},
	{name: "texture", add: func(v *Vocabulary) { v.Proxies = addProxy(v.Proxies, program.Texture) }, feats: []feature{featProxy, featProxyFence}, proxy: program.Texture},
	{name: "constant", add: func(v *Vocabulary) { v.Proxies = addProxy(v.Proxies, program.Constant) }, feats: []feature{featProxy, featProxyFence}, proxy: program.Constant},
	{name: "async", add: func(v *Vocabulary) { v.Async = true }, feats: []feature{featMbar, featBulk}},
	{name: "mbarrier.two", add: func(v *Vocabulary) { v.Async, v.TwoArrivals = true, true }, base: "async", shows: []feature{featMbar}},
	{name: "mbarrier.remote", add: func(v *Vocabulary) { v.Async, v.Remote = true, true }, base: "async", shows: []feature{featRemote}},
	{name: "bulk.store", add: func(v *Vocabulary) { v.BulkStore = true }, feats: []feature{featBulkStore}},
	{name: "fence.proxy.async", add: func(v *Vocabulary) { v.AsyncFence = true }, base: "bulk.store", shows: []feature{featAsyncFence}},
}

// optPartNamed returns the opt-in part called name.
func optPartNamed(name string) optPart {
	for _, p := range optParts {
		if p.name == name {
			return p
		}
	}
	panic("synth: no opt-in part " + name)
}

func addSem(ss []program.Sem, s program.Sem) []program.Sem {
	if hasSem(ss, s) {
		return ss
	}
	out := append(append([]program.Sem(nil), ss...), s)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func addProxy(ps []program.Proxy, p program.Proxy) []program.Proxy {
	for _, x := range ps {
		if x == p {
			return ps
		}
	}
	out := append(append([]program.Proxy(nil), ps...), p)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// DeriveVocabulary extends v (the default vocabulary) with the opt-in
// parts that reach the models' difference in a way v's operations do not
// (see above), and returns the extended vocabulary and the names of the
// parts it added, in -vocab's order (none: v itself).
func DeriveVocabulary(a, b *checker.Model, v Vocabulary, check checker.Options) (Vocabulary, []string) {
	v, added, _ := derive(Options{A: a, B: b, Vocabulary: v, Check: check})
	return v, added
}

// Derive returns o with the vocabulary DeriveVocabulary derives from
// o's and First naming the parts it added; where none is added, it keeps
// what it sampled of the models' inputs for o's search, which then does
// not sample the same programs again.
func Derive(o Options) Options {
	v, added, sc := derive(o)
	o.Vocabulary, o.First = v, added
	if len(added) == 0 {
		o.screen = sc
	}
	return o
}

// derive is DeriveVocabulary with the screen it sampled for v (nil when
// none).
func derive(o Options) (Vocabulary, []string, *screen) {
	a, b, v, check := o.A, o.B, o.Vocabulary, o.Check
	if equivalent(a.Syntax, b.Syntax, map[string]bool{}) {
		// The models agree on every execution: nothing to reach.
		return v, nil, nil
	}
	o = Options{A: a, B: b, Vocabulary: v, Check: check}
	base := newPlainScreen(o)
	if base.separable(0) {
		// Loads and stores alone may tell the models apart: every
		// shape is in reach of the difference, and a larger vocabulary
		// would only lengthen the search.
		return v, nil, base
	}
	base.withFeatures()
	// The inputs v's programs may fill.
	filled := map[string]bool{}
	for in := range base.base {
		filled[in] = true
	}
	for _, ins := range base.inputs {
		for in := range ins {
			filled[in] = true
		}
	}
	emptyWithout := func(extra map[string]bool) map[string]bool {
		empty := map[string]bool{}
		for _, in := range base.all {
			empty[in] = !filled[in] && !extra[in]
		}
		return empty
	}
	before := emptyWithout(nil)
	if !reachesRoots(a, b, before, neverFilled) {
		// Not even every input some program of the search may fill
		// changes a differing definition: no part can (nta-data-only's
		// axiom reads addr, which none fills). Filling more inputs
		// only brings more rules to life, so this decides without
		// sampling the parts.
		return v, nil, base
	}
	// The catalog fills the same inputs for either model; with the same
	// inputs declared, one model's samples tell what both see.
	sampler := b
	if sameStrings(a.Syntax.Inputs(), b.Syntax.Inputs()) {
		sampler = a
	}
	out := v
	var added []string
	// baseShows holds, per base part, whether the models tell apart one
	// of its samples.
	baseShows := map[string]bool{}
	for _, p := range optParts {
		if p.has(v) {
			continue
		}
		if p.base != "" {
			bp := optPartNamed(p.base)
			if !bp.has(out) {
				// Its base reaches no root: neither does it.
				continue
			}
			shows, ok := baseShows[bp.name]
			if !ok {
				w := v
				bp.add(&w)
				shows = samplesSeparate(a, b, w, check, bp.feats)
				baseShows[bp.name] = shows
			}
			w := out
			p.add(&w)
			if !shows && samplesSeparate(a, b, w, check, p.shows) {
				p.add(&out)
				added = append(added, p.name)
			}
			continue
		}
		w := v
		p.add(&w)
		if p.proxy != program.Generic {
			// Sample this proxy alone: the others are parts of their own.
			w.Proxies = []program.Proxy{p.proxy}
		}
		sc := &screen{o: Options{A: a, B: sampler, Vocabulary: w, Check: check}, all: base.all}
		extra := map[string]bool{}
		fs := p.feats
		if len(samplePlaces(w)) != len(samplePlaces(v)) {
			// The part places threads anew: loads and stores there too.
			fs = append([]feature{0}, fs...)
		}
		for _, f := range fs {
			for in := range sc.filled(sc.samples(f)) {
				if !filled[in] {
					extra[in] = true
				}
			}
		}
		if len(extra) > 0 && reachesRoots(a, b, before, emptyWithout(extra)) {
			p.add(&out)
			added = append(added, p.name)
		}
	}
	return out, added, base
}

// samplesSeparate reports whether the models disagree on an outcome of
// some sample of the features fs under vocabulary v.
func samplesSeparate(a, b *checker.Model, v Vocabulary, check checker.Options, fs []feature) bool {
	sc := &screen{o: Options{A: a, B: b, Vocabulary: v, Check: check}}
	e := &evaluator{ctx: context.Background(), models: []*checker.Model{a, b}, opts: check, cache: map[string]*outcomes{}, evals: &atomic.Int64{}}
	for _, f := range fs {
		for _, t := range sc.samples(f) {
			if o := e.outcomes(t); o.err == nil && o.separates() {
				return true
			}
		}
	}
	return false
}

// has reports whether v already holds the part.
func (p optPart) has(v Vocabulary) bool {
	w := v
	p.add(&w)
	return len(w.Fences) == len(v.Fences) && len(w.Proxies) == len(v.Proxies) && w.Barrier == v.Barrier &&
		w.ClusterBarrier == v.ClusterBarrier && w.Async == v.Async && w.TwoArrivals == v.TwoArrivals &&
		w.Remote == v.Remote && w.BulkStore == v.BulkStore && w.AsyncFence == v.AsyncFence
}

// reachesRoots reports whether emptying fewer inputs (after rather than
// before) changes the live definition, in either model, of a relation or
// axiom whose definition differs between the models.
func reachesRoots(a, b *checker.Model, before, after map[string]bool) bool {
	va, vb := newRuleView(a.Syntax, before), newRuleView(b.Syntax, before)
	wa, wb := newRuleView(a.Syntax, after), newRuleView(b.Syntax, after)
	for _, n := range differingRoots(wa, wb) {
		if va.text(n) != wa.text(n) || vb.text(n) != wb.text(n) {
			return true
		}
	}
	ca, cb := wa.axiomTexts(), wb.axiomTexts()
	pa, pb := va.axiomTexts(), vb.axiomTexts()
	for name := range union(ca, cb) {
		if ca[name] == cb[name] {
			continue
		}
		if ca[name] != pa[name] || cb[name] != pb[name] {
			return true
		}
	}
	return false
}

// differingRoots lists the named relations whose definitions differ
// between two views, sorted.
func differingRoots(va, vb *ruleView) []string {
	var out []string
	for n, r := range va.m.Relations {
		s := vb.m.Relations[n]
		if r.Generated || (s != nil && s.Generated) {
			continue
		}
		if s == nil || va.text(n) != vb.text(n) {
			out = append(out, n)
		}
	}
	for n, s := range vb.m.Relations {
		if !s.Generated && va.m.Relations[n] == nil {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// axiomTexts spells each axiom of a view by its kind and relation.
func (v *ruleView) axiomTexts() map[string]string {
	out := map[string]string{}
	for _, c := range v.m.Checks {
		if c.Mode != datalog.ModeAxiom {
			continue
		}
		out[c.Name] = fmt.Sprintf("%s %s", c.Kind, v.ref(c.Rel, nil, "check "+c.Name))
	}
	return out
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// sameStrings reports whether two lists hold the same strings.
func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}

// partFeatures are the features of the named opt-in parts.
func partFeatures(names []string) feature {
	var f feature
	for _, n := range names {
		for _, p := range optParts {
			if p.name == n {
				for _, x := range append(p.feats, p.shows...) {
					f |= x
				}
			}
		}
	}
	return f
}
