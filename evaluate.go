package ptxmm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Execution is an execution built by the caller: named events, the
// catalog's base relations over them (docs/catalog.md lists every name),
// and, optionally, the model's run-time orders. ExecutionBuilder makes one
// from per-event attributes.
//
// Every base relation the model reads (Model.Inputs) must be given, empty
// where it relates nothing: one left out is an error naming it, never
// taken as empty, since a forgotten loc or sgpu would turn a forbidden
// execution into a consistent one. Base relations the model does not read
// may be given too; names outside the catalog are errors.
type Execution struct {
	// Events names the events; names must be unique and appear in witnesses.
	Events []string `json:"events"`
	// Sets maps a catalog set (E, R, W, ACQ, GPU, ...) to event indices.
	Sets map[string][]int `json:"sets"`
	// Relations maps a catalog relation (po, rf, loc, scta, ...) to pairs of
	// event indices.
	Relations map[string][][2]int `json:"relations"`
	// Orders fixes run-time orders of the model (Model.Orders; for spec.dl
	// co_ms, the directions of the coherence order's morally strong pairs,
	// and fence_sc, the Fence-SC order) instead of searching them. Give
	// each order's direction on the pairs of its Over relation (or those
	// and what they relate transitively): a pair given both ways, a pair
	// of Over given neither way (unless the order is partial), a cycle, or
	// a pair outside what Over's directions relate is an error. An order
	// left out is searched: the execution is consistent when some choice
	// of it makes every check hold.
	Orders map[string][][2]int `json:"orders,omitempty"`
}

// CheckVerdict is one check's verdict.
type CheckVerdict struct {
	Name  string `json:"name"`
	Holds bool   `json:"holds"`
	// Witness names the events showing the failure: a cycle for acyclic
	// checks (each related to the next and the last to the first), the
	// event related to itself for irreflexive ones, a tuple for empty ones.
	Witness []string `json:"witness,omitempty"`
}

// Flag is a .flag or .undefined test of the model that an execution
// raises.
type Flag struct {
	Name string `json:"name"`
	// Undefined marks an .undefined test: the execution has undefined
	// behaviour.
	Undefined bool `json:"undefined,omitempty"`
	// Witness names the events raising it, as a check's witness does (the
	// racing pair of data_race).
	Witness []string `json:"witness,omitempty"`
}

// Evaluation is the model evaluated on one execution.
type Evaluation struct {
	// Consistent is true when some choice of the model's run-time orders
	// (those the execution does not give) makes every check hold.
	Consistent bool
	// Checks gives every check's verdict: all hold when Consistent; otherwise
	// the failing ones carry the first witness the order search found.
	Checks []CheckVerdict
	// Flags are the .flag and .undefined tests a consistent execution
	// raises (under some choice of the orders that makes it consistent,
	// as herd7 raises flags), each with a witness; none when it is not
	// consistent.
	Flags []Flag
	// Undefined is true when a raised flag is an .undefined test.
	Undefined bool
	model     *Model
	inst      *rules.Instance
	names     []string
}

// Evaluate evaluates the model on an execution. When the execution is
// consistent the derived relations (Relation) are those of the order
// choice that makes it so; otherwise those of the last choice tried. Of
// the options, WithTimeout (5 minutes unless set) and WithMaxMemory apply.
func (m *Model) Evaluate(x *Execution, opts ...Option) (*Evaluation, error) {
	return m.EvaluateContext(context.Background(), x, opts...)
}

// EvaluateContext is Evaluate under a context: cancelling it stops the
// evaluation with the context's error.
func (m *Model) EvaluateContext(ctx context.Context, x *Execution, opts ...Option) (*Evaluation, error) {
	o := options(opts)
	if o.Timeout > 0 {
		parent := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
		ev, err := m.evaluate(ctx, x, o)
		if err != nil && errors.Is(err, context.DeadlineExceeded) && parent.Err() == nil {
			return nil, fmt.Errorf("execution: the evaluation took longer than the time limit of %s; raise it with WithTimeout (ptxmm oracle -timeout): %w", o.Timeout, context.DeadlineExceeded)
		}
		return ev, err
	}
	return m.evaluate(ctx, x, o)
}

// evaluate is EvaluateContext under its time limit.
func (m *Model) evaluate(ctx context.Context, x *Execution, o checker.Options) (*Evaluation, error) {
	fixed, err := m.orderNames(x.Orders)
	if err != nil {
		return nil, err
	}
	prog, err := m.program(fixed)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(x.Events))
	for _, name := range x.Events {
		if seen[name] {
			return nil, fmt.Errorf("execution: event %q is named twice; names must be unique", name)
		}
		seen[name] = true
	}
	inst, err := m.pool.instance(prog, len(x.Events), rules.Limits{MaxBytes: o.MaxMemory})
	if err != nil {
		return nil, fmt.Errorf("execution: %w", err)
	}
	ev := &Evaluation{model: m, inst: inst, names: x.Events}
	if err := ev.evaluate(ctx, x, fixed); err != nil {
		ev.Close()
		return nil, err
	}
	return ev, nil
}

// evaluate sets the execution's relations and orders, searches the others
// and raises the flags.
func (e *Evaluation) evaluate(ctx context.Context, x *Execution, fixed []string) error {
	in := &inputs{m: e.model, x: x, inst: e.inst, n: e.inst.Domain().Len()}
	if err := in.set(); err != nil {
		return err
	}
	pairs, err := in.setOrders(fixed)
	if err != nil {
		return err
	}
	sol := e.inst.Solve(rules.WithContext(ctx))
	if sol.Err != nil {
		return fmt.Errorf("execution: %w", sol.Err)
	}
	if err := in.samePairs(pairs); err != nil {
		return err
	}
	e.Consistent = sol.Consistent
	e.Checks = e.verdicts(e.model, sol.Failures)
	if sol.Consistent {
		return e.raiseFlags(ctx)
	}
	return nil
}

// Close hands the evaluation's memory back to its model, for the next
// evaluation of an execution of the same size; Relation fails afterwards.
// An evaluation that is not closed is left to the garbage collector.
func (e *Evaluation) Close() {
	if e.inst != nil {
		e.model.pool.release(len(e.names), e.inst)
		e.inst = nil
	}
}

// verdicts lists every check of the model, failing where the search
// failed it.
func (e *Evaluation) verdicts(m *Model, failures []rules.CheckResult) []CheckVerdict {
	failed := map[string]rules.CheckResult{}
	for _, f := range failures {
		failed[f.Name] = f
	}
	var out []CheckVerdict
	for _, c := range m.m.Program.Checks() {
		v := CheckVerdict{Name: c.Name, Holds: true}
		if f, ok := failed[c.Name]; ok {
			v.Holds = false
			v.Witness = e.witness(f.Witness)
		}
		out = append(out, v)
	}
	return out
}

// raiseFlags evaluates the flags of a consistent execution. Looking for a
// choice of the orders that raises one moves the instance off the
// consistent choice, so the orders are put back afterwards.
func (e *Evaluation) raiseFlags(ctx context.Context) error {
	p := e.inst.Program()
	if len(p.Flags()) == 0 {
		return nil
	}
	saved := map[string]*relations.Rel{}
	for _, o := range p.Model().Orders {
		r, err := e.inst.Rel(o.Name)
		if err != nil {
			return err
		}
		saved[o.Name] = r.Clone()
	}
	undefined := map[string]bool{}
	for _, f := range p.Flags() {
		undefined[f.Name] = f.Mode == datalog.ModeUndefined
	}
	for _, f := range e.inst.RaisedFlags(rules.WithContext(ctx)) {
		e.Flags = append(e.Flags, Flag{Name: f.Name, Undefined: undefined[f.Name], Witness: e.witness(f.Witness)})
		e.Undefined = e.Undefined || undefined[f.Name]
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("execution: %w", err)
	}
	if err := e.inst.Err(); err != nil {
		return fmt.Errorf("execution: %w", err)
	}
	for name, r := range saved {
		if err := e.inst.SetRel(name, r); err != nil {
			return err
		}
	}
	if err := e.inst.RunContext(ctx); err != nil {
		return fmt.Errorf("execution: %w", err)
	}
	return nil
}

func (e *Evaluation) witness(atoms []int) []string {
	var out []string
	for _, a := range atoms {
		out = append(out, e.atomName(a))
	}
	return out
}

func (e *Evaluation) atomName(a int) string {
	if a < len(e.names) {
		return e.names[a]
	}
	return e.inst.Domain().Value(a).String()
}

// Relation returns the tuples of any relation of the model (base,
// derived or an order), with events by name.
func (e *Evaluation) Relation(name string) ([][]string, error) {
	if e.inst == nil {
		return nil, fmt.Errorf("relation %s: the evaluation is closed", name)
	}
	tu, err := e.inst.Tuples(name)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for t := range tu.All() {
		row := make([]string, len(t))
		for i, a := range t {
			row[i] = e.atomName(a)
		}
		out = append(out, row)
	}
	return out, nil
}

// inputs sets an execution's base relations on an instance.
type inputs struct {
	m    *Model
	x    *Execution
	inst *rules.Instance
	n    int
}

// set checks the execution's names and indices, refuses one that leaves
// out a base relation the model reads, and sets those it reads.
func (in *inputs) set() error {
	reads := map[string]bool{}
	for _, name := range in.m.Inputs() {
		reads[name] = true
	}
	orders := map[string]bool{}
	for _, o := range in.m.Orders() {
		orders[o.Name] = true
	}
	check := func(name string, arity int) error {
		e, ok := catalog.Lookup(name)
		switch {
		case !ok && orders[name]:
			return fmt.Errorf("execution: %s is an order of the model: give it in Orders", name)
		case !ok:
			return fmt.Errorf("execution: %s is not a catalog relation (see docs/catalog.md)", name)
		case e.Arity != arity && arity == 1:
			return fmt.Errorf("execution: %s is a relation of %d columns in the catalog: give it in Relations, not Sets", name, e.Arity)
		case e.Arity != arity:
			return fmt.Errorf("execution: %s is a set in the catalog: give it in Sets, not Relations", name)
		}
		return nil
	}
	for _, name := range sortedKeys(in.x.Sets) {
		if err := check(name, 1); err != nil {
			return err
		}
		if !reads[name] {
			continue
		}
		s := relations.NewSet(in.n)
		for _, i := range in.x.Sets[name] {
			if err := in.valid(name, i); err != nil {
				return err
			}
			s.Add(i)
		}
		if err := in.inst.SetSet(name, s); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(in.x.Relations) {
		if err := check(name, 2); err != nil {
			return err
		}
		if !reads[name] {
			continue
		}
		r, err := in.rel(name, in.x.Relations[name])
		if err != nil {
			return err
		}
		if err := in.inst.SetRel(name, r); err != nil {
			return err
		}
	}
	return in.missing()
}

// missing refuses an execution that leaves out a base relation the model
// reads.
func (in *inputs) missing() error {
	var out []string
	for _, name := range in.m.Inputs() {
		_, set := in.x.Sets[name]
		_, rel := in.x.Relations[name]
		if !set && !rel {
			out = append(out, name)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		e, _ := catalog.Lookup(out[0])
		return fmt.Errorf("execution: the model reads %s (%s), which the execution leaves out: give it, empty if it relates nothing (ExecutionBuilder derives the structural relations from the events' attributes)", out[0], e.Doc)
	}
	return fmt.Errorf("execution: the model reads %d base relations the execution leaves out: %s; give each, empty if it relates nothing (ExecutionBuilder derives the structural relations from the events' attributes)", len(out), strings.Join(out, ", "))
}

func (in *inputs) valid(name string, i int) error {
	if i < 0 || i >= len(in.x.Events) {
		return fmt.Errorf("execution: %s: event index %d is out of range (there are %d events)", name, i, len(in.x.Events))
	}
	return nil
}

// rel makes a relation of pairs of event indices.
func (in *inputs) rel(name string, pairs [][2]int) (*relations.Rel, error) {
	r := relations.NewRel(in.n)
	for _, p := range pairs {
		if err := in.valid(name, p[0]); err != nil {
			return nil, err
		}
		if err := in.valid(name, p[1]); err != nil {
			return nil, err
		}
		r.Add(p[0], p[1])
	}
	return r, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
