package datalog

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ptxmm/ptxmm/source"
)

// Analyze applies the program's variant edits, desugars its definitions and
// check expressions into rules, and runs the static checks. It returns the
// model and every error found; warnings are kept in Model.Warnings. A nil
// model is returned only together with errors.
func Analyze(prog *Program) (*Model, source.List) {
	a := &analyzer{
		prog:     prog,
		m:        &Model{Relations: map[string]*Relation{}, Program: prog, Queries: prog.Queries},
		defArity: map[string]int{},
	}
	return a.run()
}

type analyzer struct {
	// io is the program's IO directives after variant edits.
	io        []*IODirective
	prog      *Program
	m         *Model
	errs      source.List
	defs      map[string]*Def
	defArity  map[string]int
	inferring map[string]bool
	badDef    map[string]bool // definitions whose arity contradicts their .decl
	genCount  map[string]int
	// texts caches the cat text of the subexpressions of the definition
	// being desugared (exprTexts), so that each is printed once.
	texts map[Expr]string
	// arities caches exprArity once every definition's arity is known
	// (during desugaring, which asks for the arity of every subexpression:
	// without it, a chain of N operators costs O(N²)).
	arities map[arityKey]int
}

type arityKey struct {
	e    Expr
	want int
}

// text returns the cat text of e, printing the whole expression e belongs
// to once and keeping the texts of all its subexpressions.
func (a *analyzer) text(e Expr) string {
	if t, ok := a.texts[e]; ok {
		return t
	}
	a.texts = exprTexts(e)
	return a.texts[e]
}

func (a *analyzer) run() (*Model, source.List) {
	defs, rules, checks, io := applyEdits(a.prog, &a.errs)
	a.io = io
	a.declare(defs, rules)
	a.inferArities(defs)
	// About a dozen cached arities per definition: sized once, not grown.
	a.arities = make(map[arityKey]int, 12*len(defs))
	for _, d := range defs {
		a.desugarDef(d)
	}
	a.m.Rules = append(a.m.Rules, rules...)
	for _, c := range checks {
		a.addCheck(c)
	}
	a.addOrders()
	a.m.IO = a.io
	for _, r := range a.m.Rules {
		a.checkRule(r)
	}
	for _, q := range a.prog.Queries {
		a.checkBody(q.Body, q.Pos, nil)
	}
	a.checkIO()
	a.warnUnused()
	a.errs.Sort()
	a.prog.AttachLines(a.errs)
	if a.errs.HasErrors() {
		return nil, a.errs
	}
	a.m.Warnings.Sort()
	a.prog.AttachLines(a.m.Warnings)
	return a.m, a.errs
}

func (a *analyzer) addRelation(r *Relation) {
	a.m.Relations[r.Name] = r
	a.m.Names = append(a.m.Names, r.Name)
}

// declare records every relation the program names: .decl, let, .input and
// .order, reporting duplicates and conflicting roles.
func (a *analyzer) declare(defs []*Def, rules []*Rule) {
	a.addRelation(&Relation{Name: UniverseName, Arity: 1, Kind: RelUniverse, Doc: "every atom of the domain"})
	for _, d := range a.prog.Decls {
		if old := a.m.Relations[d.Name]; old != nil && old.Kind != RelUniverse {
			a.errs.Add(d.Pos, "relation %s is declared twice (first at %s)", d.Name, old.Pos)
			continue
		}
		a.addRelation(&Relation{Name: d.Name, Arity: d.Arity(), Kind: RelDerived, Doc: d.Doc, Pos: d.Pos})
	}
	a.defs = map[string]*Def{}
	for _, d := range defs {
		if old := a.defs[d.Name]; old != nil {
			a.errs.Add(d.Pos, "%s is defined twice (first at %s); a variant replaces a definition with .redefine", d.Name, old.Pos)
			continue
		}
		a.defs[d.Name] = d
		if r := a.m.Relations[d.Name]; r != nil {
			r.Def = d
			if d.Doc != "" {
				r.Doc = d.Doc
			}
			continue
		}
		a.addRelation(&Relation{Name: d.Name, Arity: 0, Kind: RelDerived, Doc: d.Doc, Pos: d.Pos, Def: d})
	}
	for _, r := range rules {
		if d := a.defs[r.Head.Pred]; d != nil {
			a.errs.Add(r.Pos, "rule for %s, which is defined by let at %s: a relation is defined either by rules or by one definition", r.Head.Pred, d.Pos)
		}
	}
	for _, io := range a.io {
		if io.Kind != IOInput {
			continue
		}
		r := a.m.Relations[io.Name]
		switch {
		case r == nil:
			a.errs.Add(io.Pos, "relation %s is not declared: add .decl %s(...) before .input %s", io.Name, io.Name, io.Name)
		case r.Def != nil:
			a.errs.Add(io.Pos, ".input %s: %s is defined by let at %s, so its tuples cannot also come from outside", io.Name, io.Name, r.Def.Pos)
		case r.Kind == RelInput:
			a.m.Warnings.Warn(io.Pos, ".input %s is given twice", io.Name)
		default:
			r.Kind = RelInput
		}
	}
	for _, o := range a.prog.Orders {
		r := a.m.Relations[o.Name]
		switch {
		case r == nil:
			a.addRelation(&Relation{Name: o.Name, Arity: 2, Kind: RelOrder, Doc: o.Doc, Pos: o.Pos})
		case r.Kind == RelOrder:
			a.errs.Add(o.Pos, "order %s is declared twice (first at %s)", o.Name, r.Pos)
		case r.Kind != RelDerived || r.Def != nil:
			a.errs.Add(o.Pos, ".order %s: %s is already an input or a definition", o.Name, o.Name)
		case r.Arity != 2:
			a.errs.Add(o.Pos, ".order %s: an order is a binary relation, but %s is declared with %d column(s)", o.Name, o.Name, r.Arity)
		default:
			r.Kind = RelOrder
			if o.Doc != "" {
				r.Doc = o.Doc
			}
		}
	}
}

// inferArities gives every definition the arity of its expression. A
// definition may use definitions that come later, and may be recursive, so
// arities are inferred on demand with a guard against cycles.
func (a *analyzer) inferArities(defs []*Def) {
	a.inferring = map[string]bool{}
	a.badDef = map[string]bool{}
	for _, d := range defs {
		if a.defs[d.Name] != d {
			continue
		}
		r := a.m.Relations[d.Name]
		if r.Arity != 0 {
			// Declared: the expression must have the declared arity
			// (defArityOf would just return the declared one).
			if ar := a.exprArity(d.Expr, r.Arity); ar != 0 && ar != r.Arity {
				a.errs.Add(d.Pos, "%s is declared with %d column(s) at %s, but its definition has %d", d.Name, r.Arity, r.Pos, ar)
				a.badDef[d.Name] = true
			}
			continue
		}
		ar := a.defArityOf(d)
		if ar == 0 {
			if !a.reportUnknown(d.Expr, d.Name) {
				a.errs.Add(d.Pos, "cannot tell whether %s is a set or a relation: declare it with .decl", d.Name)
			}
			continue
		}
		r.Arity = ar
	}
}

func (a *analyzer) defArityOf(d *Def) int {
	if ar, ok := a.defArity[d.Name]; ok {
		return ar
	}
	if r := a.m.Relations[d.Name]; r != nil && r.Arity != 0 {
		return r.Arity
	}
	if a.inferring[d.Name] {
		return 0
	}
	a.inferring[d.Name] = true
	ar := a.exprArity(d.Expr, 0)
	delete(a.inferring, d.Name)
	if ar != 0 {
		a.defArity[d.Name] = ar
	}
	return ar
}

// exprArity infers an expression's arity without reporting errors (the
// desugaring pass reports them); want is the arity the context expects, 0 if
// it does not know.
func (a *analyzer) exprArity(e Expr, want int) int {
	if a.arities == nil {
		return a.exprArityOnce(e, want)
	}
	k := arityKey{e, want}
	if ar, ok := a.arities[k]; ok {
		return ar
	}
	ar := a.exprArityOnce(e, want)
	a.arities[k] = ar
	return ar
}

// exprArityOnce computes exprArity without the cache.
func (a *analyzer) exprArityOnce(e Expr, want int) int {
	switch e := e.(type) {
	case *RelRef:
		if d := a.defs[e.Name]; d != nil {
			return a.defArityOf(d)
		}
		if r := a.m.Relations[e.Name]; r != nil {
			return r.Arity
		}
		return 0
	case *Universe:
		if want != 0 {
			return want
		}
		return 1
	case *Binary:
		switch e.Op {
		case OpSeq, OpProduct:
			return 2
		default:
			l := a.exprArityNoUniverse(e.L)
			if l != 0 {
				return l
			}
			r := a.exprArityNoUniverse(e.R)
			if r != 0 {
				return r
			}
			if want != 0 {
				return want
			}
			return a.exprArity(e.L, want)
		}
	case *Unary:
		switch e.Op {
		case OpDomain, OpRange:
			return 1
		case OpCompl:
			return a.exprArity(e.X, want)
		default:
			return 2
		}
	}
	return 0
}

// reportUnknown reports the relation names in e that name nothing, which
// is why an arity cannot be inferred, and tells whether there were any.
func (a *analyzer) reportUnknown(e Expr, owner string) bool {
	switch e := e.(type) {
	case *RelRef:
		if a.m.Relations[e.Name] == nil {
			a.errs.Add(e.Pos, "unknown relation %s in the definition of %s", e.Name, owner)
			return true
		}
	case *Binary:
		l := a.reportUnknown(e.L, owner)
		r := a.reportUnknown(e.R, owner)
		return l || r
	case *Unary:
		return a.reportUnknown(e.X, owner)
	}
	return false
}

// exprArityNoUniverse is exprArity where a bare _ does not decide the arity,
// so that "r & _" takes r's arity.
func (a *analyzer) exprArityNoUniverse(e Expr) int {
	if _, ok := e.(*Universe); ok {
		return 0
	}
	return a.exprArity(e, 0)
}

func (a *analyzer) addCheck(c *Check) {
	for _, old := range a.m.Checks {
		if old.Name == c.Name {
			a.errs.Add(c.Pos, "check %s is defined twice (first at %s); a variant replaces a check with .recheck", c.Name, old.Pos)
			return
		}
	}
	cc := *c
	want := 2
	if c.Kind == CheckEmpty {
		want = 0
	}
	if ref, ok := c.Expr.(*RelRef); ok {
		r := a.m.Relations[ref.Name]
		if r == nil {
			a.errs.Add(ref.Pos, "check %s: unknown relation %s", c.Name, ref.Name)
			return
		}
		cc.Rel = ref.Name
		if want == 2 && r.Arity != 2 {
			a.errs.Add(ref.Pos, "check %s: %s needs a binary relation, but %s has %d column(s)", c.Name, c.Kind, ref.Name, r.Arity)
			return
		}
	} else {
		name := "check$" + c.Name
		ar := a.desugarTop(name, c.Expr, want, c.Name, c.Pos, c.Doc)
		if ar == 0 {
			return
		}
		if want == 2 && ar != 2 {
			a.errs.Add(c.Expr.Position(), "check %s: %s needs a binary relation, but the expression is a set", c.Name, c.Kind)
			return
		}
		cc.Rel = name
	}
	a.m.Checks = append(a.m.Checks, &cc)
}

func (a *analyzer) addOrders() {
	for _, o := range a.prog.Orders {
		over := a.m.Relations[o.Over]
		switch {
		case over == nil:
			a.errs.Add(o.Pos, ".order %s over %s: unknown relation %s", o.Name, o.Over, o.Over)
			continue
		case over.Arity != 2:
			a.errs.Add(o.Pos, ".order %s over %s: the pairs must be a binary relation, but %s has %d column(s)", o.Name, o.Over, o.Over, over.Arity)
			continue
		}
		a.m.Orders = append(a.m.Orders, o)
	}
}

func (a *analyzer) checkIO() {
	for _, io := range a.io {
		if io.Kind == IOInput {
			continue
		}
		r := a.m.Relations[io.Name]
		if r == nil {
			a.errs.Add(io.Pos, ".%s %s: unknown relation %s", io.Kind, io.Name, io.Name)
			continue
		}
		if io.Kind == IOEdges {
			if r.Arity != 2 {
				a.errs.Add(io.Pos, ".edges %s: explanations draw binary relations as edges, but %s has %d column(s)", io.Name, io.Name, r.Arity)
				continue
			}
			a.m.Edges = append(a.m.Edges, io.Name)
		}
		if io.Kind == IOShow {
			if r.Arity != 2 {
				a.errs.Add(io.Pos, ".show %s: pictures draw binary relations as edges, but %s has %d column(s)", io.Name, io.Name, r.Arity)
				continue
			}
			if !slices.Contains(a.m.Show, io.Name) {
				a.m.Show = append(a.m.Show, io.Name)
			}
		}
	}
}

// warnUnused warns about relations that are declared but never used, and
// relations that are used but can never hold a tuple.
func (a *analyzer) warnUnused() {
	used := map[string]bool{}
	defined := map[string]bool{}
	for _, r := range a.m.Rules {
		defined[r.Head.Pred] = true
		for _, l := range r.Body {
			if at, ok := l.(*Atom); ok {
				used[at.Pred] = true
			}
		}
	}
	for _, c := range a.m.Checks {
		used[c.Rel] = true
	}
	for _, o := range a.m.Orders {
		used[o.Over] = true
	}
	for _, io := range a.m.IO {
		if io.Kind != IOInput {
			used[io.Name] = true
		}
	}
	for _, q := range a.m.Queries {
		for _, l := range q.Body {
			if at, ok := l.(*Atom); ok {
				used[at.Pred] = true
			}
		}
	}
	// A variant's edits (.redefine, .uncheck) leave unused some relations
	// of the model it includes: that is what the edits mean, not a slip in
	// either file, and the base model's author hears of its own unused
	// relations when checking it alone. So under edits, "never used" is
	// said only of relations declared in a file that holds an edit.
	editFiles := map[string]bool{}
	for _, e := range a.prog.Edits {
		editFiles[e.Pos.File] = true
	}
	names := append([]string(nil), a.m.Names...)
	sort.SliceStable(names, func(i, j int) bool {
		return a.m.Relations[names[i]].Pos.Before(a.m.Relations[names[j]].Pos)
	})
	for _, n := range names {
		r := a.m.Relations[n]
		if r.Generated || r.Kind == RelUniverse {
			continue
		}
		if len(editFiles) > 0 && !editFiles[r.Pos.File] {
			used[n] = true
		}
		isDefined := defined[n] || r.Kind != RelDerived
		switch {
		case !used[n] && !isDefined:
			a.m.Warnings.Warn(r.Pos, "relation %s is declared but never defined or used", n)
		case !used[n] && r.Kind == RelInput:
			a.m.Warnings.Warn(r.Pos, "input relation %s is never used", n)
		case !used[n] && r.Kind == RelDerived && r.Def == nil:
			a.m.Warnings.Warn(r.Pos, "relation %s is defined but never used (not in any rule, check or .output)", n)
		case !isDefined:
			a.m.Warnings.Warn(r.Pos, "relation %s is never defined (no rule, fact, let or .input), so it is always empty", n)
		}
	}
}

func (a *analyzer) genName(owner string) string {
	if a.genCount == nil {
		a.genCount = map[string]int{}
	}
	a.genCount[owner]++
	return fmt.Sprintf("%s$%d", owner, a.genCount[owner])
}
