package relations

import "slices"

// UnionWith adds the pairs of o to r and reports whether r changed, which is
// what fixpoint loops test for termination.
func (r *Rel) UnionWith(o *Rel) bool {
	sameN("Rel.UnionWith", r.n, o.n)
	return orWordsChanged(r.words, o.words)
}

// IntersectWith keeps only the pairs of r that are also in o.
func (r *Rel) IntersectWith(o *Rel) {
	sameN("Rel.IntersectWith", r.n, o.n)
	ow := o.words[:len(r.words)]
	for k := range r.words {
		r.words[k] &= ow[k]
	}
}

// DifferenceWith removes the pairs of o from r.
func (r *Rel) DifferenceWith(o *Rel) {
	sameN("Rel.DifferenceWith", r.n, o.n)
	ow := o.words[:len(r.words)]
	for k := range r.words {
		r.words[k] &^= ow[k]
	}
}

// Complement replaces r with ([0, n) × [0, n)) minus r.
func (r *Rel) Complement() {
	for k := range r.words {
		r.words[k] = ^r.words[k]
	}
	if r.w == 0 {
		return
	}
	mask := tailMask(r.n)
	for k := r.w - 1; k < len(r.words); k += r.w {
		r.words[k] &= mask
	}
}

// Equal reports whether r and o have the same pairs.
func (r *Rel) Equal(o *Rel) bool {
	sameN("Rel.Equal", r.n, o.n)
	return slices.Equal(r.words, o.words)
}
