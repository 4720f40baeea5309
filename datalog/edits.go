package datalog

import "github.com/ptxmm/ptxmm/source"

// applyEdits returns a copy of prog's definitions, rules, checks and IO
// directives with the variant edits applied in order. An edit that names
// something the program does not have is an error, so a variant cannot
// silently edit nothing. Redefining an .input relation turns it into a
// derived one (the .input is dropped), so a variant can say, for instance,
// that two base relations coincide.
func applyEdits(prog *Program, errs *source.List) (defs []*Def, rules []*Rule, checks []*Check, io []*IODirective) {
	defs = append(defs, prog.Defs...)
	rules = append(rules, prog.Rules...)
	checks = append(checks, prog.Checks...)
	io = append(io, prog.IO...)
	redefined := map[string]bool{}
	for _, e := range prog.Edits {
		switch e.Kind {
		case EditRedefine:
			hasDef := indexDef(defs, e.Name) >= 0
			hasRules := false
			for _, r := range rules {
				if r.Head.Pred == e.Name {
					hasRules = true
					break
				}
			}
			isInput := false
			for _, d := range io {
				if d.Kind == IOInput && d.Name == e.Name {
					isInput = true
				}
			}
			if !hasDef && !hasRules && !isInput && !redefined[e.Name] {
				errs.Add(e.Pos, ".redefine %s: the model has no definition, rule or .input for %s to replace", e.Name, e.Name)
				continue
			}
			if isInput {
				io = removeInput(io, e.Name)
			}
			if !redefined[e.Name] || e.Def != nil {
				// The first .redefine of a name replaces everything that
				// defined it; later rule-form ones add rules to the new version.
				defs = removeDef(defs, e.Name)
				rules = removeRules(rules, e.Name)
			}
			redefined[e.Name] = true
			if e.Def != nil {
				defs = append(defs, e.Def)
			}
			rules = append(rules, e.Rules...)
		case EditRecheck:
			i := indexCheck(checks, e.Name)
			if i < 0 {
				errs.Add(e.Pos, ".recheck %s: the model has no check named %s (checks: %s)", e.Name, e.Name, checkNames(checks))
				continue
			}
			// A recheck replaces the test and keeps what failing it means.
			c := *e.Check
			c.Mode = checks[i].Mode
			checks[i] = &c
		case EditUncheck:
			i := indexCheck(checks, e.Name)
			if i < 0 {
				errs.Add(e.Pos, ".uncheck %s: the model has no check named %s (checks: %s)", e.Name, e.Name, checkNames(checks))
				continue
			}
			checks = append(checks[:i:i], checks[i+1:]...)
		}
	}
	return defs, rules, checks, io
}

func removeInput(io []*IODirective, name string) []*IODirective {
	var out []*IODirective
	for _, d := range io {
		if d.Kind != IOInput || d.Name != name {
			out = append(out, d)
		}
	}
	return out
}

func indexDef(defs []*Def, name string) int {
	for i, d := range defs {
		if d.Name == name {
			return i
		}
	}
	return -1
}

func removeDef(defs []*Def, name string) []*Def {
	var out []*Def
	for _, d := range defs {
		if d.Name != name {
			out = append(out, d)
		}
	}
	return out
}

func removeRules(rules []*Rule, name string) []*Rule {
	var out []*Rule
	for _, r := range rules {
		if r.Head.Pred != name {
			out = append(out, r)
		}
	}
	return out
}

func indexCheck(checks []*Check, name string) int {
	for i, c := range checks {
		if c.Name == name {
			return i
		}
	}
	return -1
}

func checkNames(checks []*Check) string {
	if len(checks) == 0 {
		return "none"
	}
	s := ""
	for i, c := range checks {
		if i > 0 {
			s += ", "
		}
		s += c.Name
	}
	return s
}
