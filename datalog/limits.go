package datalog

import "github.com/ptxmm/ptxmm/limits"

// The limits of what a model may be. Each is far beyond any real model and
// bounds the time and memory of loading one: loading is linear in the size
// of the text, and every pass over an expression recurses as deep as the
// expression.
const (
	// MaxFileBytes is the largest model file (or included file) read.
	MaxFileBytes = limits.MaxModelBytes
	// MaxIncludeDepth is the deepest chain of .include directives.
	MaxIncludeDepth = 100
	// MaxExprOperators is the most operators one expression may have.
	MaxExprOperators = 100_000
	// MaxExprNesting is the deepest nesting of parentheses, brackets and
	// domain()/range() in one expression.
	MaxExprNesting = 1_000
)
