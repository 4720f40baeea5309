package rules

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
)

// Edge is one step of an explanation: From precedes To in Rel, or, when
// Inverse is set, To precedes From in Rel (From <-Rel- To).
type Edge struct {
	From, To int
	Rel      string
	Inverse  bool
}

// Path explains a pair (a, b) of a binary relation as a chain of edges from
// a to b, following a derivation of the pair: each step is a body atom
// joining the variables from a to b, expanded in turn until it is a base
// relation or a relation stop accepts (the model's .edges). Where several
// body atoms join the same two values (an intersection), one the model lists
// in .edges is followed first, and otherwise the one derived last: later relations
// carry more of the execution's story than the static conditions they are
// intersected with. A pair no body
// chain connects (a product) is one edge of its own relation. It needs
// RecordProvenance.
func (in *Instance) Path(rel string, a, b int, stop func(string) bool) ([]Edge, error) {
	d, err := in.Why(rel, []int{a, b})
	if err != nil {
		return nil, err
	}
	return in.pathOf(d, stop), nil
}

// CycleEdges explains a witness cycle of a binary relation: the edges of
// each consecutive pair, the last back to the first.
func (in *Instance) CycleEdges(rel string, cycle []int, stop func(string) bool) ([]Edge, error) {
	var out []Edge
	for i, a := range cycle {
		b := cycle[(i+1)%len(cycle)]
		p, err := in.Path(rel, a, b, stop)
		if err != nil {
			return nil, err
		}
		out = append(out, p...)
	}
	return out, nil
}

func (in *Instance) pathOf(d *Derivation, stop func(string) bool) []Edge {
	a, b := d.Tuple[0], d.Tuple[1]
	if d.Rule == nil || stop(d.Rel) {
		return []Edge{{From: a, To: b, Rel: d.Rel}}
	}
	var steps []*Derivation
	for _, c := range d.Children {
		if len(c.Tuple) == 2 {
			steps = append(steps, c)
		}
	}
	route, ok := in.route(steps, a, b, stop)
	if !ok {
		if a == b {
			return nil // an identity pair, such as [S] or the reflexive part of r?
		}
		return []Edge{{From: a, To: b, Rel: d.Rel}}
	}
	var out []Edge
	for _, st := range route {
		sub := in.pathOf(st.d, stop)
		if st.inverse {
			for i, j := 0, len(sub)-1; i < j; i, j = i+1, j-1 {
				sub[i], sub[j] = sub[j], sub[i]
			}
			for i := range sub {
				sub[i].From, sub[i].To = sub[i].To, sub[i].From
				sub[i].Inverse = !sub[i].Inverse
			}
		}
		out = append(out, sub...)
	}
	return out
}

type routeStep struct {
	d       *Derivation
	inverse bool
}

// route finds a chain of body tuples from a to b (non-empty when a equals
// b), preferring, among tuples joining the same two values, one of a
// relation the model lists in .edges (its own vocabulary), and then the one
// derived last. Among chains, it prefers the same (chooseRoute), so that a
// rule written as one conjunction of chains (datalog's inlining) is
// explained as the relation per operator it replaces was.
func (in *Instance) route(steps []*Derivation, a, b int, stop func(string) bool) ([]routeStep, bool) {
	type arc struct {
		from, to int
		step     routeStep
	}
	best := map[[2]int]arc{}
	// keys lists best's keys as first added: the breadth-first search
	// follows the arcs in that order, so that of two shortest routes it
	// takes the same one on every run (a map's order would vary).
	var keys [][2]int
	better := func(x, y *Derivation) bool {
		if sx, sy := in.p.isEdge(x.Rel), in.p.isEdge(y.Rel); sx != sy {
			return sx
		}
		return in.rankOf(in.p.byName[x.Rel], x.Tuple) > in.rankOf(in.p.byName[y.Rel], y.Tuple)
	}
	add := func(from, to int, s routeStep) {
		k := [2]int{from, to}
		old, ok := best[k]
		if !ok {
			keys = append(keys, k)
		}
		if !ok || better(s.d, old.step.d) {
			best[k] = arc{from, to, s}
		}
	}
	for _, d := range steps {
		add(d.Tuple[0], d.Tuple[1], routeStep{d: d})
	}
	for _, d := range steps {
		if _, ok := best[[2]int{d.Tuple[1], d.Tuple[0]}]; !ok {
			add(d.Tuple[1], d.Tuple[0], routeStep{d: d, inverse: true})
		}
	}
	out := map[int][]arc{}
	for _, k := range keys {
		e := best[k]
		out[e.from] = append(out[e.from], e)
	}
	succ := func(v int, yield func(routeStep, int)) {
		for _, e := range out[v] {
			yield(e.step, e.to)
		}
	}
	if len(keys) <= maxRouteArcs {
		return in.chooseRoute(a, b, succ)
	}
	return breadthFirst(a, succ, func(v int) bool { return v == b })
}

// isEdge reports whether the model lists a relation in .edges.
func (p *Program) isEdge(name string) bool {
	for _, e := range p.model.Edges {
		if e == name {
			return true
		}
	}
	return false
}

// StopAtEdges returns the stop function for explanations: base relations
// and the model's .edges relations are shown as single edges.
func (p *Program) StopAtEdges() func(string) bool {
	return func(name string) bool {
		id, ok := p.byName[name]
		return !ok || p.isEdge(name) || p.rels[id].kind != datalog.RelDerived
	}
}

// ExplainCheck expands a failed check's witness into edges: the cycle for
// acyclic checks, the pair (x, x) for irreflexive ones, and for empty checks
// over binary relations the pair itself. It needs RecordProvenance.
func (in *Instance) ExplainCheck(c CheckResult, stop func(string) bool) ([]Edge, error) {
	switch c.Kind {
	case datalog.CheckAcyclic:
		return in.CycleEdges(c.Rel, c.Witness, stop)
	case datalog.CheckIrreflexive:
		return in.Path(c.Rel, c.Witness[0], c.Witness[0], stop)
	}
	if len(c.Witness) == 2 {
		return in.Path(c.Rel, c.Witness[0], c.Witness[1], stop)
	}
	return nil, fmt.Errorf("check %s: a witness of %d atoms is not a path", c.Name, len(c.Witness))
}
