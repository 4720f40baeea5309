package fill

import (
	"context"
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Filler sets a model's input relations from candidate executions. It keeps
// the relations that depend only on the threads' runs between candidates
// that share them, so consecutive candidates of one combination of runs
// cost only their reads-from and barrier groups: the instance's checkpoint
// holds the combination's relations with those empty, and each candidate
// goes back to it (rules.Instance.Rollback) and inserts its own, which the
// instance takes in incrementally. A Filler is not safe for concurrent use.
type Filler struct {
	// inputs holds the model's .input relations, each with what filling
	// it needs, in one slice: put reads a hundred of them per test, and
	// the bounds checks of six parallel slices were a good part of its
	// own cost.
	inputs []input
	// all and choice list the positions in inputs of every input and of
	// the choice relations (choiceRelation): a candidate of the same
	// combination of runs as the last refills only the latter, and looking
	// through every input's name for them cost MP with 14 payloads 3%.
	all, choice []int
	// last identifies the combination of runs whose static relations the
	// instance already holds.
	lastInst  *rules.Instance
	lastCombo []int
	// cur holds the filler's copies of the inputs for the domain size of
	// the last fill, and sized those of every size up to maxKeptAtoms
	// met so far: a host checking many tests fills domains of a few sizes
	// again and again.
	cur   *sizedInputs
	sized map[int]*sizedInputs
	// idsOf is the program the inputs' ids are of.
	idsOf *rules.Program
	// hostFilled is set once a test with host threads was filled.
	hostFilled bool
	// sameCombo counts the candidates filled since the combination of runs
	// last changed.
	sameCombo int
}

// The choice relations of a candidate are inserted into a checkpoint holding
// the rest of its combination of runs, rather than set with them, from the
// combination's checkpointFrom-th candidate on (counted from 0: the
// checkpoint costs an evaluation of its own, which combinations of one or
// two candidates do not earn back), in executions of checkpointAtoms events
// or more. In smaller ones, what depends on the reads-from is most of what
// the model derives, and computing it again costs less than updating it
// and undoing the update (on the corpora's ticket locks, 25 µs a candidate
// against 35 µs); and the checker's warm start, which sets the orders of
// the last consistent candidate, forgets the checkpoint each time it is
// tried, which costs MP with 14 payloads (45 events) 15%. On one thread
// of 200 stores (202 events) the checkpoint makes the check 3 times
// faster.
const (
	checkpointFrom  = 2
	checkpointAtoms = 100
)

// input is one input relation of the model and what filling it needs.
type input struct {
	name  string
	arity int  // the catalog arity
	host  bool // a host relation (catalog.HostInput)
	// set is the filler of an input of arity 1, rel that of any other,
	// made once here rather than looking the name up at every fill.
	set *setFiller
	rel relFiller
	// id is the input's index in the program of Filler.idsOf
	// (rules.Instance.InputIndex), resolved at the first fill of an
	// instance of that program: a fill sets a hundred inputs by index
	// instead of looking each name up in two maps. An input that does not
	// resolve has id -1 and its error in idErr, returned when it is set,
	// as a lookup by name returned it.
	id    int
	idErr error
}

// New prepares to fill the inputs of model m (validated with
// catalog.Validate).
func New(m *datalog.Model) *Filler {
	f := &Filler{}
	for k, name := range m.Inputs() {
		e, _ := catalog.Lookup(name)
		in := input{name: name, arity: e.Arity, host: catalog.HostInput(name)}
		// put fills an input of arity 1 as a set, any other as a relation.
		if e.Arity == 1 {
			in.set = setFillerOf(name)
		} else {
			in.rel = relFillerOf(name)
		}
		f.inputs = append(f.inputs, in)
		f.all = append(f.all, k)
		if choiceRelation(name) {
			f.choice = append(f.choice, k)
		}
	}
	return f
}

// Reset makes the filler forget the instance and the combination of runs
// it filled last, and whether it met host threads, as a new filler would:
// for a host that resets the instances it fills (rules.Instance.Reset)
// and fills them again for another test. It keeps its memory.
func (f *Filler) Reset() {
	f.lastInst, f.lastCombo = nil, f.lastCombo[:0]
	f.hostFilled = false
	f.sameCombo = 0
}

// choiceRelation reports whether a catalog relation is filled anew for
// every candidate: it depends on the candidate's choices rather than only
// on its runs, or (cbar) on what the enumeration computes only for a
// complete candidate.
func choiceRelation(name string) bool {
	// The names of catalog.ChoiceRelations, without building its slice: this runs
	// for every input of every candidate.
	switch name {
	case "rf", "bar", "cbar", "MBAR_UNINIT", "NOCOMPLETE_COMPLETES", "MBAR_PENDING_OVER":
		return true
	}
	return false
}

// ChoicesVarying lists the relations of catalog.ChoiceRelations that some
// candidate of x's combination of runs may fill: rf when it has reads,
// bar and cbar when it has barrier arrivals, MBAR_UNINIT when it has
// mbarrier reads of a location some write of which may hold no mbarrier
// state, NOCOMPLETE_COMPLETES when it has a .noComplete arrive,
// MBAR_PENDING_OVER when it has a pending-count increment. The others
// are empty in every candidate of the combination, as FillPartial fills
// them.
func ChoicesVarying(x *execution.Execution) []string {
	var reads, barriers, mbarReads, noComplete, pendingInc bool
	for i := range x.Events {
		ev := &x.Events[i]
		switch {
		case ev.IsInit():
		case ev.Kind == execution.KindBarrier:
			barriers = true
		case ev.Kind == execution.KindRead:
			reads = true
			mbarReads = mbarReads || accessesMBar(ev) && !x.OnlyMBarStates(ev.Loc)
			noComplete = noComplete || ev.Instr.NoComplete
			pendingInc = pendingInc || ev.Role == execution.RolePendingInc
		}
	}
	var out []string
	for _, c := range []struct {
		name string
		may  bool
	}{{"rf", reads}, {"bar", barriers}, {"cbar", barriers}, {"MBAR_UNINIT", mbarReads}, {"NOCOMPLETE_COMPLETES", noComplete}, {"MBAR_PENDING_OVER", pendingInc}} {
		if c.may {
			out = append(out, c.name)
		}
	}
	return out
}

// Fill sets every input relation of the model in inst from x. The
// instance's domain must have one host atom per event of x, in event order,
// before any other atom.
func (f *Filler) Fill(inst *rules.Instance, x *execution.Execution) error {
	return f.fill(context.Background(), inst, x, false)
}

// FillContext is Fill under a context: filling the relations of a big
// execution (those over every pair of events take time in the square of
// their number) stops soon after ctx is done, with ctx's error.
func (f *Filler) FillContext(ctx context.Context, inst *rules.Instance, x *execution.Execution) error {
	return f.fill(ctx, inst, x, false)
}

// FillPartial is Fill for a partial candidate of a reads-from search
// (execution.Search.Prune), whose reads with x.RF -1 have no write and no
// value yet. Each relation of catalog.ChoiceRelations gets tuples that every
// completion of x has: rf its pairs chosen so far, the others none.
func (f *Filler) FillPartial(inst *rules.Instance, x *execution.Execution) error {
	return f.fill(context.Background(), inst, x, true)
}

// PartialIsWhole reports whether FillPartial fills the complete candidate
// x as Fill does: its relations of catalog.ChoiceRelations other than rf are empty
// (no barrier group of two arrivals, no cluster phase with a wait, no read
// of an uninitialized mbarrier, no .noComplete arrive that completes a
// phase).
func PartialIsWhole(x *execution.Execution) bool {
	for _, g := range x.BarGroups {
		if len(g) > 1 {
			return false
		}
	}
	for _, ph := range x.ClusterPhases {
		if len(ph.Arrives) > 0 && len(ph.Waits) > 0 {
			return false
		}
	}
	for i := range x.Events {
		if readsUninitMBar(&x.Events[i]) {
			return false
		}
	}
	return !completesNoComplete(x, func(int) bool { return false })
}

func (f *Filler) fill(ctx context.Context, inst *rules.Instance, x *execution.Execution, partial bool) error {
	n := inst.Domain().Len()
	if n < len(x.Events) {
		return fmt.Errorf("catalog: the domain has %d atoms for %d events", n, len(x.Events))
	}
	static := f.lastInst != inst || !slices.Equal(f.lastCombo, x.Combo)
	if f.cur == nil || f.cur.n != n {
		f.cur = f.inputsOf(n)
		static = true
	}
	f.sameCombo++
	if static {
		f.sameCombo = 0
	}
	f.hostFilled = f.hostFilled || x.Test.HasHost()
	// A partial candidate's choice relations other than rf are not known
	// yet: they stay empty.
	unknown := func(name string) bool { return partial && choiceRelation(name) && name != "rf" }
	var err error
	switch {
	case static:
		err = f.put(ctx, inst, x, f.all, unknown, false)
	case f.sameCombo < checkpointFrom || n < checkpointAtoms:
		err = f.put(ctx, inst, x, f.choice, unknown, false)
	default:
		if f.sameCombo == checkpointFrom || !inst.Rollback() {
			// The checkpoint: the combination's relations, the choice
			// relations empty.
			if err = f.put(ctx, inst, x, f.choice, choiceRelation, false); err != nil {
				return err
			}
			inst.Checkpoint()
		}
		err = f.put(ctx, inst, x, f.choice, unknown, true)
	}
	if err != nil {
		if ctx.Err() != nil {
			// Cut short: the relations held are not those of x.
			f.lastInst = nil
		}
		return err
	}
	f.lastInst = inst
	f.lastCombo = append(f.lastCombo[:0], x.Combo...)
	return nil
}

// put fills the inputs at the positions ks from x (leaving those blank
// accepts empty) and sets them in inst, or inserts them.
func (f *Filler) put(ctx context.Context, inst *rules.Instance, x *execution.Execution, ks []int, blank func(string) bool, insert bool) error {
	n := inst.Domain().Len()
	if f.idsOf != inst.Program() {
		f.resolve(inst)
	}
	var have eventGate // the properties of x's events, found at the first set filled
	haveKnown := false
	for _, k := range ks {
		in := &f.inputs[k]
		// ctx is looked at before each binary relation (those over pairs
		// of events may take time in the square of their number), not
		// before each set: a set takes a walk over the events, shorter
		// than the look on a small test.
		if in.arity != 1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		name := in.name
		// Host relations are empty without host threads: a fresh instance
		// already holds them empty, so they are filled only once some test
		// of this filler had host threads.
		if !f.hostFilled && in.host {
			continue
		}
		if in.id < 0 {
			return in.idErr
		}
		var err error
		if in.arity == 1 {
			empty := blank(name)
			if !empty {
				if !haveKnown {
					have, haveKnown = gateOf(x), true
				}
				empty = in.set.emptyFor(have)
			}
			if empty && !insert {
				// Most of a test's sets: nothing to fill or compare.
				if err := inst.ClearAt(in.id); err != nil {
					return err
				}
				continue
			}
			s := f.set(k, n)
			if !empty {
				in.set.fill(s, x, have)
			}
			if insert {
				err = inst.InsertSetAt(in.id, s)
			} else {
				err = inst.SetSetAt(in.id, s)
			}
		} else {
			r := f.rel(k, n)
			if !blank(name) {
				if err := in.rel(ctx, r, x); err != nil {
					return err
				}
			}
			if !insert && r.IsEmpty() {
				// Most of a test's relations other than the "same"
				// ones: emptied without a comparison.
				if err := inst.ClearAt(in.id); err != nil {
					return err
				}
				continue
			}
			if insert {
				err = inst.InsertRelAt(in.id, r)
			} else {
				err = inst.SetRelAt(in.id, r)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// resolve looks up the index of every input in inst's program.
func (f *Filler) resolve(inst *rules.Instance) {
	for k := range f.inputs {
		in := &f.inputs[k]
		id, err := inst.InputIndex(in.name, in.arity)
		if err != nil {
			id = -1
		}
		in.id, in.idErr = id, err
	}
	f.idsOf = inst.Program()
}

// sizedInputs holds the filler's copy of each input relation over a
// domain of n atoms, by position in the filler's inputs, allocated on
// first use.
type sizedInputs struct {
	n    int
	sets []*relations.Set
	rels []*relations.Rel
}

// maxKeptAtoms is the largest domain whose copies the filler keeps once it
// fills another size: those of litmus tests, not those of a big test.
const maxKeptAtoms = 256

// inputsOf returns the copies for a domain of n atoms.
func (f *Filler) inputsOf(n int) *sizedInputs {
	if in, ok := f.sized[n]; ok {
		return in
	}
	in := &sizedInputs{n: n, sets: make([]*relations.Set, len(f.inputs)), rels: make([]*relations.Rel, len(f.inputs))}
	if n <= maxKeptAtoms {
		if f.sized == nil {
			f.sized = map[int]*sizedInputs{}
		}
		f.sized[n] = in
	}
	return in
}

func (f *Filler) set(k, n int) *relations.Set {
	s := f.cur.sets[k]
	if s == nil {
		s = relations.NewSet(n)
		f.cur.sets[k] = s
	}
	s.Clear()
	return s
}

func (f *Filler) rel(k, n int) *relations.Rel {
	r := f.cur.rels[k]
	if r == nil {
		r = relations.NewRel(n)
		f.cur.rels[k] = r
	}
	r.Clear()
	return r
}

// fillRel fills r, a catalog binary relation, from x.
func fillRel(r *relations.Rel, name string, x *execution.Execution) {
	_ = relFillerOf(name)(context.Background(), r, x) // fails only when ctx does
}

// fillRelContext is fillRel under a context: the relations over pairs of
// events look at ctx once per event.
func fillRelContext(ctx context.Context, r *relations.Rel, name string, x *execution.Execution) error {
	return relFillerOf(name)(ctx, r, x)
}

// relFiller fills a catalog binary relation under a context.
type relFiller func(ctx context.Context, r *relations.Rel, x *execution.Execution) error

// relFillerOf returns the filler of the catalog relation name. The
// Filler makes it once per relation, rather than looking the name up at
// every fill.
func relFillerOf(name string) relFiller {
	pairs := func(of func(x *execution.Execution) [][2]int) relFiller {
		return func(_ context.Context, r *relations.Rel, x *execution.Execution) error {
			for _, p := range of(x) {
				r.Add(p[0], p[1])
			}
			return nil
		}
	}
	whole := func(fill func(r *relations.Rel, x *execution.Execution)) relFiller {
		return func(_ context.Context, r *relations.Rel, x *execution.Execution) error {
			fill(r, x)
			return nil
		}
	}
	switch name {
	case "po":
		return fillPO
	case "cbar":
		return whole(func(r *relations.Rel, x *execution.Execution) {
			for _, ph := range x.ClusterPhases {
				for _, a := range ph.Arrives {
					for _, w := range ph.Waits {
						r.Add(a, w)
					}
				}
			}
		})
	case "pf_window":
		return whole(fillProxyFenceWindow)
	case "wait_pending":
		return whole(fillWaitPending)
	case "group_commit":
		return whole(fillGroupCommit)
	case "same_group":
		return whole(fillSameGroup)
	case "rf":
		return whole(func(r *relations.Rel, x *execution.Execution) {
			for i, w := range x.RF {
				if w >= 0 {
					r.Add(w, i)
				}
			}
		})
	case "rmw":
		return pairs(func(x *execution.Execution) [][2]int { return x.RMW })
	case "addr":
		return pairs(func(x *execution.Execution) [][2]int { return x.Addr })
	case "data":
		return pairs(func(x *execution.Execution) [][2]int { return x.Data })
	case "ctrl":
		return pairs(func(x *execution.Execution) [][2]int { return x.Ctrl })
	case "stream_next", "event_wait", "barrier_wait", "kernel_thread", "graph_node", "graph_dep", "api_wait", "device_task":
		return whole(func(r *relations.Rel, x *execution.Execution) { fillHostRel(r, name, x) })
	case "bar":
		return whole(func(r *relations.Rel, x *execution.Execution) {
			for _, g := range x.BarGroups {
				for _, a := range g {
					for _, b := range g {
						if a != b {
							r.Add(a, b)
						}
					}
				}
			}
		})
	}
	if rel, ok := sameRelationOf(name); ok {
		return sameFiller(rel)
	}
	// No other catalog relation: empty.
	return whole(func(*relations.Rel, *execution.Execution) {})
}

// fillPO fills po. Asynchronous operations are in no program order
// (8.9.1.1), and neither are the operations of one multimem instruction
// on its different locations among themselves, the elements of a vector
// or packed access (8.2.4, 8.2.5) or the pieces of one read
// (execution/bytes.go).
func fillPO(ctx context.Context, r *relations.Rel, x *execution.Execution) error {
	for t, run := range x.Runs {
		base := x.ThreadStart[t]
		for i := range run.Events {
			if err := ctx.Err(); err != nil {
				return err
			}
			if run.Events[i].Async {
				continue
			}
			for j := i + 1; j < len(run.Events); j++ {
				if !run.Events[j].Async && !multimemSiblings(&run.Events[i], &run.Events[j]) && !execution.Unordered(&run.Events[i], &run.Events[j]) {
					r.Add(base+i, base+j)
				}
			}
		}
	}
	return nil
}

// fillWaitPending relates each wait_group N to the N most recent
// commit_group events of its family before it in its thread: the groups it
// does not wait for (PTX ISA: cp.async.wait_group, cp.async.bulk.wait_group,
// wgmma.wait_group).
func fillWaitPending(r *relations.Rel, x *execution.Execution) {
	for t, run := range x.Runs {
		base := x.ThreadStart[t]
		commits := map[litmus.GroupFamily][]int{}
		for i := range run.Events {
			ev := &run.Events[i]
			if ev.Kind != execution.KindControl || ev.Instr.Op != litmus.OpAsyncGroup {
				continue
			}
			in := ev.Instr
			switch in.GroupOp {
			case litmus.GroupCommit:
				commits[in.Family] = append(commits[in.Family], base+i)
			case litmus.GroupWait:
				cs := commits[in.Family]
				n := int(in.Count.Imm)
				for k := max(0, len(cs)-n); k < len(cs); k++ {
					r.Add(base+i, cs[k])
				}
			}
		}
	}
}

// fillGroupCommit relates the issue of each asynchronous instruction that
// groups (cp.async, the bulk stores and reductions, wgmma.mma_async) to the
// commit of its family that closes its group: the first one after it in
// its thread (PTX ISA: commit_group "creates a new group ... of all prior
// uncommitted" operations). cp.async.wait_all closes a cp.async-group too,
// as it "is equivalent to" cp.async.commit_group followed by
// cp.async.wait_group 0. A bulk load completes on an mbarrier and is in no
// bulk async-group: cp.async.bulk.commit_group batches only the prior
// instructions that "use bulk_group based completion mechanism".
func fillGroupCommit(r *relations.Rel, x *execution.Execution) {
	eachGroup(x, func(_, base int, issues []int, commit int) {
		for _, issue := range issues {
			r.Add(base+issue, base+commit)
		}
	})
}

// eachGroup calls f with each committed async-group of each thread t
// (base: the index of its first event in x.Events): the run indexes of the issues of the instructions in it (tracked by
// async-group completion: a bulk load, completed on an mbarrier, is in
// none) and of the commit_group (or cp.async.wait_all) that closes it.
func eachGroup(x *execution.Execution, f func(t, base int, issues []int, commit int)) {
	for t, run := range x.Runs {
		open := map[litmus.GroupFamily][]int{}
		for i := range run.Events {
			ev := &run.Events[i]
			in := ev.Instr
			switch {
			case ev.Kind == execution.KindIssue && (in.Op == litmus.OpCopy || in.Op == litmus.OpWgmma):
				fam := litmus.GroupWgmma
				if in.Op == litmus.OpCopy {
					if in.Copy == litmus.CopyBulkLoad {
						continue
					}
					fam = litmus.GroupCpAsync
					if in.Copy.Bulk() {
						fam = litmus.GroupBulk
					}
				}
				open[fam] = append(open[fam], i)
			case ev.Kind == execution.KindControl && in.Op == litmus.OpAsyncGroup && (in.GroupOp == litmus.GroupCommit || in.GroupOp == litmus.GroupWaitAll):
				if len(open[in.Family]) > 0 {
					f(t, x.ThreadStart[t], open[in.Family], i)
				}
				open[in.Family] = nil
			}
		}
	}
}

// fillSameGroup relates the events of two different instruction instances
// of one committed async-group (eachGroup): "A commit operation creates a
// per-thread async-group containing all prior asynchronous operations
// tracked by async-group completion and initiated by the executing thread
// but none of the asynchronous operations following the commit operation"
// (PTX ISA 9.7.9.25.1.1). An instance's events share its step.
func fillSameGroup(r *relations.Rel, x *execution.Execution) {
	eachGroup(x, func(t, base int, issues []int, _ int) {
		if len(issues) < 2 {
			return
		}
		run := x.Runs[t]
		steps := make(map[int]bool, len(issues))
		for _, i := range issues {
			steps[run.Events[i].Step] = true
		}
		var members []int
		for i := range run.Events {
			if steps[run.Events[i].Step] {
				members = append(members, i)
			}
		}
		for _, a := range members {
			for _, b := range members {
				if run.Events[a].Step != run.Events[b].Step {
					r.Add(base+a, base+b)
				}
			}
		}
	})
}
