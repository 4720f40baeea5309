// Package oraclecases says how many random programs a property test draws
// (the tests that compare a fast path with its oracle: the search against
// full enumeration, awaits against unrolling, termination against brute
// force). go test draws a few hundred, in seconds; PTXMM_ORACLE_CASES asks
// for more before a change to a search lands. A test binary cannot import
// another package's test helpers, so the tests of several packages share
// this one.
package oraclecases

import (
	"os"
	"strconv"
	"testing"
)

// Env is the environment variable that sets the count.
const Env = "PTXMM_ORACLE_CASES"

// Count returns the number of cases PTXMM_ORACLE_CASES asks for, or def
// when it is not set. A value that is not a whole number fails tb.
func Count(tb testing.TB, def int) int {
	tb.Helper()
	s := os.Getenv(Env)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		tb.Fatalf("%s=%q: expected a whole number of cases", Env, s)
	}
	return n
}
