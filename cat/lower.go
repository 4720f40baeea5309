package cat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// Lowered is a cat model expressed in ptxmm's modelling language.
type Lowered struct {
	Program *datalog.Program
	// Name is the model's name from its first line.
	Name string
	// Show lists the relations the model shows in pictures (show, minus
	// unshow), by their names in Program.
	Show []string
}

// value is what a name is bound to while lowering: a relation (an
// expression of the modelling language) or a function.
type value interface{}

// relValue is a relation or set.
type relValue struct{ expr datalog.Expr }

// funValue is a function with the scope it was defined in.
type funValue struct {
	b     *Binding
	scope *scope
}

// builtinValue is domain or range.
type builtinValue struct{ op datalog.UnOp }

// scope is one level of bindings; lookups go outwards. Each top-level
// let opens a new level, so that a function sees the bindings of its
// definition, not later ones (cat is lexically scoped).
type scope struct {
	parent *scope
	vars   map[string]value
}

func (s *scope) lookup(name string) (value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// lowerer builds the program.
type lowerer struct {
	prog  *datalog.Program
	errs  source.List
	cur   *scope
	arity map[string]int // known arities of the program's relations
	// bindings counts the top-level relation bindings of each name, and
	// seen how many have been lowered, for naming (see relName).
	bindings map[string]int
	seen     map[string]int
	// base maps the entries and helpers emitted (by "entry" or "$helper")
	// to their names in the program.
	base     map[string]string
	declared map[string]bool // catalog relations declared as .input
	// transitive holds the relations known to be transitive.
	transitive map[string]bool
	depth      int // nesting of function applications
	args       int // arguments named so far (shareArg)
	calls      int // applications inlined so far
	shown      []string
	edges      []string
}

// maxCallDepth bounds nested applications, and maxCalls the applications
// inlined in all: functions that apply each other twice in a chain double
// the work at every link, and a model that needs more than this is far
// beyond the published ones (which apply a function at most a few dozen
// times).
const (
	maxCallDepth = 64
	maxCalls     = 100_000
)

// Lower expresses a parsed cat model as a program of the modelling
// language. Errors carry the cat file's positions.
func Lower(m *Model) (*Lowered, source.List) {
	l := &lowerer{prog: &datalog.Program{Files: m.Files}, arity: map[string]int{}, bindings: map[string]int{},
		seen: map[string]int{}, base: map[string]string{}, declared: map[string]bool{}, transitive: map[string]bool{},
		cur: &scope{vars: map[string]value{"domain": builtinValue{datalog.OpDomain}, "range": builtinValue{datalog.OpRange}}}}
	for _, s := range m.Stmts {
		for _, n := range boundNames(s) {
			l.bindings[n]++
		}
	}
	for _, s := range m.Stmts {
		l.stmt(s)
	}
	l.finishEdges()
	l.errs.Sort()
	return &Lowered{Program: l.prog, Name: m.Name, Show: l.shown}, l.errs
}

// boundNames lists the relations a statement binds at top level.
func boundNames(s Stmt) []string {
	var out []string
	switch s := s.(type) {
	case *Let:
		for _, b := range s.Bindings {
			if !b.IsFunc {
				out = append(out, b.Name)
			}
		}
	case *LetRec:
		for _, b := range s.Bindings {
			out = append(out, b.Name)
		}
	case *Show:
		if s.Expr != nil {
			out = append(out, s.Names[0])
		}
	}
	return out
}

// relName gives the program's name for the next top-level binding of a
// cat name: the last binding keeps the name (so that co is the model's
// final coherence order, as ptxmm expects), earlier ones are name$vK, and
// catalog names stay with the catalog's relations.
func (l *lowerer) relName(name string) string {
	l.seen[name]++
	k := l.seen[name]
	if _, isCatalog := catalog.Lookup(name); k == l.bindings[name] && !isCatalog {
		return name
	}
	return fmt.Sprintf("%s$v%d", name, k)
}

func (l *lowerer) push(vars map[string]value) { l.cur = &scope{parent: l.cur, vars: vars} }

func (l *lowerer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Let:
		vals := map[string]value{}
		for _, b := range s.Bindings {
			if b.IsFunc {
				vals[b.Name] = funValue{b: b, scope: l.cur}
				continue
			}
			vals[b.Name] = l.define(b.Name, b.Expr, b.Pos, l.cur)
		}
		l.push(vals)
	case *LetRec:
		vals := map[string]value{}
		names := map[string]string{}
		for _, b := range s.Bindings {
			if b.IsFunc {
				l.errs.Add(b.Pos, "recursive functions (let rec %s(...)) are outside the cat subset ptxmm reads", b.Name)
				continue
			}
			names[b.Name] = l.relName(b.Name)
			vals[b.Name] = relValue{&datalog.RelRef{Name: names[b.Name], Pos: b.Pos}}
		}
		l.push(vals)
		for _, b := range s.Bindings {
			if n, ok := names[b.Name]; ok {
				l.addDef(n, b.Expr, b.Pos, l.cur)
			}
		}
	case *Test:
		l.test(s)
	case *Show:
		if s.Expr != nil {
			v := l.define(s.Names[0], s.Expr, s.Pos, l.cur)
			l.push(map[string]value{s.Names[0]: v})
		}
		for _, n := range s.Names {
			l.show(n, s)
		}
	}
}

// define lowers "let name = e" and returns the relation bound.
func (l *lowerer) define(name string, e Expr, pos source.Pos, sc *scope) value {
	dn := l.relName(name)
	l.addDef(dn, e, pos, sc)
	return relValue{&datalog.RelRef{Name: dn, Pos: pos}}
}

// addDef adds the definition of the program's relation dn.
func (l *lowerer) addDef(dn string, e Expr, pos source.Pos, sc *scope) {
	x := l.expr(e, sc)
	if x == nil {
		return
	}
	if _, ok := e.(*Empty); ok {
		// herd's 0 is the empty relation; alone, nothing else says how many
		// columns it has.
		l.prog.Decls = append(l.prog.Decls, &datalog.Decl{Name: dn, Params: columns(2, pos), Pos: pos})
	}
	l.prog.Defs = append(l.prog.Defs, &datalog.Def{Name: dn, Expr: x, Pos: pos})
	if a := l.exprArity(x); a > 0 {
		l.arity[dn] = a
	}
}

func columns(n int, pos source.Pos) []datalog.Param {
	ps := make([]datalog.Param, n)
	for i := range ps {
		ps[i] = datalog.Param{Name: string(rune('a' + i)), Type: "event", Pos: pos}
	}
	return ps
}

// show marks or unmarks a relation for pictures.
func (l *lowerer) show(name string, s *Show) {
	v, ok := l.cur.lookup(name)
	if !ok {
		v, ok = l.baseValue(name, s.Pos)
	}
	rv, isRel := v.(relValue)
	if !ok || !isRel {
		l.errs.Add(s.Pos, "cannot show %s: it is not a relation of the model", name)
		return
	}
	ref, isRef := rv.expr.(*datalog.RelRef)
	if !isRef {
		return
	}
	i := indexOf(l.shown, ref.Name)
	switch {
	case s.Unshow && i >= 0:
		l.shown = append(l.shown[:i], l.shown[i+1:]...)
	case !s.Unshow && i < 0:
		l.shown = append(l.shown, ref.Name)
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// test lowers a test. A herd check rejects the executions that fail it; a
// flag is raised by the executions that pass it, while ptxmm's .flag is
// raised by those that fail its test; undefined_unless makes the program
// undefined when its test fails, like .undefined.
func (l *lowerer) test(s *Test) {
	x := l.expr(s.Expr, l.cur)
	if x == nil {
		return
	}
	name := s.Name
	if name == "" {
		// herd leaves such a test unnamed; ptxmm names every check.
		name = fmt.Sprintf("%s@%d:%d", s.Kind, s.Pos.Line, s.Pos.Col)
	}
	negated := s.Negated
	mode := datalog.ModeAxiom
	switch s.Mode {
	case ModeFlag:
		mode = datalog.ModeFlag
		negated = !negated
	case ModeUndefinedUnless:
		mode = datalog.ModeUndefined
	}
	c := &datalog.Check{Name: name, Mode: mode, Pos: s.Pos, Expr: x}
	c.Kind = map[TestKind]datalog.CheckKind{TestAcyclic: datalog.CheckAcyclic,
		TestIrreflexive: datalog.CheckIrreflexive, TestEmpty: datalog.CheckEmpty}[s.Kind]
	if negated {
		c.Kind, c.Expr = datalog.CheckEmpty, datalog.Negated(c.Kind, x, l.exprArity(x), s.Pos)
	}
	l.prog.Checks = append(l.prog.Checks, c)
}

// expr lowers an expression in a scope.
func (l *lowerer) expr(e Expr, sc *scope) datalog.Expr {
	switch e := e.(type) {
	case *Var:
		v, ok := sc.lookup(e.Name)
		if !ok {
			v, ok = l.baseValue(e.Name, e.Pos)
		}
		if !ok {
			l.errs.Add(e.Pos, "unknown relation %s: bind it with let before using it, or see docs/cat.md for the names ptxmm supplies", e.Name)
			return nil
		}
		switch v := v.(type) {
		case relValue:
			return withPos(v.expr, e.Pos)
		case funValue, builtinValue:
			l.errs.Add(e.Pos, "%s is a function: apply it to arguments, as in %s(r)", e.Name, e.Name)
			return nil
		}
	case *Universe:
		return &datalog.Universe{Pos: e.Pos}
	case *Empty:
		return &datalog.Unary{Op: datalog.OpCompl, X: &datalog.Universe{Pos: e.Pos}, Pos: e.Pos}
	case *Binary:
		a, b := l.expr(e.L, sc), l.expr(e.R, sc)
		if a == nil || b == nil {
			return nil
		}
		op := map[BinOp]datalog.BinOp{OpUnion: datalog.OpUnion, OpSeq: datalog.OpSeq, OpDiff: datalog.OpDiff,
			OpInter: datalog.OpInter, OpProduct: datalog.OpProduct}[e.Op]
		return &datalog.Binary{Op: op, L: a, R: b, Pos: e.Pos}
	case *Unary:
		x := l.expr(e.X, sc)
		if x == nil {
			return nil
		}
		if r, ok := x.(*datalog.RelRef); ok && e.Op == OpPlus && l.transitive[r.Name] {
			return r
		}
		op := map[UnOp]datalog.UnOp{OpPlus: datalog.OpPlus, OpStar: datalog.OpStar, OpOpt: datalog.OpOpt,
			OpInv: datalog.OpInv, OpCompl: datalog.OpCompl, OpIdent: datalog.OpIdent}[e.Op]
		return &datalog.Unary{Op: op, X: x, Pos: e.Pos}
	case *App:
		return l.apply(e, sc)
	}
	return nil
}

// withPos returns a reference to a relation at the position where it is
// used (other expressions, bound as function arguments, are shared).
func withPos(x datalog.Expr, pos source.Pos) datalog.Expr {
	if r, ok := x.(*datalog.RelRef); ok {
		return &datalog.RelRef{Name: r.Name, Pos: pos}
	}
	return x
}

// apply inlines a function application.
func (l *lowerer) apply(e *App, sc *scope) datalog.Expr {
	v, name := l.callee(e.Fun, sc)
	if v == nil {
		return nil
	}
	var args []datalog.Expr
	for _, a := range e.Args {
		x := l.expr(a, sc)
		if x == nil {
			return nil
		}
		args = append(args, x)
	}
	switch f := v.(type) {
	case builtinValue:
		if len(args) != 1 {
			l.errs.Add(e.Pos, "%s takes one argument, not %d", name, len(args))
			return nil
		}
		return &datalog.Unary{Op: f.op, X: args[0], Pos: e.Pos}
	case funValue:
		if len(args) != len(f.b.Params) {
			l.errs.Add(e.Pos, "%s takes %d argument(s), not %d", name, len(f.b.Params), len(args))
			return nil
		}
		if l.depth >= maxCallDepth {
			l.errs.Add(e.Pos, "applications of %s nest more than %d deep", name, maxCallDepth)
			return nil
		}
		if l.calls++; l.calls > maxCalls {
			if l.calls == maxCalls+1 {
				l.errs.Add(e.Pos, "inlining the model's functions takes more than %d applications (at this application of %s); ptxmm inlines every application, so a model must apply its functions fewer times", maxCalls, name)
			}
			return nil
		}
		vars := map[string]value{}
		for i, p := range f.b.Params {
			if p != "_" {
				vars[p] = relValue{l.shareArg(name, args[i], e.Args[i].Position())}
			}
		}
		l.depth++
		defer func() { l.depth-- }()
		return l.expr(f.b.Expr, &scope{parent: f.scope, vars: vars})
	}
	l.errs.Add(e.Pos, "%s is a relation, not a function: it cannot be applied to arguments", name)
	return nil
}

// shareArg names an argument that is not a plain relation with a
// generated definition, so that a body using its parameter several times,
// or nested applications such as f(f(f(r))), stay linear in size instead
// of copying the argument at every use.
func (l *lowerer) shareArg(fname string, x datalog.Expr, pos source.Pos) datalog.Expr {
	if _, ok := x.(*datalog.RelRef); ok {
		return x
	}
	l.args++
	dn := fmt.Sprintf("%s$arg%d", fname, l.args)
	l.prog.Defs = append(l.prog.Defs, &datalog.Def{Name: dn, Expr: x, Pos: pos})
	if a := l.exprArity(x); a > 0 {
		l.arity[dn] = a
	}
	return &datalog.RelRef{Name: dn, Pos: pos}
}

// callee resolves what an application applies.
func (l *lowerer) callee(fun Expr, sc *scope) (value, string) {
	v, ok := fun.(*Var)
	if !ok {
		l.errs.Add(fun.Position(), "only a function name can be applied to arguments")
		return nil, ""
	}
	val, found := sc.lookup(v.Name)
	if !found {
		val, found = l.baseValue(v.Name, v.Pos)
	}
	if !found {
		l.errs.Add(v.Pos, "unknown function %s", v.Name)
		return nil, ""
	}
	return val, v.Name
}

// baseValue returns the relation a model reads under a name it does not
// bind: an entry of the mapping, or a catalog relation.
func (l *lowerer) baseValue(name string, pos source.Pos) (value, bool) {
	dn, ok := l.emitBase(name, false, pos)
	if !ok {
		return nil, false
	}
	return relValue{&datalog.RelRef{Name: dn, Pos: pos}}, true
}

// emitBase adds what a base name needs to the program, once, and returns
// its name in the program.
func (l *lowerer) emitBase(name string, helper bool, pos source.Pos) (string, bool) {
	key := name
	if helper {
		key = "$" + name
	}
	if dn, ok := l.base[key]; ok {
		return dn, true
	}
	e, isEntry := lookupBase(name, helper)
	if !isEntry {
		if helper {
			return "", false
		}
		ce, ok := catalog.Lookup(name)
		if !ok {
			return "", false
		}
		l.declareInput(ce, pos)
		l.base[key] = name
		return name, true
	}
	dn := name
	_, isCatalog := catalog.Lookup(name)
	if helper || isCatalog || l.bindings[name] > 0 {
		dn = name + "$base"
	}
	l.base[key] = dn
	l.arity[dn] = e.Arity
	if e.Transitive {
		l.transitive[dn] = true
	}
	if e.Over != "" {
		over := l.baseExpr(e.Over, pos)
		pairs := dn + "$pairs"
		if ref, ok := over.(*datalog.RelRef); ok {
			pairs = ref.Name
		} else {
			l.prog.Defs = append(l.prog.Defs, &datalog.Def{Name: pairs, Expr: over, Pos: pos, Doc: e.Doc})
		}
		l.prog.Orders = append(l.prog.Orders, &datalog.Order{Name: dn, Over: pairs, Partial: e.Partial, Pos: pos, Doc: e.Doc})
	} else {
		l.prog.Defs = append(l.prog.Defs, &datalog.Def{Name: dn, Expr: l.baseExpr(e.Def, pos), Pos: pos, Doc: e.Doc})
	}
	if e.Arity == 2 && !helper {
		l.edges = append(l.edges, dn)
	}
	return dn, true
}

// declareInput declares a catalog relation as an input of the program.
func (l *lowerer) declareInput(ce catalog.Entry, pos source.Pos) {
	if l.declared[ce.Name] {
		return
	}
	l.declared[ce.Name] = true
	l.arity[ce.Name] = ce.Arity
	l.prog.Decls = append(l.prog.Decls, &datalog.Decl{Name: ce.Name, Params: columns(ce.Arity, pos), Doc: ce.Doc, Pos: pos})
	l.prog.IO = append(l.prog.IO, &datalog.IODirective{Kind: datalog.IOInput, Name: ce.Name, Pos: pos})
	if ce.Arity == 2 {
		l.edges = append(l.edges, ce.Name)
	}
}

// baseExpr parses a definition of the mapping and resolves its names: a
// plain name is a catalog relation, B_x the entry or helper x. Its nodes
// take the position of the model's first use of the entry.
func (l *lowerer) baseExpr(text string, pos source.Pos) datalog.Expr {
	prog, errs := datalog.LoadSource("cat-base", "let x = "+text)
	if errs.HasErrors() || len(prog.Defs) != 1 {
		// The mapping is part of ptxmm; a test parses every entry.
		panic(fmt.Sprintf("cat: bad base definition %q: %v", text, errs))
	}
	return l.resolveBase(prog.Defs[0].Expr, pos)
}

func (l *lowerer) resolveBase(e datalog.Expr, pos source.Pos) datalog.Expr {
	switch e := e.(type) {
	case *datalog.RelRef:
		name := e.Name
		if ref, ok := strings.CutPrefix(name, "B_"); ok {
			if dn, ok := l.emitBase(ref, true, pos); ok {
				return &datalog.RelRef{Name: dn, Pos: pos}
			}
			if dn, ok := l.emitBase(ref, false, pos); ok {
				return &datalog.RelRef{Name: dn, Pos: pos}
			}
			panic("cat: base definition names an unknown entry " + ref)
		}
		ce, ok := catalog.Lookup(name)
		if !ok {
			panic("cat: base definition names an unknown catalog relation " + name)
		}
		l.declareInput(ce, pos)
		return &datalog.RelRef{Name: name, Pos: pos}
	case *datalog.Universe:
		return &datalog.Universe{Pos: pos}
	case *datalog.Binary:
		return &datalog.Binary{Op: e.Op, L: l.resolveBase(e.L, pos), R: l.resolveBase(e.R, pos), Pos: pos}
	case *datalog.Unary:
		return &datalog.Unary{Op: e.Op, X: l.resolveBase(e.X, pos), Pos: pos}
	}
	panic(fmt.Sprintf("cat: unexpected expression %T in a base definition", e))
}

// finishEdges sets the vocabulary of explanations: the binary base
// relations the model reads, the final binding of every base name the
// model redefines (co after let co = co+, fr), and the relations it shows.
func (l *lowerer) finishEdges() {
	edges := append([]string{}, l.edges...)
	for name := range l.bindings {
		if _, ok := lookupBase(name, false); ok && l.arity[name] == 2 {
			edges = append(edges, name)
		}
	}
	for _, s := range l.shown {
		if l.arity[s] == 2 {
			edges = append(edges, s)
		}
	}
	sort.Strings(edges)
	var pos source.Pos
	if len(l.prog.Files) > 0 {
		pos = source.Pos{File: l.prog.Files[0]}
	}
	for i, e := range edges {
		if i > 0 && edges[i-1] == e {
			continue
		}
		l.prog.IO = append(l.prog.IO, &datalog.IODirective{Kind: datalog.IOEdges, Name: e, Pos: pos})
	}
}

// exprArity is the number of columns of an expression, 0 when it depends
// on the context (_) or on relations of unknown arity.
func (l *lowerer) exprArity(e datalog.Expr) int {
	switch e := e.(type) {
	case *datalog.RelRef:
		return l.arity[e.Name]
	case *datalog.Binary:
		switch e.Op {
		case datalog.OpSeq, datalog.OpProduct:
			return 2
		}
		if a := l.exprArity(e.L); a > 0 {
			return a
		}
		return l.exprArity(e.R)
	case *datalog.Unary:
		switch e.Op {
		case datalog.OpCompl:
			return l.exprArity(e.X)
		case datalog.OpDomain, datalog.OpRange:
			return 1
		}
		return 2
	}
	return 0
}
