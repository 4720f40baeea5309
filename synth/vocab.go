package synth

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Vocabulary is what the tests are made of: loads and stores always, and
// the optional operations and features below. Every strong operation takes
// one of Scopes. Where the threads run follows from the scopes and
// barriers (placements): each thread in a CTA of its own on one GPU, and
// besides, threads sharing a CTA with .cta scope or CTA barriers, CTAs
// sharing a cluster with .cluster scope or cluster barriers, and threads
// on several GPUs with .sys scope.
type Vocabulary struct {
	Scopes []program.Scope
	// RMW adds atom.exch in every memory order.
	RMW bool
	// Fences are the memory orders of fences (SC, AcqRel, Acquire,
	// Release).
	Fences []program.Sem
	// Deps are the dependencies an access may have on the nearest read
	// before it in its thread.
	Deps []program.Dep
	// Alias lets a location be accessed through a second virtual address,
	// with the alias proxy fence.
	Alias bool
	// Barrier adds the CTA barrier bar.sync; ClusterBarrier the cluster
	// barrier (barrier.cluster.arrive, .relaxed or not, then
	// barrier.cluster.wait).
	Barrier, ClusterBarrier bool
	// Proxies are the proxies (surface, texture, constant) whose
	// references of a location an access may use (loads through each,
	// stores through the surface proxy), with their proxy fences.
	Proxies []program.Proxy
	// Async adds the asynchronous operations (async.go): an mbarrier
	// arrive (relaxed or release) in one thread paired with a guarded
	// wait (relaxed or acquire) in another of its CTA, and a bulk load
	// (TMA) into shared memory that arms the mbarrier a wait tests.
	Async bool
	// TwoArrivals lets an mbarrier expect two arrivals (async2.go): two
	// producers, each in a thread other than its wait's, complete its
	// phase, and the wait observes both through their chain.
	TwoArrivals bool
	// Remote lets an arrive run in another CTA of its wait's cluster: it
	// arrives on the wait's copy of the mbarrier through the address mapa
	// gives, with .cta or .cluster scope, and its wait is .cluster.
	Remote bool
	// BulkStore adds the bulk store cp.async.bulk.global.shared::cta
	// (async2.go): it reads a location in shared memory through the
	// async proxy and writes its value to a global location of its own,
	// committed and waited for at once.
	BulkStore bool
	// AsyncFence adds fence.proxy.async, in shapes with an access through
	// the async proxy (a bulk load's write or a bulk store's read).
	AsyncFence bool
}

// shareCTA reports whether threads may share a CTA: where a .cta scope, a
// CTA barrier or a proxy other than the generic one can tell it (a proxy
// orders its own accesses to an address within a CTA, 8.9.5 item 2).
func (v Vocabulary) shareCTA() bool {
	return v.Barrier || v.Async || v.BulkStore || len(v.Proxies) > 0 || hasScope(v.Scopes, program.CTA)
}

// shareCluster reports whether CTAs may share a cluster.
func (v Vocabulary) shareCluster() bool {
	return v.ClusterBarrier || v.Remote || hasScope(v.Scopes, program.Cluster)
}

// multiGPU reports whether threads may run on different GPUs.
func (v Vocabulary) multiGPU() bool { return hasScope(v.Scopes, program.Sys) }

func hasScope(ss []program.Scope, s program.Scope) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// features are the items of a vocabulary list, with what each adds.
var features = []struct{ name, doc string }{
	{"atom", "atom.exch in every memory order"},
	{"fence.sc", "fence.sc"},
	{"fence.acq_rel", "fence.acq_rel"},
	{"fence.acquire", "fence.acquire"},
	{"fence.release", "fence.release"},
	{"data", "data dependencies on an earlier read"},
	{"ctrl", "control dependencies on an earlier read"},
	{"alias", "a second virtual address of a location, and fence.proxy.alias"},
	{"bar.sync", "the CTA barrier, between threads of one CTA"},
	{"barrier.cluster", "the cluster barrier (arrive, relaxed or release, then wait), between threads of one cluster"},
	{"surface", "suld and sust through a surface reference of a location, and fence.proxy.surface"},
	{"texture", "tld through a texture reference of a location, and fence.proxy.texture"},
	{"constant", "cold through a constant reference of a location, and fence.proxy.constant"},
	{"async", "mbarrier arrive and guarded wait pairs between threads of one CTA, and TMA loads into shared memory completing on the mbarrier of a wait"},
	{"mbarrier.two", "async, with mbarriers that expect two arrivals (two producers, one wait)"},
	{"mbarrier.remote", "async, with arrives from another CTA of the wait's cluster (mapa, .cta or .cluster scope)"},
	{"bulk.store", "bulk stores from shared to global memory (cp.async.bulk.global.shared::cta, committed and waited for)"},
	{"fence.proxy.async", "fence.proxy.async, with a bulk load or a bulk store"},
}

// DefaultFeatures is the vocabulary ptxmm diff -synth uses unless told.
const DefaultFeatures = "atom,fence.sc,fence.acq_rel,data,ctrl,alias"

// ParseVocabulary reads a comma-separated list of features (atom,
// fence.sc, fence.acq_rel, fence.acquire, fence.release, data, ctrl,
// alias, bar.sync, barrier.cluster, surface, texture, constant, async,
// mbarrier.two, mbarrier.remote, bulk.store, fence.proxy.async) and of
// scopes (cta, cluster, gpu, sys).
func ParseVocabulary(featureList, scopeList string) (Vocabulary, error) {
	var v Vocabulary
	for _, f := range strings.Split(featureList, ",") {
		switch f = strings.TrimSpace(f); f {
		case "":
		case "atom":
			v.RMW = true
		case "fence.sc":
			v.Fences = append(v.Fences, program.SC)
		case "fence.acq_rel":
			v.Fences = append(v.Fences, program.AcqRel)
		case "fence.acquire":
			v.Fences = append(v.Fences, program.Acquire)
		case "fence.release":
			v.Fences = append(v.Fences, program.Release)
		case "data":
			v.Deps = append(v.Deps, program.Data)
		case "ctrl":
			v.Deps = append(v.Deps, program.Ctrl)
		case "alias":
			v.Alias = true
		case "bar.sync":
			v.Barrier = true
		case "barrier.cluster":
			v.ClusterBarrier = true
		case "surface":
			v.Proxies = append(v.Proxies, program.Surface)
		case "texture":
			v.Proxies = append(v.Proxies, program.Texture)
		case "constant":
			v.Proxies = append(v.Proxies, program.Constant)
		case "async":
			v.Async = true
		case "mbarrier.two":
			v.Async, v.TwoArrivals = true, true
		case "mbarrier.remote":
			v.Async, v.Remote = true, true
		case "bulk.store":
			v.BulkStore = true
		case "fence.proxy.async":
			v.AsyncFence = true
		default:
			var names []string
			for _, x := range features {
				names = append(names, x.name)
			}
			return v, fmt.Errorf("-vocab %s: unknown feature; expected some of %s", f, strings.Join(names, ", "))
		}
	}
	for _, s := range strings.Split(scopeList, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		sc, err := program.ParseScope(s)
		if err != nil {
			return v, fmt.Errorf("-scopes: %v", err)
		}
		v.Scopes = append(v.Scopes, sc)
	}
	if len(v.Scopes) == 0 {
		return v, fmt.Errorf("-scopes: give at least one scope (cta, cluster, gpu, sys)")
	}
	sort.Slice(v.Scopes, func(i, j int) bool { return v.Scopes[i] < v.Scopes[j] })
	v.Scopes = compactScopes(v.Scopes)
	sort.Slice(v.Fences, func(i, j int) bool { return v.Fences[i] < v.Fences[j] })
	sort.Slice(v.Proxies, func(i, j int) bool { return v.Proxies[i] < v.Proxies[j] })
	v.Proxies = compactProxies(v.Proxies)
	return v, nil
}

func compactProxies(s []program.Proxy) []program.Proxy {
	var out []program.Proxy
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// proxyAccess reports whether an access of kind k can go through proxy
// p: a load through every proxy, a store through the surface proxy (the
// texture and constant proxies only read), no read-modify-write.
func proxyAccess(k program.Kind, p program.Proxy) bool {
	switch k {
	case program.Load:
		return true
	case program.Store:
		return p == program.Surface
	}
	return false
}

func compactScopes(s []program.Scope) []program.Scope {
	var out []program.Scope
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// FeatureHelp describes the features for -vocab's help.
func FeatureHelp() string {
	var parts []string
	for _, f := range features {
		parts = append(parts, f.name+" ("+f.doc+")")
	}
	return strings.Join(parts, ", ")
}

// choice is one memory order and scope an operation may take.
type choice struct {
	sem   program.Sem
	scope program.Scope
}

// domain lists the choices of an operation of kind k, from the weakest,
// with the order between them; bottom and top are the least and greatest
// choices (-1 when there is none).
type domain struct {
	choices     []choice
	leq         [][]bool
	bottom, top int
}

// domainOf returns the choices of kind k under the vocabulary.
func (v Vocabulary) domainOf(k program.Kind) *domain {
	var cs []choice
	switch k {
	case program.Load, program.Store:
		cs = append(cs, choice{program.Weak, program.NoScope})
		strong := program.Acquire
		if k == program.Store {
			strong = program.Release
		}
		for _, sem := range []program.Sem{program.Relaxed, strong} {
			for _, s := range v.Scopes {
				cs = append(cs, choice{sem, s})
			}
		}
	case program.RMW:
		for _, sem := range []program.Sem{program.Relaxed, program.Acquire, program.Release, program.AcqRel} {
			for _, s := range v.Scopes {
				cs = append(cs, choice{sem, s})
			}
		}
	case program.Fence:
		for _, sem := range v.Fences {
			for _, s := range v.Scopes {
				cs = append(cs, choice{sem, s})
			}
		}
	default:
		cs = append(cs, choice{program.Weak, program.NoScope})
	}
	d := &domain{choices: cs, bottom: -1, top: -1}
	d.leq = make([][]bool, len(cs))
	for i := range cs {
		d.leq[i] = make([]bool, len(cs))
		for j := range cs {
			d.leq[i][j] = weaker(cs[i], cs[j])
		}
	}
	for i := range cs {
		below, above := true, true
		for j := range cs {
			below = below && d.leq[i][j]
			above = above && d.leq[j][i]
		}
		if below {
			d.bottom = i
		}
		if above {
			d.top = i
		}
	}
	return d
}

// semRank orders memory orders by strength; acquire and release are
// incomparable.
func semLeq(a, b program.Sem) bool {
	if a == b {
		return true
	}
	switch a {
	case program.Weak:
		return true
	case program.Relaxed:
		return b != program.Weak
	case program.Acquire, program.Release:
		return b == program.AcqRel || b == program.SC
	case program.AcqRel:
		return b == program.SC
	}
	return false
}

// weaker reports whether choice a is at most as strong as b: a weaker or
// equal memory order and a narrower or equal scope (a weak access has no
// scope and is weaker than every strong one).
func weaker(a, b choice) bool {
	if a.sem == program.Weak {
		return true
	}
	if b.sem == program.Weak {
		return false
	}
	return semLeq(a.sem, b.sem) && a.scope <= b.scope
}
