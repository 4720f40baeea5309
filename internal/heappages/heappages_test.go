package heappages

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAlign(t *testing.T) {
	cases := []struct{ n, up, down uintptr }{
		{0, 0, 0},
		{1, HugePage, 0},
		{HugePage - 1, HugePage, 0},
		{HugePage, HugePage, HugePage},
		{HugePage + 1, 2 * HugePage, HugePage},
	}
	for _, c := range cases {
		assert.Equal(t, c.up, alignUp(c.n, HugePage), "alignUp(%d)", c.n)
		assert.Equal(t, c.down, alignDown(c.n, HugePage), "alignDown(%d)", c.n)
	}
}
