package oraclecases

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCount(t *testing.T) {
	cases := []struct {
		env  string
		want int
	}{
		{"", 250},
		{"3000", 3000},
		{"0", 0},
	}
	for _, c := range cases {
		t.Setenv(Env, c.env)
		assert.Equal(t, c.want, Count(t, 250), "%s=%q", Env, c.env)
	}
}

// TestCountRejectsBadValues: a count that is not a whole number fails the
// test that asks, rather than running some default silently.
func TestCountRejectsBadValues(t *testing.T) {
	for _, env := range []string{"many", "-5", "1e3"} {
		t.Setenv(Env, env)
		failed := false
		tb := &recorder{TB: t, fatal: func() { failed = true }}
		func() {
			defer func() { _ = recover() }()
			Count(tb, 250)
		}()
		assert.True(t, failed, "%s=%q", Env, env)
	}
}

// recorder is a testing.TB whose Fatalf records the failure and stops the
// call (by panicking, which the test recovers) instead of failing the test.
type recorder struct {
	testing.TB
	fatal func()
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(string, ...any) {
	r.fatal()
	panic("fatal")
}
