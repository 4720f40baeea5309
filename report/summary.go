package report

import (
	"fmt"

	"github.com/ptxmm/ptxmm/checker"
)

// Summary counts the results of a run for its one-line summary: the
// tests, their Ok/No/Undef verdicts as the herd log prints them (a .test
// instance is Ok when every assert and permit holds), the tests that could
// not be checked, and those in which some consistent execution hangs.
type Summary struct {
	Tests, Ok, No, Undef, Errors, Hangs int
}

// Add counts one result.
func (s *Summary) Add(r *checker.Result) {
	s.Tests++
	if r.Err != nil {
		s.Errors++
		return
	}
	switch verdictOf(r) {
	case "Ok":
		s.Ok++
	case "No":
		s.No++
	case "Undef":
		s.Undef++
	}
	if r.Hangs > 0 {
		s.Hangs++
	}
}

// AddError counts a test, or a file, that could not be read.
func (s *Summary) AddError() {
	s.Tests++
	s.Errors++
}

// String is the summary: "157 tests: 94 Ok, 63 No, 0 Undef; 0 errors, 2 with hangs".
func (s Summary) String() string {
	return fmt.Sprintf("%s: %d Ok, %d No, %d Undef; %s, %d with hangs",
		plural(s.Tests, "test"), s.Ok, s.No, s.Undef, plural(s.Errors, "error"), s.Hangs)
}
