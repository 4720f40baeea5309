package cat

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// emptyExpr is the empty relation (or set): the complement of _.
func emptyExpr(pos source.Pos) datalog.Expr {
	return &datalog.Unary{Op: datalog.OpCompl, X: &datalog.Universe{Pos: pos}, Pos: pos}
}

// isEmptyExpr reports whether x is emptyExpr.
func isEmptyExpr(x datalog.Expr) bool {
	u, ok := x.(*datalog.Unary)
	if !ok || u.Op != datalog.OpCompl {
		return false
	}
	_, ok = u.X.(*datalog.Universe)
	return ok
}

// toRel reads a value as a relation or a set of events of the execution.
func (ev *evaluator) toRel(v value, pos source.Pos) (relVal, error) {
	switch v := v.(type) {
	case relVal:
		return v, nil
	case emptyVal:
		return relVal{x: emptyExpr(pos)}, nil
	case univVal:
		return relVal{x: &datalog.Universe{Pos: pos}}, nil
	case classVal:
		return relVal{x: v.set, arity: 1}, nil
	case poisonVal:
		return relVal{}, &poisonedError{name: v.name}
	}
	return relVal{}, errorf(pos, "expected a relation or a set of events, found a %s", describe(v))
}

// isRelational reports whether a value is a relation or set of events.
func isRelational(v value) bool {
	switch v.(type) {
	case relVal, univVal, classVal:
		return true
	}
	return false
}

// binary applies a binary operator.
func (ev *evaluator) binary(op BinOp, a, b value, pos source.Pos, en *env) (value, error) {
	for _, v := range []value{a, b} {
		if p, ok := v.(poisonVal); ok {
			return nil, &poisonedError{name: p.name}
		}
	}
	switch op {
	case OpAdd:
		return ev.add(a, b, pos)
	case OpUnion, OpInter, OpDiff:
		if v, ok, err := setOp(op, setOf(a), setOf(b), pos); ok || err != nil {
			return v, err
		}
		if _, ok := a.(emptyVal); ok {
			switch op {
			case OpUnion:
				return b, nil
			default:
				return emptyVal{}, nil
			}
		}
		if _, ok := b.(emptyVal); ok {
			switch op {
			case OpInter:
				return emptyVal{}, nil
			default:
				return a, nil
			}
		}
	case OpSeq:
		if isEmpty(a) || isEmpty(b) {
			return emptyVal{}, nil
		}
	case OpProduct:
		if isEmpty(a) || isEmpty(b) {
			return emptyVal{}, nil
		}
		if ca, ok := a.(classVal); ok {
			if cb, ok := b.(classVal); ok && ca == cb && ca.equiv != nil {
				// A class times itself, for every class: the pairs of S in
				// the same class.
				return relVal{x: &datalog.Binary{Op: datalog.OpInter, L: &datalog.Binary{Op: datalog.OpProduct, L: ca.set, R: ca.set, Pos: pos},
					R: ca.equiv, Pos: pos}, arity: 2}, nil
			}
		}
	}
	x, err := ev.toRel(a, pos)
	if err != nil {
		return nil, err
	}
	y, err := ev.toRel(b, pos)
	if err != nil {
		return nil, err
	}
	arity := 0
	switch op {
	case OpSeq:
		for _, r := range []relVal{x, y} {
			if r.arity == 1 {
				return nil, errorf(pos, "; composes relations, but one side is a set of events (write [S] for the identity on a set)")
			}
		}
		arity = 2
	case OpProduct:
		for _, r := range []relVal{x, y} {
			if r.arity == 2 {
				return nil, errorf(pos, "* between two operands is the product of two sets of events, but one side is a relation")
			}
		}
		arity = 2
	default:
		arity = x.arity
		if arity == 0 {
			arity = y.arity
		}
		if x.arity != 0 && y.arity != 0 && x.arity != y.arity {
			return nil, errorf(pos, "%s combines a set of events and a relation", op)
		}
	}
	return relVal{x: &datalog.Binary{Op: op, L: x.x, R: y.x, Pos: pos}, arity: arity}, nil
}

// setOp applies |, & or \ to two sets known when the model is loaded; ok
// is false when either is not one.
func setOp(op BinOp, a, b value, pos source.Pos) (value, bool, error) {
	am, aok := members(a)
	bm, bok := members(b)
	_, aset := a.(setVal)
	_, bset := b.(setVal)
	if !aok || !bok || !aset && !bset {
		if aset && isRelational(b) || bset && isRelational(a) {
			return nil, false, errorf(pos, "%s combines a set of values (tags, tuples, ...) and a relation or set of events of the execution", op)
		}
		return nil, false, nil
	}
	in := func(v value, list []value) bool {
		for _, m := range list {
			if key(m) == key(v) {
				return true
			}
		}
		return false
	}
	var out []value
	switch op {
	case OpUnion:
		out = append(append(out, am...), bm...)
	case OpInter:
		for _, m := range am {
			if in(m, bm) {
				out = append(out, m)
			}
		}
	case OpDiff:
		for _, m := range am {
			if !in(m, bm) {
				out = append(out, m)
			}
		}
	}
	return newSet(out), true, nil
}

// add is x ++ s: the set s with one more member.
func (ev *evaluator) add(x, s value, pos source.Pos) (value, error) {
	elems, ok := members(s)
	if !ok {
		return nil, errorf(pos, "++ adds a member to a set of values, but its right side is a %s", describe(s))
	}
	return newSet(append(append([]value(nil), elems...), x)), nil
}

// unary applies a unary operator.
func (ev *evaluator) unary(op UnOp, v value, pos source.Pos, en *env) (value, error) {
	if p, ok := v.(poisonVal); ok {
		return nil, &poisonedError{name: p.name}
	}
	if op == OpCompl {
		if s, ok := setOf(v).(setVal); ok {
			return ev.complementTags(s, pos, en)
		}
	}
	if isEmpty(v) {
		switch op {
		case OpPlus, OpInv, OpIdent:
			return emptyVal{}, nil
		}
	}
	x, err := ev.toRel(v, pos)
	if err != nil {
		return nil, err
	}
	arity := 2
	switch op {
	case OpCompl:
		arity = x.arity
	case OpIdent:
		if x.arity == 2 {
			return nil, errorf(pos, "[e] is the identity on a set of events, but e is a relation")
		}
	default:
		if x.arity == 1 {
			return nil, errorf(pos, "%s applies to relations, but this is a set of events", [...]string{"+", "*", "?", "^-1"}[op])
		}
	}
	if r, ok := x.x.(*datalog.RelRef); ok && op == OpPlus && ev.b.transitive[r.Name] {
		return x, nil
	}
	return relVal{x: &datalog.Unary{Op: op, X: x.x, Pos: pos}, arity: arity}, nil
}

// complementTags is ~s for a set of tags: the tags of its enumeration not
// in s.
func (ev *evaluator) complementTags(s setVal, pos source.Pos, en *env) (value, error) {
	t, ok := s.elems[0].(tagVal)
	if !ok {
		return nil, errorf(pos, "~ of a set of values is the tags of its enumeration it leaves out; this set holds a %s", describe(s.elems[0]))
	}
	all, ok := en.lookup(t.enum)
	allMembers, isSet := members(all)
	if !ok || !isSet {
		return nil, errorf(pos, "~ of a set of tags needs the enumeration %s", t.enum)
	}
	v, _, err := setOp(OpDiff, newSet(allMembers), s, pos)
	return v, err
}
