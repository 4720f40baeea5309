package explore

import (
	"github.com/ptxmm/ptxmm/report"
	"github.com/ptxmm/ptxmm/rules"
)

// Check is one check's verdict on the execution.
type Check struct {
	Name  string
	Holds bool
	// Chain is a failing check's witness in instruction terms: a chain of
	// edges in the model's .edges vocabulary, or, for a witness that is
	// not a path (an empty check over a set, say), its events. Edges is
	// the chain as data (nil for a witness that is not a path).
	Chain string
	Edges []rules.Edge
}

// Checks gives each check's verdict with its witness.
func (v *View) Checks() []Check {
	x := v.execution()
	stop := v.Model.Program.StopAtEdges()
	var out []Check
	for _, r := range v.Inst.Checks() {
		c := Check{Name: r.Name, Holds: r.Holds}
		if !r.Holds {
			edges, err := v.Inst.ExplainCheck(r, stop)
			if err != nil {
				c.Chain = report.WitnessText(x, r)
			} else {
				c.Chain, c.Edges = report.EdgeChain(x, edges), edges
			}
		}
		out = append(out, c)
	}
	return out
}
