package cat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// A cat model is evaluated once, when it is loaded, into a program of the
// modelling language. What does not depend on the execution (tags,
// tuples, sets of them, functions, variants) is computed then; relations
// and sets of events, which do, stay expressions of the modelling
// language that the rules engine evaluates for each execution.

// value is what a cat expression evaluates to.
type value interface{ typeName() string }

// relVal is a relation (arity 2) or a set of events (arity 1) of the
// execution; arity 0 means not yet known (the empty relation, say).
type relVal struct {
	x     datalog.Expr
	arity int
}

// emptyVal is herd's polymorphic empty value: 0, {}, an empty set of
// events, an empty relation and an empty set of values at once.
type emptyVal struct{}

// univVal is _, the universe: every event, or every pair of events.
type univVal struct{}

// tagVal is a tag of an enumeration ('a).
type tagVal struct{ enum, name string }

// tupleVal is a tuple; () has no members.
type tupleVal struct{ elems []value }

// setVal is a set of values known when the model is loaded (tags,
// tuples, functions, sets of them, relations of the execution), kept in
// a canonical order without duplicates of values known to be equal.
type setVal struct{ elems []value }

// closureVal is a function with the scope it was defined in.
type closureVal struct {
	fun *Fun
	env *env
}

// procVal is a procedure with the scope it was defined in.
type procVal struct {
	proc *ProcInstr
	env  *env
}

// primVal is a function ptxmm supplies (domain, linearisations, ...).
type primVal struct {
	name string
	fn   func(ev *evaluator, arg value, pos source.Pos) (value, error)
}

// classesVal is the set of the classes of a set of events under an
// equivalence (classes-loc S: the events of S grouped by location). How
// many classes there are depends on the execution; see with.go.
type classesVal struct {
	set, equiv datalog.Expr
}

// classVal is a member of a classesVal: every class at once. As a set of
// events it is the union of the classes (the set itself); a choice of an
// order over it (linearisations) orders each class separately.
type classVal struct {
	set, equiv datalog.Expr
}

// familyVal is a set of relations that depends on the execution: the
// unions of one member of each part, a part being the strict total
// orders of a set of events, each class separately when equiv is set,
// that include a relation (linearisations). A model picks one with "with
// x from", which ptxmm lowers to orders the checker chooses (with.go).
type familyVal struct {
	parts []familyPart
}

func (relVal) typeName() string {
	return "relation"
}
func (emptyVal) typeName() string     { return "empty set" }
func (univVal) typeName() string      { return "universe" }
func (tagVal) typeName() string       { return "tag" }
func (tupleVal) typeName() string     { return "tuple" }
func (setVal) typeName() string       { return "set of values" }
func (closureVal) typeName() string   { return "function" }
func (procVal) typeName() string      { return "procedure" }
func (primVal) typeName() string      { return "function" }
func (classesVal) typeName() string   { return "set of event sets" }
func (classVal) typeName() string     { return "event set" }
func (familyVal) typeName() string    { return "set of relations" }
func (v relVal) describeType() string { return arityName(v.arity) }

func arityName(a int) string {
	switch a {
	case 1:
		return "set of events"
	case 2:
		return "relation"
	}
	return "relation or set of events"
}

// describe names a value's type for messages.
func describe(v value) string {
	if r, ok := v.(relVal); ok {
		return r.describeType()
	}
	if v == nil {
		return "nothing"
	}
	return v.typeName()
}

// isStatic reports whether a value is known when the model is loaded
// (it holds no relation of the execution).
func isStatic(v value) bool {
	switch v := v.(type) {
	case tagVal, closureVal, procVal, primVal:
		return true
	case tupleVal:
		for _, e := range v.elems {
			if !isStatic(e) {
				return false
			}
		}
		return true
	case setVal:
		for _, e := range v.elems {
			if !isStatic(e) {
				return false
			}
		}
		return true
	}
	return false
}

// key is a canonical text of a static value, which orders and compares
// the members of sets; values that are not static get a key of their own
// object (two relations of the execution are never known equal).
func key(v value) string {
	switch v := v.(type) {
	case tagVal:
		return "'" + v.enum + "." + v.name
	case tupleVal:
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = key(e)
		}
		return "(" + strings.Join(parts, ",") + ")"
	case setVal:
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = key(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case emptyVal:
		return "{}"
	case relVal:
		return "r:" + datalog.ExprString(v.x)
	}
	return fmt.Sprintf("%T:%p", v, v)
}

// newSet builds a set from members, sorted by key without duplicates.
func newSet(elems []value) value {
	if len(elems) == 0 {
		return emptyVal{}
	}
	sorted := append([]value(nil), elems...)
	sort.SliceStable(sorted, func(i, j int) bool { return key(sorted[i]) < key(sorted[j]) })
	out := sorted[:0:0]
	for i, e := range sorted {
		if i > 0 && key(e) == key(sorted[i-1]) {
			continue
		}
		out = append(out, e)
	}
	return setVal{elems: out}
}

// members returns a static set's members (none for the empty value).
func members(v value) ([]value, bool) {
	switch v := v.(type) {
	case emptyVal:
		return nil, true
	case setVal:
		return v.elems, true
	}
	return nil, false
}

// env is one level of bindings; lookups go outwards. Each let opens a
// level, so that a function sees the bindings of its definition and not
// later ones (cat is lexically scoped).
type env struct {
	parent *env
	vars   map[string]value
	// tags maps each tag to its enumeration (enum).
	tags map[string]string
}

func (e *env) lookup(name string) (value, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (e *env) tagEnum(name string) (string, bool) {
	for ; e != nil; e = e.parent {
		if t, ok := e.tags[name]; ok {
			return t, true
		}
	}
	return "", false
}

// with returns a new level above e holding vars.
func (e *env) with(vars map[string]value) *env { return &env{parent: e, vars: vars} }
