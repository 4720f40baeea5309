package cat

import (
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// eval evaluates an expression in a scope.
func (ev *evaluator) eval(e Expr, en *env) (value, error) {
	switch e := e.(type) {
	case *Var:
		return ev.lookup(e.Name, e.Pos, en)
	case *Universe:
		return univVal{}, nil
	case *Empty:
		return emptyVal{}, nil
	case *TagLit:
		enum, ok := en.tagEnum(e.Name)
		if !ok {
			return nil, errorf(e.Pos, "tag '%s is undefined: tags are declared with enum (enum E = '%s || ...)", e.Name, e.Name)
		}
		return tagVal{enum: enum, name: e.Name}, nil
	case *Binary:
		a, errA := ev.eval(e.L, en)
		b, errB := ev.eval(e.R, en)
		if err := joinErrors(errA, errB); err != nil {
			return nil, err
		}
		return ev.binary(e.Op, a, b, e.Pos, en)
	case *Unary:
		x, err := ev.eval(e.X, en)
		if err != nil {
			return nil, err
		}
		return ev.unary(e.Op, x, e.Pos, en)
	case *Tuple:
		elems, err := ev.evalAll(e.Elems, en)
		if err != nil {
			return nil, err
		}
		return tupleVal{elems: elems}, nil
	case *ExplicitSet:
		elems, err := ev.evalAll(e.Elems, en)
		if err != nil {
			return nil, err
		}
		return newSet(elems), nil
	case *App:
		f, errF := ev.eval(e.Fun, en)
		arg, errA := ev.eval(e.Arg, en)
		if err := joinErrors(errF, errA); err != nil {
			return nil, err
		}
		return ev.apply(f, arg, calleeName(e.Fun), e.Pos)
	case *Fun:
		return closureVal{fun: e, env: en}, nil
	case *LetIn:
		var inner *env
		if e.Rec {
			inner = ev.letRec(e.Bindings, en, false)
		} else {
			vars := map[string]value{}
			for _, b := range e.Bindings {
				v, err := ev.eval(b.Expr, en)
				if err != nil {
					return nil, err
				}
				bound, err := ev.bindPattern(b.Pat, v, b.Pos)
				if err != nil {
					return nil, err
				}
				for n, v := range bound {
					vars[n] = ev.share(n, v, b.Pos)
				}
			}
			inner = en.with(vars)
		}
		return ev.eval(e.Body, inner)
	case *Match:
		return ev.matchTags(e, en)
	case *MatchSet:
		return ev.matchSet(e, en)
	case *Try:
		v, err := ev.eval(e.X, en)
		if err == nil {
			return v, nil
		}
		return ev.eval(e.Alt, en)
	case *If:
		ok, err := ev.cond(e.Cond, e.Pos, en)
		if err != nil {
			return nil, err
		}
		if ok {
			return ev.eval(e.Then, en)
		}
		return ev.eval(e.Else, en)
	}
	return nil, errorf(e.Position(), "unexpected expression")
}

func (ev *evaluator) evalAll(es []Expr, en *env) ([]value, error) {
	out := make([]value, len(es))
	errs := make([]error, len(es))
	for i, e := range es {
		out[i], errs[i] = ev.eval(e, en)
	}
	if err := joinErrors(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// calleeName names what an application applies, for messages.
func calleeName(e Expr) string {
	for {
		switch x := e.(type) {
		case *Var:
			return x.Name
		case *App:
			e = x.Fun
			continue
		}
		return "this function"
	}
}

// lookup finds a name: a binding of the model (or of ptxmm's standard
// library), else a base name ptxmm supplies.
func (ev *evaluator) lookup(name string, pos source.Pos, en *env) (value, error) {
	if v, ok := en.lookup(name); ok {
		switch v := v.(type) {
		case poisonVal:
			return nil, &poisonedError{name: name}
		case relVal:
			return withPos(v, pos), nil
		}
		return v, nil
	}
	if r, ok := ev.b.baseValue(name, pos); ok {
		return r, nil
	}
	return nil, &unsuppliedError{name: name, pos: pos}
}

// withPos returns a reference to a relation at the position where it is
// used (other expressions, bound as arguments, are shared).
func withPos(v relVal, pos source.Pos) relVal {
	if r, ok := v.x.(*datalog.RelRef); ok {
		return relVal{x: &datalog.RelRef{Name: r.Name, Pos: pos}, arity: v.arity}
	}
	return v
}

// apply applies a function to its argument.
func (ev *evaluator) apply(f, arg value, name string, pos source.Pos) (value, error) {
	switch f := f.(type) {
	case closureVal:
		bound, err := ev.bindPattern(f.fun.Param, arg, pos)
		if err != nil {
			if f.fun.Name != "" {
				name = f.fun.Name
			}
			return nil, errorf(pos, "%s: %v", name, err.(*evalError).msg)
		}
		if ev.depth >= maxCallDepth {
			return nil, errorf(pos, "applications of %s nest more than %d deep: a recursion that does not end when the model is loaded", name, maxCallDepth)
		}
		if ev.calls++; ev.calls > maxCalls {
			return nil, errorf(pos, "evaluating the model takes more than %d applications of functions (at this application of %s); ptxmm evaluates every application when it loads a model, so a model must apply its functions fewer times", maxCalls, name)
		}
		for n, v := range bound {
			bound[n] = ev.share(name, v, pos)
		}
		ev.depth++
		defer func() { ev.depth-- }()
		return ev.eval(f.fun.Body, f.env.with(bound))
	case primVal:
		return f.fn(ev, arg, pos)
	case poisonVal:
		return nil, &poisonedError{name: f.name}
	}
	return nil, errorf(pos, "%s is a %s, not a function: it cannot be applied to arguments", name, describe(f))
}

// share names a relation that is not a plain reference with a generated
// definition, so that a body using its parameter several times, or nested
// applications such as f(f(f(r))), stay linear in size instead of copying
// the argument at every use.
func (ev *evaluator) share(prefix string, v value, pos source.Pos) value {
	r, ok := v.(relVal)
	if !ok {
		return v
	}
	switch r.x.(type) {
	case *datalog.RelRef, *datalog.Universe:
		return v
	}
	if isEmptyExpr(r.x) {
		return v
	}
	dn := ev.b.fresh(strings.TrimSuffix(prefix, "$"), "arg")
	ev.b.define(dn, r, pos, "")
	return ev.b.ref(dn, pos)
}

// bindPattern binds a pattern's names to a value: one name takes the
// value; a tuple of names takes the members of a tuple of that size.
func (ev *evaluator) bindPattern(pat Pattern, v value, pos source.Pos) (map[string]value, error) {
	out := map[string]value{}
	if !pat.Tuple {
		if len(pat.Names) == 1 && pat.Names[0] != "" {
			out[pat.Names[0]] = v
		}
		return out, nil
	}
	t, ok := v.(tupleVal)
	if !ok || len(t.elems) != len(pat.Names) {
		what := describe(v)
		if ok {
			what = "a tuple of " + itoa(len(t.elems))
		}
		return nil, errorf(pos, "expected a tuple of %d (%s), found %s", len(pat.Names), joinNames(pat.Names), what)
	}
	for i, n := range pat.Names {
		if n != "" {
			out[n] = t.elems[i]
		}
	}
	return out, nil
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

// letRec binds recursive definitions: functions see each other; relations
// are the least fixpoint of their equations, computed by the rules engine
// (top-level ones are versions of their names, others generated names);
// values known when the model is loaded (sets of tags, ...) are iterated
// to their fixpoint here.
func (ev *evaluator) letRec(bs []*Binding, en *env, top bool) *env {
	next := en.with(map[string]value{})
	type rel struct {
		b  *Binding
		dn string
	}
	var rels []rel
	for _, b := range bs {
		name := b.Name()
		if name == "" {
			ev.fail(errorf(b.Pos, "let rec binds names (or functions), not tuples"))
			for _, n := range b.Pat.Names {
				next.vars[n] = poisonVal{name: n}
			}
			continue
		}
		if f, ok := b.Expr.(*Fun); ok {
			next.vars[name] = closureVal{fun: f, env: next}
			continue
		}
		var dn string
		if top {
			dn = ev.b.version(name)
		} else {
			dn = ev.b.fresh(name, "rec")
		}
		next.vars[name] = relVal{x: &datalog.RelRef{Name: dn, Pos: b.Pos}}
		rels = append(rels, rel{b, dn})
	}
	results := make([]value, len(rels))
	static := false
	for i, r := range rels {
		v, err := ev.eval(r.b.Expr, next)
		if err != nil {
			ev.fail(err)
			v = poisonVal{name: r.b.Name()}
		}
		results[i] = v
		if isStatic(v) {
			static = true
		}
	}
	if static {
		bs := make([]*Binding, len(rels))
		for i, r := range rels {
			bs[i] = r.b
		}
		ev.staticFixpoint(bs, next)
		return next
	}
	for i, r := range rels {
		switch v := results[i].(type) {
		case poisonVal:
			ev.b.define(r.dn, relVal{x: emptyExpr(r.b.Pos)}, r.b.Pos, "")
		default:
			rv, err := ev.toRel(v, r.b.Expr.Position())
			if err != nil {
				ev.fail(err)
				rv = relVal{x: emptyExpr(r.b.Pos)}
			}
			ev.b.define(r.dn, rv, r.b.Pos, "")
			next.vars[r.b.Name()] = ev.b.ref(r.dn, r.b.Pos)
		}
	}
	return next
}

// maxFixpointSteps bounds the iterations of a let rec over values known
// when the model is loaded.
const maxFixpointSteps = 1_000

// staticFixpoint iterates let rec bindings whose values are known when
// the model is loaded, from the empty value, until they no longer change.
func (ev *evaluator) staticFixpoint(bs []*Binding, next *env) {
	for _, b := range bs {
		next.vars[b.Name()] = emptyVal{}
	}
	for step := 0; step < maxFixpointSteps; step++ {
		changed := false
		vals := make([]value, len(bs))
		for i, b := range bs {
			v, err := ev.eval(b.Expr, next)
			if err != nil {
				ev.fail(err)
				for _, b := range bs {
					next.vars[b.Name()] = poisonVal{name: b.Name()}
				}
				return
			}
			vals[i] = v
		}
		for i, b := range bs {
			if key(vals[i]) != key(next.vars[b.Name()]) {
				changed = true
			}
			next.vars[b.Name()] = vals[i]
		}
		if !changed {
			return
		}
	}
	ev.fail(errorf(bs[0].Pos, "let rec %s does not reach a fixpoint in %d steps", bs[0].Name(), maxFixpointSteps))
}

// matchTags evaluates a match over a tag.
func (ev *evaluator) matchTags(e *Match, en *env) (value, error) {
	v, err := ev.eval(e.X, en)
	if err != nil {
		return nil, err
	}
	t, ok := v.(tagVal)
	if !ok {
		return nil, errorf(e.X.Position(), "match ... with 'tag -> ... needs a tag, found a %s", describe(v))
	}
	for _, c := range e.Clauses {
		if c.Tag == t.name {
			return ev.eval(c.Body, en)
		}
	}
	if e.Default != nil {
		return ev.eval(e.Default, en)
	}
	return nil, errorf(e.Pos, "pattern matching failed on value '%s: no clause for it and no _ clause", t.name)
}

// matchSet evaluates a match over a set: known sets are taken apart
// here; sets of the execution only as with.go allows.
func (ev *evaluator) matchSet(e *MatchSet, en *env) (value, error) {
	v, err := ev.eval(e.X, en)
	if err != nil {
		return nil, err
	}
	var elem, rest, pre value
	switch s := v.(type) {
	case emptyVal:
		return ev.eval(e.Empty, en)
	case tagVal:
		elem, rest, pre = s, emptyVal{}, emptyVal{}
	case setVal:
		i := 0
		if e.Split {
			i = len(s.elems) / 2
		}
		elem, pre, rest = s.elems[i], newSet(s.elems[:i]), newSet(s.elems[i+1:])
	case classesVal, familyVal:
		m, err := ev.member(v, e.Pos)
		if err != nil {
			return nil, err
		}
		elem, rest, pre = m, emptyVal{}, emptyVal{}
	default:
		return nil, errorf(e.X.Position(), "match ... with {} -> ... || x ++ rest -> ... takes apart a set known when the model is loaded (tags, tuples, sets of them); this is a %s of the execution, whose members ptxmm's rules cannot take one at a time", describe(v))
	}
	vars := map[string]value{}
	for _, b := range []struct {
		n string
		v value
	}{{e.Pre, pre}, {e.Elem, elem}, {e.Rest, rest}} {
		if b.n != "" {
			vars[b.n] = b.v
		}
	}
	return ev.eval(e.Body, en.with(vars))
}

// cond evaluates the condition of an if expression. Comparisons are
// decided when the model is loaded, so they compare values known then.
func (ev *evaluator) cond(c Cond, pos source.Pos, en *env) (bool, error) {
	if c.Kind == CondVariant {
		return ev.variantHolds(c.Variant), nil
	}
	l, err := ev.eval(c.L, en)
	if err != nil {
		return false, err
	}
	r, err := ev.eval(c.R, en)
	if err != nil {
		return false, err
	}
	if !isStatic(l) && !isEmpty(l) || !isStatic(r) && !isEmpty(r) {
		return false, errorf(pos, "if ... then ... else is decided when ptxmm loads the model, so its condition compares values known then (tags, tuples, sets of them, variants); this compares a %s and a %s of the execution", describe(l), describe(r))
	}
	switch c.Kind {
	case CondEq:
		return key(l) == key(r), nil
	case CondIn:
		rs, _ := members(setOf(r))
		for _, m := range rs {
			if key(m) == key(l) {
				return true, nil
			}
		}
		return false, nil
	}
	ls, _ := members(setOf(l))
	rs, _ := members(setOf(r))
	for _, m := range ls {
		found := false
		for _, n := range rs {
			if key(m) == key(n) {
				found = true
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, nil
}

func isEmpty(v value) bool {
	_, ok := v.(emptyVal)
	return ok
}

// setOf promotes a tag to the set of it.
func setOf(v value) value {
	if t, ok := v.(tagVal); ok {
		return setVal{elems: []value{t}}
	}
	return v
}
