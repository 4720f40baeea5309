package ptxmm

import (
	"fmt"
	"sort"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Execution is an execution built by the caller: named events and the
// catalog's base relations over them (docs/catalog.md lists every name).
// Sets and relations the model reads but the execution leaves out are
// empty.
type Execution struct {
	// Events names the events; names must be unique and appear in witnesses.
	Events []string
	// Sets maps a catalog set (E, R, W, ACQ, GPU, ...) to event indices.
	Sets map[string][]int
	// Relations maps a catalog relation (po, rf, loc, scta, ...) to pairs of
	// event indices.
	Relations map[string][][2]int
}

// CheckVerdict is one check's verdict.
type CheckVerdict struct {
	Name  string
	Holds bool
	// Witness names the events showing the failure: a cycle for acyclic
	// checks (each related to the next and the last to the first), the
	// event related to itself for irreflexive ones, a tuple for empty ones.
	Witness []string
}

// Evaluation is the model evaluated on one execution.
type Evaluation struct {
	// Consistent is true when some choice of the model's run-time orders
	// (Fence-SC, coherence directions) makes every check hold.
	Consistent bool
	// Checks gives every check's verdict: all hold when Consistent; otherwise
	// the failing ones carry the first witness the order search found.
	Checks []CheckVerdict
	inst   *rules.Instance
	names  []string
}

// Evaluate evaluates the model on an execution. When the execution is
// consistent the derived relations (Relation) are those of the order
// choice that makes it so; otherwise those of the last choice tried.
func (m *Model) Evaluate(x *Execution) (*Evaluation, error) {
	dom := rules.NewDomain()
	for _, name := range x.Events {
		if _, err := dom.AddHost(name); err != nil {
			return nil, fmt.Errorf("execution: %w", err)
		}
	}
	inst := m.m.Program.NewInstance(dom)
	n := dom.Len()
	inputs := map[string]bool{}
	for _, name := range m.m.Syntax.Inputs() {
		inputs[name] = true
	}
	check := func(name string, arity int) error {
		e, ok := catalog.Lookup(name)
		switch {
		case !ok:
			return fmt.Errorf("execution: %s is not a catalog relation (see docs/catalog.md)", name)
		case e.Arity != arity:
			return fmt.Errorf("execution: %s has %d column(s) in the catalog", name, e.Arity)
		}
		return nil
	}
	valid := func(i int) error {
		if i < 0 || i >= len(x.Events) {
			return fmt.Errorf("execution: event index %d is out of range (there are %d events)", i, len(x.Events))
		}
		return nil
	}
	for _, name := range sortedKeys(x.Sets) {
		if err := check(name, 1); err != nil {
			return nil, err
		}
		if !inputs[name] {
			continue
		}
		s := relations.NewSet(n)
		for _, i := range x.Sets[name] {
			if err := valid(i); err != nil {
				return nil, err
			}
			s.Add(i)
		}
		if err := inst.SetSet(name, s); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(x.Relations) {
		if err := check(name, 2); err != nil {
			return nil, err
		}
		if !inputs[name] {
			continue
		}
		r := relations.NewRel(n)
		for _, p := range x.Relations[name] {
			if err := valid(p[0]); err != nil {
				return nil, err
			}
			if err := valid(p[1]); err != nil {
				return nil, err
			}
			r.Add(p[0], p[1])
		}
		if err := inst.SetRel(name, r); err != nil {
			return nil, err
		}
	}
	sol := inst.Solve()
	ev := &Evaluation{Consistent: sol.Consistent, inst: inst, names: x.Events}
	failed := map[string]rules.CheckResult{}
	for _, f := range sol.Failures {
		failed[f.Name] = f
	}
	for _, c := range m.m.Program.Checks() {
		v := CheckVerdict{Name: c.Name, Holds: true}
		if f, ok := failed[c.Name]; ok {
			v.Holds = false
			for _, a := range f.Witness {
				v.Witness = append(v.Witness, ev.atomName(a))
			}
		}
		ev.Checks = append(ev.Checks, v)
	}
	return ev, nil
}

func (e *Evaluation) atomName(a int) string {
	if a < len(e.names) {
		return e.names[a]
	}
	return e.inst.Domain().Value(a).String()
}

// Relation returns the tuples of any relation of the model (base or
// derived), with events by name.
func (e *Evaluation) Relation(name string) ([][]string, error) {
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

// Relations lists the names of every relation of the model a caller may
// read with Relation (generated helper relations excluded).
func (m *Model) Relations() []string {
	var out []string
	for _, name := range m.m.Syntax.Names {
		if r := m.m.Syntax.Relations[name]; !r.Generated && r.Kind != datalog.RelUniverse {
			out = append(out, name)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
