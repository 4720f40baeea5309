package datalog

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const editBase = `.decl po(a, b)
.decl rf(a, b)
.decl flag(s)
.input po, rf
let com = rf | po
flag("off").
flag(X) :- rf(X, _).
.check a: acyclic(com)
.check b: irreflexive(po)
.check c: empty(rf & po)
.output flag
`

// rulesOf prints the rules whose head is pred.
func rulesOf(m *Model, pred string) []string {
	var out []string
	for _, r := range m.Rules {
		if r.Head.Pred == pred {
			out = append(out, ruleText(r))
		}
	}
	return out
}

// checkList prints the checks of a model.
func checkList(m *Model) []string {
	var out []string
	for _, c := range m.Checks {
		out = append(out, c.Name+": "+c.Kind.String()+"("+ExprString(c.Expr)+")")
	}
	return out
}

func TestRedefineDefinition(t *testing.T) {
	m := analyzeOK(t, editBase+"/// only reads-from\n.redefine com = rf")
	assert.Equal(t, []string{"com(X, Y) :- rf(X, Y)."}, rulesOf(m, "com"))
	assert.Equal(t, "rf", ExprString(m.Relation("com").Def.Expr))
	assert.Equal(t, "only reads-from", m.Relation("com").Doc)

	// The last .redefine of a definition wins.
	m = analyzeOK(t, editBase+".redefine com = rf\n.redefine com = po ; po")
	assert.Equal(t, []string{"com(X, Y) :- po(X, Z), po(Z, Y)."}, rulesOf(m, "com"))
}

func TestRedefineRules(t *testing.T) {
	// A rule-form .redefine replaces every rule and fact of the relation.
	m := analyzeOK(t, editBase+`.redefine flag("on").`)
	assert.Equal(t, []string{`flag("on").`}, rulesOf(m, "flag"))

	// Later rule-form .redefines add to the new version.
	m = analyzeOK(t, editBase+".redefine flag(\"on\").\n.redefine flag(X) :- po(X, _).")
	assert.Equal(t, []string{`flag("on").`, `flag(X) :- po(X, _).`}, rulesOf(m, "flag"))

	// A plain rule in the variant is removed too: the edit replaces all the
	// rules of the relation wherever they are written.
	m = analyzeOK(t, editBase+".redefine flag(\"on\").\nflag(\"more\").")
	assert.Equal(t, []string{`flag("on").`}, rulesOf(m, "flag"))

	// A definition can replace rules, as long as the relation is declared.
	m = analyzeOK(t, editBase+".redefine flag = domain(po)")
	assert.Equal(t, []string{"flag(X) :- po(X, _)."}, rulesOf(m, "flag"))

	// Rules can replace a definition, which then needs a .decl.
	_, errs := analyze(editBase + ".redefine com(X, Y) :- rf(X, Y).")
	assert.Equal(t, []string{
		"t.dl:8:19: check a: unknown relation com",
		"t.dl:12:11: relation com is not declared: add .decl com(...) (or define it with let)",
	}, diagLines(errs))
	m = analyzeOK(t, editBase+".decl com(a, b)\n.redefine com(X, Y) :- rf(X, Y).")
	assert.Equal(t, []string{"com(X, Y) :- rf(X, Y)."}, rulesOf(m, "com"))
	assert.Nil(t, m.Relation("com").Def)
}

func TestRecheckAndUncheck(t *testing.T) {
	m := analyzeOK(t, editBase+".recheck b: acyclic(po ; po)\n.uncheck c")
	assert.Equal(t, []string{
		"a: acyclic(com)",
		"b: acyclic(po ; po)",
	}, checkList(m), "a replaced check keeps its place")

	m = analyzeOK(t, editBase+".recheck b: empty(po)\n.recheck b: irreflexive(rf)")
	assert.Equal(t, "b: irreflexive(rf)", checkList(m)[1], "the last .recheck wins")

	m = analyzeOK(t, editBase+".uncheck a\n.uncheck b\n.uncheck c")
	assert.Empty(t, m.Checks)
}

func TestEditErrors(t *testing.T) {
	tests := []struct {
		name string
		edit string
		want []string
	}{
		{"redefine a missing definition", ".redefine nothing = po",
			[]string{"t.dl:12:1: .redefine nothing: the model has no definition, rule or .input for nothing to replace"}},
		{"redefine a declared relation with no rules", ".decl lone(a, b)\n.redefine lone(1, 2).",
			[]string{"t.dl:13:1: .redefine lone: the model has no definition, rule or .input for lone to replace"}},
		{"recheck a missing check", ".recheck d: empty(po)",
			[]string{"t.dl:12:1: .recheck d: the model has no check named d (checks: a, b, c)"}},
		{"uncheck a missing check", ".uncheck d",
			[]string{"t.dl:12:1: .uncheck d: the model has no check named d (checks: a, b, c)"}},
		{"uncheck twice", ".uncheck a\n.uncheck a",
			[]string{"t.dl:13:1: .uncheck a: the model has no check named a (checks: b, c)"}},
		{"recheck after uncheck", ".uncheck a\n.recheck a: acyclic(po)",
			[]string{"t.dl:13:1: .recheck a: the model has no check named a (checks: b, c)"}},
		{"the new definition is checked", ".redefine com = po ; nothing",
			[]string{"t.dl:12:22: unknown relation nothing in the definition of com"}},
		{"the new check is checked", ".recheck a: acyclic([po])",
			[]string{"t.dl:12:21: [S] is the identity on a set, but its operand is a relation of 2 columns"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, errs := analyze(editBase + tt.edit)
			assert.Nil(t, m)
			assert.Equal(t, tt.want, diagLines(errs))
		})
	}
}

// TestStackedVariants checks that edits apply in the order of the program
// text, includes spliced in where they are: a variant of a variant edits
// after the variant it includes.
func TestStackedVariants(t *testing.T) {
	fsys := fstest.MapFS{
		"base.dl": {Data: []byte(".decl a(x)\n.decl b(x)\n.decl c(x)\n.input a, b, c\nlet x = a\n.output x\n.check k: empty(a)\n")},
		"v1.dl":   {Data: []byte(".include \"base.dl\"\n.redefine x = b\n.recheck k: empty(b)\n")},
		"v2.dl":   {Data: []byte(".include \"v1.dl\"\n.redefine x = c\n.uncheck k\n")},
	}
	prog, errs := Load("v2.dl", WithFS(fsys))
	require.Empty(t, errs)
	assert.Equal(t, []string{"v2.dl", "v1.dl", "base.dl"}, prog.Files)
	m, errs := Analyze(prog)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	assert.Equal(t, []string{"x(X) :- c(X)."}, rulesOf(m, "x"))
	assert.Empty(t, m.Checks)

	prog, errs = Load("v1.dl", WithFS(fsys))
	require.Empty(t, errs)
	m, errs = Analyze(prog)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	assert.Equal(t, []string{"x(X) :- b(X)."}, rulesOf(m, "x"))
	assert.Equal(t, []string{"k: empty(b)"}, checkList(m))
}

// TestRedefineInput checks that a variant may turn an .input relation into a
// derived one: the .input goes away and the definition takes its place.
func TestRedefineInput(t *testing.T) {
	prog, errs := LoadSource("t.dl", `.decl po(a, b)
.decl loc(a, b)
.decl vaddr(a, b)
.input po, loc, vaddr
.check c: acyclic(po & vaddr)
.redefine vaddr = loc
`)
	require.Empty(t, errs)
	m, errs := Analyze(prog)
	require.Empty(t, errs.Errors())
	assert.Equal(t, []string{"po", "loc"}, m.Inputs())
	assert.Equal(t, RelDerived, m.Relations["vaddr"].Kind)
	require.NotNil(t, m.Relations["vaddr"].Def)
	assert.Equal(t, "loc", ExprString(m.Relations["vaddr"].Def.Expr))
}

// TestVariantKeepsBaseWarningsOut: a variant's edits that leave inputs of
// the model it includes unused draw no warning blamed on that model
// (ptx-v6.0.dl used to print three about spec.dl on every use); the
// variant's own unused relations still draw theirs, and so does a model
// that edits its own relations.
func TestVariantKeepsBaseWarningsOut(t *testing.T) {
	fsys := fstest.MapFS{
		"base.dl": {Data: []byte(".decl a(x)\n.decl b(x)\n.input a, b\nlet x = a | b\n.output x\n")},
		"v.dl":    {Data: []byte(".include \"base.dl\"\n.decl extra(x)\n.input extra\n.redefine x = a\n")},
	}
	prog, errs := Load("v.dl", WithFS(fsys))
	require.Empty(t, errs)
	m, errs := Analyze(prog)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	assert.Equal(t, []string{"v.dl:2:7: warning: input relation extra is never used"}, diagLines(m.Warnings))

	prog, errs = LoadSource("one.dl", ".decl a(x)\n.decl b(x)\n.input a, b\nlet x = a | b\n.output x\n.redefine x = a\n")
	require.Empty(t, errs)
	m, errs = Analyze(prog)
	require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	assert.Equal(t, []string{"one.dl:2:7: warning: input relation b is never used"}, diagLines(m.Warnings))
}
