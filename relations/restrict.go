package relations

// RestrictDomain replaces r with [S] ; r, keeping only the rows of atoms in s.
func (r *Rel) RestrictDomain(s *Set) {
	sameN("Rel.RestrictDomain", r.n, s.n)
	for i := 0; i < r.n; i++ {
		if !s.Has(i) {
			clear(r.row(i))
		}
	}
}

// RestrictRange replaces r with r ; [S], keeping only the columns of atoms in s.
func (r *Rel) RestrictRange(s *Set) {
	sameN("Rel.RestrictRange", r.n, s.n)
	for i := 0; i < r.n; i++ {
		row := r.row(i)
		sw := s.words[:len(row)]
		for k := range row {
			row[k] &= sw[k]
		}
	}
}

// DomainInto overwrites dst with {i | (i, j) in r for some j}.
func (r *Rel) DomainInto(dst *Set) {
	sameN("Rel.DomainInto", r.n, dst.n)
	dst.Clear()
	for i := 0; i < r.n; i++ {
		if !zeroWords(r.row(i)) {
			dst.words[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// RangeInto overwrites dst with {j | (i, j) in r for some i}.
func (r *Rel) RangeInto(dst *Set) {
	sameN("Rel.RangeInto", r.n, dst.n)
	dst.Clear()
	for i := 0; i < r.n; i++ {
		orWords(dst.words, r.row(i))
	}
}

// ImageInto overwrites dst with {j | (i, j) in r for some i in s}. dst must
// not be s, since dst is cleared before s is read.
func ImageInto(dst *Set, s *Set, r *Rel) {
	sameN("ImageInto", dst.n, s.n)
	sameN("ImageInto", s.n, r.n)
	dst.Clear()
	for i := range s.All() {
		orWords(dst.words, r.row(i))
	}
}
