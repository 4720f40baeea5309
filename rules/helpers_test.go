package rules

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/require"
)

// loadModel parses and analyses a program, returning the first error as an
// error value (for generators and the fuzz target, which skip bad input).
func loadModel(src string) (*datalog.Model, string) {
	prog, errs := datalog.LoadSource("t.dl", src)
	if errs.HasErrors() {
		return nil, "parse: " + errs.Quoted()
	}
	m, errs := datalog.Analyze(prog)
	if errs.HasErrors() {
		return nil, "analyze: " + errs.Quoted()
	}
	return m, ""
}

// compileSrc compiles a program that must be valid.
func compileSrc(t testing.TB, src string, opts ...CompileOption) *Program {
	t.Helper()
	m, msg := loadModel(src)
	if msg != "" {
		t.Fatalf("%s", msg)
	}
	p, errs := Compile(m, opts...)
	if errs.HasErrors() {
		t.Fatalf("compile: %s", errs.Quoted())
	}
	return p
}

// evalMode is one way of evaluating a program; every evaluation test runs
// in each of them and must give the same answer.
type evalMode struct {
	name string
	opts []CompileOption
}

var evalModes = []evalMode{
	{"default", nil},
	{"noclosure", []CompileOption{WithClosureOperator(false), withIncrementalMinAtoms(0)}},
	{"tracked", []CompileOption{WithClosureOperator(false), withTrackMinAtoms(1), withIncrementalMinAtoms(0)}},
	{"naive", []CompileOption{WithNaive(true), withIncrementalMinAtoms(0)}},
}

// withIncrementalMinAtoms sets the domain size from which search steps
// update the derived relations incrementally, so that tests on small
// domains cover both ways (the default mode recomputes).
func withIncrementalMinAtoms(n int) CompileOption {
	return func(o *compileOptions) { o.incrementalMinAtoms = n }
}

// withTrackMinAtoms sets the domain size from which semi-naive evaluation
// tracks the rows of its deltas, so that tests reach that code on small
// domains.
func withTrackMinAtoms(n int) CompileOption {
	return func(o *compileOptions) { o.trackMinAtoms = n }
}

// forModes runs f once per evaluation mode as a subtest.
func forModes(t *testing.T, f func(t *testing.T, opts []CompileOption)) {
	for _, m := range evalModes {
		t.Run(m.name, func(t *testing.T) { f(t, m.opts) })
	}
}

// parseAtom reads an atom as the tests write it: "a" is the host atom a,
// `"a"` the string constant a, and 7 the integer 7.
func parseAtom(s string) Value {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			panic(err)
		}
		return Value{Kind: KindString, Str: u}
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Value{Kind: KindInt, Int: i}
	}
	return Value{Kind: KindHost, Str: s}
}

// newInst makes an instance over the given atoms (host names, or constants
// written as parseAtom reads them); the program's constants come after.
func newInst(t testing.TB, p *Program, atoms ...string) *Instance {
	t.Helper()
	dom := NewDomain()
	for _, a := range atoms {
		v := parseAtom(a)
		if v.Kind == KindHost {
			_, err := dom.AddHost(v.Str)
			require.NoError(t, err)
		} else {
			dom.Intern(v)
		}
	}
	return p.NewInstance(dom)
}

func atomIndex(t testing.TB, dom *Domain, s string) int {
	t.Helper()
	i, ok := dom.Lookup(parseAtom(s))
	require.True(t, ok, "atom %s is not in the domain", s)
	return i
}

// parseTuple reads "a,b,c" into atom indices.
func parseTuple(t testing.TB, dom *Domain, s string) []int {
	t.Helper()
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]int, len(parts))
	for i, p := range parts {
		out[i] = atomIndex(t, dom, p)
	}
	return out
}

// setFacts replaces an input relation with the given tuples, through
// SetSet, SetRel or SetTuples according to its arity.
func setFacts(t testing.TB, in *Instance, name string, tuples ...string) {
	t.Helper()
	ar, err := in.Program().Arity(name)
	require.NoError(t, err)
	n := in.Domain().Len()
	switch ar {
	case 1:
		s := relations.NewSet(n)
		for _, tu := range tuples {
			s.Add(parseTuple(t, in.Domain(), tu)[0])
		}
		require.NoError(t, in.SetSet(name, s))
	case 2:
		r := relations.NewRel(n)
		for _, tu := range tuples {
			x := parseTuple(t, in.Domain(), tu)
			r.Add(x[0], x[1])
		}
		require.NoError(t, in.SetRel(name, r))
	default:
		tt := relations.NewTuples(ar)
		for _, tu := range tuples {
			tt.Add(parseTuple(t, in.Domain(), tu))
		}
		require.NoError(t, in.SetTuples(name, tt))
	}
}

// fmtTuple prints a tuple as "a,b" with constants as the language writes them.
func fmtTuple(dom *Domain, tu []int) string {
	parts := make([]string, len(tu))
	for i, a := range tu {
		parts[i] = dom.Value(a).String()
	}
	return strings.Join(parts, ",")
}

// rows returns the tuples of a relation, printed and sorted.
func rows(t testing.TB, in *Instance, name string) []string {
	t.Helper()
	tu, err := in.Tuples(name)
	require.NoError(t, err)
	out := []string{}
	for x := range tu.All() {
		out = append(out, fmtTuple(in.Domain(), x))
	}
	sort.Strings(out)
	return out
}

// sorted returns a sorted copy, with nil as the empty list.
func sorted(xs ...string) []string {
	out := append([]string{}, xs...)
	sort.Strings(out)
	return out
}

// names prints atoms by name.
func names(dom *Domain, atoms []int) []string {
	out := []string{}
	for _, a := range atoms {
		out = append(out, dom.Value(a).String())
	}
	return out
}

// stratumOf returns the index of the stratum defining a relation.
func stratumOf(t testing.TB, p *Program, name string) int {
	t.Helper()
	id, ok := p.byName[name]
	require.True(t, ok, "unknown relation %s", name)
	return p.rels[id].stratum
}

// rulePlansOf returns the plans of the rules whose head is name.
func rulePlansOf(p *Program, name string) []*rulePlan {
	id, ok := p.byName[name]
	if !ok {
		return nil
	}
	return slices.Collect(p.rulesOf(id))
}

// chainRel is the path 0 -> 1 -> ... -> n-1.
func chainRel(n int) *relations.Rel {
	r := relations.NewRel(n)
	for i := 0; i+1 < n; i++ {
		r.Add(i, i+1)
	}
	return r
}

// randomRel gives every atom deg successors drawn by rng (self loops and
// repeats allowed).
func randomRel(rng *rand.Rand, n, deg int) *relations.Rel {
	r := relations.NewRel(n)
	for i := 0; i < n; i++ {
		for k := 0; k < deg; k++ {
			r.Add(i, rng.IntN(n))
		}
	}
	return r
}
