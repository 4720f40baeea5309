package rules

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRelSet(t *testing.T) {
	cases := []struct {
		name string
		n    int
		a, b []relID
	}{
		{"empty", 10, nil, nil},
		{"one word", 60, []relID{0, 5, 59}, []relID{5, 7}},
		{"across words", 200, []relID{1, 63, 64, 127}, []relID{128, 199}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := newRelSet(c.n), newRelSet(c.n)
			for _, r := range c.a {
				a.add(r)
			}
			for _, r := range c.b {
				b.add(r)
			}
			a.unionWith(b)
			want := slices.Sorted(slices.Values(append(append([]relID(nil), c.a...), c.b...)))
			want = slices.Compact(want)
			got := slices.Collect(a.all())
			assert.Equal(t, want, got, "members in increasing order")
			for r := relID(0); int(r) < c.n+70; r++ {
				assert.Equal(t, slices.Contains(want, r), a.has(r), "has(%d)", r)
			}
			var none relSet
			assert.False(t, none.has(3), "a nil set holds nothing")
		})
	}
}
