package rules

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relations"
)

// fuzzMaxAtoms bounds the domain (hosts plus the program's constants), and
// fuzzMaxNodes the order search, so that every input runs quickly.
const (
	fuzzMaxAtoms = 10
	fuzzMaxNodes = 500
)

// FuzzEval compiles arbitrary program text (skipping text that does not
// parse, analyse or compile), fills its inputs from bits, and runs it, its
// checks and the order search in every evaluation mode. Nothing may panic,
// and naive evaluation (and semi-naive without the closure operator) must
// agree with the default on every relation, check and search result.
func FuzzEval(f *testing.F) {
	f.Add(".decl e(x,y) .input e\nlet tc = e+\n.check c: acyclic(e)\n", uint64(1))
	f.Fuzz(fuzzEvalOne)
}

func fuzzEvalOne(t *testing.T, src string, bits uint64) {
	if len(src) > 4096 {
		return
	}
	prog, errs := datalog.LoadSource("fuzz.dl", src)
	if errs.HasErrors() {
		return
	}
	m, errs := datalog.Analyze(prog)
	if errs.HasErrors() {
		return
	}
	var progs []*Program
	failed := 0
	for _, mode := range evalModes {
		p, errs := Compile(m, mode.opts...)
		if errs.HasErrors() {
			failed++
		}
		progs = append(progs, p)
	}
	switch failed {
	case 0:
	case len(evalModes):
		return
	default:
		t.Fatalf("Compile fails in some modes only")
	}
	if len(progs[0].consts)+3 > fuzzMaxAtoms {
		return
	}
	insts := make([]*Instance, len(progs))
	for i, p := range progs {
		dom := NewDomain()
		for h := 0; h < 3; h++ {
			_, _ = dom.AddHost("h" + strconv.Itoa(h))
		}
		insts[i] = p.NewInstance(dom)
		fillInputs(t, insts[i], m, bits)
	}
	compareInstances(t, m, insts, "run")
	var results []SolveResult
	for _, in := range insts {
		nodes := 0
		results = append(results, in.Solve(WithPrune(func(*Instance) bool {
			nodes++
			return nodes > fuzzMaxNodes
		})))
	}
	for i, r := range results[1:] {
		if r.Consistent != results[0].Consistent || r.Nodes != results[0].Nodes || !sameFailures(r.Failures, results[0].Failures) {
			t.Fatalf("mode %s: Solve = %+v, default mode %+v", evalModes[i+1].name, r, results[0])
		}
	}
	compareInstances(t, m, insts, "solve")
}

// fillInputs sets every input relation from a generator seeded with bits.
func fillInputs(t *testing.T, in *Instance, m *datalog.Model, bits uint64) {
	rng := rand.New(rand.NewPCG(bits, bits>>32))
	n := in.Domain().Len()
	for _, name := range m.Inputs() {
		var err error
		switch ar := m.Relations[name].Arity; ar {
		case 1:
			s := relations.NewSet(n)
			for i := 0; i < n; i++ {
				if rng.IntN(2) == 0 {
					s.Add(i)
				}
			}
			err = in.SetSet(name, s)
		case 2:
			r := relations.NewRel(n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if rng.IntN(3) == 0 {
						r.Add(i, j)
					}
				}
			}
			err = in.SetRel(name, r)
		default:
			tu := relations.NewTuples(ar)
			for k := rng.IntN(2 * n); k > 0; k-- {
				x := make([]int, ar)
				for i := range x {
					x[i] = rng.IntN(n)
				}
				tu.Add(x)
			}
			err = in.SetTuples(name, tu)
		}
		if err != nil {
			t.Fatalf("setting %s: %v", name, err)
		}
	}
}

// compareInstances runs every instance and requires the same relations and
// checks as the first.
func compareInstances(t *testing.T, m *datalog.Model, insts []*Instance, when string) {
	t.Helper()
	for _, in := range insts {
		in.Run()
	}
	for _, name := range m.Names {
		want := engineTuples(insts[0], name)
		for i, in := range insts[1:] {
			if got := engineTuples(in, name); !slices.EqualFunc(want, got, slices.Equal) {
				t.Fatalf("%s: mode %s: %s = %v, default mode %v", when, evalModes[i+1].name, name, got, want)
			}
		}
	}
	want := insts[0].Checks()
	for i, in := range insts[1:] {
		if got := in.Checks(); !sameFailures(got, want) {
			t.Fatalf("%s: mode %s: checks %+v, default mode %+v", when, evalModes[i+1].name, got, want)
		}
	}
}

func sameFailures(a, b []CheckResult) bool {
	return slices.EqualFunc(a, b, func(x, y CheckResult) bool {
		return x.Name == y.Name && x.Holds == y.Holds && x.Rel == y.Rel && slices.Equal(x.Witness, y.Witness)
	})
}
