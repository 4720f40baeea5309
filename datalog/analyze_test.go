package datalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

func TestAnalyzeWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"declared but never used", ".decl p(a)",
			[]string{"t.dl:1:7: warning: relation p is declared but never defined or used"}},
		{"never defined", ".decl p(a)\n.decl q(a)\n.output q\nq(X) :- p(X).",
			[]string{"t.dl:1:7: warning: relation p is never defined (no rule, fact, let or .input), so it is always empty"}},
		{"never defined but used in a check", ".decl p(a, b)\n.check c: acyclic(p)",
			[]string{"t.dl:1:7: warning: relation p is never defined (no rule, fact, let or .input), so it is always empty"}},
		{"never defined but used in a definition", ".decl p(a, b)\nlet x = p+\n.output x",
			[]string{"t.dl:1:7: warning: relation p is never defined (no rule, fact, let or .input), so it is always empty"}},
		{"input never used", ".decl p(a)\n.input p",
			[]string{"t.dl:1:7: warning: input relation p is never used"}},
		{"rules but never used", ".decl p(a)\np(1).",
			[]string{"t.dl:1:7: warning: relation p is defined but never used (not in any rule, check or .output)"}},
		{"input given twice", ".decl p(a)\n.input p, p\n.output p",
			[]string{"t.dl:2:11: warning: .input p is given twice"}},
		{"used by .output", ".decl p(a)\np(1).\n.output p", nil},
		{"used by .printsize", ".decl p(a)\np(1).\n.printsize p", nil},
		{"used by a query", ".decl p(a)\np(1).\n?- p(X).", nil},
		{"used by an order", ".decl p(a, b)\n.input p\n.order o over p", nil},
		{"unused definitions and orders do not warn", ".decl p(a, b)\n.input p\nlet x = p\n.order o over x", nil},
		{"sorted by position", ".decl b(a)\n.decl a(a)\n.input a", []string{
			"t.dl:1:7: warning: relation b is declared but never defined or used",
			"t.dl:2:7: warning: input relation a is never used",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, errs := analyze(tt.src)
			require.False(t, errs.HasErrors(), "%s", errs.Quoted())
			require.NotNil(t, m)
			assert.Equal(t, tt.want, diagLines(m.Warnings))
			assert.Empty(t, errs, "warnings are kept in Model.Warnings only")
			for _, w := range m.Warnings {
				assert.Equal(t, source.SevWarning, w.Severity)
				assert.NotEmpty(t, w.Line, "warnings quote their source line")
			}
			assert.NoError(t, m.Warnings.Err(), "warnings alone are not an error")
		})
	}
}

func TestAnalyzeModel(t *testing.T) {
	m := analyzeOK(t, `/// the events
.decl E(e: event)
.decl po(a: event, b: event)
.input po, E
let po_plus = po+
.decl co_pairs(a, b)
co_pairs(X, Y) :- E(X), E(Y), X != Y.
.order co over co_pairs
.check c: acyclic(po_plus | co)
.output po_plus
?- po(X, Y), !co(X, Y).
`)
	assert.Equal(t, []string{"E", "po"}, m.Inputs())
	assert.Equal(t, []string{UniverseName, "E", "po", "co_pairs", "po_plus", "co", "check$c"}, m.Names)
	kinds := map[string]RelKind{}
	for n, r := range m.Relations {
		kinds[n] = r.Kind
	}
	assert.Equal(t, map[string]RelKind{
		UniverseName: RelUniverse, "E": RelInput, "po": RelInput, "co_pairs": RelDerived,
		"po_plus": RelDerived, "co": RelOrder, "check$c": RelDerived,
	}, kinds)
	assert.Equal(t, "the events", m.Relation("E").Doc)
	assert.Equal(t, 2, m.Relation("co").Arity)
	assert.Nil(t, m.Relation("nothing"))
	require.Len(t, m.Orders, 1)
	assert.Equal(t, "co_pairs", m.Orders[0].Over)
	require.Len(t, m.Checks, 1)
	assert.Equal(t, "check$c", m.Checks[0].Rel)
	require.Len(t, m.IO, 3)
	require.Len(t, m.Queries, 1)
	assert.NotNil(t, m.Program)
	assert.Empty(t, m.Warnings)
}

func TestAnalyzeOrderOfDeclaredRelation(t *testing.T) {
	m := analyzeOK(t, ".decl p(a, b)\n.input p\n/// declared first\n.decl o(a: event, b: event)\n.order o over p\n.check c: acyclic(o)")
	assert.Equal(t, RelOrder, m.Relation("o").Kind)
	assert.Equal(t, "declared first", m.Relation("o").Doc)
}

func TestAnalyzeRangeRestriction(t *testing.T) {
	ok := []string{
		"p(X) :- q(X).",
		"p(X) :- q(Y), X = Y.",
		"p(X) :- q(Y), Y = X.",
		"p(X) :- X = Y, Y = Z, Z = W, q(W).",
		`p(X) :- q(_), X = "a".`,
		`p(X) :- q(_), 1 = X.`,
		`p("c") :- q(_).`,
		"p(X) :- q(X), !q(X), X != 1.",
		"p(X) :- q(X), !e(X, _).",
		"p(X) :- q(X), 1 != 2.",
	}
	for _, src := range ok {
		t.Run(src, func(t *testing.T) {
			analyzeOK(t, ".decl p(a)\n.decl q(a)\n.decl e(a, b)\n.input q, e\n.output p\n"+src)
		})
	}
	bad := []struct{ src, want string }{
		{"p(X) :- q(Y), X != Y.", "t.dl:6:15: variable X of the comparison is not bound by a positive atom of the body"},
		{"p(X) :- !q(X).", "t.dl:6:12: variable X of the negated atom !q is not bound by a positive atom of the body"},
		{"p(X) :- q(Y), !q(X), X = Y.", ""}, // bound through the equality
		{"p(X) :- q(_).", "t.dl:6:3: head variable X of p is not bound by a positive atom of the body"},
		{"p(X) :- X = 1.", ""},
		{"p(X) :- X = Y.", "t.dl:6:9: variable X of the comparison is not bound by a positive atom of the body"},
	}
	for _, tt := range bad {
		t.Run(tt.src, func(t *testing.T) {
			_, errs := analyze(".decl p(a)\n.decl q(a)\n.decl e(a, b)\n.input q, e\n.output p\n" + tt.src)
			if tt.want == "" {
				assert.Empty(t, errs.Errors())
				return
			}
			assert.Contains(t, diagLines(errs), tt.want)
		})
	}
}

func TestAnalyzeQueries(t *testing.T) {
	_, errs := analyze(".decl p(a)\np(1).\n?- p(X), !p(Y), Z = 1.\n?- q(X).\n?- p(X, Y).")
	assert.Equal(t, []string{
		"t.dl:3:13: variable Y of the negated atom !p is not bound by a positive atom of the body",
		"t.dl:4:4: unknown relation q",
		"t.dl:5:4: p has 1 column(s) but is used here with 2",
	}, diagLines(errs))
}

func TestAnalyzeErrorsAreQuoted(t *testing.T) {
	_, errs := analyze(".decl p(a)\n\tp(X) :- q(X).")
	require.Len(t, errs, 1)
	assert.Equal(t, "\tp(X) :- q(X).", errs[0].Line)
	assert.Equal(t, "t.dl:2:10: unknown relation q\n"+
		"     p(X) :- q(X).\n"+
		"             ^", errs.Quoted())
}

func TestAnalyzeDoesNotChangeTheProgram(t *testing.T) {
	prog := parseOK(t, ".decl e(a, b)\n.input e\nlet x = e ; e\n.check c: acyclic(x | e)\n.redefine x = e\n.uncheck c\n.output x")
	m1, errs := Analyze(prog)
	require.Empty(t, errs)
	m2, errs := Analyze(prog)
	require.Empty(t, errs)
	assert.Equal(t, m1.Names, m2.Names)
	assert.Equal(t, len(m1.Rules), len(m2.Rules))
	assert.Len(t, prog.Defs, 1)
	assert.Equal(t, "e ; e", ExprString(prog.Defs[0].Expr), "edits leave the parsed definitions alone")
	assert.Len(t, prog.Checks, 1)
	assert.Equal(t, "", prog.Checks[0].Rel)
}

func TestAnalyzeReturnsNilModelOnError(t *testing.T) {
	m, errs := analyze(".decl p(a)\np(X).")
	assert.Nil(t, m)
	assert.Error(t, errs.Err())
}

func TestAnalyzeCheckOfRelationName(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{".decl W(a)\n.input W\n.check c: irreflexive(W)", "t.dl:3:23: check c: irreflexive needs a binary relation, but W has 1 column(s)"},
		{".decl W(a)\n.input W\n.check c: empty(W)", ""},
		{".decl t(a, b, c)\n.input t\n.check c: empty(t)", ""},
		{".decl t(a, b, c)\n.input t\n.check c: empty(t & t)", ""},
		{".decl t(a, b, c)\n.input t\n.check c: acyclic(t | t)", "t.dl:3:21: check c: acyclic needs a binary relation, but the expression is a set"},
		{".check c: empty(_)", ""},
		{".check c: acyclic(_)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, errs := analyze(tt.src)
			if tt.want == "" {
				assert.Empty(t, errs)
			} else {
				assert.Equal(t, []string{tt.want}, diagLines(errs))
			}
		})
	}
}

func TestEdgesDirective(t *testing.T) {
	prog, errs := LoadSource("t.dl", ".decl po(a, b)\n.decl rf(a, b)\n.input po, rf\nlet com = rf | po\n.edges po, com\n.check c: acyclic(com)\n")
	require.Empty(t, errs)
	m, errs := Analyze(prog)
	require.Empty(t, errs.Errors())
	assert.Equal(t, []string{"po", "com"}, m.Edges)
	assert.Empty(t, m.Warnings, "relations named by .edges count as used")
}

func TestShowDirective(t *testing.T) {
	prog, errs := LoadSource("t.dl", ".decl po(a, b)\n.decl rf(a, b)\n.input po, rf\nlet com = rf | po\n.show com, po\n.show com\n.check c: acyclic(po)\n")
	require.Empty(t, errs)
	m, errs := Analyze(prog)
	require.Empty(t, errs.Errors())
	assert.Equal(t, []string{"com", "po"}, m.Show, "in the order given, each once")
	assert.Empty(t, m.Edges, ".show is not .edges")
	assert.Empty(t, m.Warnings, "relations named by .show count as used")
}
