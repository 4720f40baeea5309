package cat_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

// lower lowers cat text, requiring success.
func lower(t *testing.T, src string) *cat.Lowered {
	t.Helper()
	low, errs := cat.LoadSource("t.cat", src, cat.Options{})
	require.False(t, errs.HasErrors(), errs.Error())
	return low
}

// build lowers and compiles cat text into a checker model.
func build(t *testing.T, src string) *checker.Model {
	t.Helper()
	m, err := checker.BuildModel("t.cat", lower(t, src).Program, nil)
	require.NoError(t, err)
	return m
}

func defs(p *datalog.Program) map[string]string {
	out := map[string]string{}
	for _, d := range p.Defs {
		out[d.Name] = datalog.ExprString(d.Expr)
	}
	return out
}

// TestBindingNames: the last binding of a name keeps it (co is the model's
// final coherence), earlier ones and the base relations they shadow are
// renamed, and references follow cat's scoping.
func TestBindingNames(t *testing.T) {
	low := lower(t, `
let co = co+
let fr = rf^-1 ; co
let x = po
let x = x | rf
let f(r) = r ; x
let x = f(co)
`)
	d := defs(low.Program)
	require.Equal(t, "co$base", d["co"], "co+ of the checker's co, which is transitive, is co itself")
	require.Equal(t, "rf^-1 ; co", d["fr"])
	require.Equal(t, "po$base", d["x$v1"], "herd7's po, which a model whose first line does not name PTX reads")
	require.Equal(t, "x$v1 | rf", d["x$v2"])
	require.Equal(t, "co ; x$v2", d["x"], "f sees the x of its definition, not the later one")
	require.Contains(t, d, "co$base", "the checker's co, shadowed by let co")
	require.Len(t, low.Program.Orders, 1)
	require.True(t, low.Program.Orders[0].Partial, "coherence may leave racing writes unordered")
}

// TestBaseNames: a name a model does not bind comes from the mapping or,
// failing that, from the catalog; only what the model reads is emitted.
func TestBaseNames(t *testing.T) {
	low := lower(t, "let a = vloc & po-loc\nlet b = [F] ; sr\nlet c = gaddr")
	d := defs(low.Program)
	require.Equal(t, "gaddr", d["vloc"])
	require.Equal(t, "po$base & loc", d["po-loc"])
	require.Equal(t, `po \ same_instr`, d["po$base"], "herd7's po leaves out the pairs of one instruction")
	require.Equal(t, "F | PF", d["F$base"], "F in a cat model counts proxy fences, as Dartagnan's models expect")
	var inputs []string
	for _, io := range low.Program.IO {
		if io.Kind == datalog.IOInput {
			inputs = append(inputs, io.Name)
		}
	}
	require.ElementsMatch(t, []string{"gaddr", "po", "same_instr", "loc", "W", "F", "PF", "CTA", "scta", "CLUSTER", "sclu", "GPU", "sgpu", "SYS", "VOL", "E", "IW"}, inputs)
	require.Len(t, low.Program.Orders, 1, "nothing reads co or sync_fence: the checker chooses a total co, which tells the final values")
	require.Equal(t, "co_total$base", d["co"])
}

// TestEveryBaseName compiles a model reading every name of the mapping.
func TestEveryBaseName(t *testing.T) {
	var b strings.Builder
	for _, e := range cat.Mapping() {
		b.WriteString("let use-" + e.Name + " = " + e.Name + "\n")
	}
	m := build(t, b.String())
	for _, e := range cat.Mapping() {
		ar, err := m.Program.Arity("use-" + e.Name)
		require.NoError(t, err)
		require.Equal(t, e.Arity, ar, e.Name)
	}
}

func herd(t *testing.T, src string) *litmus.Test {
	t.Helper()
	tc, err := litmus.ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	return tc
}

const sb = `PTX SB
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)`

// TestTests: the ~ forms and flags mean what herd says they mean.
func TestTests(t *testing.T) {
	tc := herd(t, sb)
	cases := []struct {
		model   string
		verdict string
		flags   []string
	}{
		{"acyclic po | rf | fr as sc", "No", nil},
		{"irreflexive po | rf | fr as x", "Ok", nil},
		{"~empty rf as some-rf", "Ok", nil},
		{"~empty rf & (W * R) & ext as external-rf", "Ok", nil},
		{"~acyclic po | rf | fr as cyclic", "Ok", nil},
		{"~irreflexive po as reflexive-po", "No", nil},
		{"empty 0 as nothing\n~empty _ as something", "Ok", nil},
		{"flag ~empty rf & ext as reads-other-thread", "Ok", []string{"reads-other-thread"}},
		{"flag empty rf & int as no-local-read", "Ok", []string{"no-local-read"}},
		{"flag empty rf & ext as all-local", "Ok", nil},
		{"flag ~acyclic po | rf | fr as not-sc", "Ok", []string{"not-sc"}},
		{"undefined_unless empty rf & ext as only-local", "Undef", []string{"only-local"}},
		{"undefined_unless ~empty rf as has-rf", "Ok", nil},
	}
	for _, c := range cases {
		m := build(t, "let co = co+\n"+c.model)
		r := m.Check(tc, checker.DefaultOptions())
		require.NoError(t, r.Err, c.model)
		require.Equal(t, c.verdict, r.Verdict, c.model)
		var flags []string
		for _, f := range r.Flags {
			flags = append(flags, f.Name)
		}
		require.Equal(t, c.flags, flags, c.model)
	}
}

// TestPartialCoherence: racing writes may stay unordered in the checker's
// co, so a read can see either after both happened (Dartagnan's partial
// coherence); ordering them all makes the outcome impossible.
func TestPartialCoherence(t *testing.T) {
	tc := herd(t, `PTX CoRR2
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 0,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   | ld.weak r0, x  | ld.weak r2, x  ;
                |                | ld.weak r1, x  | ld.weak r3, x  ;
exists (P2:r0 == 1 /\ P2:r1 == 2 /\ P3:r2 == 2 /\ P3:r3 == 1)`)
	partial := build(t, "let fr = rf^-1 ; co\nacyclic po-loc | fr | rf as read-back")
	total := build(t, "empty ((W * W) & loc) \\ id \\ (co | co^-1) as total\nlet fr = rf^-1 ; co\nacyclic po-loc | fr | rf as read-back")
	require.Equal(t, "Ok", partial.Check(tc, checker.DefaultOptions()).Verdict)
	require.Equal(t, "No", total.Check(tc, checker.DefaultOptions()).Verdict)
}

// TestLowerErrors: mistakes in a cat model are reported at their
// file:line:col, in the cat file.
func TestLowerErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"let x = nosuch ; po", "t.cat:1:9: the model reads a name that neither it nor ptxmm binds: nosuch (t.cat:1:9)"},
		{"let f(a) = a\nlet x = f ; po", "t.cat:2:9: expected a relation or a set of events, found a function"},
		{"let x = po(rf)", "t.cat:1:9: po is a relation, not a function: it cannot be applied to arguments"},
		{"let f(a, b) = a ; b\nlet x = f(po)", "t.cat:2:9: f: expected a tuple of 2 (a, b), found relation"},
		{"let f(a) = f(a)\nlet x = f(po)", "t.cat:1:12: the model reads a name that neither it nor ptxmm binds: f (t.cat:1:12)"},
		{"let rec f(a) = f(a)\nlet x = f(po)", "t.cat:1:16: applications of f nest more than 1000 deep"},
		{"let x = domain(po, rf)", "t.cat:1:9: expected a relation or a set of events, found a tuple"},
		{"let x = W ; po", "t.cat:1:9: ; composes relations, but one side is a set of events"},
		{"\nacyclic W as c", "t.cat:2:9: acyclic needs a relation, but this is a set of events"},
		{"let x = 'a", "t.cat:1:9: tag 'a is undefined: tags are declared with enum"},
		{"with x from {po, rf}", "t.cat:1:13: with x from a set of 2 values"},
		{"let x = linearisations(W, po)\nlet y = match x with {} -> 0 || o ++ _ -> o end", "t.cat:2:9: this set of relations depends on the execution"},
	}
	for _, c := range cases {
		_, errs := cat.LoadSource("t.cat", c.src, cat.Options{})
		require.True(t, errs.HasErrors(), c.src)
		require.Contains(t, errs[0].Error(), c.want, c.src)
	}
	// Errors found when the lowered model is analysed point into the cat
	// file too, with its line quoted.
	low := lower(t, "let rec a = b and b = a ; po\nlet c = a & W\nempty c as ac")
	_, err := checker.BuildModel("t.cat", low.Program, nil)
	require.Error(t, err)
	require.Contains(t, err.Error(), "t.cat:")
	require.Contains(t, err.(interface{ Quoted() string }).Quoted(), "let c = a & W")
}

// TestShow: show and unshow set the relations pictures draw, after those
// herd7 draws in every picture.
func TestShow(t *testing.T) {
	low := lower(t, "show po, rf, co\nunshow rf\nshow po ; po as po2")
	require.Equal(t, []string{"po", "rf", "co", "fr", "po2"}, low.Show)
}

// TestShippedExample: examples/cat/sc.cat loads and forbids store
// buffering.
func TestShippedExample(t *testing.T) {
	m, err := loader.LoadFile(filepath.Join("..", "examples", "cat", "sc.cat"))
	require.NoError(t, err)
	require.Equal(t, "No", m.Check(herd(t, sb), checker.DefaultOptions()).Verdict)
}
