// Package report owns how results are printed: herd7's text layout for
// litmus results (so herd's tools and habits carry over), one JSON object per
// line for machines (the format ../shared/tools/conformance reads), and the
// comparison of verdicts against an expected-results CSV.
package report
