package cat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// builder accumulates the program a cat model lowers to, and names its
// relations:
//
//   - each top-level binding of a relation is a definition; the K-th
//     binding of a name is NAME$vK until the end, when the last one takes
//     the plain name (so that co is the model's final coherence order,
//     which ptxmm needs for the final values of memory);
//   - a catalog name keeps the catalog's relation, so the model's own
//     bindings of it stay numbered;
//   - a base name the model shadows (it read po-loc, then bound it) is
//     NAME$base.
type builder struct {
	prog *datalog.Program
	// versions counts the relation bindings of each cat name, last the
	// program name of the latest one.
	versions map[string]int
	last     map[string]string
	// base maps the entries and helpers emitted ("entry" or "$helper") to
	// their program names; declared holds the catalog inputs declared.
	base     map[string]string
	declared map[string]bool
	arity    map[string]int
	// transitive holds the relations known to be transitive.
	transitive map[string]bool
	// edges are the base relations explanations stop at.
	edges []string
	// checks holds the names of the checks emitted, groups the checks of
	// each cat name of a test or a call (for -skipchecks), and seen the
	// checks emitted by position, so that a file included twice does not
	// add its checks twice.
	checks map[string]bool
	groups map[string][]string
	seen   map[string]bool
	// gen numbers generated names.
	gen map[string]int
	// ptx is set for a model whose first line names PTX, which reads
	// PTX's own vocabulary where it differs from herd7's (baseEntry.NotPTX).
	ptx bool
}

func newBuilder(files []string) *builder {
	return &builder{prog: &datalog.Program{Files: files}, versions: map[string]int{}, last: map[string]string{},
		base: map[string]string{}, declared: map[string]bool{}, arity: map[string]int{}, transitive: map[string]bool{},
		checks: map[string]bool{}, groups: map[string][]string{}, seen: map[string]bool{}, gen: map[string]int{}}
}

// version returns the program name of the next binding of a cat name.
func (b *builder) version(name string) string {
	b.versions[name]++
	dn := fmt.Sprintf("%s$v%d", name, b.versions[name])
	b.last[name] = dn
	return dn
}

// fresh returns a new generated name, prefix$kindK.
func (b *builder) fresh(prefix, kind string) string {
	k := prefix + "$" + kind
	b.gen[k]++
	return fmt.Sprintf("%s%d", k, b.gen[k])
}

// define adds the definition of the program relation dn.
func (b *builder) define(dn string, v relVal, pos source.Pos, doc string) {
	x := v.x
	if v.arity == 0 {
		if _, ok := x.(*datalog.Universe); !ok && isEmptyExpr(x) {
			// herd's 0 is the empty relation; alone, nothing else says how
			// many columns it has.
			b.prog.Decls = append(b.prog.Decls, &datalog.Decl{Name: dn, Params: columns(2, pos), Pos: pos})
			b.arity[dn] = 2
		}
	}
	b.prog.Defs = append(b.prog.Defs, &datalog.Def{Name: dn, Expr: x, Pos: pos, Doc: doc})
	if v.arity > 0 {
		b.arity[dn] = v.arity
	}
}

// ref returns the value of the program relation dn.
func (b *builder) ref(dn string, pos source.Pos) relVal {
	return relVal{x: &datalog.RelRef{Name: dn, Pos: pos}, arity: b.arity[dn]}
}

func columns(n int, pos source.Pos) []datalog.Param {
	ps := make([]datalog.Param, n)
	for i := range ps {
		ps[i] = datalog.Param{Name: string(rune('a' + i)), Type: "event", Pos: pos}
	}
	return ps
}

// check adds a check under the cat name of its test (or the name made
// from its kind and position), once per position and expression. It
// returns the program name, unique in the program.
func (b *builder) check(c *datalog.Check, labels []string) string {
	key := fmt.Sprintf("%s|%s|%d:%d|%s", c.Name, c.Pos.File, c.Pos.Line, c.Pos.Col, datalog.ExprString(c.Expr))
	if b.seen[key] {
		return ""
	}
	b.seen[key] = true
	base := c.Name
	for k := 2; b.checks[c.Name]; k++ {
		c.Name = fmt.Sprintf("%s#%d", base, k)
	}
	b.checks[c.Name] = true
	b.prog.Checks = append(b.prog.Checks, c)
	for _, l := range append([]string{base}, labels...) {
		b.groups[l] = append(b.groups[l], c.Name)
	}
	return c.Name
}

// declareInput declares a catalog relation as an input of the program.
func (b *builder) declareInput(ce catalog.Entry, pos source.Pos) {
	if b.declared[ce.Name] {
		return
	}
	b.declared[ce.Name] = true
	b.arity[ce.Name] = ce.Arity
	b.prog.Decls = append(b.prog.Decls, &datalog.Decl{Name: ce.Name, Params: columns(ce.Arity, pos), Doc: ce.Doc, Pos: pos})
	b.prog.IO = append(b.prog.IO, &datalog.IODirective{Kind: datalog.IOInput, Name: ce.Name, Pos: pos})
	if ce.Arity == 2 {
		b.edges = append(b.edges, ce.Name)
	}
}

// baseValue returns the relation a model reads under a name nothing
// binds: an entry of the mapping, or a catalog relation.
func (b *builder) baseValue(name string, pos source.Pos) (relVal, bool) {
	dn, ok := b.emitBase(name, false, pos)
	if !ok {
		return relVal{}, false
	}
	return b.ref(dn, pos), true
}

// supplies reports whether ptxmm supplies a base name.
func supplies(name string) bool {
	if _, ok := lookupBase(name, false); ok {
		return true
	}
	_, ok := catalog.Lookup(name)
	return ok
}

// emitBase adds what a base name needs to the program, once, and returns
// its name in the program.
func (b *builder) emitBase(name string, helper bool, pos source.Pos) (string, bool) {
	key := name
	if helper {
		key = "$" + name
	}
	if dn, ok := b.base[key]; ok {
		return dn, true
	}
	e, isEntry := b.lookup(name, helper)
	if !isEntry {
		if helper {
			return "", false
		}
		ce, ok := catalog.Lookup(name)
		if !ok {
			return "", false
		}
		b.declareInput(ce, pos)
		b.base[key] = name
		return name, true
	}
	dn := name
	if _, isCatalog := catalog.Lookup(name); helper || isCatalog {
		dn = name + "$base"
	}
	b.base[key] = dn
	b.arity[dn] = e.Arity
	if e.Transitive {
		b.transitive[dn] = true
	}
	switch {
	case e.Over != "":
		over := b.baseExpr(e.Over, pos)
		pairs := dn + "$pairs"
		if ref, ok := over.(*datalog.RelRef); ok {
			pairs = ref.Name
		} else {
			b.prog.Defs = append(b.prog.Defs, &datalog.Def{Name: pairs, Expr: over, Pos: pos, Doc: e.Doc})
		}
		b.prog.Orders = append(b.prog.Orders, &datalog.Order{Name: dn, Over: pairs, Partial: e.Partial, Pos: pos, Doc: e.Doc})
	default:
		b.prog.Defs = append(b.prog.Defs, &datalog.Def{Name: dn, Expr: b.baseExpr(e.Def, pos), Pos: pos, Doc: e.Doc})
	}
	if e.Arity == 2 && !helper {
		b.edges = append(b.edges, dn)
	}
	return dn, true
}

// coherence is the relation ptxmm reads the final values of memory from
// (checker.CoherenceRelation).
const coherence = "co"

// finalsRelation is the relation that tells the final writes when
// a model reads herd7's FW (checker.FinalsRelation; cat does not import
// the checker).
const finalsRelation = "co$final"

// baseExpr parses a definition of the mapping and resolves its names: a
// plain name is a catalog relation, B_x the entry or helper x. Its nodes
// take the position of the model's first use of the entry.
func (b *builder) baseExpr(text string, pos source.Pos) datalog.Expr {
	x, err := datalog.ParseExpr(text)
	if err != nil {
		// The mapping is part of ptxmm; a test parses every entry.
		panic(fmt.Sprintf("cat: bad base definition %q: %v", text, err))
	}
	return b.resolveBase(x, pos)
}

func (b *builder) resolveBase(e datalog.Expr, pos source.Pos) datalog.Expr {
	switch e := e.(type) {
	case *datalog.RelRef:
		name := e.Name
		if ref, ok := strings.CutPrefix(name, "B_"); ok {
			if dn, ok := b.emitBase(ref, true, pos); ok {
				return &datalog.RelRef{Name: dn, Pos: pos}
			}
			if dn, ok := b.emitBase(ref, false, pos); ok {
				return &datalog.RelRef{Name: dn, Pos: pos}
			}
			panic("cat: base definition names an unknown entry " + ref)
		}
		ce, ok := catalog.Lookup(name)
		if !ok {
			panic("cat: base definition names an unknown catalog relation " + name)
		}
		b.declareInput(ce, pos)
		return &datalog.RelRef{Name: name, Pos: pos}
	case *datalog.Universe:
		return &datalog.Universe{Pos: pos}
	case *datalog.Binary:
		return &datalog.Binary{Op: e.Op, L: b.resolveBase(e.L, pos), R: b.resolveBase(e.R, pos), Pos: pos}
	case *datalog.Unary:
		return &datalog.Unary{Op: e.Op, X: b.resolveBase(e.X, pos), Pos: pos}
	}
	panic(fmt.Sprintf("cat: unexpected expression %T in a base definition", e))
}

// finish names the last binding of each cat name after it, makes sure
// the program has the coherence order the checker reads final values
// from, and sets the vocabulary of explanations: the binary base
// relations the model reads, the final binding of every base name the
// model redefines (co after let co = co+, fr) and the relations it shows.
func (b *builder) finish(shown []string) []string {
	rename := map[string]string{}
	for name, dn := range b.last {
		if _, isCatalog := catalog.Lookup(name); isCatalog {
			continue
		}
		if owner, ok := b.base[name]; ok && owner == name {
			rename[name] = name + "$base"
		}
		rename[dn] = name
	}
	b.rename(rename)
	for i, s := range shown {
		if r, ok := rename[s]; ok {
			shown[i] = r
		} else if name, ok := strings.CutSuffix(s, "$base"); ok && b.base[name] == s {
			// A base entry that shadows the catalog relation of its name
			// (herd7's po): pictures draw it under the name the model
			// wrote.
			shown[i] = name
		}
	}
	if !b.defines(coherence) {
		// The model neither binds nor reads co: the checker chooses it, a
		// total order of each location's writes, so that every write may
		// be the last, as the final write of a herd7 candidate may.
		pos := source.Pos{File: b.file()}
		dn, ok := b.emitBase("co_total", true, pos)
		if !ok {
			panic("cat: the mapping has no co_total helper")
		}
		b.prog.Defs = append(b.prog.Defs, &datalog.Def{Name: coherence, Expr: &datalog.RelRef{Name: dn, Pos: pos}, Pos: pos,
			Doc: "the checker's choice of coherence for a model that neither binds nor reads co"})
		b.arity[coherence] = 2
		b.transitive[coherence] = true
	}
	if _, ok := b.base["FW"]; ok {
		// The model reads herd7's final writes (FW, co0, pco): they are
		// the last writes of the order the checker chose for them, not of
		// the model's coherence, which need not end with them
		// (checker.FinalsRelation).
		pos := source.Pos{File: b.file()}
		order, _ := b.emitBase("fw_order", true, pos)
		init, _ := b.emitBase("co_init", true, pos)
		b.prog.Defs = append(b.prog.Defs, &datalog.Def{Name: finalsRelation, Pos: pos,
			Expr: &datalog.Binary{Op: datalog.OpUnion, L: &datalog.RelRef{Name: order, Pos: pos}, R: &datalog.RelRef{Name: init, Pos: pos}, Pos: pos},
			Doc:  "the final writes herd7's FW names: the last of each location's writes in the checker's order"})
		b.arity[finalsRelation] = 2
	}
	edges := append([]string{}, b.edges...)
	for name := range b.last {
		if _, ok := b.lookup(name, false); ok && b.arity[name] == 2 {
			edges = append(edges, name)
		}
	}
	for _, s := range shown {
		if b.arity[s] == 2 {
			edges = append(edges, s)
		}
	}
	sort.Strings(edges)
	pos := source.Pos{File: b.file()}
	for i, e := range edges {
		if i > 0 && edges[i-1] == e || !b.defines(e) {
			continue
		}
		b.prog.IO = append(b.prog.IO, &datalog.IODirective{Kind: datalog.IOEdges, Name: e, Pos: pos})
	}
	return shown
}

func (b *builder) file() string {
	if len(b.prog.Files) > 0 {
		return b.prog.Files[0]
	}
	return ""
}

// defines reports whether the program defines, declares or orders a
// relation of that name.
func (b *builder) defines(name string) bool {
	for _, d := range b.prog.Defs {
		if d.Name == name {
			return true
		}
	}
	for _, o := range b.prog.Orders {
		if o.Name == name {
			return true
		}
	}
	return b.declared[name]
}

// rename renames relations throughout the program.
func (b *builder) rename(m map[string]string) {
	if len(m) == 0 {
		return
	}
	to := func(n string) string {
		if r, ok := m[n]; ok {
			return r
		}
		return n
	}
	// Expressions share nodes (a value used twice); each is renamed once.
	done := map[*datalog.RelRef]bool{}
	for _, d := range b.prog.Decls {
		d.Name = to(d.Name)
	}
	for _, d := range b.prog.Defs {
		d.Name = to(d.Name)
		renameExpr(d.Expr, to, done)
	}
	for _, c := range b.prog.Checks {
		renameExpr(c.Expr, to, done)
	}
	for _, o := range b.prog.Orders {
		o.Name, o.Over = to(o.Name), to(o.Over)
	}
	for _, io := range b.prog.IO {
		io.Name = to(io.Name)
	}
	for i, e := range b.edges {
		b.edges[i] = to(e)
	}
	for k, v := range b.base {
		b.base[k] = to(v)
	}
	arity := map[string]int{}
	for n, a := range b.arity {
		arity[to(n)] = a
	}
	b.arity = arity
}

func renameExpr(e datalog.Expr, to func(string) string, done map[*datalog.RelRef]bool) {
	switch e := e.(type) {
	case *datalog.RelRef:
		if !done[e] {
			done[e] = true
			e.Name = to(e.Name)
		}
	case *datalog.Binary:
		renameExpr(e.L, to, done)
		renameExpr(e.R, to, done)
	case *datalog.Unary:
		renameExpr(e.X, to, done)
	}
}

// pruneInputs drops the catalog inputs nothing reads any more (an
// expression under try that failed after reading one), which would draw
// "never used" warnings.
func (b *builder) pruneInputs() {
	used := map[string]bool{}
	var walk func(e datalog.Expr)
	walk = func(e datalog.Expr) {
		switch e := e.(type) {
		case *datalog.RelRef:
			used[e.Name] = true
		case *datalog.Binary:
			walk(e.L)
			walk(e.R)
		case *datalog.Unary:
			walk(e.X)
		}
	}
	for _, d := range b.prog.Defs {
		walk(d.Expr)
	}
	for _, c := range b.prog.Checks {
		walk(c.Expr)
	}
	for _, o := range b.prog.Orders {
		used[o.Over] = true
	}
	for _, io := range b.prog.IO {
		if io.Kind == datalog.IOEdges {
			used[io.Name] = true
		}
	}
	keep := func(name string) bool { return !b.declared[name] || used[name] }
	decls := b.prog.Decls[:0]
	for _, d := range b.prog.Decls {
		if keep(d.Name) {
			decls = append(decls, d)
		}
	}
	b.prog.Decls = decls
	io := b.prog.IO[:0]
	for _, d := range b.prog.IO {
		if d.Kind != datalog.IOInput || keep(d.Name) {
			io = append(io, d)
		}
	}
	b.prog.IO = io
}
