package relations

import "fmt"

// sameN panics when two operands were built over different domains: the bit
// layouts would silently disagree, so continuing could only produce garbage.
func sameN(op string, a, b int) {
	if a != b {
		panic(fmt.Sprintf("relations: %s: domain size mismatch (n=%d vs n=%d)", op, a, b))
	}
}

// inDomain panics when an atom lies outside [0, n). Setting such a bit would
// either corrupt the neighbouring row or break the invariant that bits at
// and beyond n are zero.
func inDomain(op string, i, n int) {
	if uint(i) >= uint(n) {
		panic(fmt.Sprintf("relations: %s: atom %d out of domain [0, %d)", op, i, n))
	}
}
