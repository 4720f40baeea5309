package relop

// Tokens walks a file's tokens, which end with an end-of-file token: it
// never moves past that one, and looking ahead beyond it finds it again.
type Tokens[T any] struct {
	Toks []T
	// I is the index of the next token.
	I int
}

// Peek returns the next token.
func (c *Tokens[T]) Peek() T { return c.Toks[c.I] }

// At returns the token n places ahead (the end-of-file token past the
// end).
func (c *Tokens[T]) At(n int) T {
	if c.I+n < len(c.Toks) {
		return c.Toks[c.I+n]
	}
	return c.Toks[len(c.Toks)-1]
}

// Next consumes and returns the next token.
func (c *Tokens[T]) Next() T {
	t := c.Toks[c.I]
	if c.I < len(c.Toks)-1 {
		c.I++
	}
	return t
}
