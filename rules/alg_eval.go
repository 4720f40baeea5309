package rules

import (
	"github.com/ptxmm/ptxmm/relations"
)

// value is the result of evaluating a plan node: a set or a binary relation,
// owned (a scratch relation from the pool, free to modify and to return) or
// borrowed (a stored relation, read-only).
type value struct {
	set   *relations.Set
	rel   *relations.Rel
	owned bool
}

func (in *Instance) release(v value) {
	if !v.owned {
		return
	}
	if v.set != nil {
		in.pool.putSet(v.set)
	} else {
		in.pool.putRel(v.rel)
	}
}

// own returns a modifiable copy of v, reusing v itself when it is owned.
func (in *Instance) own(v value) value {
	if v.owned {
		return v
	}
	if v.set != nil {
		s := in.pool.set()
		s.CopyFrom(v.set)
		return value{set: s, owned: true}
	}
	r := in.pool.rel()
	r.CopyFrom(v.rel)
	return value{rel: r, owned: true}
}

// evalNode evaluates a plan; the leaf whose body index is deltaOcc reads
// its relation's delta instead of the full relation.
func (in *Instance) evalNode(n *node, rp *rulePlan, deltaOcc int) value {
	switch n.kind {
	case nLeaf:
		st := in.stores[n.rel]
		if n.occ == deltaOcc {
			st = in.delta[n.rel]
		}
		return value{set: st.set, rel: st.rel}
	case nUniverse:
		return value{set: in.stores[in.universe].set}
	case nConst:
		s := in.pool.set()
		s.Add(in.ruleConsts[rp][n.konst])
		return value{set: s, owned: true}
	case nGuard:
		g := in.evalNode(n.b, rp, deltaOcc)
		empty := (g.set != nil && g.set.IsEmpty()) || (g.rel != nil && g.rel.IsEmpty())
		in.release(g)
		if empty {
			if n.arity == 1 {
				return value{set: in.pool.set(), owned: true}
			}
			return value{rel: in.pool.rel(), owned: true}
		}
		return in.evalNode(n.a, rp, deltaOcc)
	case nCompose:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.rel()
		relations.ComposeInto(dst, a.rel, b.rel)
		in.release(a)
		in.release(b)
		return value{rel: dst, owned: true}
	case nInter, nUnion, nDiff:
		a := in.own(in.evalNode(n.a, rp, deltaOcc))
		b := in.evalNode(n.b, rp, deltaOcc)
		if a.set != nil {
			switch n.kind {
			case nInter:
				a.set.IntersectWith(b.set)
			case nUnion:
				a.set.UnionWith(b.set)
			default:
				a.set.DifferenceWith(b.set)
			}
		} else {
			switch n.kind {
			case nInter:
				a.rel.IntersectWith(b.rel)
			case nUnion:
				a.rel.UnionWith(b.rel)
			default:
				a.rel.DifferenceWith(b.rel)
			}
		}
		in.release(b)
		return a
	case nInverse:
		a := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.rel()
		relations.InverseInto(dst, a.rel)
		in.release(a)
		return value{rel: dst, owned: true}
	case nRestrict:
		a := in.own(in.evalNode(n.a, rp, deltaOcc))
		if n.dom != nil {
			d := in.evalNode(n.dom, rp, deltaOcc)
			a.rel.RestrictDomain(d.set)
			in.release(d)
		}
		if n.rng != nil {
			r := in.evalNode(n.rng, rp, deltaOcc)
			a.rel.RestrictRange(r.set)
			in.release(r)
		}
		return a
	case nIdent:
		s := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.rel()
		for i := range s.set.All() {
			dst.Add(i, i)
		}
		in.release(s)
		return value{rel: dst, owned: true}
	case nProduct:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.rel()
		for i := range a.set.All() {
			dst.Row(i).InPlaceUnion(b.set.Bits())
		}
		in.release(a)
		in.release(b)
		return value{rel: dst, owned: true}
	case nDomain, nRange:
		a := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.set()
		if n.kind == nDomain {
			a.rel.DomainInto(dst)
		} else {
			a.rel.RangeInto(dst)
		}
		in.release(a)
		return value{set: dst, owned: true}
	case nPreimage:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.set()
		bits := b.set.Bits()
		for i := 0; i < in.n; i++ {
			if a.rel.Row(i).IntersectionCardinality(bits) > 0 {
				dst.Add(i)
			}
		}
		in.release(a)
		in.release(b)
		return value{set: dst, owned: true}
	case nImage:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.set()
		relations.ImageInto(dst, b.set, a.rel)
		in.release(a)
		in.release(b)
		return value{set: dst, owned: true}
	case nDropDiag, nKeepDiag:
		a := in.own(in.evalNode(n.a, rp, deltaOcc))
		for i := 0; i < in.n; i++ {
			if n.kind == nDropDiag {
				a.rel.Remove(i, i)
			} else if a.rel.Has(i, i) {
				row := a.rel.Row(i)
				row.ClearAll()
				row.Set(uint(i))
			} else {
				a.rel.Row(i).ClearAll()
			}
		}
		return a
	case nDiagSet:
		a := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.set()
		for i := 0; i < in.n; i++ {
			if a.rel.Has(i, i) {
				dst.Add(i)
			}
		}
		in.release(a)
		return value{set: dst, owned: true}
	}
	panic("rules: unknown plan node")
}

// evalRuleInto evaluates a rule and adds its tuples to dst.
func (in *Instance) evalRuleInto(rp *rulePlan, deltaOcc int, dst store) {
	if rp.join != nil {
		in.evalJoin(rp, deltaOcc, dst)
		return
	}
	v := in.evalNode(rp.alg, rp, deltaOcc)
	if in.record != nil {
		in.recordValue(rp, v, dst)
	}
	if v.set != nil {
		dst.set.UnionWith(v.set)
	} else {
		dst.rel.UnionWith(v.rel)
	}
	in.release(v)
}

// recordValue reports the tuples a rule derives that dst does not hold yet.
func (in *Instance) recordValue(rp *rulePlan, v value, dst store) {
	if v.set != nil {
		for i := range v.set.All() {
			if !dst.set.Has(i) {
				in.record(rp, rp.head, []int{i})
			}
		}
		return
	}
	for i, j := range v.rel.All() {
		if !dst.rel.Has(i, j) {
			in.record(rp, rp.head, []int{i, j})
		}
	}
}
