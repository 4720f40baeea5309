package rules

import (
	"math/bits"

	"github.com/ptxmm/ptxmm/relations"
)

// Semi-naive evaluation touches few rows of a binary relation per round:
// the rows of the delta (the tuples new in the previous round) and the rows
// derived from them. Walking every row of an n-atom relation in every round
// made a long chain cost n passes over n² bits; tracking the rows that can
// be non-empty makes a round cost what it derives.

// rowTrack lists the rows of a relation that may be non-empty, each once,
// and for each listed row the span of its words that may be non-zero;
// every other row and word is zero. It is kept for the delta and next
// relations of recursive strata, whose rows are often single bits.
type rowTrack struct {
	rows   []int32
	in     []bool     // in[i] reports whether row i is listed
	lo, hi []int32    // row i's words outside [lo[i], hi[i]) are zero
	view   [][]uint64 // the rows of the tracked relation
}

func newRowTrack(r *relations.Rel, view [][]uint64) *rowTrack {
	n := r.N()
	return &rowTrack{in: make([]bool, n), lo: make([]int32, n), hi: make([]int32, n), view: view}
}

// add lists row i and widens its span to the words [lo, hi).
func (t *rowTrack) add(i, lo, hi int) {
	if lo >= hi {
		return
	}
	if !t.in[i] {
		t.in[i] = true
		t.rows = append(t.rows, int32(i))
		t.lo[i], t.hi[i] = int32(lo), int32(hi)
		return
	}
	t.lo[i] = min(t.lo[i], int32(lo))
	t.hi[i] = max(t.hi[i], int32(hi))
}

// span returns the words of listed row i that may be non-zero, and the
// index of the first.
func (t *rowTrack) span(i int32) ([]uint64, int) {
	return t.view[i][t.lo[i]:t.hi[i]], int(t.lo[i])
}

// clearRows empties the listed rows (their spans) and the list.
func (t *rowTrack) clearRows() {
	for _, i := range t.rows {
		w, _ := t.span(i)
		clear(w)
		t.in[i] = false
	}
	t.rows = t.rows[:0]
}

// rebuild lists the non-empty rows of the relation with exact spans.
func (t *rowTrack) rebuild() {
	t.clearList()
	for i, row := range t.view {
		lo, hi := wordSpan(row)
		t.add(i, lo, hi)
	}
}

// clearList forgets the list without touching the rows.
func (t *rowTrack) clearList() {
	for _, i := range t.rows {
		t.in[i] = false
	}
	t.rows = t.rows[:0]
}

// wordSpan returns the smallest [lo, hi) holding every non-zero word of ws
// (lo >= hi when there is none).
func wordSpan(ws []uint64) (int, int) {
	lo, hi := len(ws), 0
	for k, x := range ws {
		if x != 0 {
			lo = k
			break
		}
	}
	for k := len(ws) - 1; k >= lo; k-- {
		if ws[k] != 0 {
			hi = k + 1
			break
		}
	}
	return lo, hi
}

// rowWords returns the words of row i of r (a live view).
func rowWords(r *relations.Rel, i int) []uint64 { return r.Row(i).Words() }

// rowView returns live views of every row of r, so that loops over rows do
// not pay for Rel.Row on each access.
func rowView(r *relations.Rel) [][]uint64 {
	v := make([][]uint64, r.N())
	for i := range v {
		v[i] = rowWords(r, i)
	}
	return v
}

// view returns the row views of r, built once per relation the instance
// computes with (its stores and its scratch relations). Stores and values
// read from them carry their views, so that the hot loops of incremental
// evaluation do not pay for this lookup.
func (in *Instance) view(r *relations.Rel) [][]uint64 {
	v, ok := in.views[r]
	if !ok {
		v = rowView(r)
		if in.views == nil {
			in.views = map[*relations.Rel][][]uint64{}
		}
		in.views[r] = v
	}
	return v
}

// rowsOf returns the row views of a binary store: its row tracker's, or
// the instance's (most relations of an instance are never read row by row,
// so their views are built when first asked for).
func (in *Instance) rowsOf(st store) [][]uint64 {
	if st.track != nil {
		return st.track.view
	}
	return in.view(st.rel)
}

// relRows returns the row views of relation r's store, built on first use
// and then found by index: the incremental search reads them thousands of
// times, where the lookup by pointer in views cost it 7%.
func (in *Instance) relRows(r relID) [][]uint64 {
	if in.relViews == nil {
		in.relViews = make([][][]uint64, len(in.p.rels))
	}
	v := in.relViews[r]
	if v == nil {
		v = in.view(in.stores[r].rel)
		in.relViews[r] = v
	}
	return v
}

// storeRows is rowsOf for a store that may be relation r's own.
func (in *Instance) storeRows(r relID, st store) [][]uint64 {
	if st.track == nil && st.rel == in.stores[r].rel {
		return in.relRows(r)
	}
	return in.rowsOf(st)
}

// viewOf returns the row views of a binary value.
func (in *Instance) viewOf(v value) [][]uint64 {
	if v.view != nil {
		return v.view
	}
	return in.view(v.rel)
}

// orRow sets dst |= src and reports whether src had a bit.
func orRow(dst, src []uint64) bool {
	src = src[:len(dst)]
	var any uint64
	for k, x := range src {
		dst[k] |= x
		any |= x
	}
	return any != 0
}

func zeroRow(ws []uint64) bool {
	for _, x := range ws {
		if x != 0 {
			return false
		}
	}
	return true
}

// composeRowInto ORs into drow the rows of b selected by arow, the row of a
// composition a ; b, where arow holds the words of a's row from word base
// on. It reports whether arow had a bit.
func composeRowInto(drow, arow []uint64, base int, b [][]uint64) bool {
	any := false
	for k, x := range arow {
		for x != 0 {
			j := (base+k)<<6 + bits.TrailingZeros64(x)
			x &= x - 1
			src := b[j][:len(drow)]
			for t, y := range src {
				drow[t] |= y
			}
			any = true
		}
	}
	return any
}

// composeSpansInto is composeRowInto for a b whose rows' word spans are
// known: it touches only those words.
func composeSpansInto(drow, arow []uint64, base int, b [][]uint64, bs *spanCache) (int, int) {
	lo, hi := len(drow), 0
	for k, x := range arow {
		for x != 0 {
			j := (base+k)<<6 + bits.TrailingZeros64(x)
			x &= x - 1
			sp := bs.spans[j]
			l, h := int(sp.lo), int(sp.hi)
			if l >= h {
				continue
			}
			orRow(drow[l:h], b[j][l:h])
			lo, hi = min(lo, l), max(hi, h)
		}
	}
	return lo, hi
}

// spanCache holds the word span of every row of a stored relation, valid
// while the relation's version is unchanged.
type spanCache struct {
	version uint64
	spans   []wordRange
	// narrow is set when the spans cover a small part of the relation;
	// otherwise looking them up costs more than it saves.
	narrow bool
}

type wordRange struct{ lo, hi int32 }

// storeSpans returns the row spans of the stored relation that plan leaf
// n reads, or nil when they could change during the evaluation (only
// relations of earlier strata, inputs and orders stay fixed while a
// stratum runs) or would not pay (rows of one or two words, or rows whose
// spans cover much of them).
func (in *Instance) storeSpans(n *node, deltaOcc int) *spanCache {
	if n.kind != nLeaf || n.occ == deltaOcc || n.arity != 2 || in.p.rels[n.rel].stratum >= in.cur || in.n <= 128 {
		return nil
	}
	c := in.spans[n.rel]
	if c == nil {
		c = &spanCache{spans: make([]wordRange, in.n)}
		in.spans[n.rel] = c
	} else if c.version == in.versions[n.rel] {
		if c.narrow {
			return c
		}
		return nil
	}
	c.version = in.versions[n.rel]
	view := in.relRows(n.rel)
	total := 0
	for i, row := range view {
		lo, hi := wordSpan(row)
		c.spans[i] = wordRange{int32(lo), int32(hi)}
		total += max(hi-lo, 0)
	}
	c.narrow = total*4 <= len(view)*len(view[0])
	if c.narrow {
		return c
	}
	return nil
}

// composeRow composes one row, with b's spans when known, and returns a
// span of drow holding every word it set (lo >= hi when it set none); when
// it needs no span it only tells whether it may have set a bit.
func composeRow(drow, arow []uint64, base int, b [][]uint64, bs *spanCache, needSpan bool) (int, int) {
	if bs != nil {
		return composeSpansInto(drow, arow, base, b, bs)
	}
	if !composeRowInto(drow, arow, base, b) {
		return 0, 0
	}
	if !needSpan {
		return 0, 1
	}
	return wordSpan(drow)
}

// composeRows ORs the rows of a ; b into the rows of dv, visiting the rows
// of a that may be non-empty, and reports each row that got a bit to tr
// (with its span) and to rows, either of which may be nil.
func (in *Instance) composeRows(dv [][]uint64, a value, bv [][]uint64, bs *spanCache, tr *rowTrack, rows *[]int32) {
	av := in.viewOf(a)
	needSpan := tr != nil
	if !a.sparse {
		for i, arow := range av {
			in.intr.tick(len(arow))
			if lo, hi := composeRow(dv[i], arow, 0, bv, bs, needSpan); lo < hi {
				if tr != nil {
					tr.add(i, lo, hi)
				}
				if rows != nil {
					*rows = append(*rows, int32(i))
				}
			}
		}
		return
	}
	for _, i := range a.rows {
		arow, base := av[i], 0
		if a.track != nil {
			arow, base = a.track.span(i)
		}
		in.intr.tick(len(arow))
		if lo, hi := composeRow(dv[i], arow, base, bv, bs, needSpan); lo < hi {
			if tr != nil {
				tr.add(int(i), lo, hi)
			}
			if rows != nil {
				*rows = append(*rows, i)
			}
		}
	}
}

// unionRows ORs the rows of v that may be non-empty into dv, reporting the
// rows that got a bit to tr (which may be nil).
func (in *Instance) unionRows(dv [][]uint64, v value, tr *rowTrack) {
	vv := in.viewOf(v)
	if !v.sparse {
		for i, row := range vv {
			if orRow(dv[i], row) && tr != nil {
				tr.add(i, 0, len(row))
			}
		}
		return
	}
	for _, i := range v.rows {
		if orRow(dv[i], vv[i]) && tr != nil {
			lo, hi := wordSpan(dv[i])
			tr.add(int(i), lo, hi)
		}
	}
}

// clearRows empties the listed rows.
func clearRows(view [][]uint64, rows []int32) {
	for _, i := range rows {
		clear(view[i])
	}
}
