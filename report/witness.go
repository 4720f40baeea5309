package report

import (
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// WitnessText prints a failed check's witness with events by instruction.
func WitnessText(x *execution.Execution, f rules.CheckResult) string {
	label := func(a int) string {
		if a < len(x.Events) {
			return x.Label(a)
		}
		return "?"
	}
	var parts []string
	for _, a := range f.Witness {
		parts = append(parts, label(a))
	}
	switch f.Kind {
	case datalog.CheckAcyclic:
		return f.Name + ": cycle in " + f.Rel + ": " + strings.Join(append(parts, parts[0]), " -> ")
	case datalog.CheckIrreflexive:
		return f.Name + ": " + parts[0] + " precedes itself in " + f.Rel
	}
	if len(parts) == 2 {
		rel := f.Rel
		if strings.Contains(rel, "$") {
			rel = f.Name // a generated relation: the test's own expression
		}
		return f.Name + ": " + parts[0] + " -" + rel + "-> " + parts[1]
	}
	return f.Name + ": " + f.Rel + " holds (" + strings.Join(parts, ", ") + ")"
}
