package rules

import (
	"testing"

	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const incrementalSrc = `
.decl x(a, b)
.input x
.decl y(a)
.input y
.decl t3(a, b, c)
.input t3
.decl xs(a, b)
xs(A, B) :- x(A, B), A != B.
let xc = x+
.decl ys(a)
ys(A) :- y(A).
.decl both(a)
both(A) :- xs(A, _), ys(A).
.decl fromT3(a)
fromT3(A) :- t3(A, _, _).
.decl fact(a)
fact("f").
.check noloop: irreflexive(xc)
`

// runsOf returns how many times the stratum of each relation has run.
func runsOf(t *testing.T, in *Instance, rels ...string) map[string]int {
	out := map[string]int{}
	for _, r := range rels {
		out[r] = in.sched.runs[stratumOf(t, in.Program(), r)]
	}
	return out
}

func TestIncrementalRun(t *testing.T) {
	all := []string{"xs", "xc", "ys", "both", "fromT3", "fact"}
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, incrementalSrc, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "x", "a,b", "b,c")
		setFacts(t, in, "y", "a")
		in.Run()
		assert.Equal(t, map[string]int{"xs": 1, "xc": 1, "ys": 1, "both": 1, "fromT3": 1, "fact": 1}, runsOf(t, in, all...))
		assert.Equal(t, []string{"a"}, rows(t, in, "both"))
		assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "xc"))

		in.Run()
		assert.Equal(t, map[string]int{"xs": 1, "xc": 1, "ys": 1, "both": 1, "fromT3": 1, "fact": 1}, runsOf(t, in, all...), "nothing changed, nothing runs")

		setFacts(t, in, "y", "b", "c")
		in.Run()
		assert.Equal(t, map[string]int{"xs": 1, "xc": 1, "ys": 2, "both": 2, "fromT3": 1, "fact": 1}, runsOf(t, in, all...))
		assert.Equal(t, []string{"b"}, rows(t, in, "both"))

		setFacts(t, in, "x", "c,a", "b,c")
		in.Run()
		assert.Equal(t, map[string]int{"xs": 2, "xc": 2, "ys": 2, "both": 3, "fromT3": 1, "fact": 1}, runsOf(t, in, all...))
		assert.Equal(t, []string{"b", "c"}, rows(t, in, "both"))
		assert.Equal(t, []string{"b,a", "b,c", "c,a"}, rows(t, in, "xc"))
		assert.True(t, in.AllHold())

		// Setting the same tuples again invalidates nothing.
		setFacts(t, in, "x", "b,c", "c,a")
		setFacts(t, in, "y", "c", "b")
		in.Run()
		assert.Equal(t, map[string]int{"xs": 2, "xc": 2, "ys": 2, "both": 3, "fromT3": 1, "fact": 1}, runsOf(t, in, all...))

		setFacts(t, in, "t3", "a,b,c")
		in.Run()
		assert.Equal(t, []string{"a"}, rows(t, in, "fromT3"))
		assert.Equal(t, map[string]int{"xs": 2, "xc": 2, "ys": 2, "both": 3, "fromT3": 2, "fact": 1}, runsOf(t, in, all...))

		// A cycle makes the check fail; Checks runs what is dirty first.
		setFacts(t, in, "x", "a,b", "b,a")
		res := in.Checks()
		require.Len(t, res, 1)
		assert.False(t, res[0].Holds)
		assert.Equal(t, []string{"a"}, names(in.Domain(), res[0].Witness))
		assert.Equal(t, []string{`"f"`}, rows(t, in, "fact"))
		assert.Equal(t, 1, in.sched.runs[stratumOf(t, p, "fact")], "a stratum of facts runs once")
	})
}

// TestInstancesAreIndependent runs two instances of one program.
func TestInstancesAreIndependent(t *testing.T) {
	p := compileSrc(t, incrementalSrc)
	in1 := newInst(t, p, "a", "b", "c")
	in2 := newInst(t, p, "a", "b", "c", "d")
	setFacts(t, in1, "x", "a,b")
	setFacts(t, in2, "x", "c,d", "d,c")
	in1.Run()
	in2.Run()
	assert.Equal(t, []string{"a,b"}, rows(t, in1, "xc"))
	assert.Equal(t, []string{"c,c", "c,d", "d,c", "d,d"}, rows(t, in2, "xc"))
	assert.True(t, in1.AllHold())
	assert.False(t, in2.AllHold())
}

func TestInputErrors(t *testing.T) {
	p := compileSrc(t, incrementalSrc)
	in := newInst(t, p, "a", "b", "c")
	n := in.Domain().Len()
	require.Equal(t, 4, n, "three hosts and the constant \"f\"")

	assert.ErrorContains(t, in.SetSet("nope", relations.NewSet(n)), "unknown relation nope")
	assert.ErrorContains(t, in.SetSet("x", relations.NewSet(n)), "relation x has 2 column(s), not 1")
	assert.ErrorContains(t, in.SetRel("y", relations.NewRel(n)), "relation y has 1 column(s), not 2")
	assert.ErrorContains(t, in.SetSet("ys", relations.NewSet(n)), "not an .input relation")
	assert.ErrorContains(t, in.SetRel("xc", relations.NewRel(n)), "not an .input relation")
	assert.ErrorContains(t, in.SetSet("y", relations.NewSet(n+1)), "set over 5 atoms, but the domain has 4")
	assert.ErrorContains(t, in.SetRel("x", relations.NewRel(2)), "relation over 2 atoms, but the domain has 4")
	assert.ErrorContains(t, in.SetTuples("t3", relations.NewTuples(2)), "relation t3 has 3 column(s), not 2")

	// A Tuples of arity zero is an arity mismatch, not a crash.
	zero := relations.NewTuples(0)
	zero.Add([]int{})
	assert.ErrorContains(t, in.SetTuples("x", zero), "relation x has 2 column(s), not 0")

	// An atom outside the domain is reported and leaves the relation as it was.
	setFacts(t, in, "t3", "a,b,c")
	in.Run()
	bad := relations.NewTuples(3)
	bad.Add([]int{0, 1, 2})
	bad.Add([]int{0, 1, n})
	assert.ErrorContains(t, in.SetTuples("t3", bad), "atom 4 is outside the domain of 4 atoms")
	assert.Equal(t, []string{"a,b,c"}, rows(t, in, "t3"))
	neg := relations.NewTuples(2)
	neg.Add([]int{-1, 0})
	assert.ErrorContains(t, in.SetTuples("x", neg), "atom -1 is outside the domain")

	// Reading relations.
	_, err := in.Set("x")
	assert.ErrorContains(t, err, "relation x has 2 column(s), not 1")
	_, err = in.Rel("y")
	assert.ErrorContains(t, err, "relation y has 1 column(s), not 2")
	_, err = in.Tuples("nope")
	assert.ErrorContains(t, err, "unknown relation nope")
	size, err := in.Size("t3")
	require.NoError(t, err)
	assert.Equal(t, 1, size)
	_, err = p.Arity("nope")
	assert.Error(t, err)
}

// TestSetTuplesAnyArity sets unary and binary inputs through SetTuples.
func TestSetTuplesAnyArity(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, incrementalSrc, opts...)
		in := newInst(t, p, "a", "b", "c")
		x := relations.NewTuples(2)
		x.Add([]int{0, 1})
		x.Add([]int{1, 1})
		require.NoError(t, in.SetTuples("x", x))
		y := relations.NewTuples(1)
		y.Add([]int{1})
		require.NoError(t, in.SetTuples("y", y))
		in.Run()
		assert.Equal(t, []string{"a,b"}, rows(t, in, "xs"))
		assert.Equal(t, []string{"b"}, rows(t, in, "ys"))
		x.Clear()
		require.NoError(t, in.SetTuples("x", x))
		in.Run()
		assert.Equal(t, []string{}, rows(t, in, "xs"))
		assert.Equal(t, []string{}, rows(t, in, "xc"))
	})
}

func TestProgramAccessors(t *testing.T) {
	p := compileSrc(t, incrementalSrc)
	assert.Contains(t, p.RelationNames(), "xc")
	ar, err := p.Arity("t3")
	require.NoError(t, err)
	assert.Equal(t, 3, ar)
	require.Len(t, p.Checks(), 1)
	assert.Equal(t, "noloop", p.Checks()[0].Name)
	assert.NotNil(t, p.Model())
	in := newInst(t, p, "a")
	assert.Same(t, p, in.Program())
	v, ok := in.Domain().Lookup(Value{Kind: KindString, Str: "f"})
	assert.True(t, ok, "program constants are interned")
	assert.Equal(t, `"f"`, in.Domain().Value(v).String())
}

// TestConcurrentInstances evaluates one Program from several goroutines,
// which its documentation allows; run under -race.
func TestConcurrentInstances(t *testing.T) {
	p := compileSrc(t, incrementalSrc+orderSrc)
	done := make(chan []string)
	for g := 0; g < 4; g++ {
		go func() {
			in := newInst(t, p, "a", "b", "c")
			var last []string
			for k := 0; k < 20; k++ {
				x := relations.NewRel(in.Domain().Len())
				x.Add(k%3, (k+1)%3)
				if err := in.SetRel("x", x); err != nil {
					panic(err)
				}
				in.Run()
				in.Solve()
				tu, _ := in.Tuples("xc")
				last = []string{tu.String()}
			}
			done <- last
		}()
	}
	first := <-done
	for g := 1; g < 4; g++ {
		assert.Equal(t, first, <-done)
	}
}
