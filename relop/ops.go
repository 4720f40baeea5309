package relop

// BinOp is a binary relational operator.
type BinOp int

const (
	// Union is |.
	Union BinOp = iota
	// Seq is ; (composition).
	Seq
	// Diff is \.
	Diff
	// Inter is &.
	Inter
	// Product is * between two operands: the cartesian product of sets.
	Product
	// Add is cat's ++: a set with one more member.
	Add
)

func (o BinOp) String() string { return [...]string{"|", ";", `\`, "&", "*", "++"}[o] }

// UnOp is a unary relational operator.
type UnOp int

const (
	// Plus is postfix + (transitive closure).
	Plus UnOp = iota
	// Star is postfix * (reflexive-transitive closure).
	Star
	// Opt is postfix ? (reflexive closure).
	Opt
	// Inv is postfix ^-1 (inverse).
	Inv
	// Compl is prefix ~ (complement).
	Compl
	// Ident is [S], the identity on a set.
	Ident
	// Domain is domain(r).
	Domain
	// Range is range(r).
	Range
)

func (o UnOp) String() string {
	return [...]string{"+", "*", "?", "^-1", "~", "[]", "domain", "range"}[o]
}
