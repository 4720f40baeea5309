package rules

import (
	"context"
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/source"
)

// Limits bound the memory of an instance. The dense relations of an
// instance take a size fixed by the domain, known before any of them is
// allocated (EstimateBytes); what grows during evaluation is checked as it
// grows: the scratch relations evaluation and the order search take, and
// the relations of three or more columns, whose size a rule's body bounds
// only loosely.
type Limits struct {
	// MaxBytes bounds the estimated memory of the instance; 0 means none.
	MaxBytes int64
}

// MemoryError reports that an evaluation would need more memory than its
// limit allows.
type MemoryError struct {
	// What needs the memory: "the relations of 20001 atoms", "relation big".
	What string
	// Pos is where the relation to blame is defined (zero when none is).
	Pos source.Pos
	// Need is the estimated need in bytes; when AtLeast is set, evaluation
	// stopped on reaching the limit and the need is at least that.
	Need    int64
	AtLeast bool
	Limit   int64
}

func (e *MemoryError) Error() string {
	what := e.What
	if e.Pos.IsValid() {
		what = fmt.Sprintf("%s (%s)", e.What, e.Pos)
	}
	need := "about " + limits.FormatSize(e.Need)
	if e.AtLeast {
		need = "more than " + limits.FormatSize(e.Need)
	}
	return fmt.Sprintf("%s would take %s of memory, over the memory limit of %s; raise it with -max-memory",
		what, need, limits.FormatSize(e.Limit))
}

// Memory figures of the relations package, per relation over n atoms: a
// Rel keeps n rows of ceil(n/64) words, a 32-byte bit-set view per row, and
// (once closed or checked for cycles) an O(n) scratch of about 28 bytes per
// atom; a Set keeps one row. RelBytes is relBytes, for the callers that
// keep relations of their own (the failures of kept candidates).
func RelBytes(n int) int64 { return relBytes(n) }

func relBytes(n int) int64 {
	w := int64(n+63) / 64
	return int64(n)*w*8 + int64(n)*(32+28) + 128
}

func setBytes(n int) int64 { return int64(n+63)/64*8 + 64 }

// tupleBytes is the memory of one tuple of a relation of arity three or
// more: its values, stored twice over at worst while the backing array
// grows, and its entries in the hash table (kept at most half full) and in
// the sorted order iteration builds.
func tupleBytes(arity int) int64 { return int64(arity)*8*2 + 4*4 + 4 }

// minScratch is the number of scratch relations evaluating a rule takes at
// once on the programs we measured (a composition's operands and result,
// and a union's), counted in the estimate up front.
const minScratch = 4

// EstimateBytes estimates the memory an instance over a domain of atoms
// takes before evaluation grows it: one set or dense relation per relation
// of one or two columns, the two working copies semi-naive evaluation keeps
// of each binary relation of a recursive stratum, and the scratch relations
// evaluating a rule needs.
func (p *Program) EstimateBytes(atoms int) int64 {
	return int64(p.sizes.sets)*setBytes(atoms) + int64(p.sizes.rels+minScratch)*relBytes(atoms)
}

// storeCounts counts the sets and the dense relations an instance holds
// (EstimateBytes), worked out once by the compiler: the checker asks for
// the estimate of every instance it takes.
type storeCounts struct{ sets, rels int }

// countStores fills p.sizes.
func (p *Program) countStores() {
	add := func(arity, copies int) {
		switch arity {
		case 1:
			p.sizes.sets += copies
		case 2:
			p.sizes.rels += copies
		}
	}
	for _, r := range p.rels {
		add(r.arity, 1)
	}
	for _, s := range p.strata {
		if s.recursive {
			for _, r := range s.rels {
				add(p.rels[r].arity, 2)
			}
		}
	}
}

// NewLimitedInstance is NewInstance under limits: it refuses, before
// allocating anything, a domain whose relations would not fit, and makes
// later evaluations stop with a MemoryError when what they grow would not.
func (p *Program) NewLimitedInstance(dom *Domain, l Limits) (*Instance, error) {
	return p.NewInstanceContext(context.Background(), dom, l)
}

// NewInstanceContext is NewLimitedInstance under a context: making the
// relations of a big domain takes time (gigabytes of fresh memory for a
// candidate of 10,000 events), and ctx is looked at as they are made. Once
// ctx is done it returns ctx's error.
func (p *Program) NewInstanceContext(ctx context.Context, dom *Domain, l Limits) (*Instance, error) {
	if l.MaxBytes > 0 {
		atoms := dom.Len()
		for _, c := range p.consts {
			if _, ok := dom.Lookup(c); !ok {
				atoms++
			}
		}
		if need := p.EstimateBytes(atoms); need > l.MaxBytes {
			return nil, &MemoryError{What: fmt.Sprintf("the relations of %d atoms", atoms), Need: need, Limit: l.MaxBytes}
		}
	}
	in, err := p.newInstance(ctx, dom)
	if err != nil {
		return nil, err
	}
	in.mem = newMemory(p, in.n, l)
	return in, nil
}

// memory is an instance's account of its memory against its limit: the
// estimate of its dense relations (fixed) and the scratch relations the
// pool allocated since; what the relations of three or more columns hold
// is counted from them when needed (tupleBytesNow).
type memory struct {
	limits         Limits
	fixed, scratch int64
}

// newMemory is the account of an instance over n atoms under l.
func newMemory(p *Program, n int, l Limits) memory {
	m := memory{limits: l}
	if l.MaxBytes > 0 {
		m.fixed = p.EstimateBytes(n) - minScratch*relBytes(n)
	}
	return m
}

// bounded reports whether the instance has a memory limit.
func (m *memory) bounded() bool { return m.limits.MaxBytes > 0 }

// used is the memory taken, with tuples the bytes of the relations of
// three or more columns.
func (m *memory) used(tuples int64) int64 { return m.fixed + m.scratch + tuples }

// exceeded is the error of an evaluation stopped at the limit by what
// (defined at pos), which needs at least need bytes.
func (m *memory) exceeded(what string, pos source.Pos, need int64) *MemoryError {
	return &MemoryError{What: what, Pos: pos, Need: need, AtLeast: true, Limit: m.limits.MaxBytes}
}

// blame names a relation for a MemoryError: a generated relation by the
// definition or check it is part of.
func (p *Program) blame(r relID) (string, source.Pos) {
	info := p.rels[r]
	if d := info.def; d != nil {
		if d.Generated && d.Owner != "" {
			return fmt.Sprintf("relation %s (part of %s)", info.name, d.Owner), d.Pos
		}
		return "relation " + info.name, d.Pos
	}
	return "relation " + info.name, source.Pos{}
}

// growScratch accounts for a scratch relation the pool allocates and stops
// evaluation when it would exceed the limit.
func (in *Instance) growScratch(bytes int64) {
	in.mem.scratch += bytes
	if !in.mem.bounded() {
		return
	}
	if need := in.mem.used(in.tupleBytesNow()); need > in.mem.limits.MaxBytes {
		what, pos := in.scratchUser()
		in.stop(in.mem.exceeded(what, pos, need))
	}
}

// scratchUser names what takes scratch relations at the moment: the order
// search, or the stratum being evaluated.
func (in *Instance) scratchUser() (string, source.Pos) {
	if in.search.searching != nil {
		o := in.search.searching.order
		return fmt.Sprintf("the search of the order %s", o.Name), o.Pos
	}
	if in.cur >= 0 && in.cur < len(in.p.strata) {
		return in.p.blame(in.p.strata[in.cur].rels[0])
	}
	return "evaluation", source.Pos{}
}

// tupleBytesNow is the memory the relations of three or more columns hold.
func (in *Instance) tupleBytesNow() int64 {
	var total int64
	for _, r := range in.tupleRels {
		total += int64(in.stores[r].tup.Len()) * tupleBytes(in.p.rels[r].arity)
		if d := in.delta[r]; d.tup != nil {
			total += int64(d.tup.Len()+in.next[r].tup.Len()) * tupleBytes(in.p.rels[r].arity)
		}
	}
	return total
}

// tupleRoom returns how many more tuples a relation of the given arity may
// take before the instance reaches its limit, or -1 for no limit.
func (in *Instance) tupleRoom(arity int) int64 {
	if !in.mem.bounded() {
		return -1
	}
	free := in.mem.limits.MaxBytes - in.mem.used(in.tupleBytesNow())
	return max(free/tupleBytes(arity), 0)
}

// joinBound is an upper bound of the tuples a join plan derives: the
// product of the sizes of its positive atoms, capped by n^arity. It is what
// the rule can derive at most, before it runs.
func (in *Instance) joinBound(rp *rulePlan, deltaOcc int) float64 {
	bound := 1.0
	for _, a := range rp.join.atoms {
		st := in.stores[a.rel]
		if a.occ == deltaOcc {
			st = in.deltaStore(a.rel)
		}
		bound *= float64(st.size())
	}
	full := 1.0
	for range rp.join.head {
		full *= float64(in.n)
	}
	return min(bound, full)
}

// tupleGuard returns the number of tuples a join into dst may leave in it
// before evaluation must stop, or -1 when the estimate shows the rule
// cannot reach the limit (the common case, which then costs nothing).
func (in *Instance) tupleGuard(rp *rulePlan, deltaOcc int, dst store) int {
	if dst.tup == nil || !in.mem.bounded() {
		return -1
	}
	room := in.tupleRoom(dst.arity)
	if in.joinBound(rp, deltaOcc) <= float64(room) {
		return -1
	}
	if low := in.joinLowerBound(rp, deltaOcc); low > float64(room) {
		// The rule is certain to derive more than fits: stop before
		// deriving any of it.
		what, pos := "the answer of the query", rp.rule.Pos
		if rp.head >= 0 {
			what, pos = in.p.blame(rp.head)
		}
		if pos == (source.Pos{}) {
			pos = rp.rule.Pos
		}
		need := in.mem.used(in.tupleBytesNow()) + int64(min(low, 1<<60/float64(tupleBytes(dst.arity))))*tupleBytes(dst.arity)
		in.stop(in.mem.exceeded(what, pos, need))
	}
	return dst.tup.Len() + int(min(room, int64(1)<<40))
}

// joinLowerBound is a lower bound of the tuples a join plan derives when
// the plan is a product: positive atoms over distinct variables, sharing
// none, every variable in the head once, no comparison, and negated atoms
// over head variables only (the complement of a relation is one). The
// product's size is then exact, and each negated atom removes at most as
// many tuples as its relation holds. For any other shape it returns 0.
func (in *Instance) joinLowerBound(rp *rulePlan, deltaOcc int) float64 {
	jp := rp.join
	if len(jp.cmps) > 0 || len(jp.assigns) > 0 {
		return 0
	}
	seen := make([]bool, jp.nslots)
	product := 1.0
	for _, a := range jp.atoms {
		for _, x := range a.args {
			if x.kind != argVar || seen[x.slot] {
				return 0
			}
			seen[x.slot] = true
		}
		st := in.stores[a.rel]
		if a.occ == deltaOcc {
			st = in.deltaStore(a.rel)
		}
		product *= float64(st.size())
	}
	inHead := make([]bool, jp.nslots)
	for _, h := range jp.head {
		if h.kind != argVar || inHead[h.slot] {
			return 0
		}
		inHead[h.slot] = true
	}
	for s := range seen {
		if seen[s] != inHead[s] {
			return 0
		}
	}
	for _, a := range jp.negs {
		for _, x := range a.args {
			if x.kind != argVar {
				return 0
			}
		}
		product -= float64(in.stores[a.rel].size())
	}
	return max(product, 0)
}

// tooManyTuples stops evaluation: a join into the relation of rule rp
// reached the memory limit.
func (in *Instance) tooManyTuples(rp *rulePlan) {
	// A query's join (rules/query.go) has no relation of its own (head -1):
	// the query is what takes the memory.
	what, pos := "the query", rp.rule.Pos
	if rp.head >= 0 {
		what, pos = in.p.blame(rp.head)
	}
	if pos == (source.Pos{}) {
		pos = rp.rule.Pos
	}
	in.stop(in.mem.exceeded(what, pos, in.mem.used(in.tupleBytesNow())))
}

// tupleRelations lists the relations of three or more columns.
func (p *Program) tupleRelations() []relID {
	var out []relID
	for _, r := range p.rels {
		if r.arity > 2 && r.kind != datalog.RelUniverse {
			out = append(out, r.id)
		}
	}
	return out
}

// InputBytes estimates the memory of one copy of every input relation of
// one or two columns over a domain of atoms, such as the copy a host keeps
// to fill an instance.
func (p *Program) InputBytes(atoms int) int64 {
	var total int64
	for _, r := range p.rels {
		if r.kind != datalog.RelInput {
			continue
		}
		switch r.arity {
		case 1:
			total += setBytes(atoms)
		case 2:
			total += relBytes(atoms)
		}
	}
	return total
}
