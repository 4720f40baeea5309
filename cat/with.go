package cat

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// "with x from S" runs the rest of a herd model once for each member of
// S. ptxmm's checker searches choices the same way, as .orders: a
// candidate execution is consistent when some choice of every order
// passes every check. So a with over a set of orders (the linearisations
// of a set of events, each of its classes apart or all of it, that
// include a given relation: linearisations, generate_orders,
// generate_cos, cross) becomes one .order the checker chooses, total
// over the pairs of each class, and a check that it includes the given
// relation:
//
//	.order x over ((S * S) & equiv) \ [_]
//	.check with-x: irreflexive((r & ((S * S) & equiv)) ; x | (r & ...))
//
// A model may also compute such a set with its own functions (herd's
// cross.cat does, by taking apart the classes of partition W and the
// linearisations of each). Those sets depend on the execution, so ptxmm
// cannot list their members when it loads the model; instead, inside the
// expression of a with only, a match over such a set sees one member that
// stands for every member, and the rest of the set empty: the member of a
// set of classes is every class at once (classVal), the member of a set
// of linearisations is an order the checker chooses (instantiate). That
// is exact where the result feeds the with (every member is searched);
// elsewhere ptxmm refuses to take such a set apart.

// choice is an order a with became.
type choice struct {
	name string
	pos  source.Pos
}

// familyPart is one set of linearisations: the strict total orders of set
// (of each class of equiv separately, when equiv is set) that include
// base.
type familyPart struct {
	set, equiv, base datalog.Expr
}

// with lowers "with x from e".
func (ev *evaluator) with(in *WithInstr, en *env) *env {
	saved, savedVar := ev.chosen, ev.withVar
	ev.choosing, ev.chosen, ev.withVar = true, nil, in.Var
	v, err := ev.eval(in.Set, en)
	chosen := ev.chosen
	ev.choosing, ev.chosen, ev.withVar = false, saved, savedVar
	if err != nil {
		ev.fail(err)
		return en.with(map[string]value{in.Var: poisonVal{name: in.Var}})
	}
	var m value
	switch s := v.(type) {
	case familyVal:
		dn := ev.b.version(in.Var)
		return en.with(map[string]value{in.Var: ev.instantiate(s, dn, in.Var, in.Pos)})
	case emptyVal:
		// No member: no execution goes on.
		c := &datalog.Check{Name: "with-" + in.Var, Kind: datalog.CheckEmpty, Mode: datalog.ModeAxiom, Pos: in.Pos,
			Expr: &datalog.Universe{Pos: in.Pos}}
		ev.b.check(c, ev.labels)
		return en.with(map[string]value{in.Var: emptyVal{}})
	case setVal:
		if len(s.elems) != 1 {
			ev.fail(errorf(in.Set.Position(), "with %s from a set of %d values: ptxmm chooses among the orders of a set of linearisations (linearisations, generate_orders, generate_cos, cross), which it searches as .orders; it cannot run the rest of the model once for each of several values", in.Var, len(s.elems)))
			return en.with(map[string]value{in.Var: poisonVal{name: in.Var}})
		}
		m = s.elems[0]
	default:
		ev.fail(errorf(in.Set.Position(), "with %s from a %s: ptxmm chooses among the orders of a set of linearisations (linearisations, generate_orders, generate_cos, cross), which it searches as .orders; a member of a set of the execution cannot be chosen", in.Var, describe(v)))
		return en.with(map[string]value{in.Var: poisonVal{name: in.Var}})
	}
	if r, ok := m.(relVal); ok {
		if ref, isRef := r.x.(*datalog.RelRef); isRef && len(chosen) == 1 && chosen[0].name == ref.Name {
			// The member is the order chosen: it takes the variable's name.
			dn := ev.b.version(in.Var)
			ev.b.rename(map[string]string{ref.Name: dn})
			return en.with(map[string]value{in.Var: ev.b.ref(dn, in.Pos)})
		}
	}
	return en.with(map[string]value{in.Var: ev.name(in.Var, m, in.Pos)})
}

// member returns the member of a set of the execution that stands for
// all of them, inside the expression of a with.
func (ev *evaluator) member(v value, pos source.Pos) (value, error) {
	if !ev.choosing {
		return nil, errorf(pos, "this %s depends on the execution: ptxmm takes such a set apart only in the expression of with x from, where it chooses one member as it chooses .orders (docs/cat.md, \"with\")", describe(v))
	}
	switch s := v.(type) {
	case classesVal:
		return classVal(s), nil
	case familyVal:
		return ev.instantiate(s, ev.b.fresh(ev.withVar, "choice"), ev.withVar, pos), nil
	}
	return nil, errorf(pos, "unexpected %s", describe(v))
}

// instantiate makes the orders that choose a member of a family, named
// dn (dn$2, ... for the further parts of a cross), and returns the
// member: their union.
func (ev *evaluator) instantiate(f familyVal, dn, label string, pos source.Pos) relVal {
	var member datalog.Expr
	for i, p := range f.parts {
		name := dn
		if i > 0 {
			name = fmt.Sprintf("%s$%d", dn, i+1)
		}
		pairs := &datalog.Binary{Op: datalog.OpProduct, L: p.set, R: p.set, Pos: pos}
		var scope datalog.Expr = pairs
		if p.equiv != nil {
			scope = &datalog.Binary{Op: datalog.OpInter, L: pairs, R: p.equiv, Pos: pos}
		}
		ident := &datalog.Unary{Op: datalog.OpIdent, X: &datalog.Universe{Pos: pos}, Pos: pos}
		ev.b.define(name+"$pairs", relVal{x: &datalog.Binary{Op: datalog.OpDiff, L: scope, R: ident, Pos: pos}, arity: 2}, pos,
			"the pairs the order "+label+" relates one way or the other")
		ev.b.prog.Orders = append(ev.b.prog.Orders, &datalog.Order{Name: name, Over: name + "$pairs", Pos: pos,
			Doc: "chosen by the checker: a strict total order of each class, for with " + label + " from ..."})
		ev.b.arity[name] = 2
		ev.b.edges = append(ev.b.edges, name)
		ev.chosen = append(ev.chosen, &choice{name: name, pos: pos})
		ref := &datalog.RelRef{Name: name, Pos: pos}
		if p.base != nil {
			// The order includes base: no pair of base, restricted to the
			// classes, goes against it (nor relates an event to itself).
			within := &datalog.Binary{Op: datalog.OpInter, L: p.base, R: scope, Pos: pos}
			against := &datalog.Binary{Op: datalog.OpSeq, L: within, R: ref, Pos: pos}
			ev.b.check(&datalog.Check{Name: "with-" + label, Kind: datalog.CheckIrreflexive, Mode: datalog.ModeAxiom, Pos: pos,
				Expr: &datalog.Binary{Op: datalog.OpUnion, L: against, R: within, Pos: pos},
				Doc:  "the order chosen for " + label + " includes the relation it extends"}, ev.labels)
		}
		if member == nil {
			member = ref
		} else {
			member = &datalog.Binary{Op: datalog.OpUnion, L: member, R: ref, Pos: pos}
		}
	}
	if member == nil {
		return relVal{x: emptyExpr(pos), arity: 2}
	}
	return relVal{x: member, arity: 2}
}
