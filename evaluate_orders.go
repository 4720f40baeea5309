package ptxmm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// An execution that gives some of the model's run-time orders is evaluated
// by a program in which those orders are inputs: the search then chooses
// only the others. Such a program is compiled once per set of orders given
// and kept with the model.

// orderNames checks the names of the orders an execution gives and
// returns them sorted.
func (m *Model) orderNames(given map[string][][2]int) ([]string, error) {
	if len(given) == 0 {
		return nil, nil
	}
	known := map[string]bool{}
	var list []string
	for _, o := range m.m.Syntax.Orders {
		known[o.Name] = true
		list = append(list, fmt.Sprintf("%s over %s", o.Name, o.Over))
	}
	names := sortedKeys(given)
	for _, n := range names {
		if known[n] {
			continue
		}
		if len(list) == 0 {
			return nil, fmt.Errorf("execution: %s is not an order of the model, which has no run-time orders", n)
		}
		return nil, fmt.Errorf("execution: %s is not an order of the model (its orders are %s; a relation the model derives, such as co, cannot be given)", n, strings.Join(list, ", "))
	}
	return names, nil
}

// program returns the model's program with the named orders as inputs.
func (m *Model) program(fixed []string) (*rules.Program, error) {
	if len(fixed) == 0 {
		return m.m.Program, nil
	}
	key := strings.Join(fixed, ",")
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.fixed[key]; ok {
		return p, nil
	}
	syn := *m.m.Syntax
	syn.Relations = make(map[string]*datalog.Relation, len(m.m.Syntax.Relations))
	for name, r := range m.m.Syntax.Relations {
		syn.Relations[name] = r
	}
	syn.Orders = nil
	for _, o := range m.m.Syntax.Orders {
		if !slices.Contains(fixed, o.Name) {
			syn.Orders = append(syn.Orders, o)
			continue
		}
		r := *syn.Relations[o.Name]
		r.Kind = datalog.RelInput
		syn.Relations[o.Name] = &r
	}
	p, errs := rules.Compile(&syn)
	if errs.HasErrors() {
		return nil, fmt.Errorf("execution: the model with %s given: %w", key, errs)
	}
	if m.fixed == nil {
		m.fixed = map[string]*rules.Program{}
	}
	m.fixed[key] = p
	return p, nil
}

// setOrders sets the orders the execution gives, each the transitive
// closure of its directions on the pairs of its Over relation, after
// checking that they are a choice the search could have made. It returns
// the pairs of each order's Over relation, which must not change during
// the search of the other orders (samePairs).
func (in *inputs) setOrders(fixed []string) (map[string]*relations.Rel, error) {
	pairs := map[string]*relations.Rel{}
	for _, name := range fixed {
		o := in.order(name)
		given, err := in.rel(name, in.x.Orders[name])
		if err != nil {
			return nil, err
		}
		over, err := in.inst.Rel(o.Over)
		if err != nil {
			return nil, err
		}
		if err := in.inst.Err(); err != nil {
			return nil, fmt.Errorf("execution: %w", err)
		}
		value, err := orderValue(o, given, over, in.x.Events)
		if err != nil {
			return nil, err
		}
		if err := in.inst.SetRel(name, value); err != nil {
			return nil, err
		}
		pairs[name] = over.Clone()
	}
	return pairs, nil
}

// samePairs refuses a given order whose pairs the search of the others
// changed: they depend on an order the execution does not give.
func (in *inputs) samePairs(pairs map[string]*relations.Rel) error {
	for _, name := range sortedKeys(pairs) {
		o := in.order(name)
		over, err := in.inst.Rel(o.Over)
		if err != nil {
			return err
		}
		if !over.Equal(pairs[name]) {
			return fmt.Errorf("execution: the pairs of order %s (%s) depend on orders the execution does not give: give those too", name, o.Over)
		}
	}
	return nil
}

func (in *inputs) order(name string) *datalog.Order {
	for _, o := range in.m.m.Syntax.Orders {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// orderValue checks a given order against the pairs it must direct and
// returns its value as the search would have it: the transitive closure
// of the directions of those pairs.
func orderValue(o *datalog.Order, given, over *relations.Rel, events []string) (*relations.Rel, error) {
	name := func(a int) string {
		if a < len(events) {
			return fmt.Sprintf("%q", events[a])
		}
		return fmt.Sprint(a)
	}
	dirs := relations.NewRel(given.N())
	for a, b := range over.All() {
		if a == b {
			continue
		}
		ab, ba := given.Has(a, b), given.Has(b, a)
		switch {
		case ab && ba:
			return nil, fmt.Errorf("execution: order %s relates %s and %s both ways", o.Name, name(a), name(b))
		case !ab && !ba && !o.Partial:
			return nil, fmt.Errorf("execution: order %s must relate %s and %s one way or the other (they are a pair of %s)", o.Name, name(a), name(b), o.Over)
		case ab:
			dirs.Add(a, b)
		}
	}
	value := dirs.Clone()
	value.TransitiveClosure()
	for a := range given.N() {
		if value.Has(a, a) {
			return nil, fmt.Errorf("execution: order %s has a cycle through %s: it must be a strict partial order", o.Name, name(a))
		}
	}
	for a, b := range given.All() {
		if !value.Has(a, b) {
			return nil, fmt.Errorf("execution: order %s relates %s to %s, which are not a pair of %s nor related through such pairs", o.Name, name(a), name(b), o.Over)
		}
	}
	return value, nil
}
