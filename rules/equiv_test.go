package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/stretchr/testify/require"
)

// TestEquivalenceRandomPrograms evaluates random programs on random inputs
// in every mode (semi-naive with the closure operator, semi-naive without
// it, naive) and with the reference evaluator, and requires the same
// contents for every relation and the same check results. Each program
// runs three rounds on the same instances, changing some inputs between
// rounds, so incremental re-evaluation is compared with evaluation from
// scratch.
func TestEquivalenceRandomPrograms(t *testing.T) {
	programs := 600
	if testing.Short() {
		programs = 100
	}
	runEquivalence(t, programs, equivConfig{seed: 20240611, minHosts: 2, maxHosts: 5})
}

// TestEquivalenceLargeDomain is the same comparison over 65 to 140 atoms,
// so that rows span several 64-bit words, with sparse inputs; programs too
// expensive for the reference evaluator are skipped.
func TestEquivalenceLargeDomain(t *testing.T) {
	programs := 60
	if testing.Short() {
		programs = 15
	}
	runEquivalence(t, programs, equivConfig{seed: 77, minHosts: 65, maxHosts: 140, sparse: true, budget: 400_000})
}

type equivConfig struct {
	seed               uint64
	minHosts, maxHosts int
	sparse             bool
	budget             int // reference evaluator's budget (0: none)
}

func runEquivalence(t *testing.T, programs int, cfg equivConfig) {
	rng := rand.New(rand.NewPCG(cfg.seed, 7))
	tested, skipped := 0, map[string]int{}
	for tested < programs {
		src, inputs := genProgram(rng)
		why := equivOne(t, src, inputs, rng.Uint64(), cfg)
		if t.Failed() {
			return
		}
		if why == "" {
			tested++
		} else {
			skipped[why]++
		}
		require.Less(t, skipped["unstratifiable"]+skipped["expensive"], 4*programs, "too few programs can be compared")
	}
	t.Logf("%d programs compared, skipped: %v", tested, skipped)
}

// equivOne checks one program; it returns why it skipped the program:
// "unstratifiable" (after checking that the reference agrees), "expensive"
// (over the reference's budget), or "" once compared.
func equivOne(t *testing.T, src string, inputs []genRel, seed uint64, cfg equivConfig) string {
	t.Helper()
	m, msg := loadModel(src)
	require.Empty(t, msg, "the generator made an invalid program:\n%s", src)
	progs := make([]*Program, len(evalModes))
	for i, mode := range evalModes {
		p, errs := Compile(m, mode.opts...)
		if errs.HasErrors() {
			require.Contains(t, errs.Quoted(), "negation inside a recursive cycle", "%s\n%s", src, errs.Quoted())
			_, err := refEval(m, NewDomain(), refDB{})
			require.Error(t, err, "the reference stratifies what Compile rejects:\n%s", src)
			return "unstratifiable"
		}
		progs[i] = p
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	nHosts := cfg.minHosts + rng.IntN(cfg.maxHosts-cfg.minHosts+1)
	insts := hostInstances(progs, nHosts)
	dom := insts[0].Domain()
	for round := 0; round < 3; round++ {
		// Choose the inputs to change (all of them in the first round) and
		// give every instance the same tuples.
		var change []genRel
		for _, r := range inputs {
			if round == 0 || rng.IntN(2) == 0 {
				change = append(change, r)
			}
		}
		inputSeed := rng.Uint64()
		for _, in := range insts {
			require.NoError(t, genInputs(rand.New(rand.NewPCG(inputSeed, 2)), in, change, cfg.sparse))
			in.Run()
		}
		ins := refDB{}
		for _, r := range inputs {
			ins[r.name] = refRel{}
			for _, tu := range engineTuples(insts[0], r.name) {
				ins[r.name][toRef(tu)] = true
			}
		}
		ref, err := refEvalBudget(m, dom, ins, cfg.budget)
		if err == errRefBudget {
			return "expensive"
		}
		require.NoError(t, err, "the reference cannot stratify what Compile accepted:\n%s", src)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("round %d: %s\nprogram:\n%s\ninputs:\n%s", round, fmt.Sprintf(format, args...), src, dumpInputs(insts[0], inputs))
		}
		for _, name := range m.Names {
			ar := m.Relations[name].Arity
			want := refTuples(ref[name], ar)
			for i, in := range insts {
				got := engineTuples(in, name)
				if !slices.EqualFunc(want, got, slices.Equal) {
					fail("mode %s: relation %s = %v, the reference has %v", evalModes[i].name, name, got, want)
				}
			}
		}
		base := insts[0].Checks()
		for i, in := range insts {
			res := in.Checks()
			for k, c := range res {
				chk := m.Checks[k]
				holds, cycleLen := refCheck(chk, ref[chk.Rel], dom.Len())
				if c.Holds != holds {
					fail("mode %s: check %s holds=%v, the reference says %v", evalModes[i].name, c.Name, c.Holds, holds)
				}
				if !slices.Equal(c.Witness, base[k].Witness) {
					fail("check %s: witness %v in mode %s, %v in mode %s", c.Name, c.Witness, evalModes[i].name, base[k].Witness, evalModes[0].name)
				}
				if !holds {
					checkWitness(t, chk, c.Witness, ref[chk.Rel], m.Relations[chk.Rel].Arity, cycleLen, fail)
				}
			}
		}
	}
	return ""
}

// hostInstances makes an instance of each program over nHosts host atoms
// h0, h1, ...
func hostInstances(progs []*Program, nHosts int) []*Instance {
	insts := make([]*Instance, len(progs))
	for i, p := range progs {
		dom := NewDomain()
		for h := 0; h < nHosts; h++ {
			_, _ = dom.AddHost("h" + strconv.Itoa(h))
		}
		insts[i] = p.NewInstance(dom)
	}
	return insts
}

// checkWitness validates a failing check's witness against the reference
// relation: the smallest reflexive atom, the smallest tuple, or a cycle of
// the shortest length.
func checkWitness(t *testing.T, c *datalog.Check, w []int, r refRel, arity, cycleLen int, fail func(string, ...any)) {
	t.Helper()
	switch c.Kind {
	case datalog.CheckEmpty:
		if !slices.Equal(w, refTuples(r, arity)[0]) {
			fail("check %s: witness %v is not the smallest tuple", c.Name, w)
		}
	case datalog.CheckIrreflexive:
		smallest := -1
		for tu := range r {
			if tu[0] == tu[1] && (smallest < 0 || tu[0] < smallest) {
				smallest = tu[0]
			}
		}
		if !slices.Equal(w, []int{smallest}) {
			fail("check %s: witness %v, want [%d]", c.Name, w, smallest)
		}
	case datalog.CheckAcyclic:
		if len(w) != cycleLen {
			fail("check %s: cycle %v is not of the shortest length %d", c.Name, w, cycleLen)
		}
		for i := range w {
			if !r[toRef([]int{w[i], w[(i+1)%len(w)]})] {
				fail("check %s: %v is not a cycle", c.Name, w)
			}
		}
	}
}

func dumpInputs(in *Instance, inputs []genRel) string {
	var b strings.Builder
	for _, r := range inputs {
		fmt.Fprintf(&b, "%s = {", r.name)
		for i, tu := range engineTuples(in, r.name) {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString("(" + fmtTuple(in.Domain(), tu) + ")")
		}
		b.WriteString("}\n")
	}
	return b.String()
}
