package rules

import "github.com/ptxmm/ptxmm/datalog"

// nodeKind is an operator of the relation-algebra plans that chain-shaped
// rule bodies compile to.
type nodeKind int

const (
	nLeaf     nodeKind = iota // a stored relation (set or binary), possibly its delta
	nCompose                  // a ; b
	nInter                    // a & b (sets or relations)
	nUnion                    // a | b
	nDiff                     // a \ b
	nInverse                  // a^-1
	nRestrict                 // [dom] ; a ; [rng], either set may be nil
	nIdent                    // [a] for a set a
	nProduct                  // a × b for sets a, b
	nDomain                   // {x | a(x, _)}
	nRange                    // {y | a(_, y)}
	nPreimage                 // {x | exists y in b: a(x, y)}
	nImage                    // {y | exists x in b: a(x, y)}
	nDropDiag                 // a minus the identity
	nKeepDiag                 // a restricted to the identity
	nDiagSet                  // {x | a(x, x)}
	nConst                    // the singleton set of a constant
	nUniverse                 // every atom
	nGuard                    // a, or nothing when b is empty
)

// node is a plan operator. Leaves name a relation and the body position of
// the atom they come from, which semi-naive evaluation uses to substitute a
// relation's delta for one occurrence at a time.
type node struct {
	kind  nodeKind
	arity int // 1 for sets, 2 for binary relations
	rel   relID
	occ   int // body index of the atom, for leaves
	a, b  *node
	dom   *node // nRestrict
	rng   *node // nRestrict
	konst int   // nConst: index into the rule's constants
}

// rulePlan is a compiled rule: either an algebraic plan (alg) or a general
// join (join), plus what stratification and semi-naive evaluation need.
type rulePlan struct {
	rule *datalog.Rule
	head relID
	alg  *node
	join *joinPlan
	// recOccs are the body indices of positive atoms of relations in the
	// rule's own stratum: the occurrences semi-naive evaluation substitutes.
	recOccs []int
	// extOccs are the body indices of positive atoms of relations outside
	// the rule's stratum: where incremental evaluation substitutes the
	// changes of a search step.
	extOccs []int
	// bodyRels[i], bodyNeg[i] describe the i-th atom of the body (comparisons
	// are skipped), for dependency analysis.
	bodyRels []relID
	bodyNeg  []bool
	// litRel[i] is the relation of body literal i (-1 for comparisons).
	litRel []relID
	// positive lists the relations of the body's positive atoms, once
	// each: when one of them is empty the rule derives nothing, whatever
	// its plan, and evaluation skips it.
	positive []relID
	// consts are the constants the rule mentions; nConst nodes and join
	// plans index into them.
	consts []Value
}

// shape describes a plan in words for tests and for "ptxmm eval -plan".
func (n *node) shape(p *Program) string {
	if n == nil {
		return "nil"
	}
	name := map[nodeKind]string{
		nCompose: "compose", nInter: "inter", nUnion: "union", nDiff: "diff", nInverse: "inverse",
		nRestrict: "restrict", nIdent: "ident", nProduct: "product", nDomain: "domain", nRange: "range",
		nPreimage: "preimage", nImage: "image", nDropDiag: "dropdiag", nKeepDiag: "keepdiag",
		nDiagSet: "diagset", nConst: "const", nUniverse: "universe", nGuard: "guard",
	}[n.kind]
	switch n.kind {
	case nLeaf:
		return p.rels[n.rel].name
	case nConst, nUniverse:
		return name
	case nRestrict:
		return name + "(" + n.dom.shape(p) + ", " + n.a.shape(p) + ", " + n.rng.shape(p) + ")"
	}
	if n.b == nil {
		return name + "(" + n.a.shape(p) + ")"
	}
	return name + "(" + n.a.shape(p) + ", " + n.b.shape(p) + ")"
}
