package synth

import "github.com/ptxmm/ptxmm/datalog"

// A union whose operands are guarded by sets, as spec.dl's incl is
// ([CTA] ; scta) | ([CLUSTER] ; sclu) | ([GPU] ; sgpu) | (SYS * ...),
// surely holds from a node what the operand its guard selects surely
// holds, whichever of them the node's order and scope select: per
// profile index the guards that surely hold the node let their operands'
// under rows through, and the union surely holds the rows every index
// lets through (ownprofile.go says why a guard read at the node's actual
// profile index holds there). Evaluated operand by operand, union by
// union, the under graph of such a union would be empty wherever no one
// guard surely holds the node.

// guarded compiles a union with some operand guarded by a set ([s] ; r
// or s * t) into an opGuard node, nil when it has none.
func (c compiler) guarded(e *datalog.Binary) *cnode {
	var ops []datalog.Expr
	var flat func(x datalog.Expr)
	flat = func(x datalog.Expr) {
		if b, ok := x.(*datalog.Binary); ok && b.Op == datalog.OpUnion {
			flat(b.L)
			flat(b.R)
			return
		}
		ops = append(ops, x)
	}
	flat(e)
	g := &cnode{op: opGuard}
	some := false
	for _, x := range ops {
		t := gterm{s: -1}
		if b, ok := x.(*datalog.Binary); ok {
			if u, ok := b.L.(*datalog.Unary); ok && b.Op == datalog.OpSeq && u.Op == datalog.OpIdent {
				t = gterm{s: c.rp.setIndex(u.X), c: c.compile(b.R)}
			} else if b.Op == datalog.OpProduct {
				t = gterm{s: c.rp.setIndex(b.L), t: c.rp.setIndex(b.R), prod: true}
			}
		}
		if t.s < 0 {
			t.c = c.compile(x)
		} else {
			some = true
		}
		g.terms = append(g.terms, t)
	}
	if !some {
		return nil
	}
	return g
}

// guarded evaluates a guarded union.
func (x *execEval) guarded(c *cnode) ival {
	over, under := x.newGraph(), x.newGraph()
	base := x.newGraph()
	type row struct {
		at   []nodeSets
		s    nodeSets
		r    ival
		t    nodeSets
		prod bool
	}
	var rows []row
	for _, t := range c.terms {
		if t.s < 0 {
			v := x.eval(t.c)
			for i := range over {
				over[i] |= v.over[i]
				base[i] |= v.under[i]
			}
			continue
		}
		w := row{at: x.setAt(t.s), s: x.set(t.s), prod: t.prod}
		if t.prod {
			w.t = x.set(t.t)
		} else {
			w.r = x.eval(t.c)
		}
		rows = append(rows, w)
	}
	for i := range over {
		bit := uint64(1) << i
		for _, w := range rows {
			if w.s.over&bit == 0 {
				continue
			}
			if w.prod {
				over[i] |= w.t.over
			} else {
				over[i] |= w.r.over[i]
			}
		}
		sure := x.p.all
		for k := 0; k < x.p.nprof; k++ {
			u := base[i]
			for _, w := range rows {
				if atIndex(w.at, k).under&bit == 0 {
					continue
				}
				if w.prod {
					u |= w.t.under
				} else {
					u |= w.r.under[i]
				}
			}
			sure &= u
		}
		under[i] = sure
	}
	return ival{over: over, under: under}
}

// ruleUnder names the relation a relation written as rules surely holds
// all of, "" if none: some rule of it reads one positive binary atom
// over the head's two variables, and otherwise only negated atoms of
// relations known empty (ms_atomic is ms less host_nonatomic, which
// holds nothing without host threads).
func ruleUnder(a *boundAnalysis, name string) string {
	for _, r := range a.rules[name] {
		if len(r.Head.Args) != 2 {
			continue
		}
		hx, hy := r.Head.Args[0], r.Head.Args[1]
		if hx.Kind != datalog.TermVar || hy.Kind != datalog.TermVar || hx.Name == hy.Name {
			continue
		}
		pos, ok := "", true
		for _, l := range r.Body {
			at, isAtom := l.(*datalog.Atom)
			switch {
			case !isAtom:
				ok = false
			case at.Negated:
				ok = ok && a.refEmpty(at.Pred)
			case pos == "" && len(at.Args) == 2 && sameVar(at.Args[0], hx) && sameVar(at.Args[1], hy) && a.m.Relations[at.Pred] != nil && a.m.Relations[at.Pred].Arity == 2:
				pos = at.Pred
			default:
				ok = false
			}
		}
		if ok && pos != "" {
			return pos
		}
	}
	return ""
}

// sameVar reports whether two terms are the same variable.
func sameVar(a, b datalog.Term) bool {
	return a.Kind == datalog.TermVar && b.Kind == datalog.TermVar && a.Name == b.Name
}
