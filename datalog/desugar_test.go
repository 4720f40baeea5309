package datalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const desugarDecls = `.decl po(a: event, b: event)
.decl rf(a: event, b: event)
.decl co(a: event, b: event)
.decl W(e: event)
.decl R(e: event)
.decl t(a, b, c)
.input po, rf, co, W, R, t
`

// generatedRules prints the desugared rules of a model, each followed by its
// origin and the subexpression it computes.
func generatedRules(m *Model) []string {
	var out []string
	for _, r := range m.Rules {
		if r.Origin != "" {
			out = append(out, ruleText(r)+"  # "+r.Origin+": "+r.OriginText)
		}
	}
	return out
}

func TestDesugarDefinitions(t *testing.T) {
	tests := []struct {
		def  string
		want []string
	}{
		{"let fr = rf^-1 ; co", []string{
			"fr(X, Y) :- rf(Z, X), co(Z, Y).  # fr: rf^-1 ; co",
		}},
		{"let hb = (po | rf)+", []string{
			"hb$1(X, Y) :- po(X, Y).  # hb: po | rf",
			"hb$1(X, Y) :- rf(X, Y).  # hb: po | rf",
			"hb(X, Y) :- hb$1(X, Y).  # hb: (po | rf)+",
			"hb(X, Y) :- hb(X, Z), hb$1(Z, Y).  # hb: (po | rf)+",
		}},
		{"let rt = po*", []string{
			"rt(X, Y) :- po(X, Y).  # rt: po*",
			"rt(X, Y) :- rt(X, Z), po(Z, Y).  # rt: po*",
			"rt(X, X) :- $universe(X).  # rt: po*",
		}},
		{"let ww = [W] ; po?", []string{
			"ww$1(X, Y) :- po(X, Y).  # ww: po?",
			"ww$1(X, X) :- $universe(X).  # ww: po?",
			"ww(X, Y) :- W(X), ww$1(X, Y).  # ww: [W] ; po?",
		}},
		{`let wr = W * R \ po`, []string{
			`wr(X, Y) :- W(X), R(Y), !po(X, Y).  # wr: W * R \ po`,
		}},
		{"let npo = ~po", []string{
			"npo(X, Y) :- $universe(X), $universe(Y), !po(X, Y).  # npo: ~po",
		}},
		{"let dw = domain(po) & W | range(rf)", []string{
			"dw$1(X) :- po(X, _).  # dw: domain(po)",
			"dw(X) :- dw$1(X), W(X).  # dw: domain(po) & W | range(rf)",
			"dw$2(X) :- rf(_, X).  # dw: range(rf)",
			"dw(X) :- dw$2(X).  # dw: domain(po) & W | range(rf)",
		}},
		{"let all = _", []string{
			"all(X) :- $universe(X).  # all: _",
		}},
		{"let pairs = _ & po", []string{
			"pairs(X, Y) :- $universe(X), $universe(Y), po(X, Y).  # pairs: _ & po",
		}},
		// Inlining: a rule has at most three variables, so the second
		// composition keeps a relation of its own; a union of unions is
		// one relation; a union inside an intersection is not inlined;
		// the inverse of a relation is negated in place.
		{"let chain = po ; rf ; co", []string{
			"chain$1(X, Y) :- po(X, Z), rf(Z, Y).  # chain: po ; rf",
			"chain(X, Y) :- chain$1(X, Z), co(Z, Y).  # chain: po ; rf ; co",
		}},
		{"let any = po | (rf | co) | rf^-1", []string{
			"any(X, Y) :- po(X, Y).  # any: po | (rf | co) | rf^-1",
			"any(X, Y) :- rf(X, Y).  # any: po | (rf | co) | rf^-1",
			"any(X, Y) :- co(X, Y).  # any: po | (rf | co) | rf^-1",
			"any(X, Y) :- rf(Y, X).  # any: po | (rf | co) | rf^-1",
		}},
		{`let mix = (po | rf) & co \ rf^-1`, []string{
			"mix$1(X, Y) :- po(X, Y).  # mix: po | rf",
			"mix$1(X, Y) :- rf(X, Y).  # mix: po | rf",
			`mix(X, Y) :- mix$1(X, Y), co(X, Y), !rf(Y, X).  # mix: (po | rf) & co \ rf^-1`,
		}},
		{"let filt = po ; [W] ; rf", []string{
			"filt(X, Y) :- po(X, Z), W(Z), rf(Z, Y).  # filt: po ; [W] ; rf",
		}},
		{"let same = po", []string{
			"same(X, Y) :- po(X, Y).  # same: po",
		}},
		// Relations of more columns support the set operators.
		{`let t2 = ~t | t`, []string{
			"t2$1(X1, X2, X3) :- $universe(X1), $universe(X2), $universe(X3), !t(X1, X2, X3).  # t2: ~t",
			"t2(X1, X2, X3) :- t2$1(X1, X2, X3).  # t2: ~t | t",
			"t2(X1, X2, X3) :- t(X1, X2, X3).  # t2: ~t | t",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.def, func(t *testing.T) {
			m := analyzeOK(t, desugarDecls+tt.def)
			assert.Equal(t, tt.want, generatedRules(m))
		})
	}
}

func TestDesugarGeneratedRelations(t *testing.T) {
	m := analyzeOK(t, desugarDecls+"/// happens before\nlet hb = (po | rf)+ ; [W]\n.check sc: acyclic(hb | co)\n.check direct: irreflexive(hb)")
	hb := m.Relation("hb")
	require.NotNil(t, hb)
	assert.Equal(t, 2, hb.Arity)
	assert.False(t, hb.Generated)
	assert.Equal(t, "happens before", hb.Doc)
	require.NotNil(t, hb.Def)
	assert.Equal(t, pos(9, 5), hb.Pos)

	var gen []string
	for _, n := range m.Names {
		r := m.Relations[n]
		if r.Generated {
			gen = append(gen, n+"/"+string(rune('0'+r.Arity))+" "+r.Owner+" "+r.Text+" "+r.Pos.String())
		}
	}
	assert.Equal(t, []string{
		"hb$1/2 hb (po | rf)+ t.dl:9:19",
		"hb$2/2 hb po | rf t.dl:9:14",
		"check$sc/2 sc hb | co t.dl:10:8",
	}, gen)

	require.Len(t, m.Checks, 2)
	assert.Equal(t, "check$sc", m.Checks[0].Rel, "a check of an expression tests a generated relation")
	assert.Equal(t, "hb", m.Checks[1].Rel, "a check of a relation name tests that relation")
	for _, r := range m.Rules {
		if r.Head.Pred == "check$sc" {
			assert.Equal(t, "sc", r.Origin)
			assert.Equal(t, "hb | co", r.OriginText)
			assert.Equal(t, pos(10, 23), r.Pos, "generated rules are at their operator")
		}
	}
	// The universe is a built-in set.
	u := m.Relation(UniverseName)
	require.NotNil(t, u)
	assert.Equal(t, RelUniverse, u.Kind)
	assert.Equal(t, 1, u.Arity)
	assert.Equal(t, UniverseName, m.Names[0])
}

func TestDesugarForwardAndRecursiveDefinitions(t *testing.T) {
	// A definition may use a later one, and may be recursive; arities are
	// inferred through both.
	m := analyzeOK(t, desugarDecls+"let a = b ; po\nlet b = rf | b ; co\nlet s = domain(a) | s")
	assert.Equal(t, 2, m.Relation("a").Arity)
	assert.Equal(t, 2, m.Relation("b").Arity)
	m2, errs := analyze(desugarDecls + "let s = s | s")
	assert.Nil(t, m2)
	assert.Equal(t, []string{"t.dl:8:5: cannot tell whether s is a set or a relation: declare it with .decl"}, diagLines(errs))
	// Declaring it settles the arity.
	m = analyzeOK(t, desugarDecls+".decl s(e)\nlet s = s | s")
	assert.Equal(t, 1, m.Relation("s").Arity)
}
