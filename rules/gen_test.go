package rules

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ptxmm/ptxmm/relations"
)

// This file generates random valid Datalog programs for the equivalence
// test and the fuzz seeds: declarations of arity 1 to 3, rules with
// positive and negated atoms, comparisons, constants and wildcards, and
// definitions using every cat operator. Some generated programs are not
// stratifiable (a negation inside a recursion); callers skip those.

type genKind int

const (
	genInput genKind = iota
	genDerived
	genDef
	genOrder
)

type genRel struct {
	name  string
	arity int
	kind  genKind
}

type progGen struct {
	rng    *rand.Rand
	rels   []genRel
	consts []string
	b      strings.Builder
}

// genProgram returns a random program and its input relations.
func genProgram(rng *rand.Rand) (string, []genRel) { return genProgramWith(rng, false) }

// genOrderProgram is genProgram with an order o over the binary input in1
// that the rules and checks may read, and checks of the shapes that force
// pairs of an order (forced.go) besides the random ones.
func genOrderProgram(rng *rand.Rand) (string, []genRel) { return genProgramWith(rng, true) }

func genProgramWith(rng *rand.Rand, withOrder bool) (string, []genRel) {
	g := &progGen{rng: rng}
	all := []string{`"k"`, `"m"`, "1", "2", "-3"}
	for _, c := range all {
		if rng.IntN(3) > 0 {
			g.consts = append(g.consts, c)
		}
	}
	if len(g.consts) == 0 {
		g.consts = []string{`"k"`}
	}
	nIn := 2 + rng.IntN(2)
	for i := 0; i < nIn; i++ {
		ar := 1 + rng.IntN(3)
		if i < 2 {
			ar = i + 1 // at least one set and one binary relation
		}
		g.rels = append(g.rels, genRel{fmt.Sprintf("in%d", i), ar, genInput})
	}
	nDer := 1 + rng.IntN(4)
	for i := 0; i < nDer; i++ {
		ar := []int{1, 1, 2, 2, 2, 3}[rng.IntN(6)]
		g.rels = append(g.rels, genRel{fmt.Sprintf("d%d", i), ar, genDerived})
	}
	nDef := rng.IntN(4)
	for i := 0; i < nDef; i++ {
		g.rels = append(g.rels, genRel{fmt.Sprintf("f%d", i), 1 + rng.IntN(2), genDef})
	}
	if withOrder {
		g.rels = append(g.rels, genRel{"o", 2, genOrder})
		partial := ""
		if rng.IntN(4) == 0 {
			partial = " partial"
		}
		fmt.Fprintf(&g.b, ".order o over in1%s\n", partial)
	}
	var inputs []genRel
	for _, r := range g.rels {
		if r.kind == genOrder {
			continue
		}
		cols := make([]string, r.arity)
		for i := range cols {
			cols[i] = fmt.Sprintf("c%d", i)
		}
		fmt.Fprintf(&g.b, ".decl %s(%s)\n", r.name, strings.Join(cols, ", "))
		if r.kind == genInput {
			fmt.Fprintf(&g.b, ".input %s\n", r.name)
			inputs = append(inputs, r)
		}
	}
	for _, r := range g.rels {
		switch r.kind {
		case genDerived:
			n := 1 + rng.IntN(3)
			for i := 0; i < n; i++ {
				if rng.IntN(10) == 0 {
					g.fact(r)
				} else {
					g.rule(r)
				}
			}
		case genDef:
			fmt.Fprintf(&g.b, "let %s = %s\n", r.name, g.expr(r.arity, 3))
		}
	}
	if withOrder {
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&g.b, ".check ka: acyclic(o | %s)\n", g.expr(2, 2))
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&g.b, ".check kf: irreflexive(o ; %s)\n", g.expr(2, 2))
		}
	}
	for i, n := 0, rng.IntN(3); i < n; i++ {
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&g.b, ".check k%d: acyclic(%s)\n", i, g.expr(2, 2))
		case 1:
			fmt.Fprintf(&g.b, ".check k%d: irreflexive(%s)\n", i, g.expr(2, 2))
		default:
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&g.b, ".check k%d: empty(%s)\n", i, g.pick(g.rels).name)
			} else {
				fmt.Fprintf(&g.b, ".check k%d: empty(%s)\n", i, g.expr(1+rng.IntN(2), 2))
			}
		}
	}
	return g.b.String(), inputs
}

func (g *progGen) pick(rs []genRel) genRel { return rs[g.rng.IntN(len(rs))] }

func (g *progGen) konst() string { return g.consts[g.rng.IntN(len(g.consts))] }

func (g *progGen) withArity(ar int) []genRel {
	var out []genRel
	for _, r := range g.rels {
		if r.arity == ar {
			out = append(out, r)
		}
	}
	return out
}

func (g *progGen) fact(r genRel) {
	args := make([]string, r.arity)
	for i := range args {
		args[i] = g.konst()
	}
	fmt.Fprintf(&g.b, "%s(%s).\n", r.name, strings.Join(args, ", "))
}

// rule writes a random range-restricted rule for head.
func (g *progGen) rule(head genRel) {
	rng := g.rng
	vars := []string{"X", "Y", "Z", "W"}[:2+rng.IntN(3)]
	bound := map[string]bool{}
	var boundList []string
	bind := func(v string) {
		if !bound[v] {
			bound[v] = true
			boundList = append(boundList, v)
		}
	}
	var lits []string
	npos := 1 + rng.IntN(3)
	for i := 0; i < npos; i++ {
		r := g.pick(g.rels)
		args := make([]string, r.arity)
		for j := range args {
			switch p := rng.IntN(100); {
			case p < 12:
				args[j] = "_"
			case p < 22:
				args[j] = g.konst()
			default:
				args[j] = vars[rng.IntN(len(vars))]
			}
		}
		for _, a := range args {
			if a[0] >= 'A' && a[0] <= 'Z' {
				bind(a)
			}
		}
		lits = append(lits, fmt.Sprintf("%s(%s)", r.name, strings.Join(args, ", ")))
	}
	boundTerm := func() string {
		if len(boundList) == 0 || rng.IntN(5) == 0 {
			return g.konst()
		}
		return boundList[rng.IntN(len(boundList))]
	}
	// A variable bound only through an equality.
	if rng.IntN(6) == 0 && len(boundList) > 0 {
		src := boundTerm()
		lits = append(lits, "V = "+src)
		bind("V")
	}
	for i, n := 0, rng.IntN(3); i < n && rng.IntN(2) == 0; i++ {
		r := g.pick(g.rels)
		args := make([]string, r.arity)
		for j := range args {
			if rng.IntN(4) == 0 {
				args[j] = "_"
			} else {
				args[j] = boundTerm()
			}
		}
		lits = append(lits, fmt.Sprintf("!%s(%s)", r.name, strings.Join(args, ", ")))
	}
	for i, n := 0, rng.IntN(3); i < n && rng.IntN(2) == 0; i++ {
		op := "="
		if rng.IntN(2) == 0 {
			op = "!="
		}
		lits = append(lits, boundTerm()+" "+op+" "+boundTerm())
	}
	args := make([]string, head.arity)
	for i := range args {
		args[i] = boundTerm()
	}
	rng.Shuffle(len(lits), func(i, j int) { lits[i], lits[j] = lits[j], lits[i] })
	fmt.Fprintf(&g.b, "%s(%s) :- %s.\n", head.name, strings.Join(args, ", "), strings.Join(lits, ", "))
}

// expr writes a random cat expression of the given arity (1 or 2).
func (g *progGen) expr(ar, depth int) string {
	rng := g.rng
	if depth == 0 || rng.IntN(4) == 0 {
		return g.leaf(ar)
	}
	d := depth - 1
	if ar == 2 {
		switch rng.IntN(14) {
		case 0:
			return "(" + g.expr(2, d) + " | " + g.expr(2, d) + ")"
		case 1:
			return "(" + g.expr(2, d) + " & " + g.expr(2, d) + ")"
		case 2:
			return "(" + g.expr(2, d) + ` \ ` + g.expr(2, d) + ")"
		case 3:
			return "(" + g.expr(2, d) + " ; " + g.expr(2, d) + ")"
		case 4:
			return "((" + g.expr(2, d) + ")+)"
		case 5:
			return "((" + g.expr(2, d) + ")*)"
		case 6:
			return "((" + g.expr(2, d) + ")?)"
		case 7:
			return "((" + g.expr(2, d) + ")^-1)"
		case 8:
			return "(~(" + g.expr(2, d) + "))"
		case 9:
			return "[" + g.expr(1, d) + "]"
		case 10:
			return "(" + g.expr(1, d) + " * " + g.expr(1, d) + ")"
		case 11:
			op := []string{"|", "&", `\`, ";"}[rng.IntN(4)]
			return "(" + g.expr(2, d) + " " + op + " _)"
		case 12:
			return "(_ ; " + g.expr(2, d) + ")"
		default:
			// Unparenthesised, to exercise precedence.
			ops := []string{"|", ";", `\`, "&"}
			return "(" + g.leaf(2) + " " + ops[rng.IntN(4)] + " " + g.leaf(2) + " " + ops[rng.IntN(4)] + " " + g.leaf(2) + ")"
		}
	}
	switch rng.IntN(8) {
	case 0:
		return "(" + g.expr(1, d) + " | " + g.expr(1, d) + ")"
	case 1:
		return "(" + g.expr(1, d) + " & " + g.expr(1, d) + ")"
	case 2:
		return "(" + g.expr(1, d) + ` \ ` + g.expr(1, d) + ")"
	case 3:
		return "(~(" + g.expr(1, d) + "))"
	case 4:
		return "domain(" + g.expr(2, d) + ")"
	case 5:
		return "range(" + g.expr(2, d) + ")"
	case 6:
		return "(" + g.expr(1, d) + " & _)"
	default:
		return "domain([" + g.expr(1, d) + "])"
	}
}

func (g *progGen) leaf(ar int) string {
	rs := g.withArity(ar)
	if len(rs) == 0 {
		// Inputs always include a set and a binary relation.
		panic("no relation of arity " + fmt.Sprint(ar))
	}
	// Prefer inputs, so that fewer programs recurse through a negation.
	if g.rng.IntN(2) == 0 {
		var in []genRel
		for _, r := range rs {
			if r.kind == genInput {
				in = append(in, r)
			}
		}
		if len(in) > 0 {
			return g.pick(in).name
		}
	}
	return g.pick(rs).name
}

// genInputs fills every input relation with random tuples over the whole
// domain (host atoms and constants alike). Sparse inputs give each atom a
// few successors in binary relations, as the relations of an execution
// have, rather than a fixed fraction of all pairs.
func genInputs(rng *rand.Rand, in *Instance, inputs []genRel, sparse bool) error {
	n := in.Domain().Len()
	for _, r := range inputs {
		if err := genInput1(rng, in, r, n, sparse); err != nil {
			return err
		}
	}
	return nil
}

func genInput1(rng *rand.Rand, in *Instance, r genRel, n int, sparse bool) error {
	switch r.arity {
	case 1:
		s := relations.NewSet(n)
		for i := 0; i < n; i++ {
			if rng.IntN(5) < 2 {
				s.Add(i)
			}
		}
		return in.SetSet(r.name, s)
	case 2:
		rel := relations.NewRel(n)
		for i := 0; i < n; i++ {
			if sparse {
				for k := rng.IntN(3); k > 0; k-- {
					rel.Add(i, rng.IntN(n))
				}
				continue
			}
			for j := 0; j < n; j++ {
				if rng.IntN(4) == 0 {
					rel.Add(i, j)
				}
			}
		}
		return in.SetRel(r.name, rel)
	default:
		t := relations.NewTuples(r.arity)
		for k := rng.IntN(3 * n); k > 0; k-- {
			tu := make([]int, r.arity)
			for i := range tu {
				tu[i] = rng.IntN(n)
			}
			t.Add(tu)
		}
		return in.SetTuples(r.name, t)
	}
}
