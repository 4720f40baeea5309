// Package lazyregexp compiles a package's regular expressions on their
// first use instead of at start-up: compiling them in package initialisers
// cost every run of ptxmm (a check of one small test included) about 1.5 M
// instructions, for patterns most runs never use (herd logs, SASS listings,
// the server's names).
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same compiled expression on every call; it panics, as
// regexp.MustCompile does, if expr does not compile. Safe for concurrent
// use.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
