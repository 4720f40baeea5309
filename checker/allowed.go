package checker

import (
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// Why an outcome is allowed. With Options.Explain, each outcome that
// satisfies the test's condition (the ones a user asks about: for exists
// and ~exists those satisfying its proposition, for forall those
// contradicting it) keeps the first consistent execution that reaches it,
// and explainAllowed says, for each read of that execution, which write it
// reads from and, for each newer write of its location that nothing orders
// before the read, what was missing: a path of program order and
// reads-from that was meant to order them, the reads-from step of it that
// does not synchronize and why (no release pattern, no acquire pattern, an
// operation that is weak or whose scope leaves the other thread out,
// different proxies), a missing proxy fence, or a race.
//
// The reasons are read from the model's own relations (co, cause, sync,
// rel_pattern, acq_pattern, ms, strong, incl, same_proxy, cause_base,
// data_race): a model without one of them gets the explanation without
// that detail.

// Allowed is one allowed outcome and the execution that reaches it.
type Allowed struct {
	State State
	// Execution is that consistent execution (a clone), Finals the final
	// writes chosen for the observed locations.
	Execution *execution.Execution
	Finals    []int
	// Reads says where each read of the execution reads from, in event
	// order.
	Reads []ReadSource
}

// ReadSource is one read of an allowed execution and the write it reads.
type ReadSource struct {
	Read, Write int
	// Unordered are the writes of the read's location that coherence puts
	// after Write and that nothing orders before the read: the read could
	// have seen them, and does not have to.
	Unordered []Unordered
}

// Unordered explains why a newer write is not ordered before a read.
type Unordered struct {
	Write int
	// Path is the shortest chain of program order, reads-from and
	// synchronization from the write to the read (nil when there is none):
	// what a programmer meant to order them with.
	Path []rules.Edge
	// Hops are the reads-from steps of Path between threads that do not
	// synchronize, with the reasons.
	Hops []Hop
	// Unordering are the program-order steps of Path that the model's
	// base causality order leaves out (a relaxed arrive does not order
	// what precedes it, for instance).
	Unordering []rules.Edge
	// ProxyFence is set when base causality orders the write before the
	// read, but through different proxies and with no proxy fence.
	ProxyFence bool
	// Race is set when the model's data_race relates the two.
	Race bool
}

// Hop is a reads-from step, A -rf-> B between two threads, of a path that
// does not synchronize the part of the path before A with the part after
// B, and what keeps it from doing so.
type Hop struct {
	Write, Read int
	// NoRelease: no release pattern of the path's part in A's thread ends
	// at A. NoAcquire: none of the acquire patterns that start at B ends
	// in the path's part in B's thread.
	NoRelease, NoAcquire bool
	// Weak lists A or B when it is not a strong operation; OutOfScope
	// lists A or B when its scope does not include the other's thread;
	// OtherProxy is set when they access memory through different proxies.
	// Any of these keeps A and B from being morally strong.
	Weak, OutOfScope []int
	OtherProxy       bool
}

// explainsAllowed reports whether an allowed state is one the explanation
// is for: it satisfies the condition's proposition (exists, ~exists), or
// contradicts it (forall); for a .test file, it satisfies a permit or
// contradicts an assert.
func explainsAllowed(t *litmus.Test, obs []Observable, st State) bool {
	if c := t.Condition; c != nil {
		return evalExpr(c.Expr, obs, st) != (c.Kind == litmus.CondForall)
	}
	for _, a := range t.Assertions {
		if a.Kind != litmus.AssertCheck && evalExpr(a.Expr, obs, st) != (a.Kind == litmus.AssertAlways) {
			return true
		}
	}
	return false
}

// explainAllowed fills in the reads of the allowed outcomes kept.
func (r *modelRun) explainAllowed() {
	for i := range r.res.Allowed {
		a := &r.res.Allowed[i]
		if reads, err := r.m.AllowedReads(Candidate{Execution: a.Execution, Finals: a.Finals, Consistent: true}); err == nil {
			a.Reads = reads
		}
	}
}

// AllowedReads explains a consistent candidate as -explain explains an
// allowed outcome: where each read reads from, and what fails to order
// the newer writes it does not see (ptxmm graph and the page draw it).
func (m *Model) AllowedReads(c Candidate) ([]ReadSource, error) {
	inst, err := m.Instance(c)
	if err != nil {
		return nil, err
	}
	return readSources(c.Execution, inst), nil
}

// ReadSources explains the reads of a consistent execution from an
// instance holding it under a consistent choice of the orders (Instance).
func ReadSources(x *execution.Execution, inst *rules.Instance) []ReadSource {
	return readSources(x, inst)
}

// relView reads the relations of a consistent instance by name, answering
// false for a relation the model does not have.
type relView struct {
	inst *rules.Instance
	rels map[string]func(a, b int) bool
}

func (v *relView) has(name string, a, b int) bool {
	f, ok := v.rels[name]
	if !ok {
		f = func(int, int) bool { return false }
		if r, err := v.inst.Rel(name); err == nil {
			f = r.Has
		}
		v.rels[name] = f
	}
	return f(a, b)
}

// defines reports whether the model has a relation of that name.
func (v *relView) defines(name string) bool {
	_, err := v.inst.Rel(name)
	if err == nil {
		return true
	}
	_, err = v.inst.Set(name)
	return err == nil
}

// in reports whether a is in the unary relation name.
func (v *relView) in(name string, a int) bool {
	s, err := v.inst.Set(name)
	return err == nil && s.Has(a)
}

// readSources explains each read of a consistent execution.
func readSources(x *execution.Execution, inst *rules.Instance) []ReadSource {
	v := &relView{inst: inst, rels: map[string]func(a, b int) bool{}}
	var out []ReadSource
	for rd, w := range x.RF {
		if w < 0 || x.Events[rd].IsInit() {
			continue
		}
		src := ReadSource{Read: rd, Write: w}
		for w2 := range x.Events {
			e := &x.Events[w2]
			if w2 == w || e.Kind != execution.KindWrite || !v.has("loc", w2, rd) {
				continue
			}
			if !v.has(CoherenceRelation, w, w2) || v.has("po", rd, w2) || v.has("cause", rd, w2) {
				continue
			}
			src.Unordered = append(src.Unordered, unordered(x, v, w2, rd))
		}
		out = append(out, src)
	}
	return out
}

// unordered explains why write w is not ordered before read rd.
func unordered(x *execution.Execution, v *relView, w, rd int) Unordered {
	u := Unordered{Write: w, Race: v.has("data_race", w, rd) || v.has("data_race", rd, w)}
	u.ProxyFence = v.defines("cause_base") && v.has("cause_base", w, rd) && !v.has("cause", w, rd)
	u.Path = orderingPath(x, v, w, rd)
	u.Hops = hops(x, v, u.Path)
	if v.defines("cause_base") {
		for _, e := range u.Path {
			if e.Rel == "po" && !v.has("cause_base", e.From, e.To) {
				u.Unordering = append(u.Unordering, e)
			}
		}
	}
	return u
}

// orderingPath is a shortest chain of po, rf and sync edges from a to b,
// or nil.
func orderingPath(x *execution.Execution, v *relView, a, b int) []rules.Edge {
	rels := orderingRelations(v.inst.Program())
	n := len(x.Events)
	prev := make([]rules.Edge, n)
	seen := make([]bool, n)
	seen[a] = true
	queue := []int{a}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == b {
			var path []rules.Edge
			for c := b; c != a; c = prev[c].From {
				path = append([]rules.Edge{prev[c]}, path...)
			}
			return path
		}
		for w := 0; w < n; w++ {
			if seen[w] {
				continue
			}
			for _, rel := range rels {
				if v.has(rel, u, w) {
					seen[w] = true
					prev[w] = rules.Edge{From: u, To: w, Rel: rel}
					queue = append(queue, w)
					break
				}
			}
		}
	}
	return nil
}

// notOrdering are the .edges relations of spec.dl that do not order
// their events: communication (co, fr, tcgen05's tc_com), dependencies,
// which order nothing in PTX, an atom's read and write, and the initial
// writes' order.
var notOrdering = map[string]bool{"co": true, "fr": true, "tc_com": true, "addr": true, "data": true, "ctrl": true,
	"rmw": true, "init_order": true}

// orderingRelations are the relations a path that orders two events may
// follow: po, rf and sync, then the model's other .edges relations (the
// asynchronous operations' and the CUDA API's orders) but those that do
// not order.
func orderingRelations(p *rules.Program) []string {
	out := []string{"po", "rf", "sync"}
	for _, e := range p.Model().Edges {
		if !notOrdering[e] && e != "po" && e != "rf" && e != "sync" {
			out = append(out, e)
		}
	}
	return out
}

// hops lists the reads-from steps of a path between two threads that do
// not synchronize the path's part before them with its part after them.
func hops(x *execution.Execution, v *relView, path []rules.Edge) []Hop {
	var out []Hop
	for i, e := range path {
		if e.Rel != "rf" || x.Events[e.From].Thread == x.Events[e.To].Thread {
			continue
		}
		// The path's part in the write's thread starts at enter; its part
		// in the read's thread ends at leave.
		enter, leave := e.From, e.To
		for j := i - 1; j >= 0 && path[j].Rel == "po"; j-- {
			enter = path[j].From
		}
		for j := i + 1; j < len(path) && path[j].Rel == "po"; j++ {
			leave = path[j].To
		}
		if synchronizes(x, v, enter, e.From, e.To, leave) {
			continue
		}
		out = append(out, hopReasons(x, v, enter, e.From, e.To, leave))
	}
	return out
}

// between reports whether c is lo, hi or between them in program order.
func between(v *relView, lo, c, hi int) bool {
	return (c == lo || v.has("po", lo, c)) && (c == hi || v.has("po", c, hi))
}

// synchronizes reports whether sync relates an event of [enter, a] to one
// of [b, leave].
func synchronizes(x *execution.Execution, v *relView, enter, a, b, leave int) bool {
	for p := range x.Events {
		if !between(v, enter, p, a) {
			continue
		}
		for q := range x.Events {
			if between(v, b, q, leave) && v.has("sync", p, q) {
				return true
			}
		}
	}
	return false
}

// hopReasons says what keeps a -rf-> b from synchronizing [enter, a] with
// [b, leave].
func hopReasons(x *execution.Execution, v *relView, enter, a, b, leave int) Hop {
	h := Hop{Write: a, Read: b, NoRelease: true, NoAcquire: true}
	for p := range x.Events {
		if between(v, enter, p, a) && v.has("rel_pattern", p, a) {
			h.NoRelease = false
		}
		if between(v, b, p, leave) && v.has("acq_pattern", b, p) {
			h.NoAcquire = false
		}
	}
	if v.defines("ms") && !v.has("ms", a, b) {
		for _, e := range []int{a, b} {
			if v.defines("strong") && !v.in("strong", e) {
				h.Weak = append(h.Weak, e)
			}
		}
		if len(h.Weak) == 0 {
			if v.defines("incl") && !v.has("incl", a, b) {
				h.OutOfScope = append(h.OutOfScope, a)
			}
			if v.defines("incl") && !v.has("incl", b, a) {
				h.OutOfScope = append(h.OutOfScope, b)
			}
		}
		h.OtherProxy = v.defines("same_proxy") && !v.has("same_proxy", a, b)
	}
	if !v.defines("rel_pattern") {
		h.NoRelease = false
	}
	if !v.defines("acq_pattern") {
		h.NoAcquire = false
	}
	return h
}
