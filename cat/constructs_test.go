package cat_test

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
)

// sc is the sequential-consistency axiom the cases below build in
// different ways: store buffering's outcome is then forbidden.
const scAxiom = "let fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc\n"

// verdicts checks cat text (with options) on store buffering.
func verdict(t *testing.T, src string, opts cat.Options) string {
	t.Helper()
	low, errs := cat.LoadSource("t.cat", src, opts)
	require.False(t, errs.HasErrors(), "%s\n%s", src, errs.Error())
	m, err := checker.BuildModel("t.cat", low.Program, nil)
	require.NoError(t, err, src)
	r := m.Check(herd(t, sb), checker.DefaultOptions())
	require.NoError(t, r.Err, src)
	return r.Verdict
}

// TestConstructs: one case per construct of herd7's cat language, each a
// model whose verdict on store buffering says the construct meant what
// herd7 says: "No" when the model ends up requiring sequential
// consistency, "Ok" when it does not.
func TestConstructs(t *testing.T) {
	cases := []struct {
		name, src, want string
		variants        []string
	}{
		{"let", "let com = rf | co | fr\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc", "No", nil},
		{"let and", "let a = po and b = rf | co\nlet fr = rf^-1 ; co\nacyclic a | b | fr", "No", nil},
		{"let rec", "let fr = rf^-1 ; co\nlet rec hb = po | rf | co | fr | (hb ; hb)\nirreflexive hb", "No", nil},
		{"let rec when", "let fr = rf^-1 ; co\nlet rec hb = po | rf | co | fr | (hb ; hb) when acyclic hb as sc", "No", nil},
		{"let in", "let x = let fr = rf^-1 ; co in po | rf | co | fr\nacyclic x", "No", nil},
		{"let rec in", "let x = let rec t = po | rf | co | (rf^-1 ; co) | (t ; t) in t\nirreflexive x", "No", nil},
		{"tuple binding", "let (a, b) = (po, rf | co)\nlet c, d = rf^-1, co\nacyclic a | b | (c ; d)", "No", nil},
		{"function", "let f(a, b) = a | b\nlet fr = rf^-1 ; co\nacyclic f(po, f(rf, f(co, fr)))", "No", nil},
		{"function, one parameter", "let g x = x | rf | co\nlet fr = rf^-1 ; co\nacyclic g po | fr", "No", nil},
		{"curried function", "let u a = fun b -> a | b\nlet fr = rf^-1 ; co\nacyclic u (po | rf) (co | fr)", "No", nil},
		{"anonymous function", "let apply = fun (f, x) -> f x\nlet fr = rf^-1 ; co\nacyclic apply((fun r -> r | po), rf | co | fr)", "No", nil},
		{"recursive function", "let rec unions s = match s with {} -> 0 || r ++ rest -> r | unions rest end\nlet fr = rf^-1 ; co\nacyclic unions {po, rf, co, fr}", "No", nil},
		{"split match", "let rec unions s = match s with {} -> 0 || a | r ++ b -> r | unions a | unions b end\nlet fr = rf^-1 ; co\nacyclic unions {po, rf, co, fr}", "No", nil},
		{"try with", "let x = try nosuch | po with po\nlet fr = rf^-1 ; co\nacyclic x | rf | co | fr", "No", nil},
		{"try with, no failure", "let x = try po with 0\nlet fr = rf^-1 ; co\nacyclic x | rf | co | fr", "No", nil},
		{"if variant, unset", "let x = if \"sc\" then po else 0\n" + scAxiomWith("x"), "Ok", nil},
		{"if variant, set", "let x = if \"sc\" then po else 0\n" + scAxiomWith("x"), "No", []string{"sc"}},
		{"if variant, not and or", "let x = if not \"a\" && (\"b\" || \"sc\") then po else 0\n" + scAxiomWith("x"), "No", []string{"sc"}},
		{"instruction if variant", "if variant \"weak\" let x = 0 else let x = po end\n" + scAxiomWith("x"), "No", nil},
		{"instruction if variant, set", "if \"weak\" let x = 0 else let x = po end\n" + scAxiomWith("x"), "Ok", []string{"weak"}},
		{"if equal", "enum m = 'sc || 'weak\nlet x = if 'sc = 'sc then po else 0\n" + scAxiomWith("x"), "No", nil},
		{"if in and subset", "enum m = 'sc || 'weak\nlet x = if 'sc in {'sc} then (if {'weak} subset m then po else 0) else 0\n" + scAxiomWith("x"), "No", nil},
		{"enum, tags and match", "enum mode = 'sc || 'weak\nlet pick t = match t with 'sc -> po || 'weak -> 0 end\nlet x = pick 'sc\n" + scAxiomWith("x"), "No", nil},
		{"match default", "enum mode = 'sc || 'weak\nlet pick t = match t with 'weak -> 0 || _ -> po end\n" + scAxiomWith("pick 'sc"), "No", nil},
		{"instruction match", "enum mode = 'sc || 'weak\nmatch 'weak with 'sc -> let x = po || 'weak -> let x = 0 end\n" + scAxiomWith("x"), "Ok", nil},
		{"complement of tags", "enum mode = 'sc || 'weak\nlet x = if 'sc in ~{'weak} then po else 0\n" + scAxiomWith("x"), "No", nil},
		{"explicit set and ++", "let s = po ++ {rf}\nlet rec unions s = match s with {} -> 0 || r ++ rest -> r | unions rest end\nlet fr = rf^-1 ; co\nacyclic unions s | co | fr", "No", nil},
		{"procedure and call", "procedure sc(r) = acyclic r as sc end\nlet fr = rf^-1 ; co\ncall sc(po | rf | co | fr)", "No", nil},
		{"procedure, bindings discarded", "let x = po\nprocedure p() = let x = 0 end\ncall p()\n" + scAxiomWith("x"), "No", nil},
		{"recursive procedure", "enum n = 'a || 'b\nprocedure rec p(t, r) = match t with 'a -> call p('b, r) || 'b -> acyclic r end end\nlet fr = rf^-1 ; co\ncall p('a, po | rf | co | fr)", "No", nil},
		{"forall", "enum n = 'a || 'b\nlet fr = rf^-1 ; co\nforall t in n do acyclic po | rf | co | fr end", "No", nil},
		{"with from generate_cos", "with co from generate_cos(co0)\nlet fr = rf^-1 ; co\nacyclic po | rf | co | fr", "No", nil},
		{"with from linearisations", "with sco from linearisations(M, po | (IW * (M \\ IW)))\nempty rf \\ sco\nirreflexive rf^-1 ; (sco & (W * W) & loc) ; sco", "No", nil},
		{"with from a singleton", "with x from {po}\n" + scAxiomWith("x"), "No", nil},
		{"show and unshow", "show po, rf\nunshow rf\nshow po ; po as po2\n" + scAxiom, "No", nil},
		{"flag", "flag ~empty rf & ext as reads-other\n" + scAxiom, "No", nil},
		{"undefined_unless", "undefined_unless empty rf & ext as local\n" + scAxiom, "Undef", nil},
		{"assert", "assert empty 0 as fine\n" + scAxiom, "No", nil},
		{"debug", "debug po\n" + scAxiom, "No", nil},
		{"catdep", "PTX catdep\n" + scAxiom, "No", nil},
		{"fencerel and stdlib", "let fr = rf^-1 ; co\nlet x = fencerel(F) | toid(W) ; po\nacyclic po-loc | rfe | rfi | co | fr | x | po", "No", nil},
		{"a cross product of its own in a with", "let lins (r, classes) =\n  let rec each cs = match cs with {} -> {} || c ++ rest -> linearisations(c, r) ++ each rest end in each classes\n" +
			"let rec pickall fams = match fams with {} -> {0} || f ++ others ->\n" +
			"  let rec picks os = match os with {} -> {} || o ++ more ->\n" +
			"    let rec add us = match us with {} -> {} || u ++ m -> (o | u) ++ add m end in add (pickall others) | picks more end in picks f end\n" +
			"with co from pickall (lins (co0, classes-loc W))\n" + scAxiom, "No", nil},
		{"classes-loc in a with", "let orders(s) = let rec m ws = match ws with {} -> {} || w ++ r -> linearisations(w, co0) ++ m r end in m (classes-loc s)\n" +
			"let pick f = match f with {} -> {} || o ++ _ -> {o} end\n" +
			"with co from (let rec first fs = match fs with {} -> {} || l ++ _ -> pick l end in first (orders W))\n" + scAxiom, "No", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, verdict(t, c.src, cat.Options{Variants: c.variants}))
		})
	}
}

// scAxiomWith is the sequential-consistency axiom with x in place of po.
func scAxiomWith(x string) string {
	return "let fr = rf^-1 ; co\nacyclic (" + x + ") | rf | co | fr as sc\n"
}

// TestInclude: includes are searched next to the including file, then in
// the -I folders (+DIR is DIR in the library folder), HERDLIB and the
// library folder; stdlib.cat is ptxmm's own.
func TestInclude(t *testing.T) {
	files := map[string]string{
		"m/main.cat":    "include \"local.cat\"\ninclude \"mine.cat\"\ninclude \"env.cat\"\ninclude \"lib.cat\"\ninclude \"sub.cat\"\ninclude \"stdlib.cat\"\nacyclic local | mine | env | lib | sub",
		"m/local.cat":   "let local = po",
		"inc/mine.cat":  "let mine = rf",
		"env/env.cat":   "let env = co",
		"lib/lib.cat":   "let lib = rf^-1 ; co",
		"lib/x/sub.cat": "let sub = 0",
		"lib/mine.cat":  "let mine = nosuch",
	}
	opts := cat.Options{IncludeDirs: []string{"inc", "+x"}, EnvLibDir: "env", LibDir: "lib", Read: func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}}
	low, errs := cat.Load("m/main.cat", opts)
	require.False(t, errs.HasErrors(), errs.Error())
	require.Equal(t, []string{"m/main.cat", "m/local.cat", "inc/mine.cat", "env/env.cat", "lib/lib.cat", "lib/x/sub.cat"}, low.Program.Files)
	// The model itself is found in the library folder by its plain name.
	low, errs = cat.Load("lib.cat", opts)
	require.False(t, errs.HasErrors(), errs.Error())
	require.Equal(t, "lib/lib.cat", low.Program.Files[0])
	_, errs = cat.LoadSource("m/t.cat", "include \"missing.cat\"", opts)
	require.True(t, errs.HasErrors())
	require.Contains(t, errs[0].Error(), `m/t.cat:1:1: cannot include "missing.cat": no such file next to the including file, in the -I folders, in $HERDLIB or in the library folder (-set-libdir)`)
}

// TestUnsupplied: names neither the model nor ptxmm binds are listed in
// one error, each at its first use; under try they are not errors.
func TestUnsupplied(t *testing.T) {
	_, errs := cat.LoadSource("t.cat", "let a = MFENCE | po\nlet b = try DMB with 0\nlet c = a | b | iico_data\nacyclic c | MFENCE | B", cat.Options{})
	require.Len(t, errs, 1, errs.Error())
	msg := errs[0].Error()
	require.Contains(t, msg, "t.cat:1:9: the model reads names that neither it nor ptxmm binds: MFENCE (t.cat:1:9), iico_data (t.cat:3:17), B (t.cat:4:22)")
	require.Contains(t, msg, "ptxmm supplies the names of docs/cat.md (")
	require.Contains(t, msg, "every relation of its catalog (docs/catalog.md)")
}

// TestVariantWarning: if variant on a name herd7 does not know, and that is
// not set, draws a warning, as in herd7.
func TestVariantWarning(t *testing.T) {
	_, errs := cat.LoadSource("t.cat", "if \"nosuchvariant\" let x = po end\nif \"mixed\" let y = po end", cat.Options{})
	require.False(t, errs.HasErrors())
	require.Len(t, errs, 1)
	require.Contains(t, errs[0].Error(), `t.cat:1:4: warning: variant "nosuchvariant" is not one of herd7's variants nor set with -variant: taken as unset`)
}

// TestSkipGroups: a test name several tests share, and a call's label,
// name all their checks for -skipchecks.
func TestSkipGroups(t *testing.T) {
	low, errs := cat.LoadSource("t.cat", "procedure p(r) = acyclic r as a empty r & id end\ncall p(po) as first\ncall p(rf)\nacyclic co as a", cat.Options{})
	require.False(t, errs.HasErrors(), errs.Error())
	require.Equal(t, []string{"a", "a#2", "a#3"}, low.Groups["a"])
	require.Equal(t, []string{"a", "empty@1:33"}, low.Groups["first"])
	require.Equal(t, []string{"a#2", "empty@1:33#2"}, low.Groups["p"])
}
