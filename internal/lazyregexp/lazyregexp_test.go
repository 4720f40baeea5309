package lazyregexp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	first := re()
	assert.Same(t, first, re(), "the same compiled expression on every call")
	assert.True(t, first.MatchString("aab"))
	assert.False(t, first.MatchString("b"))
}

func TestNewPanicsOnABadExpressionWhenUsed(t *testing.T) {
	re := New(`(`) // not compiled yet: no panic here
	assert.Panics(t, func() { re() })
}
