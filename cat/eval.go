package cat

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// Lowered is a cat model expressed in ptxmm's modelling language.
type Lowered struct {
	Program *datalog.Program
	// Name is the model's name from its first line.
	Name string
	// Show lists the relations pictures draw, by their names in Program:
	// those herd7 draws in every picture (herdShown), then those the
	// model shows (show, minus unshow).
	Show []string
	// Groups maps the name of a test that several checks share, and the
	// label of each procedure call (call p(x) as label, or the
	// procedure's name), to the program's checks under it: herd7's
	// -skipchecks NAME skips them all.
	Groups map[string][]string
}

// Limits of evaluation: applications nest at most maxCallDepth deep and
// number at most maxCalls in all (every application is evaluated when the
// model is loaded; a model needing more recurses without end or is far
// beyond the published ones).
const (
	maxCallDepth = 1_000
	maxCalls     = 200_000
)

// evaluator runs a cat model once, when it is loaded, building the
// program it lowers to.
type evaluator struct {
	opts Options
	b    *builder
	errs source.List
	// texts holds the text of each file read, for quoting lines.
	texts map[string]string
	// parsed caches the files parsed, by path; stack is the chain of
	// files being included.
	parsed map[string]*Model
	stack  []string
	// unsupplied holds the names no binding and no base name supplies,
	// each at its first use, in the order met.
	unsupplied []unsuppliedError
	// shown are the relations shown, by program name.
	shown []string
	// depth and calls count applications (maxCallDepth, maxCalls).
	depth, calls int
	// choosing is set while the set of a with is evaluated: the sets
	// whose members depend on the execution may be taken apart there
	// (with.go); chosen are the orders their members became.
	choosing bool
	chosen   []*choice
	withVar  string
	// labels are the labels of the calls being run, innermost last.
	labels []string
	// variants holds the variants set, in lower case.
	variants map[string]bool
	// warned holds the warnings given, so each is given once.
	warned map[string]bool
}

// lower evaluates a parsed model (whose text is src) into a program.
func lower(m *Model, src string, opts Options) (*Lowered, source.List) {
	ev := &evaluator{opts: opts, b: newBuilder([]string{m.File}), texts: map[string]string{m.File: src},
		parsed: map[string]*Model{}, variants: map[string]bool{}, warned: map[string]bool{}}
	for _, v := range opts.Variants {
		ev.variants[strings.ToLower(v)] = true
	}
	ev.b.ptx = strings.EqualFold(m.Arch, "PTX")
	root := ev.prelude()
	if opts.ArchCheck && isArch(m.Arch) && !strings.EqualFold(m.Arch, "PTX") {
		ev.errs.Add(source.Pos{File: m.File, Line: 1, Col: 1}, "the model is for %s (its first line names that architecture), and ptxmm checks PTX tests: -archcheck false runs it anyway", m.Arch)
	}
	if opts.Bell != "" {
		root = ev.bell(root)
	}
	ev.stack = []string{m.File}
	ev.run(m.Instrs, root)
	ev.reportUnsupplied()
	shown := ev.b.finish(ev.shown)
	ev.b.pruneInputs()
	for f, t := range ev.texts {
		ev.b.prog.SetText(f, t)
		ev.errs.AttachLines(f, t)
	}
	ev.errs.Sort()
	return &Lowered{Program: ev.b.prog, Name: m.Name, Show: withHerdShown(shown), Groups: ev.b.groups}, ev.errs
}

// herdShown are the relations herd7 draws in the picture of every
// execution, whatever the model shows: program order, reads-from,
// coherence and from-reads.
var herdShown = []string{"po", "rf", "co", "fr"}

// withHerdShown is herdShown followed by the relations shown that it
// does not hold. A model's unshow takes away what its show added, not
// herdShown's relations; the command line's -unshow takes away any.
func withHerdShown(shown []string) []string {
	out := slices.Clone(herdShown)
	for _, s := range shown {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// bell runs the bell file of the options before the model.
func (ev *evaluator) bell(root *env) *env {
	file := FindModel(ev.opts.Bell, ev.opts)
	text, err := ev.opts.read(file)
	if err != nil {
		ev.errs.Add(source.Pos{File: file}, "cannot read bell file: %v", describeReadError(err))
		return root
	}
	var perrs source.List
	m := parseFile(file, string(text), &perrs)
	ev.texts[file] = string(text)
	ev.b.prog.Files = append(ev.b.prog.Files, file)
	ev.errs = append(ev.errs, perrs...)
	if perrs.HasErrors() {
		return root
	}
	ev.stack = []string{file}
	return ev.run(m.Instrs, root)
}

// archNames are the architectures herd7 names on a model's first line.
var archNames = []string{"AArch64", "ARM", "BPF", "MIPS", "PPC", "X86", "RISCV", "RISC-V", "X86_64", "C", "CPP", "C++", "LISA", "JAVA", "Java", "ASL", "PTX"}

func isArch(name string) bool {
	for _, a := range archNames {
		if a == name {
			return true
		}
	}
	return false
}

// Lower expresses a parsed cat model as a program of the modelling
// language, reading its includes as opts says. Errors carry the cat
// files' positions.
func Lower(m *Model, opts Options) (*Lowered, source.List) {
	src, err := opts.read(m.File)
	if err != nil {
		src = nil
	}
	return lower(m, string(src), opts)
}

// fail reports an evaluation error: an unbound name joins the list of
// unsupplied names, a poisoned value was reported already.
func (ev *evaluator) fail(err error) {
	var ue *unsuppliedError
	var ues unsuppliedErrors
	var pe *poisonedError
	var ee *evalError
	switch {
	case errors.As(err, &ues):
		for _, u := range ues {
			ev.fail(u)
		}
	case errors.As(err, &ue):
		for _, u := range ev.unsupplied {
			if u.name == ue.name {
				return
			}
		}
		ev.unsupplied = append(ev.unsupplied, *ue)
	case errors.As(err, &pe):
	case errors.As(err, &ee):
		ev.errs.Add(ee.pos, "%s", ee.msg)
	default:
		ev.errs.Add(source.Pos{File: ev.b.file()}, "%v", err)
	}
}

// warn adds a warning once.
func (ev *evaluator) warn(pos source.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if ev.warned[msg] {
		return
	}
	ev.warned[msg] = true
	ev.errs.Warn(pos, "%s", msg)
}

// reportUnsupplied gives the one error that lists the names the model
// reads and neither it nor ptxmm binds.
func (ev *evaluator) reportUnsupplied() {
	if len(ev.unsupplied) == 0 {
		return
	}
	var parts []string
	for _, u := range ev.unsupplied {
		parts = append(parts, fmt.Sprintf("%s (%s:%d:%d)", u.name, u.pos.File, u.pos.Line, u.pos.Col))
	}
	first := ev.unsupplied[0].pos
	ev.errs.Add(first, "the model reads %s that neither it nor ptxmm binds: %s; ptxmm supplies the names of docs/cat.md (%s) and every relation of its catalog (docs/catalog.md)",
		plural(len(parts), "a name", "names"), strings.Join(parts, ", "), strings.Join(suppliedNames(), ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// suppliedNames lists the herd names ptxmm supplies besides its catalog.
func suppliedNames() []string {
	var out []string
	for _, e := range baseEntries {
		out = append(out, e.Name)
	}
	out = append(out, "po", "rf", "rmw", "addr", "data", "ctrl", "loc", "R", "W", "M", "IW", "E")
	out = append(out, stdlibNames()...)
	sort.Strings(out)
	return slices.Compact(out)
}

// run executes instructions in en and returns the scope after them.
func (ev *evaluator) run(instrs []Instr, en *env) *env {
	for _, in := range instrs {
		en = ev.exec(in, en)
	}
	return en
}

// exec executes one instruction.
func (ev *evaluator) exec(in Instr, en *env) *env {
	switch in := in.(type) {
	case *LetInstr:
		return ev.letInstr(in, en)
	case *TestInstr:
		ev.test(in.Test, in.Mode, en)
	case *ShowInstr:
		ev.show(in, en)
	case *IncludeInstr:
		return ev.include(in, en)
	case *ProcInstr:
		pv := &procVal{proc: in}
		next := en.with(map[string]value{in.Name: pv})
		pv.env = en
		if in.Rec {
			pv.env = next
		}
		return next
	case *CallInstr:
		ev.call(in, en)
	case *EnumInstr:
		return ev.enum(in, en)
	case *ForallInstr:
		ev.forall(in, en)
	case *DebugInstr:
		// herd prints the value with -debug; evaluating it reports errors.
		if _, err := ev.eval(in.Expr, en); err != nil {
			ev.fail(err)
		}
	case *WithInstr:
		return ev.with(in, en)
	case *EventsInstr:
		ev.warn(in.Pos, "%s %s[...] belongs to bell files, which describe the instructions of a test's architecture; ptxmm's catalog describes PTX's, so it is ignored", map[bool]string{true: "default", false: "instructions"}[in.Default], in.Set)
	case *IfVariantInstr:
		if ev.variantHolds(in.Cond) {
			return ev.run(in.Then, en)
		}
		return ev.run(in.Else, en)
	case *MatchInstr:
		return ev.matchInstr(in, en)
	}
	return en
}

// letInstr binds the names of a let or let rec at the top level (or in a
// procedure's body).
func (ev *evaluator) letInstr(in *LetInstr, en *env) *env {
	if in.Rec {
		next := ev.letRec(in.Bindings, en, true)
		if in.When != nil {
			ev.test(in.When, ModeCheck, next)
		}
		return next
	}
	vars := map[string]value{}
	for _, b := range in.Bindings {
		v, err := ev.eval(b.Expr, en)
		if err != nil {
			ev.fail(err)
			for _, n := range b.Pat.Names {
				vars[n] = poisonVal{name: n}
			}
			continue
		}
		bound, err := ev.bindPattern(b.Pat, v, b.Pos)
		if err != nil {
			ev.fail(err)
			continue
		}
		for n, v := range bound {
			vars[n] = ev.name(n, v, b.Pos)
		}
	}
	delete(vars, "")
	return en.with(vars)
}

// name makes a top-level relation a definition of the program under its
// cat name (a version of it, builder.version), so that explanations and
// the REPL speak the model's names.
func (ev *evaluator) name(n string, v value, pos source.Pos) value {
	r, ok := v.(relVal)
	if !ok || n == "" {
		return v
	}
	dn := ev.b.version(n)
	ev.b.define(dn, r, pos, "")
	return ev.b.ref(dn, pos)
}

// test lowers a test. A herd check rejects the executions that fail it; a
// flag is raised by the executions that pass it, while ptxmm's .flag is
// raised by those that fail its test; undefined_unless makes the program
// undefined when its test fails, like .undefined; an assert is raised as a
// flag by the executions that fail it.
func (ev *evaluator) test(t *Test, mode TestMode, en *env) {
	v, err := ev.eval(t.Expr, en)
	if err != nil {
		ev.fail(err)
		return
	}
	r, err := ev.toRel(v, t.Expr.Position())
	if err != nil {
		ev.fail(err)
		return
	}
	if r.arity == 1 && t.Kind != TestEmpty {
		ev.fail(errorf(t.Expr.Position(), "%s needs a relation, but this is a set of events", t.Kind))
		return
	}
	name := t.Name
	if name == "" {
		// herd leaves such a test unnamed; ptxmm names every check.
		name = fmt.Sprintf("%s@%d:%d", t.Kind, t.Pos.Line, t.Pos.Col)
	}
	negated := t.Negated
	dmode := datalog.ModeAxiom
	switch mode {
	case ModeFlag:
		dmode = datalog.ModeFlag
		negated = !negated
	case ModeUndefinedUnless:
		dmode = datalog.ModeUndefined
	case ModeAssert:
		dmode = datalog.ModeFlag
	}
	c := &datalog.Check{Name: name, Mode: dmode, Pos: t.Pos, Expr: r.x}
	c.Kind = map[TestKind]datalog.CheckKind{TestAcyclic: datalog.CheckAcyclic,
		TestIrreflexive: datalog.CheckIrreflexive, TestEmpty: datalog.CheckEmpty}[t.Kind]
	if negated {
		c.Kind, c.Expr = datalog.CheckEmpty, datalog.Negated(c.Kind, r.x, r.arity, t.Pos)
	}
	ev.b.check(c, ev.labels)
}

// show marks or unmarks relations for pictures. herd shows only names
// that are bound, and ignores a show e as name whose e fails.
func (ev *evaluator) show(in *ShowInstr, en *env) {
	if in.Expr != nil {
		v, err := ev.eval(in.Expr, en)
		if err != nil {
			return
		}
		r, err := ev.toRel(v, in.Pos)
		if err != nil || r.arity == 1 {
			return
		}
		n := in.Names[0]
		dn := ev.b.version(n)
		ev.b.define(dn, r, in.Pos, "")
		ev.addShown(dn)
		return
	}
	for _, n := range in.Names {
		v, ok := en.lookup(n)
		if !ok {
			if r, found := ev.b.baseValue(n, in.Pos); found {
				v, ok = r, true
			}
		}
		r, isRel := v.(relVal)
		if !ok || !isRel || r.arity == 1 {
			continue
		}
		ref, isRef := r.x.(*datalog.RelRef)
		if !isRef {
			continue
		}
		if in.Unshow {
			if i := indexOf(ev.shown, ref.Name); i >= 0 {
				ev.shown = append(ev.shown[:i], ev.shown[i+1:]...)
			}
			continue
		}
		ev.addShown(ref.Name)
	}
}

func (ev *evaluator) addShown(dn string) {
	if indexOf(ev.shown, dn) < 0 {
		ev.shown = append(ev.shown, dn)
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

// include runs an included file. The name stdlib.cat is ptxmm's own
// standard library, which every model has already.
func (ev *evaluator) include(in *IncludeInstr, en *env) *env {
	if in.File == "stdlib.cat" {
		return en
	}
	from := ev.stack[len(ev.stack)-1]
	if len(ev.stack) >= datalog.MaxIncludeDepth {
		ev.errs.Add(in.Pos, "cannot include %q: includes nested more than %d deep (%s -> ... -> %s); a model nests includes only a few levels deep, so this is likely a generated chain",
			in.File, datalog.MaxIncludeDepth, ev.stack[0], from)
		return en
	}
	target, text, err := findInclude(from, in.File, ev.opts)
	if err != nil {
		ev.errs.Add(in.Pos, "cannot include %q: %v", in.File, describeReadError(err))
		return en
	}
	for i, s := range ev.stack {
		if s == target {
			ev.errs.Add(in.Pos, "include cycle: %s", strings.Join(append(append([]string{}, ev.stack[i:]...), target), " -> "))
			return en
		}
	}
	m, ok := ev.parsed[target]
	if !ok {
		var perrs source.List
		m = parseFile(target, string(text), &perrs)
		ev.parsed[target] = m
		ev.texts[target] = string(text)
		ev.b.prog.Files = append(ev.b.prog.Files, target)
		ev.errs = append(ev.errs, perrs...)
		if perrs.HasErrors() {
			return en
		}
	}
	ev.stack = append(ev.stack, target)
	defer func() { ev.stack = ev.stack[:len(ev.stack)-1] }()
	return ev.run(m.Instrs, en)
}

// call runs a procedure's body for its effects: its tests and shows stay,
// its bindings go.
func (ev *evaluator) call(in *CallInstr, en *env) {
	v, ok := en.lookup(in.Name)
	if !ok {
		ev.fail(&unsuppliedError{name: in.Name, pos: in.Pos})
		return
	}
	pv, isProc := v.(*procVal)
	if !isProc {
		if _, poisoned := v.(poisonVal); !poisoned {
			ev.fail(errorf(in.Pos, "%s is a %s, not a procedure: call applies procedures", in.Name, describe(v)))
		}
		return
	}
	arg, err := ev.eval(in.Arg, en)
	if err != nil {
		ev.fail(err)
		return
	}
	bound, err := ev.bindPattern(pv.proc.Params, arg, in.Pos)
	if err != nil {
		ev.fail(err)
		return
	}
	if ev.depth >= maxCallDepth {
		ev.fail(errorf(in.Pos, "calls of %s nest more than %d deep", in.Name, maxCallDepth))
		return
	}
	ev.depth++
	label := in.Label
	if label == "" {
		label = in.Name
	}
	ev.labels = append(ev.labels, label)
	ev.run(pv.proc.Body, pv.env.with(bound))
	ev.labels = ev.labels[:len(ev.labels)-1]
	ev.depth--
}

// enum defines tags and the set of them.
func (ev *evaluator) enum(in *EnumInstr, en *env) *env {
	next := en.with(map[string]value{})
	next.tags = map[string]string{}
	var tags []value
	for _, t := range in.Tags {
		next.tags[t] = in.Name
		tags = append(tags, tagVal{enum: in.Name, name: t})
	}
	next.vars[in.Name] = newSet(tags)
	return next
}

// forall runs its body for each member of a set known when the model is
// loaded.
func (ev *evaluator) forall(in *ForallInstr, en *env) {
	v, err := ev.eval(in.Set, en)
	if err != nil {
		ev.fail(err)
		return
	}
	elems, ok := members(v)
	if !ok {
		ev.fail(errorf(in.Set.Position(), "forall iterates over a set of values known when the model is loaded (tags, tuples, sets of them); this is a %s of the execution, which ptxmm's rules cannot take apart one member at a time", describe(v)))
		return
	}
	for _, e := range elems {
		ev.run(in.Body, en.with(map[string]value{in.Var: e}))
	}
}

// matchInstr runs the instructions of the clause of a tag.
func (ev *evaluator) matchInstr(in *MatchInstr, en *env) *env {
	v, err := ev.eval(in.X, en)
	if err != nil {
		ev.fail(err)
		return en
	}
	t, ok := v.(tagVal)
	if !ok {
		ev.fail(errorf(in.X.Position(), "match ... with 'tag -> ... needs a tag, found a %s", describe(v)))
		return en
	}
	for _, c := range in.Clauses {
		if c.Tag == t.name {
			return ev.run(c.Body, en)
		}
	}
	if in.HasDefault {
		return ev.run(in.Default, en)
	}
	ev.fail(errorf(in.Pos, "pattern matching failed on value '%s: no clause for it and no _ clause", t.name))
	return en
}

// variantHolds evaluates a condition on variants. A name that is neither
// one of herd7's variants nor set draws a warning and is unset, as in
// herd7.
func (ev *evaluator) variantHolds(c VariantCond) bool {
	switch c := c.(type) {
	case *VariantName:
		name := strings.ToLower(c.Name)
		if !ev.variants[name] && !IsVariant(name) {
			ev.warn(c.Pos, "variant %q is not one of herd7's variants nor set with -variant: taken as unset", c.Name)
		}
		return ev.variants[name]
	case *VariantNot:
		return !ev.variantHolds(c.X)
	case *VariantAnd:
		return ev.variantHolds(c.L) && ev.variantHolds(c.R)
	case *VariantOr:
		return ev.variantHolds(c.L) || ev.variantHolds(c.R)
	}
	return false
}
