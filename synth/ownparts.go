package synth

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/rules"
)

// What only one of two models checks, as flags for the violation screen
// (violation.go): the parts of each model's own axioms that the other's
// axiom of the same name has not.

// flagPrefix starts the names of the screen's flags ($: no user can
// write it).
const flagPrefix = "synth$own$"

// ownFlags returns, for each axiom of model m that the other model o has
// not (the same name, kind and relation), a flag that fails wherever m's
// axiom fails and o's of the same name and kind holds: the parts of m's
// that o's has not. Relation names print through mine and theirs, so
// that a part of each reads alike where their relations are the same
// (datalog.Merge's renaming).
func ownFlags(m, o *datalog.Model, mine, theirs func(string) string) []*datalog.Check {
	others := map[string]*datalog.Check{}
	for _, c := range o.Checks {
		if c.Mode == datalog.ModeAxiom {
			others[c.Name] = c
		}
	}
	var out []*datalog.Check
	for _, c := range m.Checks {
		if c.Mode != datalog.ModeAxiom {
			continue
		}
		oc := others[c.Name]
		if oc != nil && oc.Kind == c.Kind && partsKey(oc.Expr, theirs) == partsKey(c.Expr, mine) {
			continue
		}
		counterpart := oc != nil && oc.Kind == c.Kind
		have := map[string]bool{}
		if counterpart {
			for _, p := range parts(oc.Expr) {
				have[exprKey(p, theirs)] = true
			}
		}
		var own []datalog.Expr
		for _, p := range parts(c.Expr) {
			if have[exprKey(p, mine)] {
				continue
			}
			if c.Kind == datalog.CheckIrreflexive && neverReflexive(p, m, o, mine, theirs) {
				continue
			}
			own = append(own, p)
		}
		if c.Kind == datalog.CheckAcyclic && !counterpart {
			own = []datalog.Expr{c.Expr}
		}
		if len(own) == 0 {
			// Every part of m's axiom is one of o's: it cannot fail where
			// o's holds.
			continue
		}
		d := joinParts(own)
		flag := &datalog.Check{Name: flagPrefix + c.Name, Kind: c.Kind, Mode: datalog.ModeFlag, Expr: d, Pos: c.Pos}
		if c.Kind == datalog.CheckAcyclic && counterpart {
			// A cycle of m's relation through an edge of its own parts.
			flag.Kind = datalog.CheckIrreflexive
			flag.Expr = &datalog.Binary{Op: datalog.OpSeq, L: d, R: &datalog.Unary{Op: datalog.OpStar, X: c.Expr}}
		}
		out = append(out, flag)
	}
	return out
}

// parts spreads an expression's unions, and its reflexive closures, over
// the compositions: the expression's relation is the union of the parts'
// (a part nil is the identity).
func parts(e datalog.Expr) []datalog.Expr {
	switch x := e.(type) {
	case *datalog.Binary:
		switch x.Op {
		case datalog.OpUnion:
			return append(parts(x.L), parts(x.R)...)
		case datalog.OpSeq:
			var out []datalog.Expr
			for _, l := range parts(x.L) {
				for _, r := range parts(x.R) {
					switch {
					case l == nil:
						out = append(out, r)
					case r == nil:
						out = append(out, l)
					default:
						out = append(out, &datalog.Binary{Op: datalog.OpSeq, L: l, R: r})
					}
				}
			}
			return out
		}
	case *datalog.Unary:
		if x.Op == datalog.OpOpt {
			return append([]datalog.Expr{nil}, parts(x.X)...)
		}
	}
	return []datalog.Expr{e}
}

// joinParts is the union of parts, the identity ([_]) standing for nil.
func joinParts(ps []datalog.Expr) datalog.Expr {
	var out datalog.Expr
	for _, p := range ps {
		if p == nil {
			p = &datalog.Unary{Op: datalog.OpIdent, X: &datalog.Universe{}}
		}
		if out == nil {
			out = p
			continue
		}
		out = &datalog.Binary{Op: datalog.OpUnion, L: out, R: p}
	}
	return out
}

// partsKey is the sorted keys of an expression's parts.
func partsKey(e datalog.Expr, name func(string) string) string {
	var ks []string
	for _, p := range parts(e) {
		ks = append(ks, exprKey(p, name))
	}
	sort.Strings(ks)
	return strings.Join(ks, "\n")
}

// exprKey prints an expression fully parenthesized, its relations named
// through name.
func exprKey(e datalog.Expr, name func(string) string) string {
	switch x := e.(type) {
	case nil:
		return "id"
	case *datalog.RelRef:
		return name(x.Name)
	case *datalog.Universe:
		return "_"
	case *datalog.Binary:
		return fmt.Sprintf("(%s %d %s)", exprKey(x.L, name), x.Op, exprKey(x.R, name))
	case *datalog.Unary:
		return fmt.Sprintf("(%d %s)", x.Op, exprKey(x.X, name))
	}
	return fmt.Sprintf("?%T", e)
}

// flagModel is a model's program with no axiom and the flags given (its
// own .flag and .undefined tests left out).
func flagModel(base *checker.Model, flags []*datalog.Check) (*checker.Model, error) {
	prog := *base.Syntax.Program
	prog.Checks = append(append([]*datalog.Check(nil), prog.Checks...), flags...)
	syntax, errs := datalog.Analyze(&prog)
	if errs.HasErrors() {
		return nil, fmt.Errorf("internal error: the flags of %s's own axioms do not analyze: %v", base.Name, errs)
	}
	var keep []*datalog.Check
	for _, c := range syntax.Checks {
		if strings.HasPrefix(c.Name, flagPrefix) {
			keep = append(keep, c)
		}
	}
	syntax.Checks = keep
	p, errs := rules.Compile(syntax)
	if errs.HasErrors() {
		return nil, fmt.Errorf("internal error: the flags of %s's own axioms do not compile: %v", base.Name, errs)
	}
	return (&checker.Compiled{Syntax: syntax, Program: p}).Model(base.Name + " (own parts)"), nil
}

// ordersRead lists the orders a model's checks read (through any chain
// of rules), each with the relation whose pairs it orders.
func ordersRead(m *datalog.Model) [][2]string {
	body := map[string][]string{}
	for _, r := range m.Rules {
		for _, l := range r.Body {
			if a, ok := l.(*datalog.Atom); ok {
				body[r.Head.Pred] = append(body[r.Head.Pred], a.Pred)
			}
		}
	}
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, b := range body[n] {
			walk(b)
		}
	}
	for _, c := range m.Checks {
		walk(c.Rel)
	}
	var out [][2]string
	for _, o := range m.Orders {
		if seen[o.Name] {
			out = append(out, [2]string{o.Name, o.Over})
		}
	}
	return out
}
