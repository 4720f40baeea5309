package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStrataBits(t *testing.T) {
	b := newStrataBits(130)
	for _, i := range []int{0, 63, 64, 129} {
		b.set(i)
	}
	b.unset(63)
	mask := newStrataBits(130)
	mask.set(64)
	mask.set(129)
	cases := []struct {
		name       string
		mask       strataBits
		from, want int
	}{
		{"first", nil, 0, 0},
		{"past an unset bit and across a word", nil, 1, 64},
		{"in the last word", nil, 65, 129},
		{"none left", nil, 130, -1},
		{"masked", mask, 0, 64},
		{"masked, from within the word", mask, 65, 129},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, b.nextIn(c.mask, c.from), c.name)
	}
	assert.True(t, b.has(129))
	assert.False(t, b.has(63))
	b.setAll(130)
	assert.True(t, b.has(63))
}
