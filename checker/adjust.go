package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
)

// Through says which executions reach the final stage (herd7's -through).
type Through int

const (
	// ThroughNone keeps the consistent executions (the default).
	ThroughNone Through = iota
	// ThroughInvalid lets the executions the model's checks reject through
	// too. herd7 keeps its built-in uniproc check with "invalid" and drops
	// it with "all"; ptxmm has no check outside the model, so the two are
	// the same.
	ThroughInvalid
	// ThroughAll lets every candidate execution through.
	ThroughAll
)

// ParseThrough reads herd7's -through values all, invalid and none.
func ParseThrough(s string) (Through, error) {
	switch strings.ToLower(s) {
	case "none":
		return ThroughNone, nil
	case "invalid":
		return ThroughInvalid, nil
	case "all":
		return ThroughAll, nil
	}
	return ThroughNone, fmt.Errorf("-through %s: expected all, invalid or none", s)
}

// Adjustments change which checks a model applies, as herd7's -skipchecks,
// -strictskip and -through do.
type Adjustments struct {
	// Skip names checks (or flags) not to apply.
	Skip []string
	// Strict keeps only the executions that fail every skipped check (and
	// pass the others), as herd7's -strictskip does: the skipped checks
	// are replaced by their negations.
	Strict bool
	// Through lets executions the checks reject through.
	Through Through
	// ThroughFlag keeps only the executions that raise this flag (herd7's
	// -throughflag): the flag's test becomes a check they must fail.
	ThroughFlag string
}

// Adjusted returns the model with the adjustments made (m itself when
// there are none). The model's tests keep their names; an unknown name is
// an error that lists the model's checks.
func (m *Model) Adjusted(a Adjustments) (*Model, error) {
	if len(a.Skip) == 0 && a.Through == ThroughNone && a.ThroughFlag == "" {
		return m, nil
	}
	byName := map[string]*datalog.Check{}
	var names []string
	for _, c := range m.Syntax.Checks {
		byName[c.Name] = c
		names = append(names, c.Name)
	}
	prog := *m.Syntax.Program
	prog.Edits = append([]*datalog.Edit(nil), prog.Edits...)
	removed := map[string]bool{}
	var skip []string
	for _, name := range a.Skip {
		if group, ok := m.CheckGroups[name]; ok {
			skip = append(skip, group...)
			continue
		}
		skip = append(skip, name)
	}
	for _, name := range skip {
		c, ok := byName[name]
		if !ok {
			sort.Strings(names)
			return nil, fmt.Errorf("-skipchecks %s: the model has no check named %s (checks: %s)", name, name, strings.Join(names, ", "))
		}
		if removed[name] {
			continue
		}
		removed[name] = true
		if a.Strict && c.Mode == datalog.ModeAxiom && a.Through == ThroughNone {
			arity := 0
			if rel := m.Syntax.Relation(c.Rel); rel != nil {
				arity = rel.Arity
			}
			neg := &datalog.Check{Name: c.Name, Kind: datalog.CheckEmpty, Mode: c.Mode, Doc: c.Doc, Pos: c.Pos,
				Expr: datalog.Negated(c.Kind, c.Expr, arity, c.Pos)}
			prog.Edits = append(prog.Edits, &datalog.Edit{Kind: datalog.EditRecheck, Name: c.Name, Check: neg, Pos: c.Pos})
			continue
		}
		prog.Edits = append(prog.Edits, &datalog.Edit{Kind: datalog.EditUncheck, Name: c.Name, Pos: c.Pos})
	}
	if a.Through != ThroughNone {
		for _, c := range m.Syntax.Checks {
			if c.Mode == datalog.ModeAxiom && !removed[c.Name] {
				prog.Edits = append(prog.Edits, &datalog.Edit{Kind: datalog.EditUncheck, Name: c.Name, Pos: c.Pos})
			}
		}
	}
	if a.ThroughFlag != "" {
		c, ok := byName[a.ThroughFlag]
		if !ok || c.Mode != datalog.ModeFlag {
			var flags []string
			for _, c := range m.Syntax.Checks {
				if c.Mode == datalog.ModeFlag {
					flags = append(flags, c.Name)
				}
			}
			sort.Strings(flags)
			return nil, fmt.Errorf("-throughflag %s: the model raises no flag named %s (flags: %s)", a.ThroughFlag, a.ThroughFlag, strings.Join(flags, ", "))
		}
		arity := 0
		if rel := m.Syntax.Relation(c.Rel); rel != nil {
			arity = rel.Arity
		}
		// A flag is raised by the executions that fail its test: keeping
		// only those is a check of the test's negation.
		raised := &datalog.Check{Name: "throughflag-" + c.Name, Kind: datalog.CheckEmpty, Mode: datalog.ModeAxiom, Pos: c.Pos,
			Doc:  "-throughflag " + c.Name + ": the executions that raise the flag",
			Expr: datalog.Negated(c.Kind, c.Expr, arity, c.Pos)}
		prog.Checks = append(append([]*datalog.Check(nil), prog.Checks...), raised)
	}
	adj, err := BuildModel(m.Name, &prog, nil)
	if err != nil {
		return nil, err
	}
	adj.Show = m.Show
	adj.CheckGroups = m.CheckGroups
	adj.Warnings = m.Warnings
	return adj, nil
}
