package rules

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/require"
)

// orderPrograms calls f with random programs that have an order o over the
// input in1, compiled in every evaluation mode, and an instance per mode
// holding the same random inputs; programs that do not compile are
// skipped.
func orderPrograms(t *testing.T, seed uint64, programs int, f func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand)) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for tested := 0; tested < programs; {
		src, inputs := genOrderProgram(rng)
		m, msg := loadModel(src)
		require.Empty(t, msg, "the generator made an invalid program:\n%s", src)
		var progs []*Program
		for _, mode := range evalModes {
			p, errs := Compile(m, mode.opts...)
			if errs.HasErrors() {
				break
			}
			progs = append(progs, p)
		}
		if len(progs) < len(evalModes) {
			continue
		}
		tested++
		nHosts := 2 + rng.IntN(4)
		inputSeed := rng.Uint64()
		insts := hostInstances(progs, nHosts)
		for _, in := range insts {
			require.NoError(t, genInputs(rand.New(rand.NewPCG(inputSeed, 2)), in, inputs, false))
		}
		f(t, src, insts, inputs, rand.New(rand.NewPCG(rng.Uint64(), 4)))
		if t.Failed() {
			return
		}
	}
}

// programCount is how many random programs a property test checks: n, or a
// fifth of n with -short.
func programCount(n int) int {
	if testing.Short() {
		return n / 5
	}
	return n
}

// fullEvaluation evaluates from scratch, on a new instance, the inputs and
// the order o of in.
func fullEvaluation(t *testing.T, in *Instance, inputs []genRel) *Instance {
	t.Helper()
	fresh := in.p.NewInstance(in.dom)
	for _, r := range append(slices.Clone(inputs), genRel{name: "o", arity: 2}) {
		tu, err := in.Tuples(r.name)
		require.NoError(t, err)
		require.NoError(t, fresh.SetTuples(r.name, tu))
	}
	fresh.Run()
	return fresh
}

// TestIncrementalMatchesFull takes random steps of an order search on
// random programs (adding pairs to the order, undoing back to earlier
// steps) and compares, after each, every relation with an evaluation from
// scratch, and the checks tested on a step's changes with the checks
// tested whole.
func TestIncrementalMatchesFull(t *testing.T) {
	orderPrograms(t, 20261123, programCount(300), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		for mi, in := range insts {
			stepRng := rand.New(rand.NewPCG(rng.Uint64(), 5))
			require.NoError(t, in.guarded(nil, func() { in.startSearch() }))
			over, err := in.Rel("in1")
			require.NoError(t, err)
			o := in.stores[in.p.byName["o"]].rel
			op := in.p.orders[0]
			marks := []int{in.inc.mark()}
			for step := 0; step < 10; step++ {
				held := true
				for _, c := range in.p.checks {
					if c.monotone && in.violated(c) {
						held = false
					}
				}
				if len(marks) > 1 && stepRng.IntN(4) == 0 {
					k := stepRng.IntN(len(marks))
					in.undo(marks[k])
					marks = marks[:k+1]
					held = false
				} else {
					var free [][2]int
					for a, b := range over.All() {
						if a != b && !o.Has(a, b) && !o.Has(b, a) {
							free = append(free, [2]int{a, b})
						}
					}
					if len(free) == 0 {
						break
					}
					in.inc.beginStep()
					for k := 1 + stepRng.IntN(3); k > 0; k-- {
						p := free[stepRng.IntN(len(free))]
						if !o.Has(p[0], p[1]) && !o.Has(p[1], p[0]) {
							in.orient(op, p[0], p[1])
						}
					}
					in.propagate()
					marks = append(marks, in.inc.mark())
				}
				fresh := fullEvaluation(t, in, inputs)
				for _, name := range in.p.model.Names {
					if got, want := engineTuples(in, name), engineTuples(fresh, name); !slices.EqualFunc(got, want, slices.Equal) {
						t.Fatalf("mode %s, step %d: relation %s = %v, evaluated whole %v\nprogram:\n%s\ninputs:\n%s",
							evalModes[mi].name, step, name, got, want, src, dumpInputs(in, inputs))
					}
				}
				if !held || in.inc.recompute {
					// Without incremental updates there are no changes of
					// the derived relations to test the checks on.
					continue
				}
				for _, c := range in.p.checks {
					if c.monotone && in.violatedByStep(c) != in.violated(c) {
						t.Fatalf("mode %s, step %d: check %s violated=%v on the step's changes, %v whole\nprogram:\n%s",
							evalModes[mi].name, step, c.check.Name, in.violatedByStep(c), in.violated(c), src)
					}
				}
			}
		}
	})
}

// refSolve is the order search as a plain depth-first search, evaluating
// every choice from scratch: the pairs of o in order, each first as a -> b
// (or unrelated first, for a partial order), abandoning a choice when a
// monotone check fails, recording the failures met. Solve must give its
// result.
type refSolve struct {
	in       *Instance
	pairs    [][2]int
	partial  bool
	seen     map[string]bool
	failures []CheckResult
}

func (r *refSolve) search(i int) bool {
	in := r.in
	in.Run()
	for _, c := range in.p.checks {
		if c.monotone && in.violated(c) {
			r.fail(true)
			return false
		}
	}
	o, _ := in.Rel("o")
	for ; i < len(r.pairs); i++ {
		if a, b := r.pairs[i][0], r.pairs[i][1]; !o.Has(a, b) && !o.Has(b, a) {
			break
		}
	}
	if i == len(r.pairs) {
		for _, c := range in.p.checks {
			if in.violated(c) {
				r.fail(false)
				return false
			}
		}
		return true
	}
	if r.partial && r.search(i+1) {
		return true
	}
	a, b := r.pairs[i][0], r.pairs[i][1]
	saved := o.Clone()
	for _, d := range [][2]int{{a, b}, {b, a}} {
		next := saved.Clone()
		for x := 0; x < next.N(); x++ {
			if x == d[0] || next.Has(x, d[0]) {
				next.Add(x, d[1])
				next.Row(x).InPlaceUnion(saved.Row(d[1]))
			}
		}
		require.NoError(nil, in.SetRel("o", next))
		if r.search(i + 1) {
			return true
		}
	}
	require.NoError(nil, in.SetRel("o", saved))
	return false
}

func (r *refSolve) fail(monotoneOnly bool) {
	for _, c := range r.in.p.checks {
		if (monotoneOnly && !c.monotone) || r.seen[c.check.Name] || !r.in.violated(c) {
			continue
		}
		r.seen[c.check.Name] = true
		f := r.in.evalCheck(c)
		o, _ := r.in.Rel("o")
		f.Orders = map[string]*relations.Rel{"o": o.Clone()}
		r.failures = append(r.failures, f)
	}
}

// canFail reports whether check name of in's program is one that is not
// monotone, or one that fails when the order o relates every pair of
// atoms; in's order is left empty.
func canFail(t *testing.T, in *Instance, name string) bool {
	t.Helper()
	top := relations.NewRel(in.n)
	for a := range in.n {
		for b := range in.n {
			top.Add(a, b)
		}
	}
	require.NoError(t, in.SetRel("o", top))
	in.Run()
	defer func() { require.NoError(t, in.SetRel("o", relations.NewRel(in.n))) }()
	for _, c := range in.p.checks {
		if c.check.Name == name {
			return !c.monotone || in.violated(c)
		}
	}
	return false
}

// TestSolveMatchesDepthFirst compares Solve with the plain depth-first
// search on random programs: the verdict, the choice it stops at, and (with
// witnesses) every failure with its witness and orders; without witnesses
// the checks named must be able to fail (canFail). Each instance solves
// twice, the second time from the first search's trail.
func TestSolveMatchesDepthFirst(t *testing.T) {
	orderPrograms(t, 99, programCount(300), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		ref := fullEvaluation(t, insts[0], inputs)
		require.NoError(t, ref.SetRel("o", relations.NewRel(ref.n)))
		ref.Run()
		over, _ := ref.Rel("in1")
		rs := &refSolve{in: ref, partial: ref.p.orders[0].order.Partial, seen: map[string]bool{}}
		for a, b := range over.All() {
			if a < b || (a > b && !over.Has(b, a)) {
				rs.pairs = append(rs.pairs, [2]int{min(a, b), max(a, b)})
			}
		}
		want := rs.search(0)
		wantO, _ := ref.Rel("o")
		for mi, in := range insts {
			for round, opts := range [][]SolveOption{nil, nil, {WithoutWitnesses()}, {WithoutWitnesses()}} {
				res := in.Solve(opts...)
				require.NoError(t, res.Err)
				where := evalModes[mi].name + " round " + strconv.Itoa(round) + "\nprogram:\n" + src + "\ninputs:\n" + dumpInputs(in, inputs)
				require.Equal(t, want, res.Consistent, where)
				gotO, _ := in.Rel("o")
				if want {
					require.True(t, wantO.Equal(gotO), "order %v, the depth-first search stops at %v\n%s", gotO, wantO, where)
					continue
				}
				require.True(t, gotO.IsEmpty(), "a failed search leaves the order empty, not %v\n%s", gotO, where)
				if len(opts) == 0 {
					require.Len(t, res.Failures, len(rs.failures), where)
					for k, f := range res.Failures {
						w := rs.failures[k]
						require.Equal(t, w.Name, f.Name, where)
						require.Equal(t, w.Witness, f.Witness, "check %s\n%s", f.Name, where)
						require.True(t, w.Orders["o"].Equal(f.Orders["o"]), "check %s: orders %v, want %v\n%s", f.Name, f.Orders["o"], w.Orders["o"], where)
					}
					continue
				}
				// Without witnesses the checks named are those that failed in
				// states the search tested, which need not be states the
				// depth-first search visits (forced pairs oriented together,
				// a dive's end). A monotone one then also fails when the
				// order relates every pair; the others are tested on
				// complete choices only.
				for _, f := range res.Failures {
					require.True(t, canFail(t, ref, f.Name), "check %s named, but it holds with every pair in the order\n%s", f.Name, where)
					require.Nil(t, f.Witness)
				}
			}
		}
	})
}

// TestSolveForcesPairs checks the two shapes of forcing check on an order
// whose every pair is forced: the search tests the root and the state
// after the forced pairs, and nothing else.
func TestSolveForcesPairs(t *testing.T) {
	cases := []struct {
		name, check string
	}{
		{"acyclic over a union", ".check c: acyclic(o | fixed)"},
		{"irreflexive over a composition", ".check c: irreflexive(o ; fixed)"},
		{"irreflexive over the composition the other way", ".check c: irreflexive(fixed ; o)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, ".decl pairs(x, y) .input pairs\n.decl fixed(x, y) .input fixed\n.order o over pairs\n"+c.check+"\n")
			require.Len(t, p.orders[0].forcings, 1)
			in := newInst(t, p, atomNames(8)...)
			setFacts(t, in, "pairs", allPairs(8)...)
			var chain []string
			for i := 7; i > 0; i-- {
				chain = append(chain, "a"+strconv.Itoa(i)+",a"+strconv.Itoa(i-1))
			}
			// fixed orders the atoms downwards, against the first choices.
			setFacts(t, in, "fixed", chain...)
			res := in.Solve(WithoutWitnesses())
			require.True(t, res.Consistent)
			assert2 := require.New(t)
			assert2.Equal(2, res.Nodes, "the root and the forced pairs")
			o, _ := in.Rel("o")
			assert2.Equal(28, o.Len())
			assert2.True(o.Has(atomIndex(t, in.Domain(), "a7"), atomIndex(t, in.Domain(), "a0")))
			// With witnesses, the same choice is found without forcing.
			res = in.Solve()
			assert2.True(res.Consistent)
			assert2.Greater(res.Nodes, 2)
			o2, _ := in.Rel("o")
			assert2.Equal(28, o2.Len())
		})
	}
}

// TestPlanForcingRecognisesShapes checks which checks force pairs.
func TestPlanForcingRecognisesShapes(t *testing.T) {
	cases := []struct {
		name, src string
		forcings  int
	}{
		{"union into acyclic", "let u = o | fixed\n.check c: acyclic(u)", 1},
		{"the order itself acyclic", ".check c: acyclic(o)", 1},
		{"intersection filters", ".check c: acyclic(o & fixed)", 1},
		{"composition into irreflexive", ".check c: irreflexive(o ; fixed)", 1},
		{"composition through a union", "let u = (o ; fixed) | fixed\n.check c: irreflexive(u)", 1},
		{"composition into acyclic", ".check c: acyclic(o ; fixed)", 1},
		{"inverse and difference", ".check c: acyclic((o^-1 ; fixed) \\ fixed)", 1},
		{"not monotone", ".check c: acyclic(fixed \\ o)", 0},
		{"empty check", ".check c: empty(o ; fixed)", 1},
		{"two free variables", ".decl h(x, y)\nh(X, Y) :- o(X, Y), fixed(Z, W).\n.check c: acyclic(h)", 0},
		{"a constant", ".decl h(x, y)\nh(X, Y) :- o(X, Y), fixed(X, \"k\").\n.check c: acyclic(h)", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, ".decl pairs(x, y) .input pairs\n.decl fixed(x, y) .input fixed\n.order o over pairs\n"+c.src+"\n")
			require.Len(t, p.orders[0].forcings, c.forcings)
		})
	}
	p := compileSrc(t, ".decl pairs(x, y) .input pairs\n.order o over pairs partial\n.check c: acyclic(o)\n")
	require.Empty(t, p.orders[0].forcings, "a partial order may leave a pair unrelated: nothing is forced")
}
