package synth

import (
	"reflect"
	"sync"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/program"
	"github.com/ptxmm/ptxmm/rules"
)

// A skeleton can separate the models only if they differ on executions
// with the features it has. The features are the kinds of operations
// beyond loads and stores, the dependencies an access may have, and the
// second addresses of locations; each lets some input relations of the
// models hold tuples that are otherwise empty. Which relations, is found
// by filling the models' inputs for small programs with each feature, so
// that the screen follows the catalog rather than a list kept by hand.

// feature is a bit of a feature set.
type feature uint

const (
	featRMW feature = 1 << iota
	featFence
	featAliasFence
	featAlias
	featCtrl
	featData
	featAcqFence
	featRelFence
	featBarrier
	featClusterBarrier
	featProxy
	featProxyFence
	// featFenceAcqRel and featFenceSC tell the orders of a chain fence
	// apart (featFence is either): a program has one or the other, a
	// skeleton's box of choices may have both (programFeatures).
	featFenceAcqRel
	featFenceSC
	// featMbar is an mbarrier arrive and wait pair, featBulk a bulk load
	// (TMA) completing on the mbarrier of a wait.
	featMbar
	featBulk
	// featRemote is an arrive from another CTA of its wait's cluster,
	// featBulkStore a bulk store, featAsyncFence fence.proxy.async
	// (async2.go).
	featRemote
	featBulkStore
	featAsyncFence
)

// screen remembers, per feature set, whether the models can disagree on
// a program with those features.
type screen struct {
	o Options
	// inputs lists the inputs some program with the feature fills that
	// no program without it does; base those plain loads and stores fill.
	inputs map[feature]map[string]bool
	base   map[string]bool
	all    []string
	mu     sync.Mutex
	cache  map[feature]bool
	// sampled is set once the features are sampled (withFeatures).
	sampled bool
}

// newScreen samples the inputs each feature fills.
func newScreen(o Options) *screen { return newPlainScreen(o).withFeatures() }

// reuse returns sc, with its features sampled, when it was sampled for
// o's models and vocabulary (Derive's), and else a new screen for o.
func (sc *screen) reuse(o Options) *screen {
	if sc == nil || sc.o.A != o.A || sc.o.B != o.B || !reflect.DeepEqual(sc.o.Vocabulary, o.Vocabulary) {
		return newScreen(o)
	}
	if !sc.sampled {
		sc.withFeatures()
	}
	return sc
}

// withFeatures samples, on a plain screen, the inputs each feature of its
// vocabulary fills.
func (sc *screen) withFeatures() *screen {
	o := sc.o
	fs := []feature{featRMW, featFence, featAcqFence, featRelFence, featAliasFence, featAlias, featCtrl, featData}
	for _, f := range []program.Sem{program.AcqRel, program.SC} {
		if hasSem(o.Vocabulary.Fences, f) {
			fs = append(fs, fenceFeature(f))
		}
	}
	// No skeleton has a barrier the vocabulary lacks: sampling one
	// would only cost time.
	if o.Vocabulary.Barrier {
		fs = append(fs, featBarrier)
	}
	if o.Vocabulary.ClusterBarrier {
		fs = append(fs, featClusterBarrier)
	}
	if len(o.Vocabulary.Proxies) > 0 {
		fs = append(fs, featProxy, featProxyFence)
	}
	if o.Vocabulary.Async {
		fs = append(fs, featMbar, featBulk)
	}
	if o.Vocabulary.Remote {
		fs = append(fs, featRemote)
	}
	if o.Vocabulary.BulkStore {
		fs = append(fs, featBulkStore)
	}
	if o.Vocabulary.AsyncFence {
		fs = append(fs, featAsyncFence)
	}
	for _, f := range fs {
		in := map[string]bool{}
		for k := range sc.filled(sc.samples(f)) {
			if !sc.base[k] {
				in[k] = true
			}
		}
		sc.inputs[f] = in
	}
	sc.sampled = true
	return sc
}

// newPlainScreen samples the inputs loads and stores fill, and no
// feature: enough for separable(0).
func newPlainScreen(o Options) *screen {
	sc := &screen{o: o, inputs: map[feature]map[string]bool{}, cache: map[feature]bool{}}
	seen := map[string]bool{}
	for _, m := range []*checker.Model{o.A, o.B} {
		for _, in := range m.Syntax.Inputs() {
			if !seen[in] {
				seen[in] = true
				sc.all = append(sc.all, in)
			}
		}
	}
	sc.base = sc.filled(sc.samples(0))
	return sc
}

// samples builds small programs with a feature (or, for 0, plain loads
// and stores), each memory order and scope of the vocabulary in some.
func (sc *screen) samples(f feature) []*program.Test {
	v := Vocabulary{Scopes: sc.o.Vocabulary.Scopes}
	r := func(loc int) slot { return slot{kind: program.Load, loc: loc} }
	w := func(loc int) slot { return slot{kind: program.Store, loc: loc} }
	u := func(loc int) slot { return slot{kind: program.RMW, loc: loc} }
	fence := func(sem program.Sem) slot { return slot{kind: program.Fence, fence: sem} }
	second := func(s slot) slot { s.alias = true; return s }
	var th [][]slot
	var proxied [][][]slot // samples of proxies, one per proxy
	for _, p := range sc.o.Vocabulary.Proxies {
		via := func(s slot) slot { s.proxy = p; return s }
		pf := slot{kind: program.ProxyFence, proxy: p}
		w0 := w(0)
		if proxyAccess(program.Store, p) {
			w0 = via(w0)
		}
		switch f {
		case featProxy:
			proxied = append(proxied, [][]slot{{w0, via(r(0))}, {w(0), via(r(0)), r(0)}})
		case featProxyFence:
			proxied = append(proxied, [][]slot{{w0, pf, r(0)}, {w(0), pf, via(r(0))}})
		}
	}
	switch f {
	case 0:
		th = [][]slot{{w(0), w(1)}, {r(1), r(0)}}
	case featRMW:
		v.RMW = true
		th = [][]slot{{u(0), w(1)}, {r(1), u(0)}}
	case featFence:
		v.Fences = []program.Sem{program.AcqRel, program.SC}
		th = [][]slot{{w(0), fence(0), w(1)}, {r(1), fence(0), r(0)}}
	case featFenceAcqRel, featFenceSC:
		v.Fences = []program.Sem{program.AcqRel}
		if f == featFenceSC {
			v.Fences = []program.Sem{program.SC}
		}
		th = [][]slot{{w(0), fence(0), w(1)}, {r(1), fence(0), r(0)}}
	case featAcqFence, featRelFence:
		sem := program.Acquire
		if f == featRelFence {
			sem = program.Release
		}
		th = [][]slot{{w(0), fence(sem), w(1)}, {r(1), fence(sem), r(0)}}
	case featAliasFence:
		v.Alias = true
		th = [][]slot{{w(0), {kind: program.AliasFence}, second(r(0))}}
	case featAlias:
		v.Alias = true
		th = [][]slot{{w(0), second(r(0))}, {second(w(0)), r(0)}}
	case featCtrl, featData:
		v.Deps = []program.Dep{program.Ctrl}
		if f == featData {
			v.Deps = []program.Dep{program.Data}
		}
		th = [][]slot{{r(0), w(1)}, {r(1), w(0)}}
	case featBarrier:
		v.Barrier = true
		th = [][]slot{{w(0), {kind: program.Barrier}, w(1)}, {r(1), {kind: program.Barrier}, r(0)}}
	case featClusterBarrier:
		v.ClusterBarrier = true
		th = [][]slot{{w(0), {kind: program.ClusterBarrier}, w(1)}, {r(1), {kind: program.ClusterBarrier}, r(0)}}
	case featMbar:
		v.Async = true
		th = [][]slot{{w(0), w(1), {kind: program.MbarArrive}}, {{kind: program.MbarWait}, r(1), r(0)}}
	case featBulk:
		v.Async = true
		th = [][]slot{{w(1), {kind: program.BulkLoad, loc: 0}}, {{kind: program.MbarWait}, r(0), r(1)}}
	}
	sk := &skeleton{threads: th, nlocs: 2}
	if f == featAliasFence {
		sk.nlocs = 1
	}
	places := samplePlaces(sc.o.Vocabulary)
	if f == featBarrier || f == featClusterBarrier || f == featMbar || f == featBulk {
		// Only threads that share a CTA (or a cluster) meet.
		places = sharedPlaces()
	}
	var out []*program.Test
	out = append(out, sc.asyncSamples(f)...)
	if f == featRemote || f == featBulkStore || f == featAsyncFence {
		return out
	}
	for _, ps := range places {
		sk.places = ps
		if th != nil {
			out = append(out, sampleTests(sk, v)...)
		}
		for _, th := range proxied {
			out = append(out, sampleTests(&skeleton{threads: th, nlocs: 1, places: ps}, v)...)
		}
	}
	return out
}

// sharedPlaces places two threads in one CTA, and in two CTAs of one
// cluster.
func sharedPlaces() [][]program.Place {
	return [][]program.Place{{{Cluster: 0}, {Cluster: 0}}, {{Cluster: 0}, {CTA: 1, Cluster: 0}}}
}

// samplePlaces lists placements of two threads for the samples: each in a
// CTA of its own, and, where the vocabulary places threads so, both in
// one CTA of one cluster and each on a GPU of its own (an input of a model
// might be filled only when threads share a CTA).
func samplePlaces(v Vocabulary) [][]program.Place {
	out := [][]program.Place{nil}
	if v.shareCTA() || v.shareCluster() {
		out = append(out, sharedPlaces()...)
	}
	if v.multiGPU() {
		out = append(out, []program.Place{{Cluster: -1}, {GPU: 1, Cluster: -1}})
	}
	return out
}

// sampleTests builds a sample skeleton's programs: the weakest, and each
// value of each dimension with the others at their strongest.
func sampleTests(sk *skeleton, v Vocabulary) []*program.Test {
	ds := sk.dims(v)
	top := make(point, len(ds))
	for i, d := range ds {
		top[i] = d.size() - 1
	}
	out := []*program.Test{sk.test(v, ds, make(point, len(ds)))}
	for i, d := range ds {
		for x := 0; x < d.size(); x++ {
			p := append(point(nil), top...)
			p[i] = x
			out = append(out, sk.test(v, ds, p))
		}
	}
	return out
}

// features lists what the skeleton's programs between points lo and hi
// may have (with nil points, what all its programs may have).
func (s *skeleton) features(ds []dim, lo, hi point) feature {
	var f feature
	for t, th := range s.threads {
		for k, sl := range th {
			switch {
			case sl.kind == program.RMW:
				f |= featRMW
			case sl.kind == program.AliasFence:
				f |= featAliasFence
			case sl.kind == program.Fence && sl.fence == program.Acquire:
				f |= featAcqFence
			case sl.kind == program.Fence && sl.fence == program.Release:
				f |= featRelFence
			case sl.kind == program.Fence:
				f |= s.fenceFeatures(ds, lo, hi, t, k)
			case sl.kind == program.Barrier:
				f |= featBarrier
			case sl.kind == program.ClusterBarrier:
				f |= featClusterBarrier
			case sl.kind == program.ProxyFence && sl.proxy == program.Async:
				f |= featAsyncFence
			case sl.kind == program.ProxyFence:
				f |= featProxyFence
			case isMbar(sl.kind):
				f |= featMbar
				if s.remoteArrive(t, k) {
					f |= featRemote
				}
			case sl.kind == program.BulkStore:
				f |= featBulkStore
			case sl.kind == program.BulkLoad:
				f |= featBulk
			}
			if sl.kind.Memory() && sl.proxy != program.Generic {
				f |= featProxy
			}
			if sl.alias {
				f |= featAlias
			}
		}
	}
	for i, d := range ds {
		if d.kind == dimDep {
			deps := d.deps
			if lo != nil {
				deps = deps[lo[i] : hi[i]+1]
			}
			for _, dep := range deps {
				switch dep {
				case program.Ctrl:
					f |= featCtrl
				case program.Data:
					f |= featData
				}
			}
		}
	}
	return f
}

// fenceFeatures is the feature of the chain fence at thread t, position
// k: featFence, or, where its chain is cut because a model may allow more
// with fence.sc than with fence.acq_rel (monotone.go), the features of
// its orders between lo and hi. (Telling the orders apart everywhere
// would change which boxes the search splits, and so the order of the
// tests it finds, for every model.)
func (s *skeleton) fenceFeatures(ds []dim, lo, hi point, t, k int) feature {
	for i, d := range ds {
		if d.thread != t || d.pos != k || d.kind != dimSem || !d.cut {
			continue
		}
		sems := d.sems
		if lo != nil {
			sems = sems[lo[i] : hi[i]+1]
		}
		var f feature
		for _, sem := range sems {
			f |= fenceFeature(sem)
		}
		return f
	}
	return featFence
}

// fenceFeature is the feature of a chain fence of order sem.
func fenceFeature(sem program.Sem) feature {
	if sem == program.SC {
		return featFenceSC
	}
	return featFenceAcqRel
}

// programFeatures lists what one program has, as features does for a
// skeleton's programs, with its chain fences' orders told apart.
func programFeatures(t *program.Test) feature {
	var f feature
	for _, th := range t.Threads {
		for _, op := range th.Ops {
			switch op.Kind {
			case program.RMW:
				f |= featRMW
			case program.AliasFence:
				f |= featAliasFence
			case program.Barrier:
				f |= featBarrier
			case program.ClusterBarrier:
				f |= featClusterBarrier
			case program.ProxyFence:
				if op.Proxy == program.Async {
					f |= featAsyncFence
				} else {
					f |= featProxyFence
				}
			case program.MbarArrive, program.MbarWait:
				f |= featMbar
				if op.Remote {
					f |= featRemote
				}
			case program.BulkStore:
				f |= featBulkStore
			case program.BulkLoad:
				f |= featBulk
			case program.Fence:
				switch op.Sem {
				case program.Acquire:
					f |= featAcqFence
				case program.Release:
					f |= featRelFence
				default:
					f |= fenceFeature(op.Sem)
				}
			}
			if op.Kind.Memory() {
				switch a := t.Addrs[op.Addr]; {
				case a.Proxy != program.Generic:
					f |= featProxy
				case a.AliasOf >= 0:
					f |= featAlias
				}
			}
			switch op.Dep {
			case program.Ctrl:
				f |= featCtrl
			case program.Data:
				f |= featData
			}
		}
	}
	return f
}

// agree reports whether the models surely agree on every execution of
// program t: the evaluator then checks it with one of them.
func (sc *screen) agree(t *program.Test) bool {
	f := programFeatures(t)
	for _, g := range []feature{featFenceAcqRel, featFenceSC} {
		if f&g != 0 && sc.inputs[g] == nil {
			// Not sampled (no such fence in the vocabulary): say
			// nothing.
			return false
		}
	}
	return !sc.separable(f)
}

// filled lists the inputs some candidate execution of the programs fills.
func (sc *screen) filled(ts []*program.Test) map[string]bool {
	out := map[string]bool{}
	for _, t := range ts {
		lt, err := parse(t)
		if err != nil {
			continue
		}
		for i, m := range []*checker.Model{sc.o.A, sc.o.B} {
			if i == 1 && m == sc.o.A {
				break
			}
			cands, _ := m.Candidates(lt, sc.o.Check, 4)
			for _, c := range cands {
				// A candidate the catalog cannot fill adds nothing.
				_ = m.EachInputs([]checker.Candidate{c}, func(inst *rules.Instance) {
					for _, in := range sc.all {
						if n, err := inst.Size(in); err == nil && n > 0 {
							out[in] = true
						}
					}
				})
			}
		}
	}
	return out
}

// separable reports whether the models may disagree on a program with
// the features fs.
func (sc *screen) separable(fs feature) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if v, ok := sc.cache[fs]; ok {
		return v
	}
	v := !equivalent(sc.o.A.Syntax, sc.o.B.Syntax, sc.emptyInputs(fs))
	sc.cache[fs] = v
	return v
}

// emptyInputs lists the inputs no program with the features fs fills:
// those neither plain loads and stores nor any of the features fill in
// the samples.
func (sc *screen) emptyInputs(fs feature) map[string]bool {
	empty := map[string]bool{}
	for _, in := range sc.all {
		empty[in] = !sc.base[in]
	}
	for f, ins := range sc.inputs {
		if fs&f != 0 {
			for in := range ins {
				empty[in] = false
			}
		}
	}
	return empty
}
