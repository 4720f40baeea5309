package relations

import "math/bits"

// TransitiveClosure replaces r with r⁺, the smallest transitive relation
// containing r.
//
// The closure is computed on the condensation: components are visited in
// reverse topological order, so when a component is reached every component
// it points to already holds its final row, and the component's row is the
// union of those rows. This costs O((n + m)·n/64) word operations instead of
// Warshall's O(n³/64). The working arrays are kept inside r, so after the
// first call on a relation further calls do not allocate. A domain of at
// most warshallMaxAtoms atoms is closed by Warshall's loop on one-word rows
// instead, which costs less there than building the condensation.
func (r *Rel) TransitiveClosure() {
	if r.n <= warshallMaxAtoms {
		r.closeOneWord()
		return
	}
	r.closeCondensed()
}

// closeCondensed closes r on its condensation (see TransitiveClosure).
func (r *Rel) closeCondensed() {
	if r.scratch == nil {
		r.scratch = new(sccScratch)
	}
	sc := r.scratch
	ncomp := sc.decompose(r)
	sc.rowUnions = 0
	for c := 0; c < ncomp; c++ {
		r.closeComponent(sc, int32(c))
	}
}

// warshallMaxAtoms is the largest domain closed by Warshall's loop
// (closeOneWord): up to it, BenchmarkSmallClosure measures it 2 to 5 times
// faster than the condensation; from 32 atoms on they are even, and at 64
// the condensation wins.
const warshallMaxAtoms = 24

// closeOneWord closes a relation whose rows are one word each by
// Warshall's loop: n² word operations, which on the domains of litmus
// tests (tens of events) cost less than building the condensation.
func (r *Rel) closeOneWord() {
	rows := r.words[:r.n]
	for k, rowK := range rows {
		bit := uint64(1) << uint(k)
		// Row k itself only ors in itself here (at i == k): rowK, read
		// when step k starts, stays its value throughout the step.
		for i, row := range rows {
			if row&bit != 0 {
				rows[i] = row | rowK
			}
		}
	}
}

// closeComponent overwrites the rows of component c with what c reaches.
// Rows of c are read before any of them is written, so the original edges
// stay available until the component is done.
func (r *Rel) closeComponent(sc *sccScratch, c int32) {
	members := sc.members[sc.compStart[c]:sc.compStart[c+1]]
	acc := sc.acc
	clear(acc)
	cyclic := len(members) > 1
	for _, v := range members {
		row := r.row(int(v))
		for k := range row {
			// A successor already in acc needs no visit: either its row
			// was merged already, or it was reached through some merged
			// row, which (being closed) contains everything it reaches.
			cand := row[k] &^ acc[k]
			for cand != 0 {
				t := bits.TrailingZeros64(cand)
				cand &= cand - 1
				u := k<<6 + t
				if sc.comp[u] == c {
					// Inside the component only self loops matter; a
					// larger component is cyclic anyway.
					cyclic = cyclic || u == int(v)
					continue
				}
				orWords(acc, r.row(u))
				sc.rowUnions++
				acc[k] |= 1 << uint(t)
				cand &^= acc[k]
			}
		}
	}
	if cyclic {
		for _, v := range members {
			acc[v>>6] |= 1 << (uint(v) & 63)
		}
	}
	for _, v := range members {
		copy(r.row(int(v)), acc)
	}
}

// ReflexiveTransitiveClosure replaces r with r* = [0, n) identity ∪ r⁺.
func (r *Rel) ReflexiveTransitiveClosure() {
	r.TransitiveClosure()
	for i := 0; i < r.n; i++ {
		r.words[i*r.w+i>>6] |= 1 << (uint(i) & 63)
	}
}

// WarshallClosure replaces r with r⁺ using the textbook bitset Warshall
// loop. It is O(n³/64) and kept as the reference TransitiveClosure is tested
// and benchmarked against.
func WarshallClosure(r *Rel) {
	n, w := r.n, r.w
	for k := 0; k < n; k++ {
		rowK := r.row(k)
		kw, kb := k>>6, uint64(1)<<(uint(k)&63)
		for i := 0; i < n; i++ {
			if r.words[i*w+kw]&kb != 0 {
				orWords(r.row(i), rowK)
			}
		}
	}
}

// ReachCompose replaces r with step* ; r: row i becomes the union of the
// rows of r at i and at every atom step reaches from i.
//
// It is the left-linear closure T(X,Y) :- B(X,Z), T(Z,Y) over a base r,
// computed on the condensation of step like TransitiveClosure: components
// are visited in reverse topological order, so the atoms a component's
// edges leave to already hold their final rows. Composing step⁺ with r
// instead would cost a row union per pair of step⁺, which is quadratic in
// n on a chain. r may be step itself (r.ReachCompose(r) leaves r⁺), since a
// row is overwritten only after its component has read it. The working
// arrays are kept in step, so repeated calls with the same step do not
// allocate.
func (r *Rel) ReachCompose(step *Rel) {
	sameN("Rel.ReachCompose", r.n, step.n)
	if step.scratch == nil {
		step.scratch = new(sccScratch)
	}
	sc := step.scratch
	ncomp := sc.decompose(step)
	for c := int32(0); c < int32(ncomp); c++ {
		members := sc.members[sc.compStart[c]:sc.compStart[c+1]]
		acc := sc.acc
		clear(acc)
		for _, v := range members {
			orWords(acc, r.row(int(v)))
			for k, x := range step.row(int(v)) {
				for x != 0 {
					u := k<<6 + bits.TrailingZeros64(x)
					x &= x - 1
					if sc.comp[u] != c {
						orWords(acc, r.row(u))
					}
				}
			}
		}
		// Every member reaches every other through step, so they share
		// one row; step* is reflexive, so self loops change nothing.
		for _, v := range members {
			copy(r.row(int(v)), acc)
		}
	}
}
