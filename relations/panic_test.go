package relations

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDomainMismatchPanics(t *testing.T) {
	r4, r5 := NewRel(4), NewRel(5)
	s4, s5 := NewSet(4), NewSet(5)
	tests := []struct {
		name string
		op   func()
	}{
		{"Set.CopyFrom", func() { s4.CopyFrom(s5) }},
		{"Set.UnionWith", func() { s4.UnionWith(s5) }},
		{"Set.IntersectWith", func() { s4.IntersectWith(s5) }},
		{"Set.DifferenceWith", func() { s4.DifferenceWith(s5) }},
		{"Set.Equal", func() { s4.Equal(s5) }},
		{"Product", func() { Product(s4, s5) }},
		{"Rel.AddProduct", func() { r4.AddProduct(s4, s5) }},
		{"Rel.CopyFrom", func() { r4.CopyFrom(r5) }},
		{"Rel.UnionWith", func() { r4.UnionWith(r5) }},
		{"Rel.IntersectWith", func() { r4.IntersectWith(r5) }},
		{"Rel.DifferenceWith", func() { r4.DifferenceWith(r5) }},
		{"Rel.Equal", func() { r4.Equal(r5) }},
		{"InverseInto", func() { InverseInto(r4, r5) }},
		{"ComposeInto", func() { ComposeInto(r4, r4.Clone(), r5) }},
		{"ComposeUnionInto", func() { ComposeUnionInto(r4, r4.Clone(), r5) }},
		{"Rel.RestrictDomain", func() { r4.RestrictDomain(s5) }},
		{"Rel.RestrictRange", func() { r4.RestrictRange(s5) }},
		{"Rel.DomainInto", func() { r4.DomainInto(s5) }},
		{"Rel.RangeInto", func() { r4.RangeInto(s5) }},
		{"ImageInto", func() { ImageInto(s4, s4.Clone(), r5) }},
		{"Rel.ReachCompose", func() { r4.ReachCompose(r5) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.PanicsWithValue(t,
				"relations: "+tt.name+": domain size mismatch (n=4 vs n=5)", tt.op)
		})
	}
}

func TestOutOfDomainPanics(t *testing.T) {
	assert.PanicsWithValue(t, "relations: Set.Add: atom 5 out of domain [0, 5)",
		func() { NewSet(5).Add(5) })
	assert.PanicsWithValue(t, "relations: Rel.Add: atom -1 out of domain [0, 5)",
		func() { NewRel(5).Add(-1, 0) })
	assert.PanicsWithValue(t, "relations: Rel.Row: atom 5 out of domain [0, 5)",
		func() { NewRel(5).Row(5) })
}

func TestArityMismatchPanics(t *testing.T) {
	t3, t2 := NewTuples(3), NewTuples(2)
	assert.PanicsWithValue(t, "relations: Tuples.Add: arity mismatch (3 vs 2)",
		func() { t3.Add([]int{1, 2}) })
	assert.PanicsWithValue(t, "relations: Tuples.Has: arity mismatch (3 vs 4)",
		func() { t3.Has([]int{1, 2, 3, 4}) })
	assert.PanicsWithValue(t, "relations: Tuples.UnionWith: arity mismatch (3 vs 2)",
		func() { t3.UnionWith(t2) })
	assert.PanicsWithValue(t, "relations: Tuples.DifferenceWith: arity mismatch (3 vs 2)",
		func() { t3.DifferenceWith(t2) })
	assert.PanicsWithValue(t, "relations: Tuples.Equal: arity mismatch (3 vs 2)",
		func() { t3.Equal(t2) })
	assert.Panics(t, func() { NewTuples(-1) })
}
