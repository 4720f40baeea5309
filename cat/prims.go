package cat

import (
	"sort"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// The names herd7 gives every model come from three places: its
// primitives (functions written in OCaml: domain, linearisations,
// classes-loc, ...), the sets and relations of the candidate execution
// (base.go: ptxmm's catalog and the mapping), and its standard library, a
// cat file every model includes first. ptxmm writes its own: the
// primitives below, and stdlibSource, both from what the names mean.

// stdlibFile names ptxmm's standard library in messages.
const stdlibFile = "ptxmm-stdlib.cat"

// stdlibSource is ptxmm's standard library: the functions and procedures
// herd7's standard library defines (its relations, such as po-loc and
// co0, are base names, base.go), and generate_orders and friends of
// herd7's cross.cat, which are primitives here.
const stdlibSource = `"ptxmm standard library"
let toid(s) = [s]
let fencerel(fences) = po ; [fences] ; po
let ctrlcfence(c, fences) = c ; [fences] ; po
let imply(a, b) = ~a | b
let nodetour(r1, r2, r3) = r1 \ (r2 ; r3)
let singlestep(r) = nodetour(r, r, r)
let udr(r) = domain(r) | range(r)
procedure subseteq(a, b) = empty a \ b end
procedure inclusion(r1, r2) = empty r1 \ r2 end
procedure total(r, s) = empty (s * s) \ (r | r^-1) end
let generate_cos(r) = generate_orders(W, r)
`

// stdlibNames lists the names the standard library and the primitives
// bind, for messages.
func stdlibNames() []string {
	names := append([]string{}, emptyNames...)
	names = append(names, "toid", "fencerel", "ctrlcfence", "imply", "nodetour", "singlestep", "udr", "subseteq",
		"inclusion", "total", "generate_cos")
	for n := range primitives {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// primitives are the functions ptxmm supplies in Go.
var primitives = map[string]func(ev *evaluator, arg value, pos source.Pos) (value, error){
	"domain": func(ev *evaluator, a value, pos source.Pos) (value, error) {
		return ev.project(datalog.OpDomain, a, pos)
	},
	"range": func(ev *evaluator, a value, pos source.Pos) (value, error) {
		return ev.project(datalog.OpRange, a, pos)
	},
	"classes-loc":     primClassesLoc,
	"partition":       primClassesLoc,
	"classes":         primClasses,
	"linearisations":  primLinearisations,
	"generate_orders": primGenerateOrders,
	"co_locs":         primCoLocs,
	"cross":           primCross,
	"map":             primMap,
	"fail": func(ev *evaluator, a value, pos source.Pos) (value, error) {
		return nil, errorf(pos, "fail on a %s", describe(a))
	},
	"as_transitive": func(ev *evaluator, a value, pos source.Pos) (value, error) { return a, nil },
}

// emptyNames are the names herd7 gives every model whose sets or
// relations are empty in PTX: each is the empty value, which is at once
// the empty set and the empty relation (herd's emptyset, and its
// implicit, speculative, lock and load-reserve events).
var emptyNames = []string{"emptyset", "NExp", "SPEC", "LKW", "lxsx", "inv-field"}

// prelude returns the scope every model starts in: the primitives, then
// the standard library.
func (ev *evaluator) prelude() *env {
	vars := map[string]value{}
	for name, fn := range primitives {
		vars[name] = primVal{name: name, fn: fn}
	}
	for _, name := range emptyNames {
		vars[name] = emptyVal{}
	}
	root := (&env{}).with(vars)
	var errs source.List
	m := parseFile(stdlibFile, stdlibSource, &errs)
	if errs.HasErrors() {
		// The library is part of ptxmm; a test loads it.
		panic("cat: bad standard library: " + errs.Error())
	}
	ev.stack = []string{stdlibFile}
	ev.texts[stdlibFile] = stdlibSource
	return ev.run(m.Instrs, root)
}

// project is domain(r) or range(r).
func (ev *evaluator) project(op datalog.UnOp, a value, pos source.Pos) (value, error) {
	switch a.(type) {
	case emptyVal, univVal:
		return a, nil
	}
	r, err := ev.toRel(a, pos)
	if err != nil {
		return nil, err
	}
	if r.arity == 1 {
		return nil, errorf(pos, "%s takes a relation, not a set of events", map[datalog.UnOp]string{datalog.OpDomain: "domain", datalog.OpRange: "range"}[op])
	}
	return relVal{x: &datalog.Unary{Op: op, X: r.x, Pos: pos}, arity: 1}, nil
}

// primClassesLoc is classes-loc S (herd's partition S): the events of S
// grouped by location.
func primClassesLoc(ev *evaluator, a value, pos source.Pos) (value, error) {
	s, err := ev.eventSet(a, "classes-loc", pos)
	if err != nil {
		return nil, err
	}
	loc, _ := ev.b.baseValue("loc", pos)
	return classesVal{set: s, equiv: loc.x}, nil
}

// primClasses is classes r: the classes of an equivalence relation.
func primClasses(ev *evaluator, a value, pos source.Pos) (value, error) {
	r, err := ev.toRel(a, pos)
	if err != nil {
		return nil, err
	}
	if r.arity == 1 {
		return nil, errorf(pos, "classes takes an equivalence relation, not a set of events")
	}
	return classesVal{set: &datalog.Unary{Op: datalog.OpDomain, X: r.x, Pos: pos}, equiv: r.x}, nil
}

// eventSet reads a value as a set of events.
func (ev *evaluator) eventSet(a value, fn string, pos source.Pos) (datalog.Expr, error) {
	r, err := ev.toRel(a, pos)
	if err != nil {
		return nil, err
	}
	if r.arity == 2 {
		return nil, errorf(pos, "%s takes a set of events, not a relation", fn)
	}
	return r.x, nil
}

// pair reads the argument (a, b) of a two-argument primitive.
func pair(a value, fn string, pos source.Pos) (value, value, error) {
	t, ok := a.(tupleVal)
	if !ok || len(t.elems) != 2 {
		return nil, nil, errorf(pos, "%s takes two arguments, %s(a, b)", fn, fn)
	}
	return t.elems[0], t.elems[1], nil
}

// primLinearisations is linearisations(S, r): the strict total orders of
// S that include r (of each class apart, for a class of classes-loc).
func primLinearisations(ev *evaluator, a value, pos source.Pos) (value, error) {
	s, r, err := pair(a, "linearisations", pos)
	if err != nil {
		return nil, err
	}
	return ev.family(s, r, nil, "linearisations", pos)
}

// primGenerateOrders is generate_orders(S, r) of herd's cross.cat: the
// orders that order the events of S to each location totally and include
// r.
func primGenerateOrders(ev *evaluator, a value, pos source.Pos) (value, error) {
	s, r, err := pair(a, "generate_orders", pos)
	if err != nil {
		return nil, err
	}
	loc, _ := ev.b.baseValue("loc", pos)
	return ev.family(s, r, loc.x, "generate_orders", pos)
}

// family builds a set of linearisations of s including r, of each class
// of equiv apart when it is set.
func (ev *evaluator) family(s, r value, equiv datalog.Expr, fn string, pos source.Pos) (value, error) {
	part := familyPart{equiv: equiv}
	if c, ok := s.(classVal); ok {
		part.set, part.equiv = c.set, c.equiv
	} else {
		set, err := ev.eventSet(s, fn, pos)
		if err != nil {
			return nil, err
		}
		part.set = set
	}
	if !isEmpty(r) {
		rel, err := ev.toRel(r, pos)
		if err != nil {
			return nil, err
		}
		if rel.arity == 1 {
			return nil, errorf(pos, "%s(S, r): r is a relation, not a set of events", fn)
		}
		part.base = rel.x
	}
	return familyVal{parts: []familyPart{part}}, nil
}

// primCoLocs is co_locs(r, classes) of herd's cross.cat: the set of the
// linearisations of each class that include r.
func primCoLocs(ev *evaluator, a value, pos source.Pos) (value, error) {
	r, classes, err := pair(a, "co_locs", pos)
	if err != nil {
		return nil, err
	}
	switch c := classes.(type) {
	case classesVal:
		f, err := ev.family(classVal(c), r, nil, "co_locs", pos)
		if err != nil {
			return nil, err
		}
		return newSet([]value{f}), nil
	}
	elems, ok := members(classes)
	if !ok {
		return nil, errorf(pos, "co_locs(r, classes) takes a set of sets of events, found a %s", describe(classes))
	}
	var out []value
	for _, e := range elems {
		f, err := ev.family(e, r, nil, "co_locs", pos)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return newSet(out), nil
}

// primCross is cross of herd's cross.cat: the unions of one member of
// each set of a set of sets of relations.
func primCross(ev *evaluator, a value, pos source.Pos) (value, error) {
	elems, ok := members(a)
	if !ok {
		return nil, errorf(pos, "cross takes a set of sets of relations, found a %s", describe(a))
	}
	var parts []familyPart
	unions := []value{emptyVal{}}
	for _, e := range elems {
		if f, ok := e.(familyVal); ok {
			parts = append(parts, f.parts...)
			continue
		}
		ms, ok := members(e)
		if !ok {
			return nil, errorf(pos, "cross takes a set of sets of relations; one member is a %s", describe(e))
		}
		var next []value
		for _, u := range unions {
			for _, m := range ms {
				v, err := ev.binary(OpUnion, u, m, pos, nil)
				if err != nil {
					return nil, err
				}
				next = append(next, v)
			}
		}
		unions = next
	}
	if len(parts) == 0 {
		return newSet(unions), nil
	}
	if len(unions) != 1 {
		return nil, errorf(pos, "cross of sets of linearisations and of sets of several relations: ptxmm chooses among orders only")
	}
	f := familyVal{parts: parts}
	if !isEmpty(unions[0]) {
		return nil, errorf(pos, "cross of sets of linearisations and of a relation: ptxmm chooses among orders only")
	}
	return f, nil
}

// primMap is map f: the function applying f to each member of a set.
func primMap(ev *evaluator, f value, pos source.Pos) (value, error) {
	return primVal{name: "map f", fn: func(ev *evaluator, s value, pos source.Pos) (value, error) {
		elems, ok := members(s)
		if !ok {
			return nil, errorf(pos, "map f applies f to each member of a set known when the model is loaded; this is a %s", describe(s))
		}
		var out []value
		for _, e := range elems {
			v, err := ev.apply(f, e, "f", pos)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return newSet(out), nil
	}}, nil
}
