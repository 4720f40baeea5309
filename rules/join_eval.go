package rules

// joinRun is the state of one join evaluation.
type joinRun struct {
	in       *Instance
	rp       *rulePlan
	jp       *joinPlan
	deltaOcc int
	slots    []int
	dst      store
	consts   []int
	headBuf  []int
	// maxTuples, when not negative, is the size dst may reach before the
	// instance's memory limit stops the join (limits.go).
	maxTuples int
}

// evalJoin evaluates a join plan and adds its tuples to dst.
func (in *Instance) evalJoin(rp *rulePlan, deltaOcc int, dst store) {
	jr := &joinRun{
		in: in, rp: rp, jp: rp.join, deltaOcc: deltaOcc, dst: dst,
		slots: make([]int, rp.join.nslots), consts: in.ruleConsts[rp],
		headBuf: make([]int, len(rp.join.head)), maxTuples: in.tupleGuard(rp, deltaOcc, dst),
	}
	for i := range jr.slots {
		jr.slots[i] = -1
	}
	jr.step(0)
}

func (jr *joinRun) value(a joinArg) int {
	switch a.kind {
	case argConst:
		return jr.consts[a.konst]
	case argVar:
		return jr.slots[a.slot]
	}
	return -1
}

func (jr *joinRun) step(k int) {
	if k == len(jr.jp.atoms) {
		jr.finish()
		return
	}
	a := jr.jp.atoms[k]
	st := jr.in.stores[a.rel]
	if a.occ == jr.deltaOcc {
		st = jr.in.deltaStore(a.rel)
	}
	// Remember which slots this atom binds, to unbind them afterwards.
	var fresh []int
	match := func(t []int) {
		jr.in.intr.tick(1)
		fresh = fresh[:0]
		ok := true
		for i, x := range a.args {
			switch x.kind {
			case argConst:
				if jr.consts[x.konst] != t[i] {
					ok = false
				}
			case argVar:
				switch v := jr.slots[x.slot]; {
				case v < 0:
					jr.slots[x.slot] = t[i]
					fresh = append(fresh, x.slot)
				case v != t[i]:
					ok = false
				}
			}
			if !ok {
				break
			}
		}
		if ok {
			jr.step(k + 1)
		}
		for _, s := range fresh {
			jr.slots[s] = -1
		}
	}
	switch st.arity {
	case 1:
		if v := jr.value(a.args[0]); v >= 0 {
			if st.set.Has(v) {
				match([]int{v})
			}
			return
		}
		buf := []int{0}
		for i := range st.set.All() {
			buf[0] = i
			match(buf)
		}
	case 2:
		x, y := jr.value(a.args[0]), jr.value(a.args[1])
		buf := []int{0, 0}
		switch {
		case x >= 0 && y >= 0:
			if st.rel.Has(x, y) {
				buf[0], buf[1] = x, y
				match(buf)
			}
		case x >= 0:
			row := st.rel.Row(x)
			for j, ok := row.NextSet(0); ok; j, ok = row.NextSet(j + 1) {
				buf[0], buf[1] = x, int(j)
				match(buf)
			}
		case y >= 0:
			for i := 0; i < jr.in.n; i++ {
				if st.rel.Has(i, y) {
					buf[0], buf[1] = i, y
					match(buf)
				}
			}
		default:
			for i, j := range st.rel.All() {
				buf[0], buf[1] = i, j
				match(buf)
			}
		}
	default:
		// Iterating yields copies, and the join never writes the relations
		// it reads (dst is a new or next store), so no snapshot is needed.
		for t := range st.tup.All() {
			match(t)
		}
	}
}

// finish binds the variables only equalities bind, tests the negated atoms
// and comparisons, and emits the head tuple.
func (jr *joinRun) finish() {
	for _, a := range jr.jp.assigns {
		jr.slots[a.slot] = jr.value(a.from)
	}
	jr.emit()
	for _, a := range jr.jp.assigns {
		jr.slots[a.slot] = -1
	}
}

func (jr *joinRun) emit() {
	for _, c := range jr.jp.cmps {
		eq := jr.value(c.l) == jr.value(c.r)
		if eq == c.neq {
			return
		}
	}
	for _, a := range jr.jp.negs {
		t := make([]int, len(a.args))
		wild := false
		for i, x := range a.args {
			t[i] = jr.value(x)
			if x.kind == argWild {
				wild = true
			}
		}
		if jr.negatedHolds(a, t, wild) {
			return
		}
	}
	for i, h := range jr.jp.head {
		jr.headBuf[i] = jr.value(h)
	}
	if jr.maxTuples >= 0 && jr.dst.tup.Len() >= jr.maxTuples {
		jr.in.tooManyTuples(jr.rp)
	}
	if jr.in.prov.recording && !jr.dst.has(jr.headBuf) {
		jr.in.prov.record(jr.rp, jr.rp.head, append([]int(nil), jr.headBuf...))
	}
	jr.dst.add(jr.headBuf)
}

// negatedHolds reports whether the negated atom's relation contains a tuple
// matching t, where wildcard positions (marked -1) match anything.
func (jr *joinRun) negatedHolds(a joinAtom, t []int, wild bool) bool {
	st := jr.in.stores[a.rel]
	if !wild {
		return st.has(t)
	}
	found := false
	st.each(func(u []int) bool {
		for i := range t {
			if t[i] >= 0 && t[i] != u[i] {
				return true
			}
		}
		found = true
		return false
	})
	return found
}
