package rules

import "github.com/ptxmm/ptxmm/datalog"

// The join plan is the fallback for rule bodies the algebra does not cover
// (cycles of variables, relations of arity three or more, constants in the
// head, facts). It binds variables atom by atom, most-bound atom first,
// testing negated atoms and comparisons once their variables are bound.

type argKind int

const (
	argVar argKind = iota
	argConst
	argWild
)

type joinArg struct {
	kind  argKind
	slot  int // argVar: the variable's slot
	konst int // argConst: index into the rule's constants
}

type joinAtom struct {
	rel     relID
	args    []joinArg
	negated bool
	occ     int // body index
}

type joinCmp struct {
	neq  bool
	l, r joinArg
}

type joinPlan struct {
	head   []joinArg
	atoms  []joinAtom // positive atoms, in binding order
	negs   []joinAtom
	cmps   []joinCmp
	nslots int
	// assigns bind, once the positive atoms are matched, the variables that
	// only an equality binds ("p(X), Y = X"), in dependency order.
	assigns []joinAssign
}

// joinAssign sets a variable's slot from a bound term.
type joinAssign struct {
	slot int
	from joinArg
}

func compileJoin(p *Program, rp *rulePlan) *joinPlan {
	r := rp.rule
	jp := &joinPlan{}
	slots := map[string]int{}
	arg := func(t datalog.Term) joinArg {
		switch t.Kind {
		case datalog.TermVar:
			s, ok := slots[t.Name]
			if !ok {
				s = len(slots)
				slots[t.Name] = s
			}
			return joinArg{kind: argVar, slot: s}
		case datalog.TermWildcard:
			return joinArg{kind: argWild}
		default:
			return joinArg{kind: argConst, konst: rp.constIndex(t)}
		}
	}
	var pos []joinAtom
	for i, l := range r.Body {
		switch l := l.(type) {
		case *datalog.Atom:
			ja := joinAtom{rel: p.byName[l.Pred], negated: l.Negated, occ: i}
			for _, t := range l.Args {
				ja.args = append(ja.args, arg(t))
			}
			if l.Negated {
				jp.negs = append(jp.negs, ja)
			} else {
				pos = append(pos, ja)
			}
		case *datalog.Compare:
			jp.cmps = append(jp.cmps, joinCmp{neq: l.Op == "!=", l: arg(l.L), r: arg(l.R)})
		}
	}
	for _, t := range r.Head.Args {
		jp.head = append(jp.head, arg(t))
	}
	jp.nslots = len(slots)
	// Greedy binding order: next the atom with the most bound arguments,
	// which keeps the search narrow.
	bound := make([]bool, jp.nslots)
	for len(pos) > 0 {
		best, bestScore := 0, -1
		for i, a := range pos {
			score := 0
			for _, x := range a.args {
				if x.kind == argConst || (x.kind == argVar && bound[x.slot]) {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		a := pos[best]
		for _, x := range a.args {
			if x.kind == argVar {
				bound[x.slot] = true
			}
		}
		jp.atoms = append(jp.atoms, a)
		pos = append(pos[:best], pos[best+1:]...)
	}
	// Variables bound only by an equality with a bound term get their value
	// from it; analysis guarantees every variable is bound one way or the
	// other, so the fixpoint binds them all.
	isBound := func(a joinArg) bool { return a.kind == argConst || (a.kind == argVar && bound[a.slot]) }
	for changed := true; changed; {
		changed = false
		for _, c := range jp.cmps {
			if c.neq {
				continue
			}
			for _, lr := range [][2]joinArg{{c.l, c.r}, {c.r, c.l}} {
				dst, src := lr[0], lr[1]
				if dst.kind == argVar && !bound[dst.slot] && isBound(src) {
					bound[dst.slot] = true
					jp.assigns = append(jp.assigns, joinAssign{slot: dst.slot, from: src})
					changed = true
				}
			}
		}
	}
	return jp
}
