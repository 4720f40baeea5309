package synth

import "sort"

// The weakest choices of a skeleton's dimensions on which the models
// disagree are found by splitting the lattice into boxes (a range of
// values per dimension). A box whose weakest point separates the models
// holds no other minimal separating point; a box whose weakest and
// strongest points give the same outcomes under both models holds none at
// all, since strengthening never allows more (the property the package
// comment names); a box above a separating point found before holds no
// minimal one. Any other box is split on one dimension, one box per value,
// choosing a dimension that changes the outcomes at a corner of the box,
// so that the dimensions that matter are fixed first and the rest collapse
// into boxes of equal corners. Before a box is split, the violation screen
// (violation.go) may close it from what only one model checks.

// latticeSearch finds the minimal separating points of one skeleton.
type latticeSearch struct {
	ds   []dim
	eval func(point) *outcomes
	// probe, when set, checks the points pick looks at (eval when nil):
	// the same outcomes, counted apart.
	probe func(point) *outcomes
	found []point
	err   error
	// stop, when it returns true, abandons the search (a time budget).
	stop func() bool
	// screened, when set, reports that no point between lo and hi can
	// separate the models (screen.go).
	screened func(lo, hi point) bool
	// closed, when set, reports that no point between lo and hi can
	// separate the models, for a box about to be split (the violation
	// screen, violation.go: dearer than a corner, so asked only where
	// the corners do not close the box).
	closed func(lo, hi point) bool
	// hits counts, per dimension, the boxes split on it: the dimensions
	// that mattered in one box are tried first in the next.
	hits []int
	// monotone is told of every box's corners, to watch the models for
	// outcomes allowed at the strong corner and forbidden at the weak.
	monotone func(weakP, strongP point, weak, strong *outcomes)
}

// run searches the whole lattice and returns the minimal separating
// points found.
func (l *latticeSearch) run() []point {
	lo := make(point, len(l.ds))
	hi := make(point, len(l.ds))
	for i, d := range l.ds {
		hi[i] = d.size() - 1
	}
	l.box(lo, hi)
	return minimal(l.found)
}

// box searches the points between lo and hi.
func (l *latticeSearch) box(lo, hi point) {
	if l.err != nil || (l.stop != nil && l.stop()) {
		return
	}
	for _, f := range l.found {
		if f.leq(lo) {
			return
		}
	}
	if l.screened != nil && l.screened(lo, hi) {
		return
	}
	ol := l.eval(lo)
	if ol.err != nil {
		l.err = ol.err
		return
	}
	if ol.separates() {
		l.found = append(l.found, append(point(nil), lo...))
		return
	}
	oh := l.eval(hi)
	if oh.err != nil {
		l.err = oh.err
		return
	}
	if l.monotone != nil {
		l.monotone(lo, hi, ol, oh)
	}
	if ol.allSame(oh) {
		return
	}
	if l.closed != nil && l.closed(lo, hi) {
		return
	}
	k := l.pick(lo, hi, ol, oh)
	if k < 0 {
		return
	}
	// The weakest value of the dimension, then the others together.
	nlo := append(point(nil), lo...)
	nhi := append(point(nil), hi...)
	nhi[k] = lo[k]
	l.box(nlo, nhi)
	nlo = append(point(nil), lo...)
	nlo[k] = lo[k] + 1
	l.box(nlo, append(point(nil), hi...))
}

// pick chooses the dimension to split on: the first whose weakest value
// changes the strongest corner's outcomes or whose strongest value changes
// the weakest corner's, else the first that has a range (-1 when none
// has).
func (l *latticeSearch) pick(lo, hi point, ol, oh *outcomes) int {
	if l.hits == nil {
		l.hits = make([]int, len(lo))
	}
	order := make([]int, len(lo))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return l.hits[order[i]] > l.hits[order[j]] })
	eval := l.eval
	if l.probe != nil {
		eval = l.probe
	}
	first := -1
	for _, k := range order {
		if lo[k] == hi[k] {
			continue
		}
		if first < 0 {
			first = k
		}
		h := append(point(nil), hi...)
		h[k] = lo[k]
		if o := eval(h); o.err == nil && !o.same(oh) {
			l.hits[k]++
			return k
		}
	}
	for _, k := range order {
		if lo[k] == hi[k] {
			continue
		}
		w := append(point(nil), lo...)
		w[k] = hi[k]
		if o := eval(w); o.err == nil && !o.same(ol) {
			l.hits[k]++
			return k
		}
	}
	return first
}

// same reports whether two programs' outcomes agree model by model.
func (o *outcomes) same(p *outcomes) bool { return sameSet(o.a, p.a) && sameSet(o.b, p.b) }

// minimal keeps the points no other point of ps is below.
func minimal(ps []point) []point {
	var out []point
	for i, p := range ps {
		keep := true
		for j, q := range ps {
			if i != j && q.leq(p) && (!p.leq(q) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, p)
		}
	}
	return out
}
