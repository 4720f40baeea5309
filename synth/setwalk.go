package synth

import "github.com/ptxmm/ptxmm/datalog"

// setOps reads set expressions over some domain of values: the test of
// the bounds for sets known empty (ownbound.go: a set is a bool, true
// when known empty) and the spreading of sets over a skeleton's nodes
// (ownprune.go: a set is the nodes it may and surely holds) walk the
// expressions alike, through walkSet.
type setOps[T any] struct {
	// top is what an expression walkSet does not read may be: anything
	// (and what cuts a cycle of definitions, none in a well-formed
	// program); univ is the universe's value.
	top, univ T
	// input is an input set's value.
	input func(name string) T
	// union, inter and diff combine the values of the operands.
	union, inter, diff func(l, r T) T
	// unary reads the other unary operators (complement, domain, range),
	// false where it does not.
	unary func(x *datalog.Unary) (T, bool)
}

// walkSet is the value of set expression e of model m, each named set
// remembered in memo.
func walkSet[T any](m *datalog.Model, memo map[string]T, ops *setOps[T], e datalog.Expr) T {
	switch x := e.(type) {
	case *datalog.Universe:
		return ops.univ
	case *datalog.RelRef:
		if v, ok := memo[x.Name]; ok {
			return v
		}
		r := m.Relations[x.Name]
		v := ops.top
		switch {
		case r == nil:
		case r.Kind == datalog.RelInput:
			v = ops.input(x.Name)
		case r.Def != nil:
			memo[x.Name] = ops.top
			v = walkSet(m, memo, ops, r.Def.Expr)
		}
		memo[x.Name] = v
		return v
	case *datalog.Binary:
		var f func(l, r T) T
		switch x.Op {
		case datalog.OpUnion:
			f = ops.union
		case datalog.OpInter:
			f = ops.inter
		case datalog.OpDiff:
			f = ops.diff
		default:
			return ops.top
		}
		return f(walkSet(m, memo, ops, x.L), walkSet(m, memo, ops, x.R))
	case *datalog.Unary:
		if v, ok := ops.unary(x); ok {
			return v
		}
	}
	return ops.top
}
