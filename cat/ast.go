package cat

import "github.com/ptxmm/ptxmm/source"

// Model is a parsed cat file with its includes spliced in where they stand.
type Model struct {
	// Name is the model's name from its first line ("" when it has none).
	Name  string
	Stmts []Stmt
	// Files lists the files read, the main file first.
	Files []string
}

// Stmt is a top-level instruction of a cat model.
type Stmt interface {
	stmtNode()
	Position() source.Pos
}

// Binding is one "name = e" or "f(x, y) = e" of a let or let rec.
type Binding struct {
	Name string
	// Params is nil for a relation, and the formal parameters of a
	// function ("_" for an unused one).
	Params []string
	IsFunc bool
	Expr   Expr
	Pos    source.Pos
}

// Let is "let b1 and b2 ...": the bindings are evaluated in the scope
// before the let and added together.
type Let struct {
	Bindings []*Binding
	Pos      source.Pos
}

// LetRec is "let rec b1 and b2 ...": the least fixpoint of the bindings,
// which may refer to each other.
type LetRec struct {
	Bindings []*Binding
	Pos      source.Pos
}

// TestKind is the kind of a test.
type TestKind int

const (
	// TestAcyclic holds when the relation has no cycle.
	TestAcyclic TestKind = iota
	// TestIrreflexive holds when no event is related to itself.
	TestIrreflexive
	// TestEmpty holds when the relation is empty.
	TestEmpty
)

func (k TestKind) String() string {
	return [...]string{"acyclic", "irreflexive", "empty"}[k]
}

// TestMode says what a test's outcome means.
type TestMode int

const (
	// ModeCheck rejects the executions that fail the test.
	ModeCheck TestMode = iota
	// ModeFlag raises a flag on the consistent executions that pass it.
	ModeFlag
	// ModeUndefinedUnless makes the program undefined when a consistent
	// execution fails it.
	ModeUndefinedUnless
)

// Test is "[flag|undefined_unless] [~]kind e [as name]".
type Test struct {
	Mode    TestMode
	Negated bool // the ~ form: the test holds when kind(e) does not
	Kind    TestKind
	Expr    Expr
	Name    string // "" when the test has no "as name"
	Pos     source.Pos
}

// Show is "show e as name" (Expr set) or "show a, b" / "unshow a, b".
type Show struct {
	Unshow bool
	Names  []string
	Expr   Expr // show e as name: Names holds the one name
	Pos    source.Pos
}

func (*Let) stmtNode()    {}
func (*LetRec) stmtNode() {}
func (*Test) stmtNode()   {}
func (*Show) stmtNode()   {}

// Position returns where the statement starts.
func (s *Let) Position() source.Pos { return s.Pos }

// Position returns where the statement starts.
func (s *LetRec) Position() source.Pos { return s.Pos }

// Position returns where the statement starts.
func (s *Test) Position() source.Pos { return s.Pos }

// Position returns where the statement starts.
func (s *Show) Position() source.Pos { return s.Pos }

// Expr is a cat expression.
type Expr interface {
	exprNode()
	Position() source.Pos
}

// Var names a relation, a set or a function.
type Var struct {
	Name string
	Pos  source.Pos
}

// Universe is _.
type Universe struct{ Pos source.Pos }

// Empty is 0, the empty relation.
type Empty struct{ Pos source.Pos }

// BinOp is a binary operator.
type BinOp int

const (
	// OpUnion is |.
	OpUnion BinOp = iota
	// OpSeq is ;.
	OpSeq
	// OpDiff is \.
	OpDiff
	// OpInter is &.
	OpInter
	// OpProduct is * between two operands: the cartesian product.
	OpProduct
)

func (o BinOp) String() string { return [...]string{"|", ";", `\`, "&", "*"}[o] }

// Binary is "l op r".
type Binary struct {
	Op   BinOp
	L, R Expr
	Pos  source.Pos
}

// UnOp is a unary operator.
type UnOp int

const (
	// OpPlus is postfix +.
	OpPlus UnOp = iota
	// OpStar is postfix *.
	OpStar
	// OpOpt is postfix ?.
	OpOpt
	// OpInv is postfix ^-1.
	OpInv
	// OpCompl is prefix ~.
	OpCompl
	// OpIdent is [S].
	OpIdent
)

// Unary is a prefix, postfix or bracket operator applied to X.
type Unary struct {
	Op  UnOp
	X   Expr
	Pos source.Pos
}

// App applies a function to arguments: f(a, b), or f a.
type App struct {
	Fun  Expr
	Args []Expr
	Pos  source.Pos
}

func (*Var) exprNode()      {}
func (*Universe) exprNode() {}
func (*Empty) exprNode()    {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}
func (*App) exprNode()      {}

// Position returns where the expression starts.
func (e *Var) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Universe) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Empty) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Binary) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Unary) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *App) Position() source.Pos { return e.Pos }
