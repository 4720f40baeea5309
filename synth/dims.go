package synth

import (
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// A skeleton's operations are completed by choosing, for each, a value of
// each of its dimensions: its memory order, its scope and its dependency
// on the read before it. Each dimension is a chain from the weakest value
// to the strongest, so the choices form a lattice (the product of the
// chains) ordered by strength. (Which address an access uses is part of
// the skeleton: making an access use the other address makes it the same
// address as some accesses and a different one from others, so it is no
// step up or down in strength.)

// dimKind names what a dimension chooses.
type dimKind int

const (
	// dimSem is the memory order of a load, store or fence.
	dimSem dimKind = iota
	// dimAcq and dimRel are whether a read-modify-write acquires and
	// whether it releases (relaxed, acquire, release, acq_rel).
	dimAcq
	dimRel
	// dimScope is the scope of a strong operation.
	dimScope
	// dimDep is the dependency on the nearest read before: none, then a
	// data or a control dependency (a dimension offering both is split
	// into two chains before the search: depChains).
	dimDep
)

// dim is one dimension of one operation: its values, weakest first.
type dim struct {
	thread, pos int
	kind        dimKind
	sems        []program.Sem
	scopes      []program.Scope
	deps        []program.Dep
	// bits, when set, are the values of a dimAcq or dimRel dimension cut
	// to one (monotone.go); nil is both, false first.
	bits []bool
	// cut says the dimension is part of a chain cut where a model may
	// allow more with the stronger value (monotone.go).
	cut bool
}

// size is the number of values of the dimension.
func (d dim) size() int {
	switch d.kind {
	case dimSem:
		return len(d.sems)
	case dimScope:
		return len(d.scopes)
	case dimDep:
		return len(d.deps)
	}
	if d.bits != nil {
		return len(d.bits)
	}
	return 2
}

// on is the value v of a dimAcq or dimRel dimension.
func (d dim) on(v int) bool {
	if d.bits != nil {
		return d.bits[v]
	}
	return v == 1
}

// slice is the dimension with its values from index from to index to
// (excluded).
func (d dim) slice(from, to int) dim {
	d.cut = true
	switch d.kind {
	case dimSem:
		d.sems = d.sems[from:to]
	case dimScope:
		d.scopes = d.scopes[from:to]
	case dimDep:
		d.deps = d.deps[from:to]
	default:
		bits := d.bits
		if bits == nil {
			bits = []bool{false, true}
		}
		d.bits = bits[from:to]
	}
	return d
}

// values spells the dimension's values.
func (d dim) values() string {
	return fmt.Sprint(d.kind, d.sems, d.scopes, d.deps, d.bits)
}

// dims lists the dimensions of a skeleton's operations under a
// vocabulary, thread by thread.
func (s *skeleton) dims(v Vocabulary) []dim {
	var out []dim
	for t, th := range s.threads {
		for k, sl := range th {
			add := func(d dim) {
				d.thread, d.pos = t, k
				if d.size() > 1 {
					out = append(out, d)
				}
			}
			generic := sl.proxy == program.Generic
			switch {
			case !generic:
				// An access through another proxy is weak (suld,
				// sust, tld, cold take no order or scope); a proxy
				// fence has neither.
			case sl.kind == program.Load:
				add(dim{kind: dimSem, sems: []program.Sem{program.Weak, program.Relaxed, program.Acquire}})
			case sl.kind == program.Store:
				add(dim{kind: dimSem, sems: []program.Sem{program.Weak, program.Relaxed, program.Release}})
			case sl.kind == program.RMW:
				add(dim{kind: dimAcq})
				add(dim{kind: dimRel})
			case sl.kind == program.Fence:
				if sl.fence == program.Weak {
					add(dim{kind: dimSem, sems: chainFences(v.Fences)})
				}
			case sl.kind == program.ClusterBarrier:
				add(dim{kind: dimSem, sems: []program.Sem{program.Relaxed, program.Release}})
			case sl.kind == program.MbarArrive:
				add(dim{kind: dimSem, sems: []program.Sem{program.Relaxed, program.Release}})
				if v.Remote && s.remoteArrive(t, k) {
					// A remote arrive's scope: .cta, which its
					// .cluster wait does not synchronize with, or
					// .cluster.
					add(dim{kind: dimScope, scopes: []program.Scope{program.CTA, program.Cluster}})
				}
			case sl.kind == program.MbarWait:
				add(dim{kind: dimSem, sems: []program.Sem{program.Relaxed, program.Acquire}})
			}
			// mbarrier operations keep their .cta scope; a bulk load's
			// arrive and complete-tx have theirs.
			if generic && sl.kind != program.AliasFence && !sl.kind.Barrier() && !asyncKind(sl.kind) && sl.kind != program.BulkStore {
				add(dim{kind: dimScope, scopes: v.Scopes})
			}
			if sl.kind.Memory() {
				if nearestRead(th, k) >= 0 {
					deps := []program.Dep{program.NoDep}
					for _, d := range []program.Dep{program.Data, program.Ctrl} {
						if hasDep(v.Deps, d) && (d != program.Data || sl.kind.Writes()) {
							deps = append(deps, d)
						}
					}
					add(dim{kind: dimDep, deps: deps})
				}
			}
		}
	}
	return out
}

func hasDep(ds []program.Dep, d program.Dep) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// chainFences orders the fences of the vocabulary a chain covers:
// acq_rel, then sc (fence.acquire and fence.release are kinds of their
// own, which no chain orders against each other).
func chainFences(fs []program.Sem) []program.Sem {
	var out []program.Sem
	for _, f := range []program.Sem{program.AcqRel, program.SC} {
		if hasSem(fs, f) {
			out = append(out, f)
		}
	}
	return out
}

func hasSem(ss []program.Sem, s program.Sem) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// point is a choice of a value for each dimension (indices into the
// dimensions' values).
type point []int

// leq reports whether p is at most as strong as q in every dimension.
func (p point) leq(q point) bool {
	for i := range p {
		if p[i] > q[i] {
			return false
		}
	}
	return true
}

func (p point) key() string { return fmt.Sprint([]int(p)) }

// locationNames names the locations of a synthesized test.
var locationNames = []string{"x", "y", "z", "a", "b", "c", "d", "e"}

// test builds the program of a skeleton under a choice of its
// dimensions (ds, from s.dims(v)): every write a distinct value (1, 2, ... per location, in
// thread order), every register and every location written twice or more
// observed.
func (s *skeleton) test(v Vocabulary, ds []dim, p point) *program.Test {
	t := &program.Test{Name: "Synth", Quantifier: "exists"}
	for l := 0; l < s.nlocs; l++ {
		t.Addrs = append(t.Addrs, program.Addr{Name: locationNames[l], AliasOf: -1})
	}
	mbars := s.mbarAddrs(t)
	// Each operation starts at its weakest and takes its dimensions'
	// values.
	ops := make([][]program.Op, len(s.threads))
	var cluster [][2]int // remote arrives and their waits: scope kept
	for th, ss := range s.threads {
		for k, sl := range ss {
			op := program.Op{Kind: sl.kind, Addr: sl.loc}
			switch sl.kind {
			case program.RMW:
				op.Sem = program.Relaxed
			case program.Fence:
				// A fence of the chain starts at the chain's weakest
				// order: acq_rel, or sc where the vocabulary has only
				// fence.sc (then it has no dimension).
				op.Sem = program.AcqRel
				if cf := chainFences(v.Fences); len(cf) > 0 {
					op.Sem = cf[0]
				}
				if sl.fence != program.Weak {
					op.Sem = sl.fence
				}
			case program.ClusterBarrier:
				op.Sem = program.Relaxed
			case program.MbarArrive, program.MbarWait:
				op.Sem, op.Addr = program.Relaxed, mbars[sl.bar]
				op.Guard = sl.kind == program.MbarWait
			case program.BulkLoad:
				op.Bar, op.Arm = mbars[sl.bar], true
				t.Addrs[sl.loc].Space = program.Shared
			case program.BulkStore:
				t.Addrs[sl.loc].Space = program.Shared
			}
			switch {
			case v.Remote && s.remoteArrive(th, k):
				op.Remote, op.CTA, op.Scope = true, s.places[waitThreads(s.threads)[sl.bar]].CTA, program.CTA
				cluster = append(cluster, [2]int{th, k})
			case v.Remote && s.remoteWait(th, k):
				op.Scope = program.Cluster
				cluster = append(cluster, [2]int{th, k})
			}
			switch {
			case sl.kind == program.ProxyFence:
				op.Proxy = sl.proxy
			case sl.proxy != program.Generic:
				op.Addr = t.ProxyRef(sl.loc, sl.proxy)
			case sl.alias:
				op.Addr = t.Alias(sl.loc)
			}
			ops[th] = append(ops[th], op)
		}
	}
	var acq, rel = map[[2]int]bool{}, map[[2]int]bool{}
	for i, d := range ds {
		op := &ops[d.thread][d.pos]
		v := p[i]
		switch d.kind {
		case dimSem:
			op.Sem = d.sems[v]
		case dimAcq:
			acq[[2]int{d.thread, d.pos}] = d.on(v)
		case dimRel:
			rel[[2]int{d.thread, d.pos}] = d.on(v)
		case dimScope:
			op.Scope = d.scopes[v]
		case dimDep:
			op.Dep = d.deps[v]
			op.From = nearestRead(s.threads[d.thread], d.pos)
		}
	}
	// With one scope in the vocabulary there is no scope dimension.
	scope := v.Scopes[0]
	for th := range ops {
		for k := range ops[th] {
			op := &ops[th][k]
			switch {
			case op.Kind == program.RMW:
				a, r := acq[[2]int{th, k}], rel[[2]int{th, k}]
				switch {
				case a && r:
					op.Sem = program.AcqRel
				case a:
					op.Sem = program.Acquire
				case r:
					op.Sem = program.Release
				}
			case op.Sem == program.Weak:
				op.Scope = program.NoScope
			}
			switch {
			case op.Kind == program.AliasFence || op.Kind == program.ProxyFence || op.Kind == program.Barrier:
				op.Sem, op.Scope = program.Weak, program.NoScope
			case (op.Kind == program.ClusterBarrier || asyncKind(op.Kind)) && !hasPos(cluster, th, k):
				op.Scope = program.NoScope
			case op.Sem != program.Weak && op.Scope == program.NoScope:
				op.Scope = scope
			}
		}
	}
	values := map[int]int64{}
	for th := range ops {
		for k := range ops[th] {
			op := &ops[th][k]
			if op.Kind.Writes() {
				loc := op.Addr
				if a := t.Addrs[loc].AliasOf; a >= 0 {
					loc = a
				}
				values[loc]++
				op.Value = values[loc]
			}
		}
		for k := range ops[th] {
			if op := &ops[th][k]; op.Kind == program.BulkLoad {
				// The copy's source holds the value it writes.
				op.Src = t.AddAddr(program.Addr{Name: fmt.Sprintf("%s_src%d", t.Addrs[op.Addr].Name, op.Value), Init: op.Value})
			}
		}
		place := program.Place{CTA: th, Cluster: -1}
		if s.places != nil {
			place = s.places[th]
		}
		t.Threads = append(t.Threads, program.Thread{Place: place, Ops: ops[th]})
	}
	for th := range ops {
		for k, op := range ops[th] {
			if op.Kind.Reads() {
				t.Observe = append(t.Observe, program.Pin{Thread: th, Op: k})
			}
		}
	}
	for l := 0; l < s.nlocs; l++ {
		if values[l] >= 2 {
			t.Observe = append(t.Observe, program.Pin{Thread: -1, Addr: l})
		}
	}
	s.bulkStores(t)
	return t
}

// bulkStores gives each bulk store of a test its destination, a global
// location of its own starting at 0, and observes its final value: the
// value the store read.
func (s *skeleton) bulkStores(t *program.Test) {
	n := 0
	for th := range t.Threads {
		for k := range t.Threads[th].Ops {
			op := &t.Threads[th].Ops[k]
			if op.Kind != program.BulkStore {
				continue
			}
			op.Dst = t.AddAddr(program.Addr{Name: fmt.Sprintf("%s_dst%d", t.Addrs[op.Addr].Name, n)})
			n++
			t.Observe = append(t.Observe, program.Pin{Thread: -1, Addr: op.Dst})
		}
	}
}

// hasPos reports whether ps holds position (th, k).
func hasPos(ps [][2]int, th, k int) bool {
	for _, p := range ps {
		if p == [2]int{th, k} {
			return true
		}
	}
	return false
}

// mbarAddrs declares the skeleton's mbarriers (mb0, mb1, ... in order of
// first use, expecting one arrival per producer) and returns their addresses by mbarrier
// number.
func (s *skeleton) mbarAddrs(t *program.Test) map[int]int {
	out := map[int]int{}
	counts := producerCounts(s.threads)
	for _, th := range s.threads {
		for _, sl := range th {
			if !asyncKind(sl.kind) {
				continue
			}
			if _, ok := out[sl.bar]; !ok {
				out[sl.bar] = t.AddAddr(program.Addr{Name: fmt.Sprintf("mb%d", len(out)), Space: program.Mbarrier, Count: counts[sl.bar]})
			}
		}
	}
	return out
}
