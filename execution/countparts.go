package execution

import (
	"encoding/binary"
	"math/bits"
)

// Counting by independent parts.
//
// The reads still to choose often fall into parts that nothing links: no
// constraint looks at values of two parts, and no mbarrier chain runs
// through both (the updates and final polls of one object are linked, as
// each may read what another writes). The completions of the choices made
// so far are then the product of each part's completions, each counted
// without the others chosen, and a part is counted again within itself,
// with its first read chosen, as its remaining reads may split further.
// The count of a part depends on the choices made only through the reads
// that share a constraint with it (their writes) and through the state of
// its objects' chains (chainState); it is remembered under those.
//
// A TMA ring is the case it is for: its 8 mbarrier objects, each with its
// waits, are 8 parts once the reads before the first wait of each are
// chosen, and a branch abandoned there has the product of 8 small counts
// as its candidates, where the interfaces of countAt hold up to 16 reads
// of all of them.
//
// Parts are counted only where a leaf's number of candidates is the same
// for every choice (the barrier groupings are fixed and no bar.red result
// is chosen) and no value computed along the way can fail to compute
// (errorFree): a walk of the whole branch would evaluate every
// combination of the parts' choices, and report the error of the first
// that fails; counting parts apart does not combine them.

// partIndex is what counting by parts needs about a combination of runs.
type partIndex struct {
	// scopes are the sets of depths a constraint links (the value
	// closures of its reads), and those of each mbarrier object's chain;
	// chain[i] is set for the latter, whose writes the key describes by
	// chainState (chainWrites[i]) rather than by what their reads read.
	scopes      []depthSet
	chain       []bool
	chainWrites [][]int
	// mult is the number of candidates of each complete choice.
	mult int
	n    int
	memo map[string]int
	key  []byte
	// pieces remembers the parts of each set of reads not chosen.
	pieces map[string][]piece
	// parent is split's union-find, kept between calls.
	parent []int
}

// newPartIndex returns the index, or nil where parts are not counted.
func (s *comboSearch) newPartIndex(constraintScopes []depthSet) *partIndex {
	if s.fixed == nil || len(s.results) > 0 || !s.errorFree() {
		return nil
	}
	n := len(s.reads)
	p := &partIndex{scopes: append([]depthSet(nil), constraintScopes...), chain: make([]bool, len(constraintScopes)), chainWrites: make([][]int, len(constraintScopes)), mult: len(s.fixed), n: n, memo: map[string]int{}, pieces: map[string][]piece{}}
	polls := map[int]bool{}
	for _, e := range s.x.FinalPolls {
		polls[e] = true
	}
	byLoc := map[int]int{} // location -> index of its chain scope
	for k, r := range s.reads {
		if !s.updates[k] && !polls[r] {
			continue
		}
		loc := s.x.Events[r].Loc
		i, ok := byLoc[loc]
		if !ok {
			i = len(p.scopes)
			byLoc[loc] = i
			p.scopes = append(p.scopes, newDepthSet(n))
			p.chain = append(p.chain, true)
			p.chainWrites = append(p.chainWrites, nil)
		}
		p.scopes[i].add(k)
	}
	for i, sc := range p.scopes {
		if !p.chain[i] {
			continue
		}
		seen := map[int]bool{}
		for k := range n {
			if !sc.has(k) {
				continue
			}
			for _, w := range s.choices[k] {
				if !seen[w] {
					seen[w] = true
					p.chainWrites[i] = append(p.chainWrites[i], w)
				}
			}
		}
	}
	return p
}

// countParts counts the completions of the choices made so far for the
// reads at the depths of rest (all of them not chosen), times nothing: a
// caller multiplies by the candidates of each complete choice.
func (s *comboSearch) countParts(p *partIndex, rest depthSet) int {
	total := 1
	for _, pc := range p.piecesOf(rest) {
		total = MulCounts(total, s.countPart(p, pc))
		if total == 0 || s.stop {
			return total
		}
	}
	return total
}

// piece is a part of the reads not chosen: its depths, its first depth,
// and the others.
type piece struct {
	set, rest depthSet
	first     int
}

// piecesOf returns the parts of rest (split), computed once per set.
func (p *partIndex) piecesOf(rest depthSet) []piece {
	b := p.key[:0]
	for _, w := range rest {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	p.key = b
	if pcs, ok := p.pieces[string(b)]; ok {
		return pcs
	}
	var pcs []piece
	for _, set := range p.split(rest) {
		pc := piece{set: set, rest: append(depthSet(nil), set...), first: set.min()}
		pc.rest.remove(pc.first)
		pcs = append(pcs, pc)
	}
	p.pieces[string(b)] = pcs
	return pcs
}

// countPart counts the completions of one part, which no constraint or
// chain links to the other reads not chosen.
func (s *comboSearch) countPart(p *partIndex, pc piece) int {
	key := p.keyOf(s, pc.set)
	if n, ok := p.memo[string(key)]; ok {
		return n
	}
	total := s.sumOverChoices(pc.first, func() int { return s.countParts(p, pc.rest) })
	if !s.stop {
		p.memo[string(p.keyOf(s, pc.set))] = total
	}
	return total
}

// split divides the depths of rest into parts that no scope links, in
// the order of their first depths.
func (p *partIndex) split(rest depthSet) []depthSet {
	parent := p.parent
	if parent == nil {
		parent = make([]int, p.n)
		p.parent = parent
	}
	var members []int
	for i := range rest {
		word := rest[i]
		for word != 0 {
			d := i*64 + bits.TrailingZeros64(word)
			word &= word - 1
			parent[d] = d
			members = append(members, d)
		}
	}
	root := func(d int) int {
		for parent[d] != d {
			parent[d] = parent[parent[d]]
			d = parent[d]
		}
		return d
	}
	for _, sc := range p.scopes {
		first := -1
		for i := range sc {
			word := sc[i] & rest[i]
			for word != 0 {
				d := i*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if first < 0 {
					first = root(d)
					continue
				}
				if r := root(d); r != first {
					if r < first {
						r, first = first, r
					}
					parent[r] = first
				}
			}
		}
	}
	var out []depthSet
	index := map[int]int{}
	for _, d := range members {
		r := root(d)
		i, ok := index[r]
		if !ok {
			i = len(out)
			index[r] = i
			out = append(out, newDepthSet(p.n))
		}
		out[i].add(d)
	}
	return out
}

// keyOf encodes a part and what its completions depend on: the writes
// read by the chosen reads of the constraints that look at it, and the
// chain state of the writes of its objects.
func (p *partIndex) keyOf(s *comboSearch, part depthSet) []byte {
	b := p.key[:0]
	for _, w := range part {
		b = binary.AppendUvarint(b, w)
	}
	iface := newDepthSet(p.n)
	for i, sc := range p.scopes {
		if !sc.intersects(part) {
			continue
		}
		if p.chain[i] {
			for _, w := range p.chainWrites[i] {
				b = binary.AppendUvarint(b, uint64(s.chainState(w)))
			}
			continue
		}
		iface.union(sc)
	}
	for i := range iface {
		word := iface[i] &^ part[i]
		for word != 0 {
			d := i*64 + bits.TrailingZeros64(word)
			word &= word - 1
			b = binary.AppendUvarint(b, uint64(s.x.RF[s.reads[d]]+1))
		}
	}
	p.key = b
	return b
}

func (d depthSet) remove(i int) { d[i/64] &^= 1 << uint(i%64) }

func (d depthSet) empty() bool {
	for _, w := range d {
		if w != 0 {
			return false
		}
	}
	return true
}

func (d depthSet) intersects(o depthSet) bool {
	for i := range d {
		if d[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// min returns the smallest depth of the set, or -1 when it is empty.
func (d depthSet) min() int {
	for i, w := range d {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// errorFree reports whether no value the search computes for the
// combination can fail to compute, whatever the reads read: values fail
// only where an address or an mbarrier state meets an operation on
// integers or is read in part, so it looks for the writes that may hold
// one (opaque) and for what could take them there.
func (s *comboSearch) errorFree() bool {
	x := s.x
	opaqueW := make([]bool, len(x.Events))
	opaqueR := make([]bool, len(x.Events))
	for i := range x.Events {
		if ev := &x.Events[i]; ev.Kind == KindWrite && ev.Thread < 0 && (ev.Value.IsAddr || ev.Value.IsMBar) {
			opaqueW[i] = true
		}
	}
	var mayOpaque func(sym *Sym, t int) bool
	mayOpaque = func(sym *Sym, t int) bool {
		switch sym.kind {
		case symConst:
			return sym.val.IsAddr || sym.val.IsMBar
		case symRead:
			return opaqueR[x.ThreadStart[t]+sym.read]
		case symMBar:
			return true
		case symConv:
			return sym.shift == 0 && mayOpaque(sym.a, t)
		case symAtom:
			switch sym.op {
			case "exch":
				return mayOpaque(sym.b, t)
			case "cas":
				return mayOpaque(sym.c, t) || mayOpaque(sym.a, t)
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for k, r := range s.reads {
			if opaqueR[r] {
				continue
			}
			for _, w := range s.choices[k] {
				if opaqueW[w] {
					opaqueR[r], changed = true, true
					break
				}
			}
		}
		for _, w := range s.writes {
			if ev := &x.Events[w]; !opaqueW[w] && mayOpaque(ev.Sym, ev.Thread) {
				opaqueW[w], changed = true, true
			}
		}
	}
	// A part of an opaque value fails to read.
	for k, r := range s.reads {
		re := &x.Events[r]
		for _, w := range s.choices[k] {
			if we := &x.Events[w]; opaqueW[w] && (we.Off != re.Off || we.Size != re.Size) {
				return false
			}
		}
	}
	var risky func(sym *Sym, t int) bool
	risky = func(sym *Sym, t int) bool {
		if sym == nil {
			return false
		}
		switch sym.kind {
		case symConst, symRead:
			return false
		case symArith, symCmp:
			if mayOpaque(sym.a, t) || sym.b != nil && mayOpaque(sym.b, t) {
				return true
			}
		case symAtom:
			if mayOpaque(sym.a, t) || sym.b != nil && mayOpaque(sym.b, t) || sym.c != nil && mayOpaque(sym.c, t) {
				return true
			}
		case symConv:
			if sym.shift != 0 && mayOpaque(sym.a, t) {
				return true
			}
		case symJoin:
			for _, part := range sym.parts {
				if mayOpaque(part, t) || risky(part, t) {
					return true
				}
			}
			return false
		}
		return risky(sym.a, t) || risky(sym.b, t) || risky(sym.c, t)
	}
	for _, w := range s.writes {
		if ev := &x.Events[w]; risky(ev.Sym, ev.Thread) {
			return false
		}
	}
	for t, run := range x.Runs {
		for _, c := range run.Constraints {
			if risky(c.Cond, t) {
				return false
			}
		}
	}
	return true
}
