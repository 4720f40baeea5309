package tuplekey

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOf(t *testing.T) {
	tests := []struct {
		tuple []int
		want  string
	}{
		{nil, ""},
		{[]int{7}, "7"},
		{[]int{0, 12, 3}, "0,12,3"},
		{[]int{-1, 40}, "-1,40"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, Of(tc.tuple), "%v", tc.tuple)
	}
	// Names that tell tuples apart where their digits run together.
	assert.NotEqual(t, Of([]int{1, 23}), Of([]int{12, 3}))
	assert.NotEqual(t, Of([]int{1}), Of([]int{1, 0}))
}
