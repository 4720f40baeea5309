package checker

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// allowsEverything warns about a model that cannot forbid anything: one
// without checks (empty, or every check removed by .uncheck) allows every
// candidate execution, so every test passes or fails by its condition
// alone, which looks like an answer but checks no model.
func allowsEverything(name string, m *datalog.Model) source.List {
	if len(m.Checks) > 0 {
		return nil
	}
	var w source.List
	pos := source.Pos{File: name}
	if len(m.Rules) == 0 && len(m.Orders) == 0 {
		w.Warn(pos, "the model is empty: it has no rules and no checks, so it allows every candidate execution")
		return w
	}
	w.Warn(pos, "the model has no checks (.check), so it allows every candidate execution")
	return w
}
