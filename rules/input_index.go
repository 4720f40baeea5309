package rules

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// InputIndex resolves once the input relation name, of the given arity,
// for SetSetAt, SetRelAt, InsertSetAt and InsertRelAt: a host that fills
// the same inputs for every candidate (catalog/fill) looks each name up
// once per program instead of once per candidate. The index holds for
// every instance of the instance's Program, and for no other.
func (in *Instance) InputIndex(name string, arity int) (int, error) {
	id, err := in.lookup(name, arity, true)
	return int(id), err
}

// SetSetAt is SetSet for the unary input relation InputIndex resolved.
func (in *Instance) SetSetAt(k int, s *relations.Set) error {
	id, err := in.indexed(k, 1)
	if err != nil {
		return err
	}
	return in.setSet(id, s)
}

// SetRelAt is SetRel for the binary input relation InputIndex resolved.
func (in *Instance) SetRelAt(k int, r *relations.Rel) error {
	id, err := in.indexed(k, 2)
	if err != nil {
		return err
	}
	return in.setRel(id, r)
}

// ClearAt empties the input relation InputIndex resolved, of either
// arity: SetSetAt or SetRelAt of an empty relation, for a host that knows
// the relation empty without filling it (catalog/fill's sets of
// instructions a test does not have, most of a test's sets). Comparing a
// filled copy cost more than the rest of setting it.
func (in *Instance) ClearAt(k int) error {
	if k < 0 || k >= len(in.p.rels) {
		return fmt.Errorf("no relation of the model has index %d", k)
	}
	id, err := in.indexed(k, in.p.rels[k].arity)
	if err != nil {
		return err
	}
	in.inc.dropStaged(id)
	if !in.stores[id].isEmpty() {
		in.stores[id].clear()
		in.invalidate(id)
	}
	return nil
}

// InsertSetAt is InsertSet for the unary input relation InputIndex
// resolved.
func (in *Instance) InsertSetAt(k int, s *relations.Set) error {
	id, err := in.indexed(k, 1)
	if err == nil {
		err = in.insertableID(id, s.N())
	}
	if err != nil {
		return err
	}
	in.insert(id, store{arity: 1, set: s})
	return nil
}

// InsertRelAt is InsertRel for the binary input relation InputIndex
// resolved.
func (in *Instance) InsertRelAt(k int, r *relations.Rel) error {
	id, err := in.indexed(k, 2)
	if err == nil {
		err = in.insertableID(id, r.N())
	}
	if err != nil {
		return err
	}
	in.insert(id, store{arity: 2, rel: r})
	return nil
}

// indexed checks an index from InputIndex as lookup checks a name: a
// settable relation of the given arity.
func (in *Instance) indexed(k, arity int) (relID, error) {
	if k < 0 || k >= len(in.p.rels) {
		return 0, fmt.Errorf("no relation of the model has index %d", k)
	}
	r := in.p.rels[k]
	if r.arity != arity {
		return 0, fmt.Errorf("relation %s has %d column(s), not %d", r.name, r.arity, arity)
	}
	if r.kind != datalog.RelInput && r.kind != datalog.RelOrder {
		return 0, fmt.Errorf("relation %s is not an .input relation of the model", r.name)
	}
	return relID(k), nil
}
