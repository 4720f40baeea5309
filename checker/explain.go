package checker

import (
	"context"
	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Explain expands a failed check of a candidate into a chain of edges of
// the model's .edges relations (and base relations): the cycle, or the pair,
// that makes the check fail. It replays the order choice the failure was
// found under.
func (m *Model) Explain(x *execution.Execution, f rules.CheckResult) ([]rules.Edge, error) {
	inst, err := m.Replay(x, f.Orders)
	if err != nil {
		return nil, err
	}
	return inst.ExplainCheck(f, m.Program.StopAtEdges())
}

// Replay builds an instance holding a candidate with the given order
// relations, evaluated with provenance, ready for Why, Path or reading any
// relation.
func (m *Model) Replay(x *execution.Execution, orders map[string]*relations.Rel) (*rules.Instance, error) {
	inst, err := m.filledInstance(x)
	if err != nil {
		return nil, err
	}
	for name, r := range orders {
		if err := inst.SetRel(name, r); err != nil {
			return nil, err
		}
	}
	inst.RecordProvenance()
	return inst, nil
}

// filledInstance returns a fresh instance over x's events holding the
// catalog's facts for x.
func (m *Model) filledInstance(x *execution.Execution) (*rules.Instance, error) {
	inst := m.Program.NewInstance(eventDomain(len(x.Events)))
	if err := fill.New(m.Syntax).Fill(inst, x); err != nil {
		return nil, err
	}
	return inst, nil
}

// explainAll explains each failure, leaving nil where one cannot be expanded.
func explainAll(m *Model, x *execution.Execution, failures []rules.CheckResult) [][]rules.Edge {
	out := make([][]rules.Edge, len(failures))
	for i, f := range failures {
		if edges, err := m.Explain(x, f); err == nil {
			out[i] = edges
		}
	}
	return out
}

// Instance builds an instance holding a candidate, evaluated with
// provenance under the order choice that makes it consistent or, for an
// inconsistent candidate, under the first choice the search found failing.
func (m *Model) Instance(c Candidate) (*rules.Instance, error) {
	return m.InstanceContext(context.Background(), c, 0)
}

// Inputs returns an instance holding only what the catalog states of the
// candidate (the model's input relations), unsolved: cheaper than Instance
// where the derived relations are not wanted.
func (m *Model) Inputs(c Candidate) (*rules.Instance, error) {
	inst := m.Program.NewInstance(eventDomain(len(c.Execution.Events)))
	if err := fill.New(m.Syntax).Fill(inst, c.Execution); err != nil {
		return nil, err
	}
	return inst, nil
}

// EachInputs calls f, for each candidate in turn, with an instance holding
// what the catalog states of it, unsolved, as Inputs does. The instance is
// one the model keeps between checks, refilled for each candidate (f must
// not keep it): cheaper than Inputs where many candidates are read, as a
// fresh instance costs more than filling one.
func (m *Model) EachInputs(cs []Candidate, f func(*rules.Instance)) error {
	r := newModelRun(m, &Result{}, 0)
	defer r.release()
	for _, c := range cs {
		inst, err := r.instance(context.Background(), len(c.Execution.Events))
		if err != nil {
			return err
		}
		if err := r.filler.Fill(inst, c.Execution); err != nil {
			return err
		}
		f(inst)
	}
	return nil
}

// InstanceContext is Instance under a context and a memory limit (0:
// none): filling and evaluating the candidate stop soon after ctx is done,
// and the instance is refused, or its evaluation stopped, past maxBytes.
func (m *Model) InstanceContext(ctx context.Context, c Candidate, maxBytes int64) (*rules.Instance, error) {
	x := c.Execution
	inst, err := m.Program.NewLimitedInstance(eventDomain(len(x.Events)), rules.Limits{MaxBytes: maxBytes})
	if err != nil {
		return nil, err
	}
	if err := fill.New(m.Syntax).FillContext(ctx, inst, x); err != nil {
		return nil, err
	}
	opts := []rules.SolveOption{rules.WithContext(ctx)}
	if len(c.Finals) > 0 || len(x.LatestReads) > 0 {
		opts = append(opts, prunePastFinals(m, x, slotsOf(x, c.Finals), c.Finals))
	}
	sol := inst.Solve(opts...)
	if sol.Err != nil {
		return nil, sol.Err
	}
	if !sol.Consistent && len(sol.Failures) > 0 {
		for name, r := range sol.Failures[0].Orders {
			if err := inst.SetRel(name, r); err != nil {
				return nil, err
			}
		}
	}
	inst.RecordProvenance()
	return inst, nil
}
