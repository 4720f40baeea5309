package rules

import (
	"strconv"

	"github.com/ptxmm/ptxmm/relations"
)

// store holds one relation's tuples in the representation its arity calls
// for: a Set, a Rel, or Tuples for arity three and more.
type store struct {
	arity int
	set   *relations.Set
	rel   *relations.Rel
	tup   *relations.Tuples
	// track, for the binary delta and next relations of recursive strata,
	// lists the rows that may be non-empty (see rows.go).
	track *rowTrack
}

// newTrackedStore is newStore with the rows of a binary relation tracked,
// when the domain has at least minAtoms atoms: on smaller domains a row is
// a few words, and whole-relation passes cost less than the bookkeeping.
func newTrackedStore(arity, n, minAtoms int) store {
	s := newStore(arity, n)
	if arity == 2 && n >= minAtoms {
		s.track = newRowTrack(s.rel, rowView(s.rel))
	}
	return s
}

func newStore(arity, n int) store {
	switch arity {
	case 1:
		return store{arity: 1, set: relations.NewSet(n)}
	case 2:
		return store{arity: 2, rel: relations.NewRel(n)}
	default:
		return store{arity: arity, tup: relations.NewTuples(arity)}
	}
}

func (s store) clear() {
	switch s.arity {
	case 1:
		s.set.Clear()
	case 2:
		if s.track != nil {
			s.track.clearRows()
			return
		}
		s.rel.Clear()
	default:
		s.tup.Clear()
	}
}

// fill puts every tuple over the domain in a relation of arity one or
// two (a flag's bound takes it whole: flagbound.go).
func (s store) fill() {
	switch s.arity {
	case 1:
		s.set.Clear()
		s.set.Complement()
	case 2:
		s.rel.Clear()
		s.rel.Complement()
		if s.track != nil {
			s.track.rebuild()
		}
	default:
		panic("rules: fill of a relation of arity " + strconv.Itoa(s.arity))
	}
}

func (s store) isEmpty() bool {
	switch s.arity {
	case 1:
		return s.set.IsEmpty()
	case 2:
		if s.track != nil {
			for _, i := range s.track.rows {
				if w, _ := s.track.span(i); !zeroRow(w) {
					return false
				}
			}
			return true
		}
		return s.rel.IsEmpty()
	default:
		return s.tup.Len() == 0
	}
}

func (s store) size() int {
	switch s.arity {
	case 1:
		return s.set.Len()
	case 2:
		return s.rel.Len()
	default:
		return s.tup.Len()
	}
}

// unionWith adds o's tuples and reports whether s grew.
func (s store) unionWith(o store) bool {
	switch s.arity {
	case 1:
		return s.set.UnionWith(o.set)
	case 2:
		return s.rel.UnionWith(o.rel)
	default:
		return s.tup.UnionWith(o.tup)
	}
}

func (s store) differenceWith(o store) {
	switch s.arity {
	case 1:
		s.set.DifferenceWith(o.set)
	case 2:
		s.rel.DifferenceWith(o.rel)
	default:
		s.tup.DifferenceWith(o.tup)
	}
}

func (s store) copyFrom(o store) {
	switch s.arity {
	case 1:
		s.set.CopyFrom(o.set)
	case 2:
		s.rel.CopyFrom(o.rel)
		if s.track != nil {
			s.track.rebuild()
		}
	default:
		s.tup.Clear()
		s.tup.UnionWith(o.tup)
	}
}

func (s store) equal(o store) bool {
	switch s.arity {
	case 1:
		return s.set.Equal(o.set)
	case 2:
		return s.rel.Equal(o.rel)
	default:
		return s.tup.Equal(o.tup)
	}
}

// has tests one tuple.
func (s store) has(t []int) bool {
	switch s.arity {
	case 1:
		return s.set.Has(t[0])
	case 2:
		return s.rel.Has(t[0], t[1])
	default:
		return s.tup.Has(t)
	}
}

// add inserts one tuple.
func (s store) add(t []int) {
	switch s.arity {
	case 1:
		s.set.Add(t[0])
	case 2:
		s.rel.Add(t[0], t[1])
		if s.track != nil {
			s.track.add(t[0], t[1]>>6, t[1]>>6+1)
		}
	default:
		s.tup.Add(t)
	}
}

// first returns some tuple, the smallest in the natural order.
func (s store) first() ([]int, bool) {
	switch s.arity {
	case 1:
		for i := range s.set.All() {
			return []int{i}, true
		}
	case 2:
		for i, j := range s.rel.All() {
			return []int{i, j}, true
		}
	default:
		for t := range s.tup.All() {
			return append([]int(nil), t...), true
		}
	}
	return nil, false
}

// each calls f on every tuple (the slice is reused between calls).
func (s store) each(f func([]int) bool) {
	buf := make([]int, s.arity)
	switch s.arity {
	case 1:
		for i := range s.set.All() {
			buf[0] = i
			if !f(buf) {
				return
			}
		}
	case 2:
		for i, j := range s.rel.All() {
			buf[0], buf[1] = i, j
			if !f(buf) {
				return
			}
		}
	default:
		for t := range s.tup.All() {
			if !f(t) {
				return
			}
		}
	}
}

// tempPool recycles scratch relations so that evaluating a plan allocates
// nothing once the pool is warm. The relations it holds are empty, so that
// a plan reading few rows does not pay for clearing all of them: putRel
// clears a relation, putRelRows only the rows the caller wrote.
type tempPool struct {
	n int
	// grow, when set, is told the size of every relation the pool
	// allocates, so that an instance can hold its memory limit.
	grow func(bytes int64)
	sets []*relations.Set
	rels []*relations.Rel
	ints [][]int32
}

func (p *tempPool) set() *relations.Set {
	if k := len(p.sets); k > 0 {
		s := p.sets[k-1]
		p.sets = p.sets[:k-1]
		s.Clear()
		return s
	}
	return relations.NewSet(p.n)
}

// rel returns an empty relation.
func (p *tempPool) rel() *relations.Rel {
	if k := len(p.rels); k > 0 {
		r := p.rels[k-1]
		p.rels = p.rels[:k-1]
		return r
	}
	if p.grow != nil {
		p.grow(relBytes(p.n))
	}
	return relations.NewRel(p.n)
}

func (p *tempPool) putSet(s *relations.Set) { p.sets = append(p.sets, s) }

func (p *tempPool) putRel(r *relations.Rel) {
	r.Clear()
	p.rels = append(p.rels, r)
}

// putRelRows returns a relation whose only non-empty rows are listed;
// view is its row view.
func (p *tempPool) putRelRows(r *relations.Rel, view [][]uint64, rows []int32) {
	clearRows(view, rows)
	p.rels = append(p.rels, r)
}

// rowList returns an empty row list.
func (p *tempPool) rowList() []int32 {
	if k := len(p.ints); k > 0 {
		l := p.ints[k-1]
		p.ints = p.ints[:k-1]
		return l[:0]
	}
	return make([]int32, 0, 16)
}

func (p *tempPool) putRowList(l []int32) { p.ints = append(p.ints, l) }
