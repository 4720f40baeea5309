package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relCase is one expected relation of a table-driven evaluation test.
type relCase struct {
	rel  string
	want []string
}

// runCases compiles src in every mode, sets the inputs with set, runs, and
// compares each relation.
func runCases(t *testing.T, src string, hosts []string, set func(t *testing.T, in *Instance), cases []relCase) {
	t.Helper()
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, hosts...)
		if set != nil {
			set(t, in)
		}
		in.Run()
		for _, c := range cases {
			assert.Equal(t, sorted(c.want...), rows(t, in, c.rel), c.rel)
		}
	})
}

func TestConstantsAndFacts(t *testing.T) {
	src := `
.decl label(x, n)
label("a", 1). label("b", 2). label("c", 2). label("1", 3). label("a", 1).
.decl two(x)
two(X) :- label(X, 2).
.decl tag(x, t)
tag(X, "seen") :- label(X, _).
.decl yes(x)
yes("yes") :- label(_, 1).
.decl no(x)
no("no") :- label(_, 7).
.decl notone(x)
notone(X) :- label(X, N), N != 1.
.decl eqc(x)
eqc(X) :- label(X, N), N = 2.
.decl flip(n, x)
flip(N, X) :- label(X, N), 2 != N.
.decl intstr(x)
intstr(X) :- label(X, _), X = 1.
.decl strc(x)
strc(X) :- label(X, _), X = "1".
.decl const2(x)
const2(X) :- label(X, 3), 1 = 1.
.decl const3(x)
const3(X) :- label(X, 3), 1 = 2.
.decl const4(x)
const4(X) :- label(X, 3), "a" != "b".
.decl host(x)
.input host
.decl hostc(x)
hostc(X) :- host(X), X != "a".
.decl hosteq(x)
hosteq(X) :- host(X), X = "a".
.decl mixed(x, y)
mixed(X, 42) :- host(X).
mixed(-7, X) :- host(X), X != "zz".
.decl bin(x, y)
bin(1, 2). bin(2, 2). bin("x", "x").
.decl binfirst(x)
binfirst(X) :- bin(X, 2).
.decl binsecond(y)
binsecond(Y) :- bin(2, Y).
.decl bindiag(x)
bindiag(X) :- bin(X, X).
.decl binc(x)
binc(X) :- bin(1, 2), host(X).
.decl notbinc(x)
notbinc(X) :- host(X), !bin(1, 1).
.decl nobinc(x)
nobinc(X) :- host(X), !bin(1, 2).
.decl f3(x, y, z)
f3(1, 2, 3). f3("a", "b", "c"). f3(1, 2, 3).
.decl f4(a, b, c, d)
f4(1, 1, 1, 1). f4(1, "1", 1, "1").
.decl more(x)
more(X) :- two(X).
more("extra").
`
	runCases(t, src, []string{"a", "b"}, func(t *testing.T, in *Instance) {
		setFacts(t, in, "host", "a", "b")
	}, []relCase{
		{"label", []string{`"a",1`, `"b",2`, `"c",2`, `"1",3`}},
		{"two", []string{`"b"`, `"c"`}},
		{"tag", []string{`"a","seen"`, `"b","seen"`, `"c","seen"`, `"1","seen"`}},
		{"yes", []string{`"yes"`}},
		{"no", nil},
		{"notone", []string{`"b"`, `"c"`, `"1"`}},
		{"eqc", []string{`"b"`, `"c"`}},
		{"flip", []string{`1,"a"`, `3,"1"`}},
		{"intstr", nil},
		{"strc", []string{`"1"`}},
		{"const2", []string{`"1"`}},
		{"const3", nil},
		{"const4", []string{`"1"`}},
		{"hostc", []string{"a", "b"}}, // the host atom a is not the string "a"
		{"hosteq", nil},
		{"mixed", []string{"a,42", "b,42", "-7,a", "-7,b"}},
		{"binfirst", []string{"1", "2"}},
		{"binsecond", []string{"2"}},
		{"bindiag", []string{"2", `"x"`}},
		{"binc", []string{"a", "b"}},
		{"notbinc", []string{"a", "b"}},
		{"nobinc", nil},
		{"f3", []string{"1,2,3", `"a","b","c"`}},
		{"f4", []string{"1,1,1,1", `1,"1",1,"1"`}},
		{"more", []string{`"b"`, `"c"`, `"extra"`}},
	})
}

func TestHigherArity(t *testing.T) {
	src := `
.decl e(x, y)
.input e
.decl r3(a, b, c)
.input r3
.decl q4(a, b, c, d)
q4(A, B, C, D) :- r3(A, B, C), e(C, D).
.decl proj(a, c)
proj(A, C) :- r3(A, _, C).
.decl same(a)
same(A) :- q4(A, B, B, _).
.decl tri(x, y, z)
tri(X, Y, Z) :- e(X, Y), e(Y, Z), e(Z, X).
.decl rot(a, b, c)
rot(B, C, A) :- r3(A, B, C).
.decl ext(a, b, c)
ext(A, B, C) :- r3(A, B, C).
ext(A, B, D) :- ext(A, B, C), e(C, D).
.decl notr3(a, b, d)
notr3(A, B, D) :- q4(A, B, _, D), !r3(A, B, D).
.decl r3const(a)
r3const(A) :- r3(A, "k", _).
.decl four(a, b, c, d)
four(1, "x", A, B) :- e(A, B), A != B.
.decl notwild(a)
notwild(A) :- e(A, _), !r3(_, A, _).
.decl cyc(x)
cyc(X) :- ext(X, _, X).
`
	hosts := []string{"a", "b", "c", "d"}
	runCases(t, src, hosts, func(t *testing.T, in *Instance) {
		setFacts(t, in, "e", "a,b", "b,c", "c,a", "c,d", "d,d")
		setFacts(t, in, "r3", "a,b,c", "b,b,d", "c,d,a", `a,"k",b`, "d,c,c")
	}, []relCase{
		{"q4", []string{"a,b,c,a", "a,b,c,d", "b,b,d,d", "c,d,a,b", `a,"k",b,c`, "d,c,c,a", "d,c,c,d"}},
		{"proj", []string{"a,c", "b,d", "c,a", "a,b", "d,c"}},
		{"same", []string{"d"}},
		{"tri", []string{"a,b,c", "b,c,a", "c,a,b", "d,d,d"}},
		{"rot", []string{"b,c,a", "b,d,b", "d,a,c", `"k",b,a`, "c,c,d"}},
		{"ext", []string{
			"a,b,a", "a,b,b", "a,b,c", "a,b,d",
			"b,b,d",
			"c,d,a", "c,d,b", "c,d,c", "c,d,d",
			`a,"k",a`, `a,"k",b`, `a,"k",c`, `a,"k",d`,
			"d,c,a", "d,c,b", "d,c,c", "d,c,d",
		}},
		{"notr3", []string{"a,b,a", "a,b,d", "c,d,b", `a,"k",c`, "d,c,a", "d,c,d"}},
		{"r3const", []string{"a"}},
		{"four", []string{`1,"x",a,b`, `1,"x",b,c`, `1,"x",c,a`, `1,"x",c,d`}},
		{"notwild", []string{"a"}},
		{"cyc", []string{"a", "c", "d"}},
	})
	p := compileSrc(t, src)
	for _, name := range []string{"q4", "same", "tri", "rot", "ext", "notr3", "r3const", "four", "notwild"} {
		for _, rp := range rulePlansOf(p, name) {
			assert.NotNil(t, rp.join, "%s runs as a join", name)
		}
	}
}

func TestComparisons(t *testing.T) {
	src := `
.decl e(x, y)
.input e
.decl neq(x, y)
neq(X, Y) :- e(X, Y), X != Y.
.decl loop(x)
loop(X) :- e(X, Y), X = Y.
.decl loop2(x, y)
loop2(X, Y) :- e(X, Y), Y = X.
.decl back(x, y)
back(X, Y) :- e(X, Z), e(Z, Y), X = Y.
.decl distinct3(x, z)
distinct3(X, Z) :- e(X, Y), e(Y, Z), X != Y, Y != Z, X != Z.
.decl never(x)
never(X) :- e(X, _), X != X.
.decl always(x)
always(X) :- e(X, _), X = X.
.decl eqchain(x, w)
eqchain(X, W) :- e(X, Y), Z = Y, e(Z, W).
.decl eqhead(x, y)
eqhead(X, Y) :- e(X, _), Y = X.
.decl eqconst(y, k)
eqconst(Y, "k") :- e(X, _), Y = X.
.decl eqnot(x)
eqnot(Y) :- e(X, X), Y = X, !e(Y, "k").
.decl eq3(x, y, z)
eq3(X, Y, Z) :- e(X, Y), Z = Y, W = Z, W != X.
.decl neqother(x)
neqother(X) :- e(X, _), e(Y, _), X != Y, Y = "k".
.decl neqhost(x, y)
neqhost(X, Y) :- e(X, Y), Y != "k", X != 5.
`
	runCases(t, src, []string{"a", "b", "c"}, func(t *testing.T, in *Instance) {
		setFacts(t, in, "e", "a,b", "b,b", "b,c", "c,a", "c,b")
	}, []relCase{
		{"neq", []string{"a,b", "b,c", "c,a", "c,b"}},
		{"loop", []string{"b"}},
		{"loop2", []string{"b,b"}},
		{"back", []string{"b,b", "c,c"}},
		{"distinct3", []string{"a,c", "b,a", "c,b"}},
		{"never", nil},
		{"always", []string{"a", "b", "c"}},
		{"eqchain", []string{"a,b", "a,c", "b,a", "b,b", "b,c", "c,b", "c,c"}},
		{"eqhead", []string{"a,a", "b,b", "c,c"}},
		{"eqconst", []string{`a,"k"`, `b,"k"`, `c,"k"`}},
		{"eqnot", []string{"b"}},
		{"eq3", []string{"a,b,b", "b,c,c", "c,a,a", "c,b,b"}},
		{"neqother", nil},
		{"neqhost", []string{"a,b", "b,b", "b,c", "c,a", "c,b"}},
	})
}

func TestWildcardsAndGuards(t *testing.T) {
	src := `
.decl n(x)
.input n
.decl e(x, y)
.input e
.decl q(x)
.input q
.decl src(x)
src(X) :- e(X, _).
.decl dst(y)
dst(Y) :- e(_, Y).
.decl anye(x)
anye(X) :- n(X), e(_, _).
.decl guarded(x)
guarded(X) :- n(X), q(_).
.decl guarded2(x, y)
guarded2(X, Y) :- e(X, Y), q(_).
.decl notsrc(x)
notsrc(X) :- n(X), !e(X, _).
.decl notdst(x)
notdst(X) :- n(X), !e(_, X).
.decl noedge(x)
noedge(X) :- n(X), !e(_, _).
.decl noq(x)
noq(X) :- n(X), !q(_).
.decl disc(x)
disc(X) :- n(X), e(Y, Z), Y != Z.
.decl prod(x, y)
prod(X, Y) :- q(X), n(Y).
.decl qe(x, y)
qe(X, Y) :- e(X, Y), q(Z), n(Z).
`
	type step struct {
		e, q  []string
		cases []relCase
	}
	steps := []step{
		{
			e: []string{"a,b", "b,c"},
			cases: []relCase{
				{"src", []string{"a", "b"}}, {"dst", []string{"b", "c"}},
				{"anye", []string{"a", "b", "c", "d"}}, {"guarded", nil}, {"guarded2", nil},
				{"notsrc", []string{"c", "d"}}, {"notdst", []string{"a", "d"}}, {"noedge", nil},
				{"noq", []string{"a", "b", "c", "d"}}, {"disc", []string{"a", "b", "c", "d"}},
				{"prod", nil}, {"qe", nil},
			},
		},
		{
			e: []string{"a,b", "b,c"}, q: []string{"d"},
			cases: []relCase{
				{"guarded", []string{"a", "b", "c", "d"}}, {"guarded2", []string{"a,b", "b,c"}},
				{"noq", nil}, {"prod", []string{"d,a", "d,b", "d,c", "d,d"}}, {"qe", []string{"a,b", "b,c"}},
			},
		},
		{
			e: []string{"c,c"}, q: []string{"d"},
			cases: []relCase{
				{"src", []string{"c"}}, {"anye", []string{"a", "b", "c", "d"}},
				{"notsrc", []string{"a", "b", "d"}}, {"noedge", nil}, {"disc", nil},
			},
		},
		{
			q: []string{"a"},
			cases: []relCase{
				{"src", nil}, {"anye", nil}, {"noedge", []string{"a", "b", "c", "d"}},
				{"guarded", []string{"a", "b", "c", "d"}}, {"guarded2", nil},
			},
		},
	}
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b", "c", "d")
		setFacts(t, in, "n", "a", "b", "c", "d")
		for i, st := range steps {
			setFacts(t, in, "e", st.e...)
			setFacts(t, in, "q", st.q...)
			in.Run()
			for _, c := range st.cases {
				assert.Equal(t, sorted(c.want...), rows(t, in, c.rel), "step %d: %s", i, c.rel)
			}
		}
	})
	p := compileSrc(t, src)
	for _, name := range []string{"src", "dst", "anye", "guarded", "guarded2", "notsrc", "notdst", "disc", "prod", "qe"} {
		for _, rp := range rulePlansOf(p, name) {
			require.NotNil(t, rp.alg, "%s compiles to an algebra plan", name)
		}
	}
}
