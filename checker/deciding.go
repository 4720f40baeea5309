package checker

import (
	"slices"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// Deciding executions. A test is settled by one consistent execution whose
// final state makes its proposition true (exists, ~exists, a .test file's
// only permit) or false (forall, a .test file's only assert). Under
// herd7's -speedcheck the states of the other executions are of no
// interest: Options.OnlyDeciding leaves them out, and Options.StopAtWitness
// stops at the first execution that decides. herd7 drops such a candidate
// once its final state is known; the search here drops a choice of
// reads-from as soon as the values it fixes make the proposition take the
// other value whatever the rest of the choices (docs/model.md,
// "Speedcheck").

// target is what settles a test: an execution whose final state gives
// expr the value want.
type target struct {
	expr litmus.Expr
	want bool
}

// decidingTarget returns what settles t; ok is false when no single
// execution does (no condition, a .test file with several commands, or a
// check command).
func decidingTarget(t *litmus.Test) (g target, ok bool) {
	if c := t.Condition; c != nil {
		return target{expr: c.Expr, want: c.Kind != litmus.CondForall}, true
	}
	if len(t.Assertions) != 1 {
		return target{}, false
	}
	switch a := t.Assertions[0]; a.Kind {
	case litmus.AssertAlways:
		return target{expr: a.Expr, want: false}, true
	case litmus.AssertSometimes:
		return target{expr: a.Expr, want: true}, true
	}
	return target{}, false
}

// settles reports whether a consistent execution with final state st
// settles the test.
func (s *session) settles(st State) bool {
	return s.target != nil && evalExpr(s.target.expr, s.obs, st) == s.target.want
}

// tri is a truth value that the values known so far may not settle.
type tri int8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// evalKnown evaluates a condition on the observables whose values are
// known (known[i]; st[i] holds the value), in Kleene's three-valued logic:
// the result is known when every way of giving the others values yields
// it.
func evalKnown(e litmus.Expr, obs []Observable, st State, known []bool) tri {
	switch e := e.(type) {
	case *litmus.And:
		l := evalKnown(e.L, obs, st, known)
		if l == triFalse {
			return triFalse
		}
		r := evalKnown(e.R, obs, st, known)
		switch {
		case r == triFalse:
			return triFalse
		case l == triTrue && r == triTrue:
			return triTrue
		}
		return triUnknown
	case *litmus.Or:
		l := evalKnown(e.L, obs, st, known)
		if l == triTrue {
			return triTrue
		}
		r := evalKnown(e.R, obs, st, known)
		switch {
		case r == triTrue:
			return triTrue
		case l == triFalse && r == triFalse:
			return triFalse
		}
		return triUnknown
	case *litmus.Not:
		switch evalKnown(e.X, obs, st, known) {
		case triTrue:
			return triFalse
		case triFalse:
			return triTrue
		}
		return triUnknown
	case *litmus.Cmp:
		if !termKnown(e.L, obs, known) || !termKnown(e.R, obs, known) {
			return triUnknown
		}
	}
	return triOf(evalExpr(e, obs, st))
}

// termKnown reports whether a term's value is known.
func termKnown(t litmus.Term, obs []Observable, known []bool) bool {
	if t.Kind == litmus.TermConst {
		return true
	}
	for i, o := range obs {
		if t.Kind == litmus.TermReg && !o.IsLoc && o.Thread == t.Thread && o.Reg == t.Reg ||
			t.Kind == litmus.TermLoc && o.IsLoc && o.Name == t.Loc {
			return known[i]
		}
	}
	return false
}

// partialState holds the observed values a partial candidate determines.
type partialState struct {
	vals  State
	known []bool
}

// mayDecide reports whether a completion of the partial candidate x (see
// execution.Search.Relevant) is of interest: it may settle the test (the
// values of the registers its reads-from determines do not already give
// the target's expression the other value; final values of locations are
// not known yet), or it may raise an .undefined test, which makes the
// verdict Undef whatever the condition.
func (s *session) mayDecide(x *execution.Execution) bool {
	return s.mayDecideWithFinals(x, len(s.slots))
}

// mayDecideWithFinals is mayDecide for candidate x with the final writes
// of the observed slots k and after chosen (s.finalBuf[k:]): the
// locations whose slots are all chosen are known too.
func (s *session) mayDecideWithFinals(x *execution.Execution, k int) bool {
	if s.stopped {
		return s.undefinedPossible(x)
	}
	p := s.partialRegisters(x)
	for i, o := range s.obs {
		if r := s.ranges[i]; o.IsLoc && r[0] >= k {
			p.vals[i] = Val{Defined: true, V: x.FinalValue(o.Loc, s.finalBuf[r[0]:r[1]])}
			p.known[i] = true
		}
	}
	return s.target.possible(evalKnown(s.target.expr, s.obs, p.vals, p.known)) || s.undefinedPossible(x)
}

// undefinedPossible reports whether some candidate of x's combination of
// runs may raise an .undefined test of some model: its executions are then
// all evaluated, those that cannot settle the test for their flags only
// (evaluate). Most combinations are ruled out by the tests' bounds over
// the choices the combination can make (rules.Instance.MayRaiseOver: a
// mixed-size race needs accesses that are not morally strong); the
// answer is kept for the combination.
func (s *session) undefinedPossible(x *execution.Execution) bool {
	u := &s.undefined
	if u.combo != nil && slices.Equal(u.combo, x.Combo) {
		return u.possible
	}
	u.combo = append(u.combo[:0], x.Combo...)
	u.possible = false
	varying := fill.ChoicesVarying(x)
	for _, r := range s.runs {
		if len(r.m.undefined) == 0 {
			continue
		}
		inst, err := r.instance(s.ctx, len(x.Events))
		if err == nil {
			err = r.filler.FillPartial(inst, x)
		}
		if err != nil {
			// Evaluating the candidates reports the error.
			u.possible = true
			return true
		}
		for _, name := range r.m.undefined {
			if inst.MayRaiseOver(name, varying...) {
				u.possible = true
				return true
			}
		}
	}
	return false
}

// partialRegisters fills the session's partial state with the registers
// of x, locations unknown.
func (s *session) partialRegisters(x *execution.Execution) *partialState {
	p := &s.partial
	if p.vals == nil {
		p.vals, p.known = make(State, len(s.obs)), make([]bool, len(s.obs))
	}
	for i, o := range s.obs {
		p.known[i] = false
		if o.IsLoc {
			continue
		}
		s.regs[i] = x.Register(s.regs[i], o.Thread, o.Reg)
		v, defined, known := x.KnownRegisterValue(s.regs[i])
		p.vals[i], p.known[i] = Val{Defined: defined, V: v}, known
	}
	return p
}

// possible reports whether an expression whose value is v so far may
// still take the target's value.
func (g *target) possible(v tri) bool { return v != triOf(!g.want) }

// wanted reports whether the session records an execution with final
// state st: any, or under Options.OnlyDeciding one settling the test.
func (s *session) wanted(st State) bool { return !s.onlyDeciding || s.settles(st) }

// undefinedWatch is what undefinedPossible found for the last combination
// of runs it was asked about.
type undefinedWatch struct {
	combo    []int
	possible bool
}

// verdictsKnown reports whether a search that found its witness may stop:
// the verdict of every model is known, Undef raised or no .undefined test
// to look for. Until then the search goes on through the combinations of
// runs that may raise one, evaluating their executions for flags only.
func (s *session) verdictsKnown() bool {
	for _, r := range s.runs {
		if !r.res.Undefined() && len(r.m.undefined) > 0 {
			return false
		}
	}
	return true
}
