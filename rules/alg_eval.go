package rules

import (
	"math/bits"

	"github.com/ptxmm/ptxmm/relations"
)

// value is the result of evaluating a plan node: a set or a binary relation,
// owned (a scratch relation from the pool, free to modify and to return) or
// borrowed (a stored relation, read-only).
type value struct {
	set   *relations.Set
	rel   *relations.Rel
	owned bool
	// sparse is set when rows lists, each once, every row of rel that may
	// be non-empty, so that operators visit those rows only. An owned value
	// owns its list (from the pool); a borrowed one shares a delta's.
	sparse bool
	rows   []int32
	// view, when set, holds the row views of rel (a tracked store's).
	view [][]uint64
	// track is the row tracker of a borrowed delta, whose spans let a
	// composition skip the zero words of its rows.
	track *rowTrack
}

func (in *Instance) release(v value) {
	if !v.owned {
		return
	}
	switch {
	case v.set != nil:
		in.pool.putSet(v.set)
	case v.sparse:
		in.pool.putRelRows(v.rel, in.view(v.rel), v.rows)
		in.putRows(v)
	default:
		in.pool.putRel(v.rel)
	}
}

// putRows gives an owned value's row list back to the pool.
func (in *Instance) putRows(v value) {
	if v.rows != nil {
		in.pool.putRowList(v.rows)
	}
}

// densify forgets which rows of an owned value are non-empty.
func (in *Instance) densify(v *value) {
	if v.sparse {
		in.putRows(*v)
		v.sparse, v.rows = false, nil
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
	if v.sparse {
		rows := in.pool.rowList()
		rv, vv := in.view(r), in.viewOf(v)
		for _, i := range v.rows {
			copy(rv[i], vv[i])
			rows = append(rows, i)
		}
		return value{rel: r, owned: true, sparse: true, rows: rows}
	}
	r.CopyFrom(v.rel)
	return value{rel: r, owned: true}
}

// forRows calls f on the rows of a binary value that may be non-empty.
func (in *Instance) forRows(v value, f func(i int)) {
	if v.sparse {
		for _, i := range v.rows {
			f(int(i))
		}
		return
	}
	for i := 0; i < in.n; i++ {
		f(i)
	}
}

// evalNode evaluates a plan; the leaf whose body index is deltaOcc reads
// its relation's delta instead of the full relation.
func (in *Instance) evalNode(n *node, rp *rulePlan, deltaOcc int) value {
	switch n.kind {
	case nLeaf:
		st := in.stores[n.rel]
		if n.occ == deltaOcc {
			st = in.deltaStore(n.rel)
		}
		if st.track != nil {
			return value{rel: st.rel, sparse: true, rows: st.track.rows, track: st.track, view: st.track.view}
		}
		if st.rel != nil {
			return value{rel: st.rel, view: in.storeRows(n.rel, st)}
		}
		return value{set: st.set}
	case nUniverse:
		return value{set: in.stores[in.universe].set}
	case nConst:
		s := in.pool.set()
		s.Add(in.ruleConsts[rp][n.konst])
		return value{set: s, owned: true}
	case nGuard:
		g := in.evalNode(n.b, rp, deltaOcc)
		empty := (g.set != nil && g.set.IsEmpty()) || (g.rel != nil && !g.sparse && g.rel.IsEmpty())
		if g.sparse {
			empty = true
			for _, i := range g.rows {
				empty = empty && zeroRow(rowWords(g.rel, int(i)))
			}
		}
		in.release(g)
		if empty {
			if n.arity == 1 {
				return value{set: in.pool.set(), owned: true}
			}
			return value{rel: in.pool.rel(), owned: true, sparse: true}
		}
		return in.evalNode(n.a, rp, deltaOcc)
	case nCompose:
		if n.a.kind == nInverse {
			return in.composeInverse(n, rp, deltaOcc)
		}
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.rel()
		v := value{rel: dst, owned: true}
		if a.sparse || in.n >= pollComposeAtoms {
			// On large domains the composition goes row by row here, where
			// the deadline is polled, rather than in one relations call.
			v.sparse, v.rows = true, in.pool.rowList()
			in.composeRows(in.view(dst), a, in.viewOf(b), in.storeSpans(n.b, deltaOcc), nil, &v.rows)
		} else {
			relations.ComposeInto(dst, a.rel, b.rel)
		}
		in.release(a)
		in.release(b)
		return v
	case nInter, nUnion, nDiff:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		if n.kind == nInter && b.sparse && !a.sparse {
			// The intersection is a copy of one operand filtered by the
			// other: copying the one with rows listed visits only those
			// (ms & rf copies rf's rows, not every row of ms).
			a, b = b, a
		}
		a = in.own(a)
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
			in.combine(n.kind, &a, b)
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
			if a.sparse {
				for _, i := range a.rows {
					if !d.set.Has(int(i)) {
						clear(rowWords(a.rel, int(i)))
					}
				}
			} else {
				a.rel.RestrictDomain(d.set)
			}
			in.release(d)
		}
		if n.rng != nil {
			r := in.evalNode(n.rng, rp, deltaOcc)
			if a.sparse {
				mask := r.set.Bits().Words()
				for _, i := range a.rows {
					row := rowWords(a.rel, int(i))
					for k := range row {
						row[k] &= mask[k]
					}
				}
			} else {
				a.rel.RestrictRange(r.set)
			}
			in.release(r)
		}
		return a
	case nIdent, nProduct:
		a := in.evalNode(n.a, rp, deltaOcc)
		var b value
		if n.kind == nProduct {
			b = in.evalNode(n.b, rp, deltaOcc)
		}
		dst := in.pool.rel()
		rows := in.pool.rowList()
		for i := range a.set.All() {
			if n.kind == nIdent {
				dst.Add(i, i)
			} else {
				copy(rowWords(dst, i), b.set.Bits().Words())
			}
			rows = append(rows, int32(i))
		}
		in.release(a)
		if n.kind == nProduct {
			in.release(b)
		}
		return value{rel: dst, owned: true, sparse: true, rows: rows}
	case nDomain, nRange:
		a := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.set()
		switch {
		case !a.sparse && n.kind == nDomain:
			a.rel.DomainInto(dst)
		case !a.sparse:
			a.rel.RangeInto(dst)
		case n.kind == nDomain:
			for _, i := range a.rows {
				if !zeroRow(rowWords(a.rel, int(i))) {
					dst.Add(int(i))
				}
			}
		default:
			words := dst.Bits().Words()
			for _, i := range a.rows {
				orRow(words, rowWords(a.rel, int(i)))
			}
		}
		in.release(a)
		return value{set: dst, owned: true}
	case nPreimage:
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		dst := in.pool.set()
		bits := b.set.Bits()
		in.forRows(a, func(i int) {
			if a.rel.Row(i).IntersectionCardinality(bits) > 0 {
				dst.Add(i)
			}
		})
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
		in.forRows(a, func(i int) {
			if n.kind == nDropDiag {
				a.rel.Remove(i, i)
			} else if a.rel.Has(i, i) {
				row := a.rel.Row(i)
				row.ClearAll()
				row.Set(uint(i))
			} else {
				a.rel.Row(i).ClearAll()
			}
		})
		return a
	case nDiagSet:
		a := in.evalNode(n.a, rp, deltaOcc)
		dst := in.pool.set()
		in.forRows(a, func(i int) {
			if a.rel.Has(i, i) {
				dst.Add(i)
			}
		})
		in.release(a)
		return value{set: dst, owned: true}
	}
	panic("rules: unknown plan node")
}

// combine applies a binary set operator to an owned relation a and b.
func (in *Instance) combine(kind nodeKind, a *value, b value) {
	switch {
	case a.sparse && kind != nUnion:
		// Rows of a that are empty stay empty.
		av, bv := in.view(a.rel), in.viewOf(b)
		for _, i := range a.rows {
			ar, br := av[i], bv[i]
			br = br[:len(ar)]
			if kind == nInter {
				for k := range ar {
					ar[k] &= br[k]
				}
			} else {
				for k := range ar {
					ar[k] &^= br[k]
				}
			}
		}
	case a.sparse && b.sparse:
		mark := in.rowMarks()
		for _, i := range a.rows {
			mark[i] = true
		}
		own := len(a.rows)
		av, bv := in.view(a.rel), in.viewOf(b)
		for _, i := range b.rows {
			orRow(av[i], bv[i])
			if !mark[i] {
				a.rows = append(a.rows, i)
			}
		}
		for _, i := range a.rows[:own] {
			mark[i] = false
		}
	default:
		in.densify(a)
		switch kind {
		case nInter:
			a.rel.IntersectWith(b.rel)
		case nUnion:
			a.rel.UnionWith(b.rel)
		default:
			a.rel.DifferenceWith(b.rel)
		}
	}
}

// evalRuleInto evaluates a rule and adds its tuples to dst.
func (in *Instance) evalRuleInto(rp *rulePlan, deltaOcc int, dst store) {
	for _, r := range rp.positive {
		if in.emptyRel(r) {
			return
		}
	}
	if in.trace != nil {
		in.traceRule(rp, deltaOcc)
	}
	if rp.join != nil {
		in.evalJoin(rp, deltaOcc, dst)
		return
	}
	if n := rp.alg; n.kind == nCompose && n.a.kind != nInverse && !in.prov.recording {
		// A composition at the root is composed straight into dst, with
		// no scratch relation to fill, union and clear.
		a := in.evalNode(n.a, rp, deltaOcc)
		b := in.evalNode(n.b, rp, deltaOcc)
		in.composeRows(in.storeRows(rp.head, dst), a, in.viewOf(b), in.storeSpans(n.b, deltaOcc), dst.track, nil)
		in.release(a)
		in.release(b)
		return
	}
	v := in.evalNode(rp.alg, rp, deltaOcc)
	if in.prov.recording {
		in.recordValue(rp, v, dst)
	}
	switch {
	case v.set != nil:
		dst.set.UnionWith(v.set)
	case v.sparse || dst.track != nil:
		in.unionRows(in.storeRows(rp.head, dst), v, dst.track)
	default:
		dst.rel.UnionWith(v.rel)
	}
	in.release(v)
}

// emptyRel reports whether relation r has no tuple. For a relation of an
// earlier stratum (or an input or order), which cannot change while the
// current stratum is evaluated, the answer is kept until r's version
// changes: incremental steps ask it for every rule they evaluate.
func (in *Instance) emptyRel(r relID) bool {
	if int(in.p.stratumOf[r]) >= in.cur {
		return in.stores[r].isEmpty()
	}
	c := &in.empty[r]
	if v := in.versions[r] + 1; c.at != v {
		c.at, c.is = v, in.stores[r].isEmpty()
	}
	return c.is
}

// emptyCache says whether a relation was empty at version at-1 (0: not
// known).
type emptyCache struct {
	at uint64
	is bool
}

// recordValue reports the tuples a rule derives that dst does not hold yet.
func (in *Instance) recordValue(rp *rulePlan, v value, dst store) {
	if v.set != nil {
		for i := range v.set.All() {
			if !dst.set.Has(i) {
				in.prov.record(rp, rp.head, []int{i})
			}
		}
		return
	}
	for i, j := range v.rel.All() {
		if !dst.rel.Has(i, j) {
			in.prov.record(rp, rp.head, []int{i, j})
		}
	}
}

// rowMarks returns the scratch marks for merging row lists, all false.
func (in *Instance) rowMarks() []bool {
	if in.rowMark == nil {
		in.rowMark = make([]bool, in.n)
	}
	return in.rowMark
}

// composeInverse evaluates a^-1 ; b without transposing a: each pair
// (z, x) of a ORs row z of b into row x. A relation's inverse composed
// with another is how from-reads and its kin read (rf(Z, X), co(Z, Y)),
// and a transpose per evaluation cost more than the composition.
func (in *Instance) composeInverse(n *node, rp *rulePlan, deltaOcc int) value {
	a := in.evalNode(n.a.a, rp, deltaOcc)
	b := in.evalNode(n.b, rp, deltaOcc)
	dst := in.pool.rel()
	rows := in.pool.rowList()
	dv, av, bv := in.view(dst), in.viewOf(a), in.viewOf(b)
	mark := in.rowMarks()
	each := func(z int) {
		brow := bv[z]
		if zeroRow(brow) {
			return
		}
		in.intr.tick(len(av[z]))
		for k, w := range av[z] {
			for w != 0 {
				x := k<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				orRow(dv[x], brow)
				if !mark[x] {
					mark[x] = true
					rows = append(rows, int32(x))
				}
			}
		}
	}
	if a.sparse {
		for _, z := range a.rows {
			each(int(z))
		}
	} else {
		for z := range av {
			each(z)
		}
	}
	for _, x := range rows {
		mark[x] = false
	}
	in.release(a)
	in.release(b)
	return value{rel: dst, owned: true, sparse: true, rows: rows}
}
