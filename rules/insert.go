package rules

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// Inputs can change incrementally too. A host that evaluates many variants
// of one set of inputs, differing in a few tuples of some relations (the
// candidate executions of one combination of thread runs, which differ in
// their reads-from), sets the common part, calls Checkpoint, and for each
// variant inserts its own tuples (InsertRel, InsertSet) and goes back to
// the checkpoint with Rollback. The relations the order search tests are
// then computed once at the checkpoint and updated from the inserted tuples
// for each variant, the way a search step updates them from new pairs of an
// order, and Rollback undoes the trail instead of recomputing.
//
// The relations the host sets change when these are called (Checkpoint
// empties the orders, an insertion after a search undoes the search, and
// Rollback undoes both), but nothing is evaluated then: the checkpoint's
// state and the inserted tuples are computed at the next evaluation (Run,
// Solve, or a read), under that evaluation's context and limits.

// Checkpoint empties the orders and makes the current inputs the state that
// Rollback returns to. Changing an input relation or an order with SetRel,
// SetSet or SetTuples forgets the checkpoint.
func (in *Instance) Checkpoint() {
	inc := &in.inc
	in.flushStaged()
	for _, op := range in.p.orders {
		if o := in.stores[op.rel].rel; !o.IsEmpty() {
			o.Clear()
			in.inputChanged(op.rel)
		}
	}
	inc.valid, inc.hasCheckpoint = false, false
	inc.ckptPending = true
}

// Rollback undoes every insertion and order search since the last
// Checkpoint, and reports whether it could: without a checkpoint, or after
// an input was set since, or after an evaluation stopped (a deadline or the
// memory limit), it changes nothing and returns false.
func (in *Instance) Rollback() bool {
	inc := &in.inc
	if inc.ckptPending {
		in.inc.dropStaged(-1)
		return true
	}
	if !inc.valid || !inc.hasCheckpoint {
		return false
	}
	in.inc.dropStaged(-1)
	in.undo(0)
	inc.searchBase = -1
	inc.atBase = true
	return true
}

// InsertRel adds the pairs of r to the binary input relation name. After a
// Checkpoint the relations depending on it are updated from the new pairs
// at the next evaluation (and a search since the checkpoint is undone, the
// orders empty again); otherwise this is SetRel with the union.
func (in *Instance) InsertRel(name string, r *relations.Rel) error {
	id, err := in.insertable(name, 2, r.N())
	if err != nil {
		return err
	}
	in.insert(id, store{arity: 2, rel: r})
	return nil
}

// InsertSet adds the atoms of s to the unary input relation name, as
// InsertRel does for a binary one.
func (in *Instance) InsertSet(name string, s *relations.Set) error {
	id, err := in.insertable(name, 1, s.N())
	if err != nil {
		return err
	}
	in.insert(id, store{arity: 1, set: s})
	return nil
}

// insertable looks up an input relation (an order is chosen by Solve, not
// inserted into) and checks the size of the domain of what is inserted.
func (in *Instance) insertable(name string, arity, n int) (relID, error) {
	id, err := in.lookup(name, arity, true)
	if err != nil {
		return 0, err
	}
	return id, in.insertableID(id, n)
}

// insertableID checks that relation id is an input, not an order, and
// that what is inserted is over the instance's domain of n atoms.
func (in *Instance) insertableID(id relID, n int) error {
	name := in.p.rels[id].name
	if in.p.rels[id].kind != datalog.RelInput {
		return fmt.Errorf("relation %s is an .order relation, which Solve chooses", name)
	}
	if n != in.n {
		return fmt.Errorf("relation %s: tuples over %d atoms, but the domain has %d", name, n, in.n)
	}
	return nil
}

// insert stages the tuples of src for relation id, or without a checkpoint
// adds them at once.
func (in *Instance) insert(id relID, src store) {
	inc := &in.inc
	if !inc.valid && !inc.ckptPending {
		if in.stores[id].unionWith(src) {
			in.invalidate(id)
		}
		return
	}
	if inc.valid && inc.searchBase >= 0 {
		// The insertion is a step from the checkpoint's inputs, with the
		// orders empty: the search's choice goes now, not at the next
		// evaluation, so that what the host sets in between stays.
		in.undo(inc.searchBase)
		inc.searchBase = -1
	}
	in.stageStore(id).unionWith(src)
}

// stageStore returns the store collecting the tuples inserted into r, and
// lists r among the staged relations.
func (in *Instance) stageStore(r relID) store {
	inc := &in.inc
	if inc.stage == nil {
		inc.stage = make([]store, len(in.p.rels))
	}
	if inc.stage[r].arity == 0 {
		inc.stage[r] = newStore(in.p.rels[r].arity, in.n)
	}
	if !inc.isStaged[r] {
		inc.isStaged[r] = true
		inc.staged = append(inc.staged, r)
	}
	return inc.stage[r]
}

// dropStaged forgets the tuples inserted into r (every relation for -1)
// that no evaluation has taken in yet. Nothing is staged at most calls
// (every input a fill sets): that case is inlined into the caller.
func (inc *incremental) dropStaged(r relID) {
	if len(inc.staged) > 0 {
		inc.dropSome(r)
	}
}

// dropSome is dropStaged when some relation is staged.
func (inc *incremental) dropSome(r relID) {
	kept := inc.staged[:0]
	for _, s := range inc.staged {
		if r >= 0 && s != r {
			kept = append(kept, s)
			continue
		}
		inc.stage[s].clear()
		inc.isStaged[s] = false
	}
	inc.staged = kept
}

// flushStaged adds the staged tuples to their relations as a plain change
// of the inputs: what depends on them is recomputed.
func (in *Instance) flushStaged() {
	inc := &in.inc
	staged := inc.staged
	inc.staged = nil
	for _, r := range staged {
		if in.stores[r].unionWith(inc.stage[r]) {
			in.invalidate(r)
		}
		inc.stage[r].clear()
		inc.isStaged[r] = false
	}
	inc.staged = staged[:0]
}

// settle takes in a pending checkpoint and the staged insertions: the
// checkpoint's state is computed (the strata the search tests, the orders
// empty) and the insertions are applied to it as one incremental step.
func (in *Instance) settle() {
	inc := &in.inc
	if inc.ckptPending {
		inc.ckptPending = false
		in.restart()
		inc.hasCheckpoint, inc.atBase = true, true
		for i, c := range in.p.checks {
			inc.baseHeld[i] = c.monotone && !in.violated(c)
		}
	}
	if len(inc.staged) == 0 {
		return
	}
	if !inc.valid {
		in.flushStaged()
		return
	}
	fromBase := inc.atBase
	in.inc.beginStep()
	for _, r := range inc.staged {
		if absorbStores(in, inc.stage[r], r) {
			addInto(in, in.chgStore(r), inc.stage[r])
			in.markChanged(r)
		}
		inc.stage[r].clear()
		inc.isStaged[r] = false
	}
	inc.staged = inc.staged[:0]
	in.propagate()
	inc.afterInsert = fromBase
}
